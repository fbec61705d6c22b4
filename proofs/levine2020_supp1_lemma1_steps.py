"""Lemma 1 and Corollary 3 of the first supplement (A.1) step by step, in exact integers: eq. 9 (the
vectorised layer) against the engine's forward pass, the inductive step Y^(L+1) = layer(Y^(L)), the
entries of M = A X X^T B^T, the head-index count H * (H^C(L))^3 = H^C(L+1), the degree 2C(L) + 1 = 3^L
of y in X that the C(L) summed positions give, and the symmetry in the positions other than i."""

import random

from verify.authoring import Cases, Claim, neighbour
from verify.authoring.network import NetworkSpec, draw_weights, forward, output_coordinate

from ._common import MAIN, Source

#: (L, d_x, H, N): L = 1 (the base case) to 3, H = 1 and H = d_x (d_a = 1) among them.
CASES = [(1, 2, 1, 2), (1, 2, 2, 3), (2, 2, 1, 3), (2, 3, 3, 3), (2, 4, 2, 4), (3, 2, 1, 3), (3, 2, 2, 2)]


def _mat(a, b):
    return [[sum(x * y for x, y in zip(row, col, strict=False)) for col in zip(*b, strict=False)] for row in a]


def _t(a):
    return [list(r) for r in zip(*a, strict=False)]


def eq9(layer, x):
    """Eq. 9: Y = sum_h W^{O,h} W^{V,h} X X^T (W^{K,h})^T W^{Q,h} X, with X holding the positions as columns."""
    gram = _mat(x, _t(x))
    out = [[0] * len(x[0]) for _ in x]
    for q, k, v, o in zip(layer.query, layer.key, layer.value, layer.output, strict=False):
        term = _mat(_mat(_mat(_mat(o, v), gram), _mat(_t(k), q)), x)
        out = [[a + b for a, b in zip(r1, r2, strict=False)] for r1, r2 in zip(out, term, strict=False)]
    return out


def _case(depth, width, heads, tokens, degree=None, head_power=1):
    spec = NetworkSpec(depth=depth, width=width, heads=heads, tokens=tokens)
    w = draw_weights(spec, 0)
    rng = random.Random(f"{depth}{width}{heads}{tokens}")
    inputs = [[rng.randint(-3, 3) for _ in range(width)] for _ in range(tokens)]
    x = _t(inputs)  # d_x x N
    for layer in w.layers:  # the inductive step: each layer applies eq. 9 to the previous Y
        x = eq9(layer, x)
    engine = forward(spec, w, inputs)
    if _t(x) != engine:
        return False, f"L={depth} d_x={width} H={heads}: eq. 9 iterated differs from the forward pass", \
            {"L": depth, "d_x": width, "H": heads, "failure": "eq. 9"}
    a = [[rng.randint(-3, 3) for _ in range(width)] for _ in range(2)]
    b = [[rng.randint(-3, 3) for _ in range(width)] for _ in range(2)]
    xs = _t(inputs)
    m = _mat(_mat(a, xs), _mat(_t(xs), _t(b)))
    if any(m[r1][r2] != sum(sum(p * q for p, q in zip(a[r1], inputs[j], strict=False))
                            * sum(p * q for p, q in zip(b[r2], inputs[j], strict=False))
                            for j in range(tokens)) for r1 in range(2) for r2 in range(2)):
        return False, "M entries differ from sum_j <A_r1, x^j><B_r2, x^j>", {"failure": "M entries"}
    c = (3**depth - 1) // 2
    want = 2 * c + 1 if degree is None else degree(depth)
    y = output_coordinate(spec, w, inputs)
    scaled = output_coordinate(spec, w, [[2 * v for v in col] for col in inputs])
    if y == 0 or scaled != 2**want * y:
        return False, f"L={depth}: y(2X) != 2^{want} y(X)", {"L": depth, "d_x": width, "H": heads, "failure": "degree"}
    if heads * (heads**c) ** 3 != heads ** ((3 ** (depth + 1) - 1) // 2) * head_power:
        return False, f"L={depth} H={heads}: head count", {"L": depth, "H": heads, "failure": "head count"}
    perm = inputs[:1] + inputs[1:][::-1]  # positions other than i = 0 reversed
    if output_coordinate(spec, w, perm) != y:
        return False, f"L={depth}: y changes when positions other than i are permuted", {"failure": "symmetry"}
    return True, f"L={depth} d_x={width} H={heads} N={tokens}: eq. 9 iterated = forward pass, degree {want}, " \
                 f"H^(3C+1) = H^C(L+1) heads, symmetric in j != i"


CLAIM = Claim(
    id="levine2020_supp1_lemma1_steps",
    source=Source(MAIN, "supplement A.1", "eq. 9, proof of Lemma 1 (eq. 10) and Corollary 3 (eq. 11)"),
    statement="Eq. 9 is eq. 3 vectorised and Y^(L+1) = layer(Y^(L)); M^(c,h)_{r1 r2} = sum_j <A_r1, x^j><B_r2, x^j>; "
              "the head indices h, h1, h2, h3 form [H]^[3C(L)+1 = C(L+1)]; y_p^i is a sum over C(L) positions of "
              "terms of degree 2 in each x^(j_c) and 1 in x^i (total degree 2C(L) + 1 = 3^L), symmetric in j != i.",
    domain="L = 1..3, d_x = 2..4, H = 1..d_x (d_a = 1 at H = d_x), N = 2..4, seed-0 integer weights and random "
           "integer inputs; the head count also at L = 1..3 for those H",
    reading="Corollary 3's structure is checked through what it implies for the function: its degree (a scaling "
            "test) and its symmetry in the summed positions; the forward pass (verify.model.network) is the engine's "
            "and eq. 9 here is independent matrix code.",
    checks=[Cases(CASES, _case, name="eq. 9, inductive step, M entries, degree, head count, symmetry",
                  perturb={"degree 2C(L) (the query's x^i not counted)": neighbour(_case, degree=lambda d: 3**d - 1)})],
)
