"""The matricization index map of the first supplement (B.1.1), checked to land in, and fill, its matrix."""

from itertools import combinations, product

from hypothesis import strategies as st

from verify.authoring import Cases, Claim, shifted

from ._common import MAIN, Source

#: (M, N): M = 1 (one template, the edge), 2, 3; N = 2, 4, 6 (balanced partitions need N even).
CASES = [(1, 2), (2, 2), (3, 2), (1, 4), (2, 4), (3, 4), (2, 6)]


def _index(ds, modes, m, n, shift=0):
    """1 + sum_{t=1}^{N/2} (d_{i_t} - 1) M^(N/2 - t + shift), modes i_1 < ... < i_{N/2} (1-based)."""
    return 1 + sum((ds[i - 1] - 1) * m ** (n // 2 - t + shift) for t, i in enumerate(modes, start=1))


def _case(m, n, shift=0):
    size = m ** (n // 2)
    for part in combinations(range(1, n + 1), n // 2):
        rest = tuple(j for j in range(1, n + 1) if j not in part)
        seen = set()
        for ds in product(range(1, m + 1), repeat=n):
            cell = (_index(ds, part, m, n, shift), _index(ds, rest, m, n, shift))
            if not (1 <= cell[0] <= size and 1 <= cell[1] <= size) or cell in seen:
                return False, f"M={m} N={n} I={part}: entry {ds} lands at {cell}", \
                    {"M": m, "N": n, "I": list(part), "entry": list(ds), "cell": list(cell)}
            seen.add(cell)
        if len(seen) != size * size:
            return False, f"M={m} N={n} I={part}: {len(seen)} cells of {size * size} filled"
    return True, f"M={m} N={n}: every balanced (I, J) maps [M]^N one-to-one onto [M^(N/2)]^2"


CLAIM = Claim(
    id="levine2020_supp1_matricization_index",
    source=Source(MAIN, "supplement B.1.1", "matricization [[A]]_{I,J}: row 1 + sum_t (d_{i_t} - 1) M^(N/2 - t)"),
    statement="For a balanced partition (I, J) of [N], A_{d_1..d_N} goes to row 1 + sum_t (d_{i_t} - 1) M^(N/2-t) and "
              "column 1 + sum_t (d_{j_t} - 1) M^(N/2-t) of an M^(N/2) x M^(N/2) matrix, each entry to its own cell.",
    domain="M = 1..3, N = 2, 4 (and N = 6 at M = 2), every balanced partition; a hypothesis search "
           "of 15 (M, N) with M <= 4, N in {2, 4}",
    checks=[Cases(CASES, _case, name="index map lands in and fills the matrix",
                  strategy=st.tuples(st.integers(1, 4), st.sampled_from([2, 4])), search=15,
                  perturb={"exponent M^(N/2 - t + 1) (shifted by one)": shifted(_case, shift=1)})],
)
