"""The first-layer kernel bound (B3, docs/mathematics.md §6): Lemma K on the network itself (sympy, no
engine code), the closed form against a maximum matching of its zero pattern, and the bound against
exact ranks of specs it was not derived from."""

import itertools
import random

import flint
import networkx as nx
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from verify import Field, NetworkSpec, draw_weights, separation_rank
from verify.rank.bound import derivative_bound, first_layer_kernel, kernel_graded_bounds, one_head_depth3_points


def _sym_basis(d):
    """Basis E_(a,b) of the symmetric d x d matrices."""
    out = []
    for a in range(d):
        for b in range(a, d):
            e = sympy.zeros(d, d)
            e[a, b] = e[b, a] = 1
            out.append(e)
    return out


def _first_layer_forms(layer, d):
    """The linear map Lambda(S) = (W^V_h S W^K_h^T)_h as a matrix on the coordinates of Sym_d."""
    columns = []
    for e in _sym_basis(d):
        values = []
        for v, k in zip(layer.value, layer.key, strict=False):
            values.extend(sympy.Matrix(v) * e * sympy.Matrix(k).T)
        columns.append(values)
    return sympy.Matrix(columns).T


def _q_along(spec, weights, s):
    """q(S) = F(S)^T e_p straight from eq. 3's weights: T = sum_h W^O W^V S W^K^T W^Q, S_l = T S_{l-1} T^T."""
    f = sympy.eye(spec.width)
    for layer in weights.layers:
        t = sympy.zeros(spec.width, spec.width)
        for q, k, v, o in zip(layer.query, layer.key, layer.value, layer.output, strict=False):
            t += sympy.Matrix(o) * sympy.Matrix(v) * s * sympy.Matrix(k).T * sympy.Matrix(q)
        f = t * f
        s = (t * s * t.T).expand()
    return [sympy.expand(x) for x in f.row(spec.output)]


