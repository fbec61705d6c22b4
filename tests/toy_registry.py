"""A toy claims registry for the front-end tests (pytest plugin, JUnit, report.html): three claims
with known outcomes, decided in microseconds, with no exact rank to compute.

* ``toy_as_expected``: 1 + 1 = 2, a property with no perturbation, so ``not-decided`` (expected);
* ``toy_planted``: the same statement with a planted wrong expectation (``verified``): the one
  claim whose outcome is unexpected;
* ``toy_raises``: a check that raises (``1 / 0``), so ``violated``; expected ``violated`` here, so
  only the JUnit writer (a raising check is an error) and nothing else reports it.

Every text carries characters XML and HTML must escape (``<``, ``&``, quotes).
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

CLAIMS = {
    "toy_as_expected": ("not-decided", "lambda: (1 + 1 == 2, 'evidence <1 + 1 & \"2\">', None)"),
    "toy_planted": ("verified", "lambda: (2 + 2 == 4, 'evidence of the planted claim: 2 + 2 = 4', None)"),
    "toy_raises": ("violated", "lambda: (1 / 0, '', None)"),
}
DOCUMENT = {"toy_as_expected": "toy_paper_a.md", "toy_planted": "toy_paper_b.md", "toy_raises": "toy_paper_a.md"}

#: A claim file whose one check is a rank bound on one layer of width 2 (the registry tests' toy).
TOY_BOUND = '''
from verify.authoring import Claim, RankBound, Source

CLAIM = Claim(
    id="toy_rank_at_most_three",
    source=Source("toy", "§1", "eq. 2"),
    statement="sep <= 3 for one layer of width 2",
    expected="verified",
    checks=[RankBound(3, "upper", condition=lambda spec: spec.depth == 1 and spec.width == 2)],
)
'''

TEMPLATE = '''
from verify.authoring import Claim, Property, Source

CLAIM = Claim(
    id="{id}",
    source=Source("{document}", "§1", "eq. <1>"),
    statement="a statement with <angle> & ampersand",
    expected="{expected}",
    checks=[Property({function}, name="check of {id}")],
)
'''


def make(parent: Path, name: str = "toy_claims_registry") -> Path:
    """Write the registry package ``parent/name`` and return its folder."""
    folder = parent / name
    folder.mkdir()
    (folder / "__init__.py").write_text('"""A toy registry."""\n')
    (folder / "coverage").mkdir()
    for claim_id, (expected, function) in CLAIMS.items():
        (folder / f"{claim_id}.py").write_text(textwrap.dedent(TEMPLATE.format(
            id=claim_id, document=DOCUMENT[claim_id], expected=expected, function=function)))
    return folder


def forget(folder: Path) -> None:
    """Drop the registry's modules from this process (another test may load a folder of the same name)."""
    for name in [m for m in sys.modules if m == folder.name or m.startswith(folder.name + ".")]:
        del sys.modules[name]
