"""The certificate's grid layer (verify.constructions.grid_eval, reducing through verify.exact.modp.floor_mod)
at exactly its largest sums: every residue p - 1, at the largest prime ``fits`` allows, against Python
integers (the layer of eq. 3 written out)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy

from verify.constructions.grid_eval import _layer, fits, largest_fitting_prime


def _reference(xs, heads, p, residual):
    """eq. 3 for N = 2 in Python integers: y_i = sum_h OV_h (x_1 c_1i + x_2 c_2i) (+ x_i), c_ji = x_j . KQ_h x_i."""
    out = []
    for i in range(2):
        rows = []
        for point in range(len(xs[0])):
            x = [[int(v) for v in xs[j][point]] for j in range(2)]
            total = [0] * len(x[0])
            for ov, kq in heads:
                kx = [sum(int(kq[r][k]) * x[i][k] for k in range(len(x[i]))) for r in range(len(kq))]
                c = [sum(a * b for a, b in zip(x[j], kx, strict=False)) for j in range(2)]
                z = [x[0][k] * c[0] + x[1][k] * c[1] for k in range(len(x[0]))]
                for r in range(len(ov)):
                    total[r] += sum(int(ov[r][k]) * z[k] for k in range(len(z)))
            if residual:
                total = [t + v for t, v in zip(total, x[i], strict=False)]
            rows.append([t % p for t in total])
        out.append(rows)
    return out


@pytest.mark.parametrize("width,heads", [(4, 2), (3, 1)])
def test_the_layer_at_its_largest_sums_and_the_largest_fitting_prime(width, heads):
    p = largest_fitting_prime(width, heads, ceiling=2**27)
    assert fits(width, heads, p) and not fits(width, heads, sympy.nextprime(p))  # the largest that fits
    # the largest sum the layer forms, a head total plus the residual, is below floor_mod's input bound
    assert heads * width * (p - 1) ** 2 + p - 1 < 2**53 - p
    xs = [np.full((3, width), p - 1.0), np.full((3, width), p - 1.0)]
    xs[1][1] = 1.0
    mats = [(np.full((width, width), p - 1.0), np.full((width, width), p - 1.0)) for _ in range(heads)]
    for residual in (False, True):
        got = _layer(xs, mats, p, residual)
        assert [g.astype(np.int64).tolist() for g in got] == _reference(xs, mats, p, residual)
