"""Numbers the vocabulary paper quotes in its text (abstract, §1, §4.2, §5, §6), recomputed from the
figures they are derived from.  Where the source figure is a training result (the 75% and 55% read off
Figures 2 and 4), only the arithmetic that turns it into the quoted number is checked."""

from fractions import Fraction

import sympy as sp

from verify.authoring import Claim, Property, QuotedNumber, neighbour

from ._common import WIES, Source

#: (name, r, d_x) of the three low-rank settings §4.2.1 and §5.1 call close.
RATIOS = [("experiment", 16, 680), ("ALBERT-xxlarge", 128, 4096), ("ESM-1b", 33, 1280)]


def _close(factor=Fraction(3, 2)):
    """§5.1: 16/680 is 'close to' 128/4096 and 33/1280, read as: all three within a factor 3/2 of each other."""
    values = [Fraction(a, b) for _, a, b in RATIOS]
    spread = max(values) / min(values)
    text = ", ".join(f"{name} {float(Fraction(a, b)):.4f}" for name, a, b in RATIOS) + f"; max/min {float(spread):.3f}"
    return spread <= factor, text, None if spread <= factor else {"spread": float(spread)}


def _range(low=25, high=50):
    """Abstract: redundancies of 25%-50%; the body's figures are 25% (ALBERT, 1 - 75%) and ~45% (T5-11B, 1 - 55%)."""
    found = [100 - 75, 100 - 55]
    ok = all(low <= x <= high for x in found)
    return ok, f"body figures {found}% against the range {low}%-{high}%", None if ok else {"found": found}


CLAIM = Claim(
    id="wies2021_quoted_numbers",
    source=Source(WIES, "abstract, §1, §4.2.1, §4.2.3, §5.1-5.3, §6", "quoted arithmetic"),
    statement="ALBERT: a full rank network with 75% of the parameters, i.e. 25% redundancy; T5-11B: H = 128, d_a = "
              "128, d_x = 1K give H d_a = 16K = 16 d_x, a baseline with ~55% of the parameters, i.e. ~45% redundancy, "
              "'roughly half its size', ~6B parameters; the abstract's 25%-50%; GPT-2's vocabulary ~25 times V = 2000; "
              "ViT-Huge width 1280 with input rank 768 and ViT-Base width 768 with full-rank embedding (16x16 RGB "
              "patches, eq. 4); 16/680 close to 128/4096 and 33/1280.",
    reading="K = 1024 (d_x = 1K = 1024 in T5).  ViT patches are 16 x 16 x 3, so eq. 4's V = (M/N) d_input = 768 caps "
            "r.  'Close' is read as within a factor 3/2; 'roughly half' as within 0.1 of 1/2.",
    checks=[QuotedNumber(lambda: sp.Integer(100) - 75, 25, sp.Rational(1, 2), label="ALBERT redundancy % = 100 - 75"),
            QuotedNumber(lambda: sp.Integer(100) - 55, 45, 5, label="T5-11B redundancy % = 100 - 55 ('~45%')"),
            QuotedNumber(lambda: sp.Rational(55, 100) * 11, 6, sp.Rational(1, 2), label="T5-11B at 55%: billions "
                "('~6B')"),
            QuotedNumber(lambda: sp.Rational(55, 100), sp.Rational(1, 2), sp.Rational(1, 10), label="55% vs 'roughly "
                "half'"),
            QuotedNumber(lambda: sp.Integer(128 * 128), 16 * 1024, sp.Rational(1, 2), label="T5-11B H d_a = 128 * 128 "
                "('16K')"),
            QuotedNumber(lambda: sp.Rational(128 * 128, 1024), 16, sp.Rational(1, 2), label="T5-11B H d_a / d_x"),
            QuotedNumber(lambda: sp.Rational(50257, 2000), 25, 1, label="GPT-2 vocabulary / 2000 ('~25X')"),
            QuotedNumber(lambda: sp.Integer(16 * 16 * 3), 768, sp.Rational(1, 2), label="ViT input rank cap (M/N) "
                "d_input"),
            Property(lambda: (768 < 1280 and 768 >= 768, "ViT-Huge: r <= 768 < d_x = 1280 (bottleneck); ViT-Base: "
                              "r <= 768 = d_x (full rank possible)", None),
                     name="ViT-Huge bottlenecked, ViT-Base not"),
            Property(_range, name="abstract's 25%-50% holds the body's figures",
                     perturb={"range 25%-40%": neighbour(_range, high=40), "range 30%-50%": neighbour(_range, low=30)}),
            Property(_close, name="16/680, 128/4096, 33/1280 within a factor 3/2",
                     perturb={"within a factor 5/4": neighbour(_close, factor=Fraction(5, 4))})],
)
