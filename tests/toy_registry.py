"""A toy claims registry for the front-end tests (pytest plugin, JUnit, report.html): three claims
with known outcomes, decided in microseconds, with no exact rank to compute.

* ``toy_as_expected``: 1 + 1 = 2, a property with no perturbation, so ``not-decided`` (expected);
* ``toy_planted``: the same statement with a planted wrong expectation (``verified``): the one
  claim whose outcome is unexpected;
* ``toy_raises``: a check that raises (``1 / 0``), so ``violated``; expected ``violated`` here, so
  only the JUnit writers (a raising check is an error) and nothing else report it.

``toy_paper_b`` is a ``.txt`` document (its marker and classname lose the extension, as ``.md`` ones
do).  ``make(..., extra=True)`` adds two claims for the error mapping (``EXTRA``):

* ``toy_raises_unexpected``: a check that raises and an expectation (``verified``) it misses: an
  error, and only an error (never also counted a failure);
* ``toy_gap_raises``: the printed statement holds (``not-decided``) and its proof-gap check raises,
  so ``violated`` as expected: still an error.

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
DOCUMENT = {"toy_as_expected": "toy_paper_a.md", "toy_planted": "toy_paper_b.txt", "toy_raises": "toy_paper_a.md",
            "toy_raises_unexpected": "toy_paper_b.txt", "toy_gap_raises": "toy_paper_a.md"}
#: The JUnit classname of each claim: the registry's folder name and the paper without its extension
#: (written out here, not computed by the code under test).
CLASSNAME = {"toy_as_expected": "toy_claims_registry.toy_paper_a", "toy_raises": "toy_claims_registry.toy_paper_a",
             "toy_gap_raises": "toy_claims_registry.toy_paper_a", "toy_planted": "toy_claims_registry.toy_paper_b",
             "toy_raises_unexpected": "toy_claims_registry.toy_paper_b"}
#: The extra claims of ``make(..., extra=True)``: id -> (expected, check functions, gap check functions).
EXTRA = {
    "toy_raises_unexpected": ("verified", "lambda: (1 / 0, '', None)", None),
    "toy_gap_raises": ("violated", "lambda: (True, 'holds', None)", "lambda: ({}[1], '', None)"),
}

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


GAP_TEMPLATE = '''
from verify.authoring import Claim, Property, Source

CLAIM = Claim(
    id="{id}",
    source=Source("{document}", "§2", "eq. 3"),
    statement="a statement whose printed proof has a gap",
    expected="{expected}",
    checks=[Property({function}, name="check of {id}")],
    gap="the proof's last step",
    gap_checks=[Property({gap}, name="gap check of {id}")],
)
'''


def make(parent: Path, name: str = "toy_claims_registry", extra: bool = False) -> Path:
    """Write the registry package ``parent/name`` (with ``EXTRA`` too when ``extra``) and return its folder."""
    folder = parent / name
    folder.mkdir()
    (folder / "__init__.py").write_text('"""A toy registry."""\n')
    (folder / "coverage").mkdir()
    for claim_id, (expected, function) in CLAIMS.items():
        (folder / f"{claim_id}.py").write_text(textwrap.dedent(TEMPLATE.format(
            id=claim_id, document=DOCUMENT[claim_id], expected=expected, function=function)))
    for claim_id, (expected, function, gap) in (EXTRA.items() if extra else ()):
        template = GAP_TEMPLATE if gap else TEMPLATE
        (folder / f"{claim_id}.py").write_text(textwrap.dedent(template.format(
            id=claim_id, document=DOCUMENT[claim_id], expected=expected, function=function, gap=gap)))
    return folder


def make_bound(parent: Path, name: str = "toy_bound_registry") -> Path:
    """A one-claim registry whose one check is a rank bound on one layer of width 2 (``TOY_BOUND``)."""
    folder = parent / name
    (folder / "coverage").mkdir(parents=True)
    (folder / "__init__.py").write_text('"""A one-claim toy registry."""\n')
    (folder / "toy_rank_at_most_three.py").write_text(TOY_BOUND)
    return folder


def forget(folder: Path) -> None:
    """Drop the registry's modules from this process (another test may load a folder of the same name)."""
    for name in [m for m in sys.modules if m == folder.name or m.startswith(folder.name + ".")]:
        del sys.modules[name]


def schema_errors(path) -> list[str]:
    """Where the JUnit file ``path`` breaks tests/junit.xsd (the rules of the Surefire/Jenkins
    junit-10.xsd), as lxml's validator reports them; empty: it validates."""
    from lxml import etree

    schema = etree.XMLSchema(etree.parse(str(Path(__file__).with_name("junit.xsd"))))
    return [] if schema.validate(etree.parse(str(path))) else [str(e) for e in schema.error_log]
