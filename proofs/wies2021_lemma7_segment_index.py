"""Lemma 7, eqs. 21-22 (appendix B.2.2) as index maps: for t in [N/2], N/2 = E n (n = (r-1-H)/2 segments of
length E), position p_t gets token floor(t/E) + 2 when (t-1) mod E < A_{j, floor(t/E)+1}, else token 1.
Does every index land inside A and inside P's tokens 2..n+1, and does segment s hold A_{j,s} copies of
token s+1?"""

from itertools import product

from verify.authoring import Claim, Property, neighbour, shifted

from ._common import WIES, Source


def _segments(segment, start: int = 1, extra: int = 0):
    """For E = 1..4, n = 1..3 and every row a in {0..E}^n with max entry E: the tokens of t = start..start+En-1
    under ``segment(t, E)`` (0-based segment index); token s+2 must appear exactly a_{s+1} (+ extra) times."""
    for big_e in range(1, 5):
        for n in range(1, 4):
            for row in product(range(big_e + 1), repeat=n):
                if max(row) != big_e:
                    continue
                counts = [0] * n
                for t in range(start, start + big_e * n):
                    s = segment(t, big_e)
                    if not 0 <= s < n:
                        return False, f"E={big_e} n={n} A_j={list(row)}: t={t} reads column {s + 1} of A (n = {n} " \
                                      f"columns) and token {s + 2} (P's tokens are 2..{n + 1})", \
                            {"E": big_e, "n": n, "A_j": list(row), "t": t}
                    if (t - 1) % big_e < row[s]:
                        counts[s] += 1
                if counts != [x + extra for x in row]:
                    return False, f"E={big_e} n={n} A_j={list(row)}: segment counts {counts}", \
                        {"E": big_e, "n": n, "A_j": list(row)}
    return True, "E = 1..4, n = 1..3, every row with max entry E: indices inside A and P's tokens, segment s holds " \
                 "A_{j,s} copies of token s+1", None


PRINTED = lambda t, e: t // e  # noqa: E731  eqs. 21-22: floor(t/E), t in [N/2]
SHIFTED = lambda t, e: (t - 1) // e  # noqa: E731  floor((t-1)/E)

CLAIM = Claim(
    id="wies2021_lemma7_segment_index",
    source=Source(WIES, "appendix B.2.2", "Lemma 7, eqs. 21-22"),
    statement="With t in [N/2] and N/2 = E (r-1-H)/2, (pi_P(j))_{p_t} = floor(t/E) + 2 if (t-1) mod E < "
              "A_{j, floor(t/E)+1}, else 1: every index lands inside A and P's tokens, and segment s holds "
              "A_{j,s} copies of token s+1 (pi_Q the same, shifted by (r-1-H)/2).",
    domain="E = 1..4, n = (r-1-H)/2 = 1..3, every row of A with entries 0..E and maximum E",
    reading="[N/2] = {1, ..., N/2} as everywhere in the paper.  The index map alone; "
            "wies2021_lemma7_large_n_first_layer "
            "checks the whole construction.  Counting t from 0 instead (t = 0..N/2-1) would also repair the map; it is "
            "checked among the corrections, not as a reading, since the text says t in [N/2] twice.",
    checks=[Property(lambda: _segments(PRINTED), name="printed floor(t/E), t = 1..N/2")],
    expected="erratum",
    corrected_statement="Take the segment floor((t-1)/E) for t in [N/2] (or count t from 0): then every index lands "
                        "inside A and P's tokens and segment s holds exactly A_{j,s} copies of token s+1.",
    corrected_checks=[Property(lambda: _segments(SHIFTED), name="floor((t-1)/E), t = 1..N/2",
                               perturb={"one copy more per segment":
                                        shifted(_segments, given=dict(segment=SHIFTED), extra=1),
                                        "segment index shifted back to floor(t/E)":
                                        neighbour(_segments, segment=PRINTED, claim=SHIFTED)}),
                      Property(lambda: _segments(PRINTED, start=0), name="floor(t/E), t = 0..N/2-1")],
)
