"""The routes issue 46 item 8 added to reach the coverage target: H at the positions by the closure (``hilbert``),
one computation shared by tasks of one key (``Recheck.later``), the token matrix without positions evaluated once per
multiset (large N), the count-rows cells' own route, and a stopped limit's line resting on its recomputation.  Each is
fed right values it must not contradict and wrong ones (one too high, one too low) it must contradict; expected values
come from other routes (the monomial matrices, brute force, the literal pass on every sequence)."""

from __future__ import annotations

import csv
import itertools
from pathlib import Path

import numpy as np

from special_files import write_csv
from verify.recheck import BEYOND, CONSISTENT, CONTRADICTED, RECOMPUTED, Recheck, arith, formulas, hilbert, recheck  # noqa: F401
from verify.recheck.cells import _count_rows_task
from verify.recheck.tokens import Cell, check_token_rank

ROOT = Path(__file__).resolve().parents[2]
P = 2**31 - 1


def _brute_hilbert(points, degree, p):
    """H(j) by the rank of every monomial of degree <= j at the points, Python integers and sympy's rank mod p."""
    from sympy import GF, Matrix
    from sympy.polys.matrices import DomainMatrix

    m = len(points[0])
    monomials = [a for d in range(degree + 1) for a in itertools.combinations_with_replacement(range(m), d)]
    rows = [[int(np.prod([pt[i] for i in a], dtype=object)) % p if a else 1 for a in monomials] for pt in points]
    return DomainMatrix.from_Matrix(Matrix(rows)).convert_to(GF(p)).rank()


def test_closure_hilbert_agrees_with_the_monomial_matrices_and_brute_force():
    for vocab, big_r, size, degree in ((2, 1, 5, 6), (3, 2, 3, 4), (4, 1, 2, 4), (3, 1, 4, 5), (2, 0, 6, 4)):
        pis = [arith.positional_coefficients(big_r, 0, j) for j in range(size)]
        points = formulas.side_points(vocab, pis)
        closure = hilbert.closure_hilbert(points, degree, P)
        assert closure == formulas.hilbert_at_positions(points, degree, P)
        assert closure == [_brute_hilbert(points, j, P) for j in range(degree + 1)]
    # four points of a plane in general position (docs): 1, 3, 4, 4; a line of 5 points: j + 1 up to 5
    assert hilbert.closure_hilbert([(0, 0), (1, 1), (1, 3), (2, 4)], 3, P) == [1, 3, 4, 4]
    assert hilbert.closure_hilbert([(t,) for t in range(5)], 6, P) == [1, 2, 3, 4, 5, 5, 5]


def test_closure_price_bounds_the_rows_it_eliminates():
    """The price counts at least every row the closure eliminates: sum of the caps on H plus m rows per point."""
    caps = [formulas.hilbert_cap(3, j, 6, 7) for j in range(40)]
    price = hilbert.closure_seconds(216, 40, caps, 4e9, 3e-7)
    rows = sum(min(c, 216) for c in caps) + 40 * 216
    assert price >= rows * 216 * (2 * 3e-7 + 216 / 4e9)
    assert hilbert.monomial_seconds(216, 40, 40, 4e9, 3e-7) is None  # too wide: the closure is used


def _eq74_by_monomials(cell, tokens):
    half, c = tokens // 2, formulas.layer_degree(cell.depth)
    pis = [arith.positional_coefficients(cell.positional_rank, cell.seed, j) for j in range(tokens)]
    h_b = formulas.hilbert_at_positions(formulas.side_points(cell.vocab, pis[half:]), c, cell.p)
    h_a = formulas.hilbert_at_positions(formulas.side_points(cell.vocab, pis[1:half]), c, cell.p)
    return formulas.eq74(cell.depth, cell.vocab, tokens, lambda j: h_b[j], lambda j: h_a[j])


