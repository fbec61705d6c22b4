"""JUnit XML of a claims run (``verify run --junit FILE``), and the failure text a claim prints.

One ``testcase`` per claim: ``classname`` the paper (the source document), ``name`` the claim id,
``time`` its seconds; properties ``outcome``, ``expected``, ``passage``, ``margin`` and ``source``;
the evidence in ``system-out``.  An outcome other than the expected one is a ``failure`` (its text
says expected against got, the passage, the reading and the evidence); a check that raised is an
``error``.  The suite's properties carry the run's provenance (version, registry, spec set, field,
certainty).  Written with the standard library's ``xml.etree.ElementTree`` (it escapes every
attribute and text), never by pasting strings: the format is the de-facto JUnit schema that
GitHub Actions, GitLab and Jenkins read (testsuites > testsuite > testcase).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from .run_report import strength

__all__ = ["junit_xml", "failure_text", "raised_checks", "RAISED"]

#: How ``verify.claims.record`` words the evidence of a check that raised instead of deciding.
RAISED = "check raised "
#: Characters XML 1.0 cannot hold (control characters other than tab, newline, carriage return).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _text(value) -> str:
    return _NOT_XML.sub("\ufffd", "" if value is None else str(value))


def raised_checks(record: dict) -> list[str]:
    """``name: evidence`` of every check of ``record`` (printed, corrected, gap) that raised."""
    checks = record.get("checks", []) + record.get("corrected_checks", []) + record.get("gap_checks", [])
    return [f"{c['name']}: {c['evidence']}" for c in checks if str(c.get("evidence", "")).startswith(RAISED)]


def failure_text(record: dict, registry: str | None = None) -> str:
    """What a claim with an unexpected outcome prints: expected against got, then the source, the
    passage, the printed statement, the reading(s), the evidence, and the counterexample and the
    closest strengthening where there are any."""
    where = f" (registry {registry})" if registry else ""
    lines = [f"claim {record['id']}{where}: expected {record['expected']}, got {record['outcome']}",
             f"  source:   {record['source']}",
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
    return "\n".join(lines)


def _properties(parent: ET.Element, pairs) -> None:
    node = ET.SubElement(parent, "properties")
    for name, value in pairs:
        text = " ".join(map(str, value)) if isinstance(value, (list, tuple)) else value
        ET.SubElement(node, "property", name=name, value=_text(text))


def junit_xml(records: list[dict], header: dict, registry: str | None = None) -> str:
    """The JUnit XML document (text, with its declaration) of the claim ``records`` (report.json's
    ``claims``) and the run's ``header``."""
    errors = [bool(raised_checks(rec)) for rec in records]
    failures = [not rec["as_expected"] and not err for rec, err in zip(records, errors)]
    root = ET.Element("testsuites", name="verify run")
    suite = ET.SubElement(root, "testsuite", name="verify claims" + (f" ({registry})" if registry else ""),
                          tests=str(len(records)), failures=str(sum(failures)), errors=str(sum(errors)),
                          skipped="0", time=f"{float(header.get('seconds', 0.0)):.3f}")
    _properties(suite, [(key, header[key]) for key in sorted(header)
                        if not isinstance(header[key], dict) and key not in ("rank_table", "reviewers_table")]
                + ([("registry", registry)] if registry and "registry" not in header else []))
    for rec, error, failure in zip(records, errors, failures):
        case = ET.SubElement(suite, "testcase", classname=_text(rec["document"]), name=_text(rec["id"]),
                             time=f"{float(rec.get('seconds') or 0.0):.3f}")
        _properties(case, [("outcome", rec["outcome"]), ("expected", rec["expected"]), ("passage", rec["passage"]),
                           ("margin", strength(rec)[0]), ("source", rec["source"])])
        if error:
            node = ET.SubElement(case, "error", type="CheckRaised",
                                 message=_text(f"{rec['id']}: a check raised: {raised_checks(rec)[0]}"))
            node.text = _text("\n".join(raised_checks(rec)) + "\n\n" + failure_text(rec, registry))
        elif failure:
            node = ET.SubElement(case, "failure", type="UnexpectedOutcome",
                                 message=_text(f"{rec['id']}: expected {rec['expected']}, got {rec['outcome']}"))
            node.text = _text(failure_text(rec, registry))
        ET.SubElement(case, "system-out").text = _text(rec["evidence"])
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
