"""The probe's words pinned to its numbers (issue 35): every sentence ``verify probe-n`` prints is checked
against the rows by ``check_summary``, which recomputes each fact on its own (counting caps and Corollary
1's bound in closed form, the stop rule, the final run, the exceptions); the rows themselves are pinned by
an enumeration of token sequences through the literal forward pass (``output_coordinate``, eq. 4), never by
the probe's own output."""

from __future__ import annotations

import json
import math
import re
from itertools import combinations_with_replacement, product

import numpy as np
import pytest

from verify import DEFAULT_PRIME, Field, NetworkSpec, draw_weights
from verify.cli.main import main
from verify.model.embeddings import VocabularyEmbedding
from verify.model.network import output_coordinate
from verify.rank.bound import corollary1_lower_bound, lemma7_lower_bound
from verify.rank.certainty import format_bound
from verify.rank.token.gram import TOKEN_PRIME
from verify.report.probe_summary import probe_summary
from verify.sweeps.probe import probe_tokens

GF31 = Field(TOKEN_PRIME)


# --- independent routes -------------------------------------------------------------------------------

def multichoose(n: int, k: int) -> int:
    """((n over k)) = binom(n + k - 1, k), counted: the multisets of size k from n kinds."""
    return sum(1 for _ in combinations_with_replacement(range(n), k))


def eq14(depth: int, rank: int, heads: int) -> int | None:
    """Corollary 1's bound ((floor((r - H)/2) over 3^(L-2))) (vocabulary paper, eq. 14 with footnote 3's floor)."""
    if depth < 2 or rank <= heads:
        return None
    half = (rank - heads) // 2  # floor for r - H > 0
    return multichoose(half, 3 ** (depth - 2)) if half else 0