def test_eq74_at_the_positions_by_the_closure_contradicts_one_off_and_keeps_the_right_value():
    cell = Cell(4, 4, 1, 4, 3, 3, 4, 0, 2**31, P)  # m = 10, C = 40: every monomial up to C is far too wide
    assert cell._side_route(3)[1] is hilbert.closure_hilbert
    right = _eq74_by_monomials(cell, 6)
    for stated, expect in ((right, RECOMPUTED), (right + 1, CONTRADICTED), (right - 1, CONTRADICTED)):
        rc = Recheck(60)
        check_token_rank(rc, "cell", cell, 6, 27, "certified exact", at_positions=stated)
        rc.run()
        line = next(f for f in rc.findings if f.value.startswith("eq. 7.4 at the positions"))
        assert line.status == expect, (stated, line.line())


def test_tasks_of_one_key_spend_the_budget_once():
    rc = Recheck(1.5)
    ran = []
    for name in ("a", "b"):
        rc.later("w", name, 1.0, lambda name=name: (ran.append(name), (RECOMPUTED, "ok"))[1], key="shared")
    rc.later("w", "c", 1.0, lambda: (RECOMPUTED, "ok"))
    rc.run()
    assert ran == ["a", "b"] and rc.spent == 1.0
    assert [f.status for f in rc.findings] == [RECOMPUTED, RECOMPUTED, BEYOND]


def test_heads_share_eq74_at_the_positions_and_its_price():
    one, two = Cell(3, 4, 1, 4, 3, 3, 2, 0, 2**31, P), Cell(3, 4, 2, 2, 3, 3, 2, 0, 2**31, P)
    assert one.hilbert_key(8) == two.hilbert_key(8) != one.hilbert_key(6)
    for other in (Cell(4, 4, 1, 4, 3, 3, 2, 0, 2**31, P), Cell(3, 4, 1, 4, 3, 3, 1, 0, 2**31, P),
                  Cell(3, 4, 1, 4, 3, 3, 2, 1, 2**31, P), Cell(3, 5, 1, 5, 4, 4, 2, 0, 2**31, P),
                  Cell(3, 4, 1, 4, 3, 3, 2, 0, 2**31, 2**31 - 19)):  # depth, R, seed, V, prime: each its own H
        assert other.hilbert_key(8) != one.hilbert_key(8)
    ranks = one.net.full_rank_seconds(8) + two.net.full_rank_seconds(8)
    rc = Recheck(ranks + one.hilbert_price(8) * 1.01)  # the two ranks and one H at the positions
    for cell in (one, two):
        check_token_rank(rc, "cell", cell, 8, 81, "certified exact", at_positions=_eq74_by_monomials(one, 8))
    rc.run()
    lines = [f for f in rc.findings if f.value.startswith("eq. 7.4 at the positions")]
    assert [f.status for f in lines] == [RECOMPUTED, RECOMPUTED]


def _literal_rank(cell, tokens):
    """The whole token matrix without positions, every sequence a || b evaluated by ``arith.forward_output``."""
    net = cell.net
    rows, cols = net.sides(tokens)
    pairs = np.concatenate([np.repeat(rows, len(cols), axis=0), np.tile(cols, (len(rows), 1))], axis=1)
    x = np.transpose(net.columns[pairs], (0, 2, 1)) % cell.p
    values = arith.forward_output(net.layers, x, cell.p, 0, 0).reshape(len(rows), len(cols))
    return arith.nmod_rank(values, cell.p)


