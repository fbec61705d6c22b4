"""Lemma 2 of the revised supplement, step by step: eq. 1 is the network's layer, eq. 10 is eq. 1 with
every index inside the matrix it indexes, and the count of eq. 10's summed terms."""

import random
from functools import lru_cache

from verify.authoring import Cases, Claim, RankBound, neighbour
from verify.authoring.network import NetworkSpec, Weights, draw_weights, forward

from ._common import REVISED, H, N, Source, d_x

#: (d_x, H, N), smallest first: H = 1, H = d_x and a proper divisor; N = 2 and 3.
CASES = sorted(((w, h, n) for w in (1, 2, 3, 4, 6) for h in range(1, w + 1) if w % h == 0 for n in (2, 3)
                if w < 6 or n == 2),
               key=lambda c: (c[0] * c[2], c))


@lru_cache(maxsize=None)
def _setup(width, heads, tokens):
    spec = NetworkSpec(depth=1, width=width, heads=heads)
    weights = draw_weights(spec, seed=width * 100 + heads * 10 + tokens)
    rng = random.Random(f"lemma2:{width}:{heads}:{tokens}")
    g = [[rng.randint(-4, 4) for _ in range(tokens)] for _ in range(width)]  # G: d_x x N, column j = g^j
    return spec, weights.layers[0], g


def _matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]


def _transpose(a):
    return [list(r) for r in zip(*a, strict=False)]


def eq1(layer, g):
    """Y = sum_h W^{O,h} W^{V,h} G G^T (W^{K,h})^T W^{Q,h} G (eq. 1)."""
    total = None
    gram = _matmul(g, _transpose(g))
    for q, k, v, o in zip(layer.query, layer.key, layer.value, layer.output, strict=False):
        term = _matmul(_matmul(_matmul(_matmul(o, v), gram), _matmul(_transpose(k), q)), g)
        total = term if total is None else [[a + b for a, b in zip(r, s, strict=False)]
                                            for r, s in zip(total, term, strict=False)]
    return total


def eq10(layer, g, width, heads, tokens, p, i):
    """Eq. 10 with the printed ranges: a1, a5 in [d_x/H], a2, a4, a6 in [d_x], j in [N]; returns (value, terms).

    Indexing outside a matrix raises IndexError, which the check reports.
    """
    d_a = width // heads
    value, terms = 0, 0
    for h in range(heads):
        wo, wv, wk, wq = layer.output[h], layer.value[h], layer.key[h], layer.query[h]
        for a1 in range(d_a):
            for a2 in range(width):
                for j in range(tokens):
                    for a4 in range(width):
                        for a5 in range(d_a):
                            for a6 in range(width):
                                value += (wo[p][a1] * wv[a1][a2] * g[a2][j] * g[a4][j] * wk[a5][a4] * wq[a5][a6]
                                          * g[a6][i])
                                terms += 1
    return value, terms


def _eq1_is_layer(width, heads, tokens):
    spec, layer, g = _setup(width, heads, tokens)
    engine = forward(spec, Weights((layer,), 0, 0), [list(col) for col in zip(*g, strict=False)])
    matrix = eq1(layer, g)
    ok = all(engine[j][p] == matrix[p][j] for j in range(tokens) for p in range(width))
    return ok, f"d_x={width} H={heads} N={tokens}: eq. 1 {'=' if ok else '!='} the network layer"


@lru_cache(maxsize=None)
def _eq10_is_eq1(width, heads, tokens):
    spec, layer, g = _setup(width, heads, tokens)
    matrix = eq1(layer, g)
    try:
        ok = all(eq10(layer, g, width, heads, tokens, p, i)[0] == matrix[p][i]
                 for p in range(width) for i in range(tokens))
    except IndexError:
        return False, f"d_x={width} H={heads} N={tokens}: an index of eq. 10 leaves its matrix", \
            {"d_x": width, "H": heads, "N": tokens}
    return ok, f"d_x={width} H={heads} N={tokens}: eq. 10 {'=' if ok else '!='} eq. 1 at every (p, i)"


def _count(width, heads, tokens, stated):
    _, layer, g = _setup(width, heads, tokens)
    terms = eq10(layer, g, width, heads, tokens, 0, 0)[1]
    want = stated(width, heads, tokens)
    ok = terms == want
    return ok, f"d_x={width} H={heads} N={tokens}: {terms} summed terms, stated {want}", \
        (None if ok else {"d_x": width, "H": heads, "N": tokens, "terms": terms, "stated": want})


