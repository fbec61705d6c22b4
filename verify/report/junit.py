"""JUnit XML of a claims run (``verify run --junit FILE``), and the texts a claim's testcase carries,
shared with the pytest plugin (``pytest --verify-claims --junitxml FILE``) so both name, map and
word a claim alike.

One ``testcase`` per claim: ``classname`` ``<registry>.<paper>`` (``registry_label`` and
``paper_label``: no file-extension dot, so viewers that split the classname at its last dot show
the registry and the paper), ``name`` the claim id, ``time`` its seconds.  A check that raised is
an ``error`` (and only that: never also counted a failure); otherwise an outcome other than the
expected one is a ``failure`` (expected against got, the passage, the reading and the evidence).
The claim's properties (``PROPERTY_NAMES``) and its evidence are the ``system-out`` text
(``system_out``), which the plugin prints, so both files validate against the Surefire/Jenkins
``junit-10.xsd`` schema, which has no ``properties`` inside a ``testcase``; testcase-level
``properties`` only on request (``testcase_properties=True``; the plugin's
``--verify-junit-properties``).  The suite's properties carry the run's provenance (version,
registry, spec set, field, certainty).  Written with the standard library's
``xml.etree.ElementTree`` (it escapes every attribute and text), never by pasting strings.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from .run_report import RAISED, raised_checks, strength

__all__ = ["junit_xml", "failure_text", "error_text", "raised_checks", "system_out", "claim_properties",
           "paper_label", "registry_label", "classname", "PROPERTY_NAMES", "RAISED"]

#: Characters XML 1.0 cannot hold (control characters other than tab, newline, carriage return).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


#: The properties of a claim's testcase, in order (both writers).
PROPERTY_NAMES = ("paper", "source", "expected", "outcome", "passage", "margin")
#: File extensions a paper's document name loses in a classname or marker.
_EXTENSIONS = (".md", ".txt", ".pdf", ".tex")


def paper_label(document: str) -> str:
    """A paper in a classname, a node id or a marker: letters, digits and ``_``, without the file
    extension (``levine2020_author_response.txt`` -> ``levine2020_author_response``).

    >>> paper_label("levine2020_author_response.txt")
    'levine2020_author_response'
    """
    stem = document.rsplit(".", 1)[0] if document.endswith(_EXTENSIONS) else document
    return "".join(ch if ch.isalnum() else "_" for ch in stem).strip("_").lower() or "unknown"


def registry_label(name: str) -> str:
    """A registry in a classname and a node id: the name of the installed entry point of
    ``verify.registries`` that points to the package ``name`` (``levine-wies``), else the package
    name; dots, slashes and other separators as ``_`` (a dot would split the classname)."""
    from ..claims.registry import registry_entry_points

    named = sorted(ep for ep, module in registry_entry_points().items() if module == name)
    return re.sub(r"[^\w-]", "_", named[0] if named else name) or "registry"


def classname(registry: str, document: str) -> str:
    """``<registry>.<paper>`` (``registry`` already a ``registry_label``)."""
    return f"{registry}.{paper_label(document)}"


def claim_properties(record: dict[str, Any]) -> list[tuple[str, str]]:
    """(name, value) of ``PROPERTY_NAMES`` for one claim record."""
    values = {"paper": record["document"], "source": record["source"], "expected": record["expected"],
              "outcome": record["outcome"], "passage": record["passage"], "margin": strength(record)[0]}
    return [(name, str(values[name])) for name in PROPERTY_NAMES]


def system_out(record: dict[str, Any]) -> str:
    """A claim's ``system-out``: its properties, one ``name: value`` line each, then its evidence."""
    return "\n".join(f"{name}: {value}" for name, value in claim_properties(record)) + ("\nevidence: "
         f"{record['evidence']}")


def _text(value) -> str:
    return _NOT_XML.sub("\ufffd", "" if value is None else str(value))