def count_cap(vocab: int, tokens: int, positional: bool) -> int:
    """Distinct B sides, counted: sequences with positions, multisets without (the binding side from N = 4;
    at N = 2 both sides have V)."""
    sides = product(range(vocab), repeat=tokens // 2)
    return len(list(sides)) if positional else len({tuple(sorted(s)) for s in sides})


def enumerated_rank(depth, width, vocab, rank, pos_rank, tokens, multisets=False, seed=0) -> int:
    """The token rank at N = ``tokens`` by enumeration through the literal forward pass, mod TOKEN_PRIME, at
    the probe's seeded weights and embedding.  ``multisets`` (no positions only): one representative per
    distinct row (query token, multiset of the other A tokens) and column (multiset of the B tokens), which
    the full grid repeats without changing its rank."""
    spec = NetworkSpec(depth=depth, width=width, tokens=tokens)
    weights = draw_weights(NetworkSpec(depth=depth, width=width), seed)
    embedding = VocabularyEmbedding(width, vocab, rank, pos_rank, seed)
    half = tokens // 2
    if multisets:
        assert pos_rank == 0
        rows = [(w, *rest) for w in range(vocab) for rest in combinations_with_replacement(range(vocab), half - 1)]
        cols = list(combinations_with_replacement(range(vocab), half))
    else:
        rows = cols = list(product(range(vocab), repeat=half))

    def value(seq):
        inputs = [[GF31.scalar(v) for v in x] for x in embedding.embed(list(seq))]
        return int(output_coordinate(spec, weights, inputs))

    matrix = np.array([[value(a + b) for b in cols] for a in rows], dtype=np.int64)
    return GF31.from_rows(matrix).rank()


# --- the sentence checker -----------------------------------------------------------------------------

def _listed(text: str) -> list[int]:
    return [int(x) for x in text.split(", ")]


def sentences(text: str) -> list[str]:
    return re.split(r"(?<=\.) (?=[A-Z])", text.strip())


def _lower_only(row: dict) -> bool:
    """A sample whose rank met no bound: its label (when it has one) says lower bound."""
    return row["sampled"] and row.get("label", "lower bound") == "lower bound"


def check_summary(data: dict, text: str) -> None:
    """Every sentence of ``text`` (the probe's summary) is one the checker knows, and true of the rows."""
    rows, limit_rank, patience = data["ranks"], data["limit_rank"], data["patience"]
    ranks = [row["rank"] for row in rows]
    tokens = [row["tokens"] for row in rows]
    tokens_mode = data["mode"] == "tokens"
    positional = bool(data["positional_rank"])
    if tokens_mode:
        for row in rows:
            assert row["count_cap"] == count_cap(data["vocab"], row["tokens"], positional)
    # the stop rule, recomputed: the first row closing patience + 1 equal ranks that equal the limit
    stop_at = next((i for i in range(patience, len(rows)) if len(set(ranks[i - patience:i + 1])) == 1
                    and (limit_rank is None or ranks[i] == limit_rank)), None)
    seen = []
    for sentence in sentences(text):
        if m := re.fullmatch(r"Stopped because the rank was (\d+) at each of the last (\d+) N( and equals the limit)?; "
                             r"(.*)\.", sentence):
            value, count = int(m[1]), int(m[2])
            assert data["stopped"] == "saturated" and stop_at == len(rows) - 1 and count == patience + 1
            assert ranks[-count:] == [value] * count and (m[3] is not None) == (limit_rank is not None)
            assert limit_rank is None or value == limit_rank
            rest = m[4]
        elif m := re.fullmatch(r"Stopped at --max-tokens \(N = (\d+)\); (.*)\.", sentence):
            assert data["stopped"] == "max-tokens" and stop_at is None and int(m[1]) == tokens[-1]
            rest = m[2]
        elif sentence.startswith("Stopped"):
            raise AssertionError(f"a stop sentence the checker does not know: {sentence!r}")
        else:
            rest = None
        if rest is not None:
            seen.append("stop")
            if m := re.fullmatch(r"the rank is (\d+) from N = (\d+) on" + _said(data.get("saturation_certainty")),
                                 rest):
                value, first = int(m[1]), int(m[2])
                run = [r for n, r in zip(tokens, ranks, strict=False) if n >= first]
                assert len(run) >= 2 and set(run) == {value} and first in tokens
                assert tokens.index(first) == 0 or ranks[tokens.index(first) - 1] != value
            elif m := re.fullmatch(r"at N = (\d+) the rank meets the N-independent limit (\d+)(, certified: no N can "
                                   r"exceed it|, which no N exceeds unless the limit's own random event occurred)",
                                   rest):
                # issue 39: a last rank at the limit is named, certified or not, never "still changing"
                assert int(m[1]) == tokens[-1] and int(m[2]) == ranks[-1] == limit_rank
                assert len(rows) < 2 or ranks[-1] != ranks[-2]
                certified = data["limit"] is None or data["limit"]["certified_exact"]
                assert (m[3] == ", certified: no N can exceed it") == certified
            else:
                assert rest in ("the rank was still changing at the last N", "only one N was computed"), rest
                assert (rest == "only one N was computed") == (len(rows) == 1)
                assert len(rows) == 1 or ranks[-1] != ranks[-2]
                assert limit_rank is None or ranks[-1] != limit_rank
            continue
        if m := re.fullmatch(r"The N-independent limit is (\d+) \((.*)\); (.*)\.", sentence):
            limit = data["limit"]
            assert int(m[1]) == limit_rank == limit["rank"]
            assert m[2].startswith("certified exact") == limit["certified_exact"]
            if limit["certified_exact"]:
                assert limit_rank == limit["upper_bound"]
            above = [n for n, r in zip(tokens, ranks, strict=False) if r > limit_rank]
            if m[3] == "no N can exceed it":
                assert limit["certified_exact"] and not above
            elif m[3] == "no N exceeds it unless that event occurred":
                assert not limit["certified_exact"] and not above
            else:
                found = re.fullmatch(r"the rank exceeds it at N = ([\d, ]+), so it is below the generic limit there",
                                     m[3])
                assert found and _listed(found[1]) == above
            seen.append("limit")
        elif m := re.fullmatch(r"The N-independent limit is (\d+)\.", sentence):
            assert not tokens_mode and int(m[1]) == limit_rank
            seen.append("limit")
        elif m := re.fullmatch(r"At N = ([\d, ]+) the rank equals the counting cap: there the number of distinct "
                               r"token (multisets|sequences), not the network, decides the rank\.", sentence):
            assert _listed(m[1]) == [n for n, r in zip(tokens, ranks, strict=False)
                                     if r == count_cap(data["vocab"], n, positional)]
            assert m[2] == ("sequences" if positional else "multisets")
            seen.append("cap")
        elif m := re.fullmatch(r"At N = ([\d, ]+) (the generic rank is below min\(counting cap, limit\), certified: "
                               r"the rank meets a bound proven for every weight|the rank at these weights is below "
                               r"min\(counting cap, limit\), and so is the generic rank with probability >= 1 - "
                               r"([\d.e-]+) \(each row's own probability at most that\) unless p divides the content "
                               r"of every witness minor|the exact rank at these weights is below min\(counting cap, "
                               r"limit\))\.", sentence):
            # issue 39: what the sentence says of the generic rank follows each row's label
            exact_below = {row["tokens"]: row for row in rows if not _lower_only(row) and row["rank"] <
                           min(count_cap(data["vocab"], row["tokens"], positional), limit_rank)}
            listed = _listed(m[1])
            assert set(listed) <= set(exact_below)
            kind = ("certified exact" if m[2].startswith("the generic") else
                    "probabilistic" if m[3] is not None else None)
            assert all(exact_below[n].get("label") == kind for n in listed)
            if kind == "probabilistic":
                assert m[3] == format_bound(max(exact_below[n]["probability"] for n in listed))
            seen.extend(f"below:{n}" for n in listed)
        elif m := re.fullmatch(r"At N = ([\d, ]+) a sample of the sequences stopped below min\(counting cap, limit\): "
                               r"those ranks are certified lower bounds only\.", sentence):
            assert _listed(m[1]) == [row["tokens"] for row in rows if _lower_only(row) and row["rank"] <
                                     min(count_cap(data["vocab"], row["tokens"], positional), limit_rank)]
            seen.append("sampled")
        elif sentence.startswith("Corollary 1"):
            bound = eq14(data["depth"], data["rank"] or data["width"], data["heads"])
            reached = next((n for n, r in zip(tokens, ranks, strict=False) if bound is not None and r >= bound), None)
            if bound is None:
                assert sentence == "Corollary 1 gives no lower bound here (it needs depth >= 2 and r > H)."
            elif bound == 0:  # issue 39: a bound of 0 has no content
                assert sentence == ("Corollary 1's lower bound is 0 here (floor((r - H)/2) = 0): a bound with no "
                                    "content.")
            elif reached is None:
                assert sentence == f"Corollary 1's lower bound {bound} was not reached at any N probed."
            else:
                head = data.get("tokens_reaching_lower_bound_certainty")
                assert re.fullmatch(re.escape(f"Corollary 1's lower bound {bound} is first reached at N = {reached}")
                                    + _said(head) + r"\.", sentence), sentence
                if head and head["certainty"] == "certified":  # every earlier N shown below the bound, for certain
                    assert all(row["certainty"] == "certified" or row.get("count_cap", bound) < bound
                               for row in data["ranks"] if row["tokens"] < reached)
            seen.append("corollary")
        elif m := re.fullmatch(r"The conjectured scale r L / log3 r is ([\d.]+)\.", sentence):
            r = data["rank"] or data["width"]
            assert m[1] == f"{r * data['depth'] * math.log(3) / math.log(r):.2f}"
            seen.append("scale")
        elif m := re.fullmatch(r"Token ranks are mod p = (\d+)\.", sentence):
            assert tokens_mode and int(m[1]) == data["modulus"] == TOKEN_PRIME
            seen.append("modulus")
        elif m := re.fullmatch(r"Against the positional bound of docs/mathematics\.md eq\. 7\.4 the rows are: (.*)\.",
                               sentence):
            labels = [row["label"] for row in rows]
            assert data.get("positional_rank") and all("label" in row for row in rows)
            assert m[1] == ", ".join(f"{labels.count(name)} {name}" for name in
                                     ("certified exact", "probabilistic", "lower bound") if name in labels)
            seen.append("labels")
        elif re.fullmatch(r"Time: [\d.]+s\.", sentence):
            seen.append("time")
        else:
            raise AssertionError(f"a sentence the checker does not know: {sentence!r}")
    # the facts the rows hold are all said
    below = [row["tokens"] for row in rows if tokens_mode and row["rank"] < min(row["count_cap"], limit_rank)]
    said = sorted(int(item[6:]) for item in seen if item.startswith("below:"))
    assert said == [row["tokens"] for row in rows if row["tokens"] in below and not _lower_only(row)]
    assert (bool(said) or "sampled" in seen) == bool(below)
    assert ("cap" in seen) == any(tokens_mode and row["rank"] == row["count_cap"] for row in rows)
    assert ("labels" in seen) == any("label" in row for row in rows)
    assert {"stop", "limit", "corollary", "time"} <= set(seen) and len(seen) == len(set(seen))


def check_table(data: dict, out: str) -> None:
    """The CLI's table: one line per row, the rank and cap as in the rows, '(cap decides)' exactly where
    rank == cap."""
    lines = [line for line in out.splitlines() if re.match(r"^\s*\d+\s", line)]
    assert len(lines) == len(data["ranks"])
    for line, row in zip(lines, data["ranks"], strict=False):
        if data["mode"] != "tokens":
            assert [int(x) for x in line.split()] == [row["tokens"], row["rank"]]
            continue
        n, rank, cap, *note = line.split(None, 3)
        assert (int(n), int(rank), int(cap)) == (row["tokens"], row["rank"], row["count_cap"])
        note = note[0] if note else ""
        if "label" in row:  # the positional label closes the line, and its words agree with the row's numbers
            assert note.endswith(row["label_text"]) and row["label_text"].startswith(row["label"])
            if row["label"] == "certified exact":
                assert row["label_text"] == f"certified exact ({row['rank']})" and row["short_by"] == 0
            elif row["label"] == "lower bound":
                assert row["aim"] > row["rank"] and row["label_text"] == (
                    f"lower bound: {row['aim'] - row['rank']} below the bound {row['aim']} it aimed at")
            note = note[:-len(row["label_text"])].strip()
        assert (note == "(cap decides)") == (row["rank"] == row["count_cap"])


def _cli(capsys, argv: list[str]) -> tuple[dict, str]:
    common = ["--no-store", "--workers", "1"]
    assert main(["probe-n", *argv, *common, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert main(["probe-n", *argv, *common]) == 0
    out = capsys.readouterr().out
    summary = out.strip().split("\n\n")[-1]
    assert summary == probe_summary({**data, "seconds": float(re.search(r"Time: ([\d.]+)s", summary)[1])})
    check_table(data, out)
    check_summary(data, summary)
    return data, summary


# --- the four survivors -------------------------------------------------------------------------------

def test_a_rank_at_min_of_cap_and_limit_is_no_exception(capsys):
    """depth 2, width 4, V = r = 4, no positions: ranks 4, 10, 20, 24 at N = 2..8 (enumerated over multiset
    representatives).  The caps are 4, 10, 20, 35; the limit is at most the derivative bound, by hand:
    C = 4, m = min(V - 1, 10) = 3 variables, min over j0 of V sum_{j<j0} binom(j + 2, 2) + binom(7 - j0, 3)
    = min(35, 4 + 20, 16 + 10, ...) = 24, and at least the rank 24 at N = 8: so 24 = min(35, 24) at N = 8,
    and a probe comparing the rank with the cap alone called it an exception.  r - H = 3 is odd: Corollary 1's
    bound is ((1 over 1)) = 1 (rounding up said 2), checked in the summary by ``check_summary``."""
    data, summary = _cli(capsys, ["--depth", "2", "--width", "4", "--vocab", "4", "--rank", "4", "--max-tokens", "8"])
    expected = [enumerated_rank(2, 4, 4, 4, 0, n, multisets=True) for n in (2, 4, 6, 8)]
    assert expected == [4, 10, 20, 24]
    assert [row["rank"] for row in data["ranks"]] == expected and data["limit_rank"] == 24
    assert [row["count_cap"] for row in data["ranks"]] == [4, 10, 20, 35]
    assert data["below_min_of_cap_and_limit"] == [] and "below min" not in summary
    assert data["cap_decides"] == [2, 4, 6]


def test_positional_ranks_aim_at_the_sequence_count_not_the_multiset_cap(capsys):
    """depth 2, width 3, V = r = 3, one positional rank: N = 6 has 3^3 = 27 sequences a side and rank 27 by
    enumeration of all of them (the multiset cap is only 10: a route aiming there printed 18); from N = 8 the
    rank is 30, the derivative bound by hand (C = 4, m = min((V - 1)(1 + R), 6) = 4 variables: min(70,
    3 + 35, 15 + 15, 27 + 5, ...) = 30), so the sampled rank, a certified lower bound, is exact there (the
    enumeration of N = 8 is the slow test below)."""
    data, _ = _cli(capsys, ["--depth", "2", "--width", "3", "--vocab", "3", "--rank", "3", "--pos-rank", "1",
                            "--max-tokens", "10", "--patience", "1"])
    assert enumerated_rank(2, 3, 3, 3, 1, 6) == 27
    assert [row["rank"] for row in data["ranks"]] == [3, 9, 27, 30, 30]
    assert [row["count_cap"] for row in data["ranks"]] == [3, 9, 27, 81, 243]
    assert data["limit_rank"] == 30 and data["cap_decides"] == [2, 4, 6] and data["stopped"] == "saturated"


@pytest.mark.slow
def test_positional_rank_at_n_8_by_enumeration_of_every_sequence():
    assert enumerated_rank(2, 3, 3, 3, 1, 8) == 30  # 81 x 81 sequences, about 6-12 s


def _plateau(cap_rank: int):
    """A run_batch whose ranks stop growing at ``cap_rank``: the true probe steps, clipped (a network whose
    rank plateaus below its limit)."""
    from verify.sweeps.probe import probe_step

    def run(spec, **options):
        def batch(token_counts, **extra):
            steps = [probe_step(spec, Field(DEFAULT_PRIME), 0, n, **options, **extra) for n in token_counts]
            return [{**step, "rank": min(step["rank"], cap_rank)} for step in steps]
        return batch
    return run


@pytest.mark.parametrize("mode", ["tokens", "continuous"])
def test_a_plateau_below_the_limit_is_not_saturation(mode):
    """Ranks constant for more than --patience steps but below the limit: the probe runs on to --max-tokens
    and never says the rank equals the limit (a stop rule ignoring the limit stopped there, "saturated").
    The limits: 24 for the spec above (by hand), 18 for the continuous depth 2 width 2 network (its
    rank at N = 4 and beyond, test_tokens.py)."""
    if mode == "tokens":
        spec, options, clip, limit = NetworkSpec(depth=2, width=4), {"vocab": 4, "rank": 4}, 20, 24
    else:
        spec, options, clip, limit = NetworkSpec(depth=2, width=2), {"continuous": True}, 15, 18
    batch, last = _plateau(clip)(spec, **options), 12 if mode == "tokens" else 8
    result = probe_tokens(spec, Field(DEFAULT_PRIME), 0, last, 2, run_batch=batch, **options)
    data = result.as_dict()
    assert data["limit_rank"] == limit and max(row["rank"] for row in data["ranks"]) == clip
    assert data["stopped"] == "max-tokens" and data["ranks"][-1]["tokens"] == last
    summary = probe_summary(data)
    assert "equals the limit" not in summary and f"Stopped at --max-tokens (N = {last})" in summary
    check_summary(data, summary)
    if mode == "tokens":
        assert data["below_min_of_cap_and_limit"] == [8, 10, 12]


@pytest.mark.parametrize("depth,rank,heads,expected", [
    (2, 8, 1, 3), (2, 4, 1, 1), (2, 6, 3, 1), (3, 10, 1, 20), (3, 6, 1, 4), (4, 12, 3, 220), (2, 2, 1, 0)])
def test_corollary1_bound_takes_the_floor_of_r_minus_h_over_2_when_it_is_odd(depth, rank, heads, expected):
    """r - H odd: floor((r - H)/2) columns (the paper's footnote 3), e.g. ((3 over 1)) = 3 at r - H = 7, ((4 over
    3)) = binom(6, 3) = 20 at r - H = 9, ((4 over 9)) = binom(12, 9) = 220; rounding up gave 4, 35 and 495."""
    assert (rank - heads) % 2 == 1
    assert corollary1_lower_bound(depth, rank, heads) == expected == eq14(depth, rank, heads)
    # Lemma 7's bound: floor((r - 1 - H)/2) at r - 1 - H odd, i.e. r - H even
    assert lemma7_lower_bound(depth, rank + 1, heads) == eq14(depth, rank, heads)


@pytest.mark.parametrize("argv", [
    ["--depth", "1", "--width", "2", "--vocab", "2", "--rank", "1", "--max-tokens", "6"],  # no Corollary 1 bound
    ["--depth", "1", "--width", "2", "--vocab", "2", "--rank", "2", "--pos-rank", "1", "--max-tokens", "8"],
    ["--depth", "2", "--width", "3", "--vocab", "3", "--rank", "2", "--max-tokens", "10", "--patience", "2"],
    ["--depth", "2", "--width", "2", "--continuous", "--max-tokens", "8", "--patience", "2"]])
def test_every_sentence_of_small_probes_is_true_of_their_rows(capsys, argv):
    """Each kind of sentence (saturated or not, with and without positions, continuous, no bound) is one
    ``check_summary`` knows and true of the rows."""
    _cli(capsys, argv)


def _said(head: dict | None) -> str:
    """The words a headline's certainty adds (issue 47, item 1), as a pattern: nothing without one."""
    if not head:
        return ""
    return {"certified": r" \(certified\)", "not shown": r" \(not shown: [^)]*\)"}.get(
        head["certainty"], r" \(with probability >= 1 - [0-9.e-]+: the union of the events of [^)]*\)")


def test_a_rank_equal_to_corollary1s_bound_reaches_it():
    """Ranks held at exactly Corollary 1's bound (1 at depth 2, r = 4, H = 1: ((1 over 1))) reach it at the
    first N: the bound is met by equality, and "not reached" would be false."""
    spec, options = NetworkSpec(depth=2, width=4), {"vocab": 4, "rank": 4}
    data = probe_tokens(spec, Field(DEFAULT_PRIME), 0, 4, 1, run_batch=_plateau(1)(spec, **options),
                        **options).as_dict()
    assert [row["rank"] for row in data["ranks"]] == [1, 1] and eq14(2, 4, 1) == 1
    summary = probe_summary(data)
    assert "Corollary 1's lower bound 1 is first reached at N = 2." in summary
    check_summary(data, summary)


def test_probabilistic_rows_below_the_cap_say_so_with_their_probability(capsys):
    """Issue 39: at L = 3, V = r = 2, R = 1, N = 12 and 14 (52 and 64) the rank meets eq. 7.4 with H at these
    positions (and at N = 12, where every sequence was kept, the every-sequence offer): that the generic rank is
    below min(cap, limit) holds with probability >= 1 - x, x the larger row's label, not for certain.  At N = 12 the
    label is the union of Lemma P's bound and 64 * 132 / (2^21 + 1) (docs/mathematics.md §7, "A label's union"),
    0.00739; at N = 14 the sample met eq. 7.4 at the positions, but the every-sequence offer is on the menu all the
    same (128^2 evaluations fit the probe's sample budget: Lemma C), with the certified limit 75 its proven bound:
    Lemma P's 0.00472 plus 75 * 132 / (2^21 + 1), 0.00944."""
    from fractions import Fraction

    from verify.rank.token.positional_bound import exact_bound_probability

    data, out = _cli(capsys, ["--depth", "3", "--width", "3", "--vocab", "2", "--rank", "2", "--pos-rank", "1",
                              "--max-tokens", "14"])
    at_12 = Fraction(exact_bound_probability(3, 2, 1, 12, 2 * 2**20 + 1)) + Fraction(64 * 132, 2**21 + 1)
    at_14 = Fraction(exact_bound_probability(3, 2, 1, 14, 2 * 2**20 + 1)) + Fraction(75 * 132, 2**21 + 1)
    assert format_bound(float(at_12) + 1e-15) == "0.00739" and at_14 > at_12
    worst = format_bound(float(at_14) + 1e-15)  # rounded up, never down
    assert worst == "0.00944"
    assert (f"At N = 12, 14 the rank at these weights is below min(counting cap, limit), and so is the generic rank "
            f"with probability >= 1 - {worst}") in " ".join(out.split())
    assert "the exact rank is below" not in out


@pytest.mark.parametrize("argv,limit", [
    (["--depth", "2", "--width", "3", "--vocab", "2", "--rank", "2", "--pos-rank", "1"], 12),
    pytest.param(["--depth", "2", "--width", "6", "--vocab", "5", "--rank", "5", "--pos-rank", "2"], 156,
                 marks=pytest.mark.slow),  # issue 39's own example, about 2.7 s
])
def test_a_last_rank_at_the_certified_limit_is_named_not_still_changing(capsys, argv, limit):
    """Issue 39: a probe whose last N (8) meets its certified limit names it ("no N can exceed it"), never "still
    changing" (the issue's case: L = 2, d_x = 6, V = r = 5, R = 2 meets 156 at N = 8)."""
    assert main(["probe-n", *argv, "--max-tokens", "8", "--no-store", "--workers", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["limit"]["certified_exact"] and data["limit_rank"] == limit == data["ranks"][-1]["rank"]
    assert data["ranks"][-2]["rank"] != limit
    text = " ".join(probe_summary(data).split())
    check_summary(data, text)
    assert f"at N = 8 the rank meets the N-independent limit {limit}, certified: no N can exceed it" in text
    assert "still changing" not in text


def _summary_data(ranks, labels=None, limit_rank=None):
    from verify.rank.bound import conjecture_scale

    rows = [{"tokens": 2 * (i + 1), "rank": r, "count_cap": 10**6, "sampled": False} for i, r in enumerate(ranks)]
    for row, label in zip(rows, labels or [], strict=False):
        row.update(label=label, probability=1e-3 if label == "probabilistic" else None)
    return {"ranks": rows, "limit_rank": limit_rank, "patience": 2, "stopped": "max-tokens", "limit": None,
            "lower_bound": None, "conjecture_scale": conjecture_scale(3, 3), "seconds": 1.0, "positional_rank": 1}


def test_two_rows_are_not_one_n_and_every_label_is_tallied():
    """Issue 43's PW01 and PW04: two rows with different ranks are 'still changing', not 'only one N'; the tally
    names the lower-bound rows too."""
    from verify.report.probe_summary import probe_summary

    text = probe_summary(_summary_data([3, 9], ["certified exact", "lower bound"]))
    assert "the rank was still changing at the last N" in text and "only one N" not in text
    assert "the rows are: 1 certified exact, 1 lower bound." in text
    assert "only one N was computed" in probe_summary(_summary_data([3], ["probabilistic"]))


@pytest.mark.parametrize("depth,rank,heads", [(2, 3, 2), (3, 2, 1), (4, 5, 4)])
def test_theorem2s_bound_is_not_applicable_at_r_minus_1_equal_to_h(depth, rank, heads):
    """Issue 43's PW06: at r - 1 = H the proof bound ((floor((r - 1 - H)/2) over 3^(L-2))) does not exist (n/a),
    not 0; one more r gives floor(1/2) = 0 columns, a bound of 0."""
    from verify.rank.bound import lemma7_lower_bound

    assert lemma7_lower_bound(depth, rank, heads) is None
    assert lemma7_lower_bound(depth, rank + 1, heads) == 0