@pytest.mark.parametrize("depth,width,heads", [(2, 2, 2), (3, 2, 2), (2, 3, 3), (2, 4, 2), (2, 4, 4)])
def test_lemma_k_q_has_degree_at_most_c_of_l_minus_1_along_the_first_layer_kernel(depth, width, heads):
    """Along S0 + sum t_j E_j with E_j in ker Lambda, q has total degree <= C(L-1) in t, while along a
    direction outside the kernel it has the full degree C(L): the kernel is what (B3) counts."""
    spec = NetworkSpec(depth=depth, width=width, heads=heads)
    weights = draw_weights(spec, seed=5, weight_range=50)
    kernel = _first_layer_forms(weights.layers[0], width).nullspace()
    assert len(kernel) >= first_layer_kernel(width * (width + 1) // 2, heads, spec.attn_dim) > 0
    basis = _sym_basis(width)
    directions = [sum((c * e for c, e in zip(vec, basis, strict=False)), sympy.zeros(width, width)) for vec in kernel]
    ts = sympy.symbols(f"t0:{len(directions)}")
    start = sympy.Matrix(width, width, lambda a, b: 3 * (a + 1) ** 2 + 5 * (b + 1) ** 2 + 7 * a * b - 2)
    line = start + sum((t * e for t, e in zip(ts, directions, strict=False)), sympy.zeros(width, width))
    degrees = [sympy.Poly(x, *ts).total_degree() for x in _q_along(spec, weights, line) if x != 0]
    assert degrees and max(degrees) <= (3 ** (depth - 1) - 1) // 2
    u = sympy.Symbol("u")
    across = sympy.Matrix(width, width, lambda a, b: (a + b + 1) ** 3 - 4 * a * b + 1)  # q(across) != 0
    generic = [sympy.Poly(x, u).degree() for x in _q_along(spec, weights, start + u * across) if x != 0]
    assert max(generic) == spec.layer_degree


def _level_pattern_term_rank(nvars, kernel, tail, top, comps, a):
    """Largest rank a block with (B3)'s zero pattern can have: rows alpha = (alpha'', alpha') with
    |alpha| = a, columns (component, beta) with |beta| = top - a, allowed iff |alpha''| + |beta''| <= tail,
    by brute-force enumeration and a maximum bipartite matching (Konig)."""
    def monomials(degree):
        return [e for e in itertools.product(range(degree + 1), repeat=nvars) if sum(e) == degree]
    level = lambda e: sum(e[:kernel])  # noqa: E731  the first ``kernel`` variables span K
    rows = [("r", e) for e in monomials(a)]
    cols = [("c", c, e) for c in range(comps) for e in monomials(top - a)]
    graph = nx.Graph()
    graph.add_nodes_from(rows + cols)
    graph.add_edges_from((r, c) for r in rows for c in cols if level(r[1]) + level(c[2]) <= tail)
    return len(nx.bipartite.hopcroft_karp_matching(graph, top_nodes=rows)) // 2


@settings(max_examples=40, deadline=None)
@given(nvars=st.integers(1, 4), data=st.data())
def test_b3_is_the_term_rank_of_the_kernel_level_pattern(nvars, data):
    """The min over t in (B3) against a matching on the explicit pattern (no formula shared)."""
    kernel = data.draw(st.integers(0, nvars - 1))
    top = data.draw(st.integers(0, 5))
    tail = data.draw(st.integers(0, top))
    comps = data.draw(st.integers(1, 3))
    bounds = kernel_graded_bounds(nvars, kernel, tail, top, comps)
    assert bounds == [_level_pattern_term_rank(nvars, kernel, tail, top, comps, a) for a in range(top + 1)]


@pytest.mark.parametrize("depth,width,heads", [(2, 5, 5), (2, 6, 2), (2, 6, 3), (2, 6, 6), (4, 2, 2)])
def test_exact_ranks_meet_b3_block_by_block_on_specs_it_was_not_derived_from(depth, width, heads):
    """Widths 5 and 6 and depth 4 were not looked at when (B3) was derived: every degree block meets its
    bound, so the engine certifies the rank exactly (probability 0) where (B1) left a gap."""
    spec = NetworkSpec(depth=depth, width=width, heads=heads)
    out = separation_rank(spec, "reduced").as_dict()
    assert [b["rank"] for b in out["blocks"]] == [b["upper_bound"] for b in out["blocks"]]
    assert out["rank"] == out["upper_bound"] == derivative_bound(spec).total
    assert out["certified_exact"] is True and out["probability_bound"] == 0
    assert out["upper_bound_kind"] == "kernel-graded degree blocks"
    assert out["upper_bound"] < sum(min(b["rows"], b["cols"]) for b in out["blocks"])  # tighter than (B1)


@pytest.mark.parametrize("depth,width,heads,attn_dim,seed", [(2, 4, 2, 1, 0), (2, 4, 1, 2, 1), (2, 3, 2, 1, 2),
                                                             (3, 2, 1, 1, 3), (2, 4, 3, 1, 4), (3, 3, 2, 1, 5)])
def test_b3_holds_where_it_is_not_reached(depth, width, heads, attn_dim, seed):
    """An explicit d_a with H d_a < d: the components are fewer and the kernel larger; the bound must
    still hold block by block (it is not tight there)."""
    spec = NetworkSpec(depth=depth, width=width, heads=heads, attn_dim=attn_dim)
    out = separation_rank(spec, "reduced", seed=seed).as_dict()
    assert all(b["rank"] <= b["upper_bound"] for b in out["blocks"])
    assert out["rank"] <= out["upper_bound"] == derivative_bound(spec).total


def test_b3_totals_equal_the_stored_exact_ranks_of_the_long_runs():
    """results/reach.csv holds exact ranks computed before (B3) existed (two runs each, probability
    <= 5.7e-12): depth 5 width 2 two heads, depth 3 width 4 two and four heads.  One head has no
    kernel (k = 0): its bound is (B4), 31,460 - 4, the rank stored beside (B1) = 31,460."""
    assert derivative_bound(NetworkSpec(depth=5, width=2, heads=2)).total == 102_746
    assert derivative_bound(NetworkSpec(depth=3, width=4, heads=2)).total == 31_095
    assert derivative_bound(NetworkSpec(depth=3, width=4, heads=4)).total == 16_335
    one = derivative_bound(NetworkSpec(depth=3, width=4, heads=1))
    assert one.total == 31_456 and one.kind == "degree blocks less the one-head base points"


def test_deep_specs_fall_back_to_b1_and_stay_cheap():
    """Above KERNEL_WORK_CAP the count is (B1) with min(d, H d_a) components: valid, and computed in
    closed form."""
    deep = derivative_bound(NetworkSpec(depth=9, width=2, heads=2))
    assert deep.kind == "degree blocks" and deep.total > derivative_bound(NetworkSpec(depth=7, width=2, heads=2)).total


# --- (B4): one head, depth 3 -------------------------------------------------------------------

P = 2**31 - 1


def _mat(rows, p=P):
    return [[flint.nmod_poly([x % p], p) for x in row] for row in rows]


def _mul(a, b, p=P):
    zero = flint.nmod_poly([], p)
    return [[sum((a[i][k] * b[k][j] for k in range(len(b))), zero) for j in range(len(b[0]))] for i in range(len(a))]


def _tr(a):
    return [list(r) for r in zip(*a, strict=False)]


def _order_of_vanishing(width, break_condition=None, seed=0):
    """t-adic order of q(E + t X) at E = v v^T, v = e_0, for one-head maps A_l, B_l (any matrices)
    adjusted so that v^T B_1 v = 0, w^T B_2 w = 0 (w = A_1 v) and e_0^T A_3 A_2 w = 0; computed
    straight from S_l = G_l S_{l-1} G_l^T, G_l = A_l S_{l-1} B_l over GF(2^31 - 1)[t]."""
    rng = random.Random(f"lemma-v:{width}:{seed}")
    rand = lambda: [[rng.randrange(P) for _ in range(width)] for _ in range(width)]  # noqa: E731
    a1, a2, a3, b1, b2, b3 = (rand() for _ in range(6))
    if break_condition != 1:
        b1[0][0] = 0
    w = [a1[i][0] for i in range(width)]
    if break_condition != 2:
        rest = sum(w[i] * b2[i][j] * w[j] for i in range(width) for j in range(width)) - w[0] * b2[0][0] * w[0]
        b2[0][0] = -rest * pow(w[0] * w[0], -1, P) % P
    z = [sum(a2[i][j] * w[j] for j in range(width)) % P for i in range(width)]
    if break_condition != 3:
        a3[0][0] = -sum(a3[0][j] * z[j] for j in range(1, width)) * pow(z[0], -1, P) % P
    x = rand()
    s = [[flint.nmod_poly([int(i == j == 0), (x[i][j] + x[j][i]) % P], P) for j in range(width)] for i in range(width)]
    f = _mat([[int(i == j) for j in range(width)] for i in range(width)])
    for a, b in ((a1, b1), (a2, b2), (a3, b3)):
        g = _mul(_mul(_mat(a), s), _mat(b))
        f, s = _mul(g, f), _mul(_mul(g, s), _tr(g))
    q = [c for c in f[0] if c != 0]
    assert q
    return min(next(k for k, c in enumerate(poly.coeffs()) if c != 0) for poly in q)


@pytest.mark.parametrize("width", [2, 3, 4, 5])
def test_lemma_v_q_vanishes_to_order_7_at_the_one_head_base_points(width):
    """Lemma V at every width (the points exist for generic weights only from width 4 on, but the
    vanishing holds wherever the three conditions do); each condition is needed."""
    assert _order_of_vanishing(width) >= 7
    assert _order_of_vanishing(width, seed=1) >= 7
    for broken in (1, 2, 3):
        assert _order_of_vanishing(width, break_condition=broken) < 7


@pytest.mark.parametrize("width", [2, 3, 4, 5])
def test_b4_point_count_is_the_hilbert_function_of_two_quadrics(width):
    """h = dim R_14 - dim(Q_1 R_12 + Q_2 R_12) for two random quadrics in N + 1 = width - 1 variables,
    by linear algebra over GF(p) (width 4: two conics meet in 4 points)."""
    nv = width - 1
    rng = random.Random(width)

    def monomials(deg):
        return [e for e in itertools.product(range(deg + 1), repeat=nv) if sum(e) == deg]
    quads = [{e: rng.randrange(P) for e in monomials(2)} for _ in range(2)]
    target = {e: i for i, e in enumerate(monomials(14))}
    rows = []
    for quad in quads:
        for m in monomials(12):
            row = [0] * len(target)
            for e, c in quad.items():
                row[target[tuple(u + v for u, v in zip(e, m, strict=False))]] = c
            rows.append(row)
    rank = flint.nmod_mat(len(rows), len(target), [c for r in rows for c in r], P).rank()
    assert one_head_depth3_points(width) == len(target) - rank


def test_b4_lowers_only_block_7_and_only_for_one_full_head_at_depth_3():
    b = derivative_bound(NetworkSpec(depth=3, width=4))
    assert b.total == 31_456 and b.blocks[7] == (11_440, 20_020, 11_436)
    assert all(most == min(rows, cols) for a, (rows, cols, most) in enumerate(b.blocks) if a != 7)
    assert derivative_bound(NetworkSpec(depth=3, width=3)).total == 3_102  # width 3: no base points
    deeper = derivative_bound(NetworkSpec(depth=4, width=4))  # proven at depth 3 only
    assert deeper.kind == "degree blocks" and deeper.total == sum(min(r, c) for r, c, _ in deeper.blocks)
    assert derivative_bound(NetworkSpec(depth=3, width=4, heads=1, attn_dim=3)).kind != ("degree blocks less the "
         "one-head base points")


@pytest.mark.slow
def test_depth_3_width_4_one_head_is_certified_exact_at_31456():
    """The exact rank (computed before (B4), two runs, results/reach.csv) meets (B4) block by block."""
    out = separation_rank(NetworkSpec(depth=3, width=4), "reduced", field=Field(8388593), seed=3).as_dict()
    assert out["blocks"][7]["rank"] == out["blocks"][7]["upper_bound"] == 11_436
    assert out["rank"] == out["upper_bound"] == 31_456 and out["certified_exact"] is True