def _details(record: dict[str, Any]) -> list[str]:
    """The source, the passage, the printed statement, the reading(s), the evidence, and the
    counterexample and the closest strengthening where there are any."""
    lines = [f"  source:   {record['source']}",
             f"  passage:  {record['passage']}",
             f"  printed:  {record['statement']}"]
    readings = record.get("readings") or {}
    if readings:
        lines += [f"  reading {name}: {r['outcome']} ({r['evidence']})" for name, r in readings.items()]
    else:
        lines.append(f"  reading:  {record.get('reading') or 'the only one'}")
    lines.append(f"  evidence: {record['evidence']}")
    if record.get("counterexample") is not None:
        lines.append(f"  counterexample: {record['counterexample']}")
    if record.get("closest"):
        lines.append(f"  closest to failing: {record['closest']}")
    return lines


def failure_text(record: dict[str, Any], registry: str | None = None) -> str:
    """What a claim with an unexpected outcome prints: expected against got, then ``_details``."""
    where = f" (registry {registry})" if registry else ""
    return "\n".join([f"claim {record['id']}{where}: expected {record['expected']}, got {record['outcome']}"]
                     + _details(record))


def error_text(record: dict[str, Any], registry: str | None = None) -> str:
    """What a claim with a check that raised prints: which checks raised (so its checks did not
    decide it, whatever outcome that left), then ``_details``."""
    where = f" (registry {registry})" if registry else ""
    raised = raised_checks(record)
    lines = [f"claim {record['id']}{where}: {len(raised)} check{'s' if len(raised) != 1 else ''} raised, so the "
             f"checks did not decide the claim (recorded outcome {record['outcome']}, expected {record['expected']})"]
    return "\n".join(lines + [f"  raised:   {line}" for line in raised] + _details(record))


def _properties(parent: ET.Element, pairs) -> None:
    node = ET.SubElement(parent, "properties")
    for name, value in pairs:
        text = " ".join(map(str, value)) if isinstance(value, (list, tuple)) else value
        ET.SubElement(node, "property", name=name, value=_text(text))


def junit_xml(records: list[dict[str, Any]], header: dict[str, Any], registry: str | None = None,
              testcase_properties: bool = False) -> str:
    """The JUnit XML document (text, with its declaration) of the claim ``records`` (report.json's
    ``claims``) and the run's ``header``.  ``registry``: the registry's package name (default the
    header's ``registry``); ``testcase_properties`` also writes each claim's properties as a
    testcase-level ``properties`` element (not valid against junit-10.xsd; off by default)."""
    registry = registry or header.get("registry")
    label = registry_label(registry) if registry else "claims"
    errors = [bool(raised_checks(rec)) for rec in records]
    failures = [not rec["as_expected"] and not err for rec, err in zip(records, errors, strict=False)]
    root = ET.Element("testsuites", name="verify run")
    suite = ET.SubElement(root, "testsuite", name="verify claims" + (f" ({label})" if registry else ""),
                          tests=str(len(records)), failures=str(sum(failures)), errors=str(sum(errors)),
                          skipped="0", time=f"{float(header.get('seconds', 0.0)):.3f}")
    _properties(suite, [(key, header[key]) for key in sorted(header)
                        if not isinstance(header[key], dict) and key not in ("rank_table", "reviewers_table")]
                + ([("registry", registry)] if registry and "registry" not in header else []))
    for rec, error, failure in zip(records, errors, failures, strict=False):
        case = ET.SubElement(suite, "testcase", classname=_text(classname(label, rec["document"])),
                             name=_text(rec["id"]), time=f"{float(rec.get('seconds') or 0.0):.3f}")
        if testcase_properties:
            _properties(case, claim_properties(rec))
        if error:
            node = ET.SubElement(case, "error", type="CheckRaised",
                                 message=_text(f"{rec['id']}: a check raised: {raised_checks(rec)[0]}"))
            node.text = _text(error_text(rec, label))
        elif failure:
            node = ET.SubElement(case, "failure", type="UnexpectedOutcome",
                                 message=_text(f"{rec['id']}: expected {rec['expected']}, got {rec['outcome']}"))
            node.text = _text(failure_text(rec, label))
        ET.SubElement(case, "system-out").text = _text(system_out(rec))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
