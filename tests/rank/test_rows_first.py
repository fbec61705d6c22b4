"""Rows against every column before any square sample (issue 49, item 3): the price of a step and the rank it
prints, against closed forms of the rule (``token.route._rows_first``, ``sweeps.atlas.plan.step_cost``)."""

from verify import NetworkSpec, draw_weights
from verify.model.embeddings import VocabularyEmbedding
from verify.rank.token.gram import TOKEN_PRIME, GramModel
from verify.sweeps.atlas.plan import step_cost


def _model():
    spec = NetworkSpec(depth=3, width=3)
    return GramModel(spec, draw_weights(spec, 0), VocabularyEmbedding(3, 2, 2, 1, 0), TOKEN_PRIME)


def test_the_step_price_counts_the_rows_taken_first_and_the_square():
    # V = 2, N = 16: 256 sequences a side; aim 60, k = 76.  Room for 76 rows against every column: k * 256.
    # Below it, r = (budget - 76^2) // 256 rows against every column beside the 76 x 76 square; no row: the square
    assert step_cost(2, 16, 13, True, 60, 76 * 256) == 76 * 256
    assert step_cost(2, 16, 13, True, 60, 76 * 256 - 1) == 76 * 76 + 53 * 256
    assert step_cost(2, 16, 13, True, 60, 76 * 76 + 255) == 76 * 76
    assert step_cost(2, 16, 13, True, 60, None) == 76 * 76


def test_the_price_is_the_work_the_sampler_does():
    from verify.rank.token.route import sequence_rank

    budget = 76 * 256 - 1  # 53 independent rows below the aim, then the square: no doubling fits
    _, _, evaluations = sequence_rank(_model(), 16, 60, budget=budget)
    assert evaluations == step_cost(2, 16, 13, True, 60, budget)


def test_the_printed_rank_is_the_larger_of_the_rows_and_the_square(monkeypatch):
    # the rows come back full (53 of 53, below the aim) and the square is made to lose everything (its rank 0):
    # the step must print the rows' 53, a certified lower bound either way, not the square's 0
    import verify.rank.token.route as route

    monkeypatch.setattr(route, "_rows_first", lambda model, tokens, k, aim, rng, budget: (53, False, 53 * 256))
    monkeypatch.setattr(route, "rank_mod_p", lambda matrix, p: 0)
    found, kept_all, evaluations = route.sequence_rank(_model(), 16, 60, budget=76 * 256 - 1)
    assert (found, kept_all, evaluations) == (53, False, 53 * 256 + 76 * 76)


def test_a_bound_row_reached_by_count_rows_claims_no_whole_matrix_rank(monkeypatch):
    # without positions, above COUNT_ROWS_FROM entries the row is reached by bound + 16 rows of the count matrix
    # (here forced at a small cell: bound 10, 26 of the 36 rows at N = 4): a certified lower bound, not the whole
    # matrix's rank, so rank_at_n stays empty and rank_route says count rows (e1's one meaning per field: the
    # certainty column of the rows-first branch is n_reached_certainty and rank_route now)
    import verify.sweeps.atlas.bound as bound_module
    from verify.sweeps.atlas.plan import Cell

    monkeypatch.setattr(bound_module, "COUNT_ROWS_FROM", 0)
    row = bound_module.bound_row(Cell("bound", 4, 6, 1, 0), 3_000_000)
    assert (row["bound"], row["counting_floor"], row["n_reached"]) == (10, 4, 4)
    assert (row["rank_at_n"], row["rank_route"], row["n_reached_certainty"]) == ("", "count rows", "certified")
    assert 10 <= row["rank_at_least"] <= 26


def test_the_bound_cells_rate_is_seconds_per_evaluation(monkeypatch):
    # calibrate_sequences times one side x side grid (after a warm-up): the seconds over side^2 evaluations
    import verify.rank.token.route as route
    import verify.sweeps.atlas.plan as plan

    ticks = iter([0.0, 2.5])
    monkeypatch.setattr(plan.time, "perf_counter", lambda: next(ticks))
    calls = []
    monkeypatch.setattr(route, "sequence_grid", lambda model, tokens, left, right: calls.append(left.shape))
    assert plan.calibrate_sequences(_model(), 4, side=50) == 2.5 / 2500
    assert calls == [(2, 2), (50, 2)]  # the warm-up, then the timed grid
