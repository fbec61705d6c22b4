"""Theorem 3 of the revised supplement, step by step: the branch recursion, its printed closed form,
and the step from that closed form to the theorem."""

from math import prod

from verify.authoring import Cases, Claim, neighbour
from verify.authoring.ranks import default_specs, exact_rank

from ._common import REVISED, Source

DEPTHS = list(range(1, 9))


def c_of(depth: int) -> int:
    """C(L) = (3^L - 1)/2."""
    return (3**depth - 1) // 2


def recursion(depth: int) -> tuple[int, int]:
    """The proof's recursion as (coefficient, exponent of K) of (L+1) Sep(lb(L)), K = N d_x^4 / H.

    Sep(lb(1)) = K and Sep(lb(l)) = K (l Sep(lb(l-1)))^3; the network adds L + 1 branches.
    """
    coef, expo = 1, 1
    for level in range(2, depth + 1):
        coef, expo = level**3 * coef**3, 3 * expo + 1
    return (depth + 1) * coef, expo


def printed_closed_form(depth: int) -> tuple[int, int]:
    """prod_{l=1}^{L} (l+1) K^(3^(l-1)) = (L+1)! K^(C(L)), as (coefficient, exponent)."""
    return prod(level + 1 for level in range(1, depth + 1)), sum(3 ** (level - 1) for level in range(1, depth + 1))


def theorem(depth: int) -> tuple[int, int]:
    """The theorem: log3 Sep <= L log3 L + C(L) log3 K, i.e. Sep <= L^L K^C(L)."""
    return depth**depth, c_of(depth)


def corrected_closed_form(depth: int) -> tuple[int, int]:
    """The recursion solved: (L+1) prod_{l=2}^{L} l^(3^(L-l+1)) K^(C(L))."""
    return (depth + 1) * prod(level ** (3 ** (depth - level + 1)) for level in range(2, depth + 1)), c_of(depth)


def _short(value: int) -> str:
    """An integer, or its digit count when long."""
    text = str(value)
    return text if len(text) <= 12 else f"<{len(text)}-digit integer>"


def _at_most(left, right, label_left, label_right, depth):
    """(c1, e1) K^e1 <= (c2, e2) K^e2 for every K >= 1: same exponent and c1 <= c2."""
    (c1, e1), (c2, e2) = left, right
    holds = e1 == e2 and c1 <= c2
    line = f"L={depth}: {label_left} {_short(c1)} K^{e1} vs {label_right} {_short(c2)} K^{e2}"
    return holds, line, (None if holds else {"L": depth, label_left: f"{c1} K^{e1}", label_right: f"{c2} K^{e2}"})


def _recursion_within_printed(depth):
    return _at_most(recursion(depth), printed_closed_form(depth), "recursion", "printed product", depth)


def _printed_within_theorem(depth):
    return _at_most(printed_closed_form(depth), theorem(depth), "printed product", "theorem", depth)


def _corrected_equals_recursion(depth):
    closed, rec = corrected_closed_form(depth), recursion(depth)
    ok = closed == rec and closed[1] == c_of(depth)
    return ok, f"L={depth}: closed form {_short(closed[0])} K^{closed[1]} " + ("=" if ok else "!=") + \
        f" recursion {_short(rec[0])} K^{rec[1]}"


def _theorem_within_corrected(depth):
    # the proof's bound is weaker than the printed theorem at every depth: (printed) <= (derived)
    holds, line, cex = _at_most(theorem(depth), corrected_closed_form(depth), "theorem", "derived", depth)
    strict = holds and theorem(depth)[0] < corrected_closed_form(depth)[0]
    return strict, line + (" (strictly weaker)" if strict else ""), cex


def _ranks_within_derived(spec):
    """The exact residual ranks (N = 2(d_x+1)) obey the derived bound, an integer comparison."""
    tokens = 2 * (spec.width + 1)
    k = tokens * spec.width**4 // spec.heads
    coef, expo = corrected_closed_form(spec.depth)
    bound, rank = coef * k**expo, exact_rank(spec)
    name = f"L={spec.depth} d_x={spec.width} H={spec.heads}"
    return rank <= bound, f"{name}: sep {rank} <= {bound}" if rank <= bound else f"{name}: sep {rank} > {bound}"


def _neighbour_equals_recursion(depth):
    (coef, expo), rec = corrected_closed_form(depth), recursion(depth)
    return (coef + 1, expo) == rec, f"L={depth}: closed form + 1 vs recursion"


CLAIM = Claim(
    id="levine2020_revised_theorem3_derivation",
    source=Source(REVISED, "A.4 (residual connections)", "proof of Theorem 3 (branch recursion and closed form)"),
    statement="Sep(y) <= (L+1) Sep(lb(L)), Sep(lb(L)) <= (N d_x^4/H)(L Sep(lb(L-1)))^3, Sep(lb(1)) = N d_x^4/H "
              "give Sep(y) <= prod_{l=1}^{L} (l+1) (N d_x^4/H)^(3^(l-1)), which satisfies Theorem 3 "
              "(Sep <= L^L (N d_x^4/H)^C(L)).",
    formulas={"recursion": "s_1 = K, s_l = K (l s_{l-1})^3, Sep <= (L+1) s_L, K = N d_x^4/H",
              "printed_closed_form": "(L+1)! K^C(L)", "theorem": "L^L K^C(L)",
              "derived": "(L+1) prod_{l=2}^{L} l^(3^(L-l+1)) K^C(L)"},
    domain="L = 1..8, every K >= 1 (both sides are c K^C(L), compared through c exactly)",
    reading="The product is read as prod_l [(l+1) K^(3^(l-1))] = (L+1)! K^C(L); the stopping condition as "
            "Sep(lb(1)) <= K (Lemma 2 with K = 1).  The cube in the recursion covers L, as the parentheses print.",
    checks=[Cases(DEPTHS, _printed_within_theorem, name="the printed product satisfies the theorem"),
            Cases(DEPTHS, _recursion_within_printed, name="the recursion is bounded by the printed product")],
    expected="erratum",
    corrected_statement="The recursion solves exactly to Sep(y) <= (L+1) prod_{l=2}^{L} l^(3^(L-l+1)) (N d_x^4/H)^C(L) "
                        "(24 K^4 at L = 2, against the printed 6 K^4), i.e. log3 Sep <= log3(L+1) + "
                        "sum_{l=2}^{L} 3^(L-l+1) log3 l + C(L) log3(N d_x^4/H): the residual factor grows like "
                        "L^(C(L)), not L^L, and is strictly weaker than Theorem 3 at every L, so the proof does not "
                        "establish Theorem 3 as printed (the exact residual ranks obey both; Theorem 3 itself is "
                        "levine2020_revised_theorem3_residual).",
    corrected_checks=[Cases(DEPTHS, _corrected_equals_recursion, name="closed form = recursion, exactly",
                            perturb={"the closed form's coefficient + 1 (its neighbour)":
                                     neighbour(_neighbour_equals_recursion)}),
                      Cases(DEPTHS, _theorem_within_corrected, name="derived bound strictly weaker than Theorem 3"),
                      Cases(default_specs(residual=True), _ranks_within_derived,
                            name="exact residual ranks within the derived bound")],
)
