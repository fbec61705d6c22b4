"""Certificates for the lower bound sep >= ((floor((d_x - H)/2) over 3^(L-2))) (d_x > 3^L).

A certificate holds integer weights, integer template vectors for the two positions of N = 2
(A = {0}, B = {1}), a prime p, the claimed rank m and det mod p of the m x m grid matrix
M[i, j] = y_p^0(t^A_i, t^B_j).  det != 0 mod p means rank M = m over GF(p), so rank over Q >= m,
so sep >= m at these weights (Claim 2 of the first supplement) and almost everywhere (Claim 3).

The checker trusts nothing but the file: it rebuilds M with its own forward pass, the vectorised
eq. 3 Y = sum_h W^O W^V X X^T (W^K)^T W^Q X (supplement eq. 1) in nmod_mat arithmetic, recomputes
the determinant and the bound, and accepts only if every stored number agrees.  The certificate
also stores every coordinate of Y at the first grid point, which every weight moves (even those
y_p^0 never reads), so changing any weight, template, the prime, the rank or the determinant
changes something the checker recomputes.
"""

from __future__ import annotations

import random
from math import comb

import flint

from ..errors import InputError
from ..exact.fields import DEFAULT_PRIME
from ..model.spec import DEFAULT_WEIGHT_RANGE, NetworkSpec, draw_weights

__all__ = ["lower_bound", "certify", "check_certificate"]

FORMAT = "verify-separation-rank-certificate/1"


def lower_bound(depth: int, width: int, heads: int) -> int:
    """((floor((d_x - H)/2) over 3^(L-2))): the lower bound of Theorems 1-2 (first supplement B.2).

    >>> lower_bound(2, 10, 2)
    4
    """
    n, k = (width - heads) // 2, 3 ** (depth - 2)
    return comb(n + k - 1, k)


def _layers(weights_json: dict, p: int):
    """Per layer, per head, (W^O W^V, (W^K)^T W^Q) as nmod_mats built from the stored integers."""
    out = []
    for layer in weights_json["layers"]:
        heads = []
        for q, k, v, o in zip(layer["query"], layer["key"], layer["value"], layer["output"]):
            mat = lambda m: flint.nmod_mat([[x % p for x in row] for row in m], p)  # noqa: E731
            heads.append((mat(o) * mat(v), mat(k).transpose() * mat(q)))
        out.append(heads)
    return out


def _outputs(layers, columns, p: int, residual: bool) -> flint.nmod_mat:
    """Y (d_x x N) by eq. 3 applied to the columns of X, all mod p."""
    x = flint.nmod_mat([[c[a] % p for c in columns] for a in range(len(columns[0]))], p)
    for heads in layers:
        gram = x * x.transpose()
        y = None
        for ov, kq in heads:
            term = ov * gram * kq * x
            y = term if y is None else y + term
        x = y + x if residual else y
    return x


def _output(layers, columns, p: int, output: int, residual: bool) -> int:
    return int(_outputs(layers, columns, p, residual)[output, 0])


def _fingerprint(layers, rows, cols, p, residual) -> list[int]:
    """Every coordinate of Y at the first grid point: every stored weight moves some of them."""
    return [int(v) for v in _outputs(layers, [rows[0], cols[0]], p, residual).entries()]


def _grid(layers, rows, cols, p, output, residual) -> flint.nmod_mat:
    return flint.nmod_mat([[_output(layers, [a, b], p, output, residual) for b in cols] for a in rows], p)


def certify(spec: NetworkSpec, seed: int = 0, prime: int = DEFAULT_PRIME,
            weight_range: int = DEFAULT_WEIGHT_RANGE, tries: int = 3) -> dict:
    """Find and return a certificate for ``spec`` (d_x > 3^L, depth >= 2, H < d_x)."""
    if spec.depth < 2 or spec.width <= 3**spec.depth or spec.heads >= spec.width:
        raise InputError(f"certificates need depth >= 2, width > 3^depth = {3**spec.depth} and heads < width; "
                         f"e.g. --depth 2 --width 10 or --depth 3 --width 28")
    m = lower_bound(spec.depth, spec.width, spec.heads)
    weights = draw_weights(spec, seed, weight_range).as_dict()
    layers = _layers(weights, prime)
    for attempt in range(tries):
        rng = random.Random(f"verify-certificate:{seed}:{attempt}")
        draw = lambda: [rng.randint(-weight_range, weight_range) for _ in range(spec.width)]  # noqa: E731
        rows, cols = [draw() for _ in range(m)], [draw() for _ in range(m)]
        det = int(_grid(layers, rows, cols, prime, spec.output, spec.residual).det())
        if det:
            return {"format": FORMAT, "depth": spec.depth, "width": spec.width, "heads": spec.heads,
                    "attn_dim": spec.attn_dim, "residual": spec.residual, "tokens": 2, "partition_a": [0],
                    "position": 0, "output": spec.output, "prime": prime, "claimed_rank": m,
                    "bound": "multichoose(floor((width - heads)/2), 3^(depth - 2))",
                    "weights": weights, "templates_a": rows, "templates_b": cols,
                    "determinant_mod_prime": det,
                    "outputs_at_first_point": _fingerprint(layers, rows, cols, prime, spec.residual)}
    raise InputError(f"no nonsingular {m} x {m} grid matrix found in {tries} draws; try another --seed")


def check_certificate(data: dict) -> tuple[bool, str]:
    """Re-check a certificate from its own numbers; returns (holds, one-line reason)."""
    try:
        if data.get("format") != FORMAT:
            return False, "unknown certificate format"
        depth, width, heads, p = data["depth"], data["width"], data["heads"], data["prime"]
        if not (isinstance(p, int) and p > 2 and flint.fmpz(p).is_prime() and p < 2**64):
            return False, "the prime is not a word-size prime"
        if not (width > 3**depth and depth >= 2 and heads < width):
            return False, "the spec is outside the regime d_x > 3^L"
        m = data["claimed_rank"]
        if m != lower_bound(depth, width, heads):
            return False, f"claimed rank {m} is not the bound {lower_bound(depth, width, heads)}"
        rows, cols = data["templates_a"], data["templates_b"]
        if len(rows) != m or len(cols) != m or any(len(t) != width for t in rows + cols):
            return False, "templates do not form an m x m grid of width-d_x vectors"
        spec = NetworkSpec(depth=depth, width=width, heads=heads, attn_dim=data["attn_dim"],
                           residual=data["residual"], output=data["output"])
        layers = data["weights"]["layers"]
        if len(layers) != depth or any(len(layer["query"]) != heads for layer in layers):
            return False, "weights do not match depth and heads"
        built = _layers(data["weights"], p)
        if _fingerprint(built, rows, cols, p, spec.residual) != data["outputs_at_first_point"]:
            return False, "the recomputed outputs at the first grid point differ from the stored ones"
        det = int(_grid(built, rows, cols, p, spec.output, spec.residual).det())
        if det == 0:
            return False, "the grid matrix is singular mod p"
        if det != data["determinant_mod_prime"]:
            return False, "the recomputed determinant differs from the stored one"
        return True, f"sep >= {m} almost everywhere: the {m} x {m} grid matrix has determinant {det} mod {p}"
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return False, f"malformed certificate ({exc.__class__.__name__}: {exc})"