def test_a_large_n_rank_without_positions_is_recomputed_and_one_off_is_contradicted():
    """(L = 4, V = 2, R = 0) at N = 80 costs its 160 multisets, not its 41 x 41 sequences of 80 tokens."""
    cell = Cell(4, 3, 1, 3, 2, 2, 0, 0, 2**31, P)
    assert cell.net.full_rank_seconds(80) < 1.0
    right = _literal_rank(Cell(4, 3, 1, 3, 2, 2, 0, 0, 2**31, P), 20)
    for tokens, rank, expect in ((20, right, RECOMPUTED), (20, right - 1, CONTRADICTED), (80, 41, RECOMPUTED),
                                 (80, 40, CONTRADICTED)):
        rc = Recheck(30)
        found, _ = check_token_rank(rc, "row", cell, tokens, rank)
        rc.run()
        assert found.status == expect, found.line()
    rc = Recheck(30)
    found, _ = check_token_rank(rc, "row", cell, 80, 42)  # one above the counting cap 41
    rc.run()
    assert found.status == CONTRADICTED


def test_count_rows_route_whole_matrix_and_own_rows():
    cell = Cell(1, 4, 1, 4, 3, 3, 0, 0, 2**31, P)  # L = 1: rank at most 3 (the derivative bound) < the cap 15
    right = _literal_rank(Cell(1, 4, 1, 4, 3, 3, 0, 0, 2**31, P), 8)
    assert right < formulas.count_cap(3, 8, False)
    for least, expect in ((right, RECOMPUTED), (right - 1, RECOMPUTED), (right + 1, CONTRADICTED)):
        rc = Recheck(30)
        line = _count_rows_task(rc, "cell", cell, 8, least)
        rc.run()
        assert line.status == expect, line.line()
        assert "whole count matrix" in line.detail
    # a budget below the whole matrix's price: the recheck's own rows (a lower bound, never a contradiction)
    whole, rows = cell.net.full_rank_seconds(8), cell.net.sample_seconds(8, right, True)
    assert rows < whole
    for least, expect in ((right, RECOMPUTED), (right + 1, BEYOND)):
        rc = Recheck((rows + whole) / 2)
        line = _count_rows_task(rc, "cell", cell, 8, least)
        rc.run()
        assert line.status == expect and "random rows" in line.detail, line.line()


