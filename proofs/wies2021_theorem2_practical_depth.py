"""§4, remark (1) after Theorem 2: for typical widths d_x of 1000s, L > log3 d_x holds from practical
depths ~8 on.  The smallest such depth is recomputed (arb) for each width."""

from verify.authoring import Cases, Claim, compare, shifted

from ._common import WIES, L, Source, d_x, log3

#: common widths, the ends of the range, and both sides of the thresholds 3^7 = 2187 and 3^8 = 6561 (L = log3 d_x)
WIDTHS = [1000, 1024, 1280, 1536, 2048, 2186, 2187, 3000, 4096, 5120, 6000, 6560, 6561, 7000, 8192, 9000, 9999]


def min_depth(width: int) -> int:
    depth = 1
    while not compare(L, log3(d_x), ">", {L: depth, d_x: width}):
        depth += 1
    return depth


def _case(width: int, target: int = 8, slack: int = 1):
    depth = min_depth(width)
    return abs(depth - target) <= slack, f"d_x={width}: smallest L > log3 d_x is {depth}"


CLAIM = Claim(
    id="wies2021_theorem2_practical_depth",
    source=Source(WIES, "§4", "remark (1) after Theorem 2: 'practical depths ~8 and above'"),
    statement="For typical widths d_x of 1000s, L > log3 d_x holds for depths ~8 and above.",
    domain="d_x from 1000 to 9999 (common widths, the ends of the range, and d_x = 3^7, 3^8 with their neighbours "
           "below, where L = log3 d_x exactly)",
    reading="'~8' is read as 8 +- 1: the smallest depth with L > log3 d_x is 7, 8 or 9 for every width of 1000s "
            "(log3 1000 = 6.29, log3 9999 = 8.38); any larger depth then also satisfies it.",
    checks=[Cases(WIDTHS, _case, name="smallest depth in the regime, per width",
                  perturb={"'~7' (7 +- 1)": shifted(_case, target=7), "'~9' (9 +- 1)": shifted(_case, target=9)})],
)
