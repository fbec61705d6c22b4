"""A certificate of `verify certify` (docs/certificates.md): recomputed by the literal eq. 3 pass.

A nonzero determinant mod p of the m x m grid M[i, j] = y_p^0(t^A_i, t^B_j) at the file's own integer weights
proves rank M >= m over Q, hence sep >= m at those weights and almost everywhere ([L20] supplement Claims 2-3):
the weights need not be the seeded draw for the bound to hold.  The draw is provenance, checked apart.
"""

from __future__ import annotations

import numpy as np

from . import arith, formulas, network
from .core import CONTRADICTED, RECOMPUTED, Recheck

__all__ = ["check_certificate", "FORMAT"]

FORMAT = "verify-separation-rank-certificate/1"
BOUNDS = {"multichoose(floor((width - heads)/2), 3^(depth - 2))": "per-head",
          "multichoose(floor((width - 1)/2), 3^(depth - 2)), one-slot layout": "one-slot"}


def _layers(weights: dict) -> list:
    return [[(q, k, v, o) for q, k, v, o in zip(layer["query"], layer["key"], layer["value"], layer["output"],
                                                strict=False)]
            for layer in weights["layers"]]


def check_certificate(rc: Recheck, where: str, data: dict) -> None:
    """Every check of a certificate; the determinant is recomputed first and everything that rests on it (the
    claimed rank as a bound on sep) names it, so nothing about the certificate is recomputed without it."""
    import flint

    depth, width, heads, m, p = data["depth"], data["width"], data["heads"], data["claimed_rank"], data["prime"]
    residual = bool(data.get("residual"))
    layout = BOUNDS.get(data.get("bound"))
    t_a, t_b = data["templates_a"], data["templates_b"]
    rc.check(where, f"bound '{data.get('bound')}'", layout is not None, f"the {layout} layout's bound",
             "not the bound of a known layout (docs/certificates.md)")
    sizes = isinstance(m, int) and not isinstance(m, bool) and 1 <= m == len(t_a) == len(t_b)
    if not sizes:  # an impossible size proves nothing: no grid is built
        rc.add(where, f"claimed_rank {m}", CONTRADICTED, f"not the size of its grid ({len(t_a)} x {len(t_b)} "
               "templates): a determinant proves sep >= m only for an m x m grid, m >= 1")
        return
    upper, which = formulas.block_bound(depth, width, heads, data["attn_dim"], residual)
    if m > upper:
        rc.add(where, f"claimed_rank {m}", CONTRADICTED, f"above the proven upper bound {upper} ({which}, "
               "docs/mathematics.md §2/§6): no nonsingular grid of that size exists at any weight")
        return
    prime = isinstance(p, int) and 2 <= p < 2**64 and bool(flint.fmpz(p).is_prime())
    rc.check(where, f"prime {p}", prime, "a prime (FLINT's primality test)", "not a prime below 2^64")
    if not prime:  # nothing mod a composite proves a rank; FLINT's nmod_mat needs a prime
        rc.add(where, f"determinant_mod_prime {data['determinant_mod_prime']}", CONTRADICTED,
               "a determinant modulo a number that is not a prime proves no rank")
        return
    rc.check(where, "templates", all(len(t) == width for t in t_a + t_b),
             f"{m} vectors of length {width} a side", f"need {m} vectors of length {width} on each side")
    det = _determinant_task(rc, where, data, m, p, residual)
    if layout is not None:
        expect = formulas.multichoose(((width - heads) if layout == "per-head" else (width - 1)) // 2, 3 ** (depth - 2))
        rc.check(where, f"claimed_rank {m}", m == expect,
                 f"(({(width - heads if layout == 'per-head' else width - 1) // 2} over 3^{depth - 2})) "
                 "([L20] eqs. 6-7; docs/mathematics.md §8), and sep >= it by the determinant",
                 f"the bound is {expect}", needs=[det])
    weights = data["weights"]
    if layout == "per-head":
        seeded = arith.seeded_weights(depth, width, heads, data["attn_dim"], weights["seed"], weights["weight_range"])
        rc.check(where, f"weights (seed {weights['seed']})", _layers(weights) == [[tuple(h) for h in layer]
                                                                              for layer in seeded],
                 "exactly the seeded draw of that seed and range (provenance)",
                 "not the seeded draw of the stated seed and range")
    dtype = arith.dtype_for(p)
    first = np.array([[[t_a[0][a] % p, t_b[0][a] % p] for a in range(width)]], dtype=dtype)
    outputs = arith.forward_output(_layers(weights), first, p, data["output"], 0, residual, every=True)[0]
    fingerprint = [int(outputs[a, j]) for a in range(width) for j in range(2)]
    rc.check(where, "outputs_at_first_point", fingerprint == data["outputs_at_first_point"],
             "Y at the first grid point recomputed by the literal eq. 3 pass",
             "differs from Y recomputed at the first grid point")


def _determinant_task(rc: Recheck, where: str, data: dict, m: int, p: int, residual: bool):
    """The m x m grid's determinant mod p at the file's own weights, recomputed (FLINT) and compared."""
    layers, width = _layers(data["weights"]), data["width"]
    t_a, t_b, stated = data["templates_a"], data["templates_b"], data["determinant_mod_prime"]
    dtype = arith.dtype_for(p)
    price = network.continuous_grid_seconds(data["depth"], width, data["heads"], data["attn_dim"], 2, m) * (
        1 if dtype is np.int64 else 50)

    def run():
        rows = []
        for a in t_a:
            x = np.array([[[a[c] % p, b[c] % p] for c in range(width)] for b in t_b], dtype=dtype)
            rows.append(arith.forward_output(layers, x, p, data["output"], 0, residual))
        det = arith.nmod_det(rows, p)
        if det == 0:
            return CONTRADICTED, f"det of the {m} x {m} grid mod p recomputed (FLINT) is 0: singular, it proves nothing"
        if det == stated:
            return RECOMPUTED, f"det of the {m} x {m} grid mod p recomputed (FLINT): nonzero, so sep >= {m}"
        return CONTRADICTED, f"det of the {m} x {m} grid mod p is {det}"
    return rc.later(where, f"determinant_mod_prime {stated}", price, run)