def _printed_count(width, heads, tokens):
    return _count(width, heads, tokens, lambda w, h, n: n * w**4 // h)


def _corrected_count(width, heads, tokens):
    return _count(width, heads, tokens, lambda w, h, n: n * w**5 // h)


def _grouping(width, heads, tokens):
    """y_p^i = sum_{j, a2, a4} G_{a2 j} G_{a4 j} Z_{a2 a4}, Z = sum_{a6} c_{a2 a4 a6} G_{a6 i}: N d_x^2 terms of
    sep <= K^2 (d_x K), so sep <= N d_x^3 K^3 <= N d_x^4 K^3 / H (H <= d_x), with equality iff H = d_x."""
    spec, layer, g = _setup(width, heads, tokens)
    matrix = eq1(layer, g)
    coef = [[[[0] * width for _ in range(width)] for _ in range(width)] for _ in range(width)]  # c[p][a2][a4][a6]
    for q, k, v, o in zip(layer.query, layer.key, layer.value, layer.output, strict=False):
        ov, kq = _matmul(o, v), _matmul(_transpose(k), q)
        for p in range(width):
            for a2 in range(width):
                for a4 in range(width):
                    for a6 in range(width):
                        coef[p][a2][a4][a6] += ov[p][a2] * kq[a4][a6]
    ok = all(sum(g[a2][j] * g[a4][j] * sum(coef[p][a2][a4][a6] * g[a6][i] for a6 in range(width))
                 for j in range(tokens) for a2 in range(width) for a4 in range(width)) == matrix[p][i]
             for p in range(width) for i in range(tokens))
    bound_ok = tokens * width**3 * heads <= tokens * width**4 and ((heads == width) == (tokens * width**3 * heads
                                                                                        == tokens * width**4))
    return ok and bound_ok, f"d_x={width} H={heads} N={tokens}: grouping {'exact' if ok else 'WRONG'}, " \
                            f"N d_x^3 = {tokens * width**3} <= N d_x^4/H = {tokens * width**4 // heads}"


CLAIM = Claim(
    id="levine2020_revised_lemma2_term_count",
    source=Source(REVISED, "A.4 (residual connections)", "eq. 1 and proof of Lemma 2 (eq. 10 and its term count)"),
    statement="Eq. 1 is the layer of eq. 3; eq. 10 writes it with a1, a5 in [d_x/H], a2, a4, a6 in [d_x], j in [N]; "
              "'multiplying the number of summed terms by K^3' gives N d_x^4 K^3 / H.",
    formulas={"terms_stated": N * d_x**4 / H, "terms_of_eq10": N * d_x**5 / H},
    domain="d_x in {1, 2, 3, 4, 6}, every H dividing d_x (H = 1 and H = d_x included), N in {2, 3} (N = 2 at d_x = 6); "
           "random integer weights (the engine's draw) and inputs; exact integers",
    reading="W^{O,h} is d_x x d_a and W^{Q,K,V,h} are d_a x d_x, d_a = d_x/H (the engine's layout); G holds the "
            "inputs.",
    checks=[Cases(CASES, _eq1_is_layer, name="eq. 1 = the engine's layer (eq. 3)"),
            Cases(CASES, _eq10_is_eq1, name="eq. 10 = eq. 1, every index inside its matrix"),
            Cases(CASES, _printed_count, name="eq. 10 has N d_x^4 / H summed terms")],
    expected="erratum",
    corrected_statement="Eq. 10 has H (d_x/H)^2 d_x^3 N = N d_x^5 / H summed terms (twice the stated count already at "
                        "d_x = 2, H = 1), so the proof as written gives N d_x^5 K^3 / H.  Lemma 2's bound still "
                        "holds: grouping the sums as sum_{j,a2,a4} G_{a2 j} G_{a4 j} (sum_{a6} c G_{a6 i}) gives "
                        "N d_x^2 terms of sep <= d_x K^3, i.e. N d_x^3 K^3 <= N d_x^4 K^3 / H (equal iff H = d_x); "
                        "the first layer's exact ranks obey N d_x^3.",
    corrected_checks=[Cases(CASES, _eq10_is_eq1, name="eq. 10 = eq. 1, every index inside its matrix"),
                      Cases(CASES, _corrected_count, name="eq. 10 has N d_x^5 / H summed terms",
                            perturb={"the count + 1 (its neighbour)":
                                     neighbour(_count, claim="N d_x^5 / H",
                                               stated=lambda w_, h_, n_: n_ * w_**5 // h_ + 1)}),
                      Cases(CASES, _grouping, name="regrouped sum is exact and N d_x^3 <= N d_x^4 / H"),
                      RankBound(N * d_x**3, "upper", "sep", condition=lambda s: s.depth == 1,
                                name="first-layer exact ranks <= N d_x^3 (K = 1)")],
)
