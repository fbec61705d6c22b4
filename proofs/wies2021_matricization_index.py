"""Appendix B.1.1: the matricization of an order-N tensor w.r.t. (P, Q) places A_{d_1..d_N} at row
1 + sum_t (d_{p_t} - 1) M^(N/2-t) and the analogous column; this is a bijection onto [M^(N/2)] x [M^(N/2)]."""

from itertools import product

from verify.authoring import Claim, Property, shifted

from ._common import WIES, Source


def _row(digits, m, shift=0):
    half = len(digits)
    return 1 + shift + sum((d - 1) * m ** (half - t) for t, d in enumerate(digits, start=1))


def _bijection(shift: int = 0):
    for m in range(1, 5):
        for half in range(1, 5):
            rows = sorted(_row(digits, m, shift) for digits in product(range(1, m + 1), repeat=half))
            if rows != list(range(1, m**half + 1)):
                return False, f"M={m}, N/2={half}: indices {rows[0]}..{rows[-1]} are not [M^(N/2)]", {"M": m,
                                                                                                      "N": 2 * half}
    # the whole matrix: (row, column) over all d in [M]^N, one partition with interleaved P and Q
    for m, n in [(2, 4), (3, 4), (2, 6)]:
        p, q = list(range(0, n, 2)), list(range(1, n, 2))
        cells = {(_row([d[i] for i in p], m, shift), _row([d[i] for i in q], m, shift))
                 for d in product(range(1, m + 1), repeat=n)}
        if len(cells) != m**n or not all(1 <= a <= m ** (n // 2) and 1 <= b <= m ** (n // 2) for a, b in cells):
            return False, f"M={m}, N={n}: entries collide or leave the matrix", {"M": m, "N": n}
    return True, "M = 1..4, N/2 = 1..4: row index is a bijection onto [M^(N/2)]; M^N entries fill the matrix once " \
                 "(M, N) = (2, 4), (3, 4), (2, 6), interleaved partition", None


CLAIM = Claim(
    id="wies2021_matricization_index",
    source=Source(WIES, "appendix B.1.1", "matricization index map"),
    statement="Row index 1 + sum_{t=1}^{N/2} (d_{p_t} - 1) M^(N/2-t) (and the column analogue over Q) places the M^N "
              "entries of A bijectively into the M^(N/2) x M^(N/2) matrix.",
    domain="M = 1..4, N = 2..8 (rows); whole matrices at (M, N) = (2, 4), (3, 4), (2, 6)",
    checks=[Property(_bijection, name="bijection onto [M^(N/2)]",
                     perturb={"index shifted by one": shifted(_bijection, shift=1)})],
)