def test_committed_count_rows_cells_are_priced_not_left_without_a_route():
    with open(ROOT / "results" / "n_positional_cells.csv", newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row.get("rank_route") == "count rows"]
    for row in rows:
        r, depth, heads = int(row["r"]), int(row["depth"]), int(row["heads"])
        cell = Cell(depth, r + 1, heads, (r + 1) // heads, r, r, 0, int(row["seed"]), 2**31, int(row["prime"]))
        rc = Recheck(0)
        line = _count_rows_task(rc, "cell", cell, int(row["n_reached"]), int(row["rank_at_least"]))
        rc.run()
        assert line.status == BEYOND and "priced at" in line.detail  # a route with a price, beyond a zero budget
        assert cell.net.sample_seconds(int(row["n_reached"]), int(row["rank_at_least"]), True) < 600


def test_a_stopped_limit_rests_on_its_recomputation(tmp_path):
    """The atlas's 'limit >= X' of a stopped limit route is recomputed only when its own recomputation is: at budget
    0 it is not recomputed."""
    with open(ROOT / "results" / "n_atlas.csv", newline="") as handle:
        reader = csv.DictReader(handle)
        rows = [row for row in reader if row["limit"].startswith(">= ") or
                (not row["limit"].strip() and row.get("limit_at_least", "").strip())][:1]
        fields = reader.fieldnames
    assert rows, "the committed atlas holds a stopped limit"
    path = write_csv(tmp_path / "atlas.csv", rows, fields)
    rc = recheck([str(path)], 0)
    line = next(f for f in rc.findings if f.value.startswith("limit >= ") and "recomputed" not in f.value)
    assert line.status != RECOMPUTED and any("recomputed" in n.value for n in line.needs)


def test_prices_are_conservative_on_a_small_case(tmp_path):
    """A recheck priced within its budget runs in about that time or less: over the tasks of a small slice of the
    committed atlas (a cell with positions at N up to 20, one without at N up to 80), the wall time is at most 3 x the
    priced time plus a second (the prices carry about 2x slack on a quiet machine; 3x allows for a shared one)."""
    with open(ROOT / "results" / "n_atlas.csv", newline="") as handle:
        reader = csv.DictReader(handle)
        rows = [row for row in reader if (row["depth"], row["vocab_r"], row["heads"], row["pos_rank"]) in
                (("3", "2", "1", "1"), ("4", "2", "1", "0"), ("2", "5", "1", "2"))]
        fields = reader.fieldnames
    path = write_csv(tmp_path / "atlas.csv", rows, fields)
    rc = recheck([str(path)], 4)
    wall = sum(w for _, _, w in rc.timings)
    assert rc.timings and rc.spent <= 4
    assert wall <= 3 * rc.spent + 1.0, (wall, rc.spent)


def test_a_settled_price_is_what_is_spent_and_never_more_than_the_price():
    rc = Recheck(2.0)
    rc.later("w", "a", 1.5, lambda: (RECOMPUTED, "ok"), settle=lambda: 0.25)
    rc.later("w", "b", 1.5, lambda: (RECOMPUTED, "ok"))
    rc.later("w", "c", 1.5, lambda: (RECOMPUTED, "ok"))
    rc.run()
    assert [f.status for f in rc.findings] == [RECOMPUTED, RECOMPUTED, BEYOND] and rc.spent == 1.75
    rc = Recheck(2.0)
    rc.later("w", "c", 1.5, lambda: (RECOMPUTED, "ok"), settle=lambda: 9.0)  # above its price: the price is spent
    rc.run()
    assert rc.spent == 1.5


def test_the_closure_settles_at_the_rows_it_eliminated():
    cell = Cell(3, 4, 1, 4, 3, 3, 4, 0, 2**31, P)
    assert cell._side_route(6)[1] is hilbert.closure_hilbert
    cell.eq74_at_positions(12)
    work: list = []
    pis = [arith.positional_coefficients(4, 0, j) for j in range(6, 12)]
    points = formulas.side_points(3, pis)
    hilbert.closure_hilbert(points, formulas.layer_degree(3), P, work)
    assert work and all(rows <= 729 * 11 for rows in work)
    side_b = hilbert.rows_seconds(sum(work), len(points), 6e9, 2.5e-7)
    assert side_b <= cell.hilbert_settled(12) < cell.hilbert_price(12)


def test_a_rank_meeting_eq74_at_the_positions_rests_on_that_line():
    """(L = 3, V = 2, R = 1) at N = 16: eq. 7.4 at the seeded positions is 70, the whole matrix's rank too (the
    committed atlas, recomputed by the whole matrix here).  With a budget that admits a square part but not the
    whole matrix, rank 70 is recomputed by 74 random rows against every column and eq. 7.4 at the positions (a
    bound at every weight there); with eq. 7.4 stated one off (so
    contradicted), the same rank is not recomputed; a rank one above eq. 7.4 is never recomputed, and one below it is
    contradicted (the rows reach 70 > 69, a rank labelled exact)."""
    cell = Cell(3, 3, 1, 3, 2, 2, 1, 0, 2**31, P)
    at = _eq74_by_monomials(cell, 16)
    assert cell.net.full_rank(16) == at  # the expected rank by another route: the whole matrix
    budget = cell.net.sample_seconds(16, at + 4, True) + cell.hilbert_price(16) + 0.01
    assert budget < cell.net.full_rank_seconds(16)
    for stated_at, rank, expect in ((at, at, RECOMPUTED), (at + 1, at, "not"), (at, at + 1, "not"),
                                    (at, at - 1, CONTRADICTED)):
        rc = Recheck(budget)
        found, _ = check_token_rank(rc, "row", cell, 16, rank, "probabilistic", None, at_positions=stated_at)
        rc.run()
        if expect == RECOMPUTED:
            assert found.status == RECOMPUTED and "eq. 7.4 at these positions" in found.detail, found.line()
        elif expect == CONTRADICTED:  # one below: the rows find more than a rank said to be exact
            assert found.status == CONTRADICTED, found.line()
        else:
            assert found.status != RECOMPUTED, found.line()


def test_rows_that_fall_short_fall_back_to_the_whole_matrix_within_the_budget():
    """(L = 1, V = 5, H = 2, R = 1) at N = 4: rank 6 meets eq. 7.4 with the caps, so 10 random rows against every
    column would prove it; where a draw of rows falls short (rank 5) the whole 25 x 25 matrix is computed from what is
    left of the budget (recomputed), and with nothing left the line stays beyond the budget, never recomputed."""
    cell = Cell(1, 6, 2, 3, 5, 5, 1, 0, 2**31, P)
    assert cell.proven(4)[0] == 6 == cell.net.full_rank(4)
    short = next(name for name in (f"row {i}" for i in range(50))
                 if cell.net.sampled_rank(4, 10, f"{name} N=4", True) < 6)
    rc = Recheck(30)
    found, _ = check_token_rank(rc, short, cell, 4, 6, "certified exact")
    rc.run()
    assert found.status == RECOMPUTED and "whole token matrix" in found.detail, found.line()
    rc = Recheck(cell.net.sample_seconds(4, 10, True) * 1.01)
    found, _ = check_token_rank(rc, short, cell, 4, 6, "certified exact")
    rc.run()
    assert found.status == BEYOND, found.line()


def test_a_rank_one_below_eq74_at_the_positions_is_not_taken_as_meeting_it(monkeypatch):
    """Rows that reach exactly a stated rank prove it only with a bound at every weight on the other side: eq. 7.4 at
    the positions bounds a rank that equals it, not one below it (rows reaching 69 say nothing of 70 hiding in the
    rest); nor does a stated eq. 7.4 bound it unless the rank's line rests on its recomputation (here the rows'
    route is priced above the whole matrix, so a square part is used and eq. 7.4 is stated one too high)."""
    cell = Cell(3, 3, 1, 3, 2, 2, 1, 0, 2**31, P)
    at = _eq74_by_monomials(cell, 16)
    monkeypatch.setattr(cell.net, "sampled_rank", lambda tokens, k, seed="", every_column=False: rank)
    budget = cell.net.sample_seconds(16, at + 4, True) + cell.hilbert_price(16) + 0.01
    rank = at - 1
    rc = Recheck(budget)
    found, _ = check_token_rank(rc, "row", cell, 16, rank, "probabilistic", None, at_positions=at)
    rc.run()
    assert found.status == CONSISTENT, found.line()
    full, real = cell.net.full_rank_seconds(16), cell.net.sample_seconds
    monkeypatch.setattr(cell.net, "sample_seconds", lambda tokens, k, every_column=False:
                        2 * full if every_column else real(tokens, k))
    rank = at + 1
    rc = Recheck(real(16, at + 5) + cell.hilbert_price(16) + 0.01)
    found, _ = check_token_rank(rc, "row", cell, 16, rank, "probabilistic", None, at_positions=at + 1)
    rc.run()
    assert found.status != RECOMPUTED, found.line()


def test_the_limit_is_priced_for_every_virtual_column():
    """The limit's price covers k^2 weighted passes over every virtual column ``virtual_columns`` builds (the V output
    vectors among them), counted here from the array it builds."""
    from verify.recheck import limit
    from verify.recheck.network import rank_seconds, seconds_per_sequence

    for depth, vocab, big_r in ((3, 3, 4), (2, 5, 2), (4, 2, 1)):
        cell = Cell(depth, vocab + 1, 1, vocab + 1, vocab, vocab, big_r, 0, 2**31, P)
        columns = limit.virtual_columns(cell)[0].shape[1]
        least = 40**2 * seconds_per_sequence(depth, vocab + 1, 1, vocab + 1, columns) + rank_seconds(40, 40)
        assert limit.limit_seconds(cell, 40) >= least + cell.net.setup_seconds()
