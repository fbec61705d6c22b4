"""The coverage index: every checkable statement of the documents, with its claims or a reason.

One TOML file per document part in the registry's ``coverage/`` folder (read with ``tomllib``)::

    document = "levine2020_limits_to_depth_efficiencies.md"   # as in Source.document
    part = "main text"
    citation = "Levine, Wies, Sharir, Bata, Shashua. ... arXiv:2006.12467"

    [[entry]]
    id = "thm1"                       # unique in the file; globally "<file stem>:<id>"
    place = "§4.1, Theorem 1, eq. 6"
    kind = "theorem"                  # one of KINDS
    statement = "one line"
    claims = ["levine2020_theorem1_upper"]   # claim ids that check it, or:
    reason = "why it cannot be checked"

An entry is covered when it names at least one claim or gives a reason; every named claim id must
exist in the registry.  A reason starting with "pending" marks a claim still to be written; it is
counted apart.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputError

if TYPE_CHECKING:
    from .registry import Registry, RegistrySource

__all__ = ["KINDS", "Entry", "default_directory", "load_index", "summarise"]

KINDS = ("theorem", "lemma", "claim", "corollary", "proposition", "definition", "equation", "inequality",
         "recursion", "count", "closed-form", "construction", "index-map", "weight", "number", "table",
         "remark", "conjecture", "experiment")


@dataclass(frozen=True)
class Entry:
    """One statement of a document part and what decides it."""

    file: str
    document: str
    id: str
    place: str
    kind: str
    statement: str
    claims: tuple[Any, ...]
    reason: str

    @property
    def global_id(self) -> str:
        return f"{self.file}:{self.id}"

    @property
    def pending(self) -> bool:
        return not self.claims and self.reason.lower().startswith("pending")


def default_directory(registry: RegistrySource | Registry = None) -> Path:
    """The ``coverage/`` folder of the registry (``verify.claims.registry.find_registry(registry)``)."""
    from .registry import find_registry

    return find_registry(registry).directory / "coverage"


def load_index(directory: Path | None = None) -> tuple[list[dict[Any, Any]], list[Entry], list[str]]:
    """Read every ``*.toml`` of ``directory`` (default ``default_directory()``).

    Returns
    -------
    (parts, entries, problems)
        One dict per file (file, document, part, citation), every entry, and the format problems
        found (a missing field, an unknown kind, a duplicate id), one line each.
    """
    directory = Path(directory) if directory is not None else default_directory()
    fix = "give --dir with the registry's coverage folder"
    if directory.exists() and not directory.is_dir():
        raise InputError(f"coverage directory {str(directory)!r} is a file, not a folder; {fix}")
    if not directory.is_dir():
        raise InputError(f"coverage directory {str(directory)!r} does not exist; {fix}")
    files = sorted(directory.glob("*.toml"))
    parts, entries, problems = [], [], []
    if not files:  # an empty index covers nothing: incomplete, not complete
        problems.append(f"{directory}: no *.toml index file, so no statement is covered; add the index files "
                        f"(one per document part), or {fix}")
    for path in files:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise InputError(f"{path.name} is not valid TOML ({exc}); fix the file") from None
        stem = path.stem
        parts.append({"file": stem, "document": data.get("document", ""), "part": data.get("part", ""),
                      "citation": data.get("citation", "")})
        for key in ("document", "part", "citation"):
            if not data.get(key):
                problems.append(f"{stem}: no {key}")
        seen = set()
        raws = data.get("entry", [])
        if not isinstance(raws, list):
            problems.append(f"{stem}: entry must be an array of tables ([[entry]]), got {type(raws).__name__}")
            raws = []
        for i, raw in enumerate(raws):
            if not isinstance(raw, dict):
                problems.append(f"{stem}: entry #{i + 1} is not a table ([[entry]])")
                continue
            claims = raw.get("claims", []) or []
            bad_claims = not isinstance(claims, list) or not all(isinstance(c, str) for c in claims)
            entry = Entry(stem, data.get("document", ""), str(raw.get("id", "")), str(raw.get("place", "")),
                          str(raw.get("kind", "")), str(raw.get("statement", "")),
                          () if bad_claims else tuple(claims), str(raw.get("reason", "") or ""))
            where = f"{stem}:{entry.id or f'entry #{i + 1}'}"
            if bad_claims:  # a string would be read character by character as claim ids
                problems.append(f"{where}: claims must be a list of claim ids, e.g. claims = [\"an_id\"], "
                                f"got {claims!r:.60}")
            for key in ("id", "place", "kind", "statement"):
                if not getattr(entry, key):
                    problems.append(f"{where}: no {key}")
            if entry.kind and entry.kind not in KINDS:
                problems.append(f"{where}: kind {entry.kind!r} is not one of {', '.join(KINDS)}")
            if entry.id in seen:
                problems.append(f"{where}: duplicate id")
            seen.add(entry.id)
            entries.append(entry)
    return parts, entries, problems


def summarise(parts: list[dict[Any, Any]], entries: list[Entry], claim_ids: set[Any]) -> dict[Any, Any]:
    """Counts per file and in total, and the entries that fail the index's rules.

    Per file: entries, with_claim, with_reason (no claim), pending (a "pending" reason), neither,
    unknown_claims (claim ids that are not in the registry).
    """
    rows = []
    for part in parts:
        mine = [e for e in entries if e.file == part["file"]]
        unknown = [f"{e.global_id} -> {c}" for e in mine for c in e.claims if c not in claim_ids]
        rows.append({**part, "entries": len(mine), "with_claim": sum(1 for e in mine if e.claims),
                     "with_reason": sum(1 for e in mine if not e.claims and e.reason.strip()),
                     "pending": sum(1 for e in mine if e.pending),
                     "neither": sum(1 for e in mine if not e.claims and not e.reason.strip()),
                     "unknown_claims": unknown})
    totals = {key: sum(r[key] for r in rows) for key in ("entries", "with_claim", "with_reason", "pending", "neither")}
    totals["unknown_claims"] = sum(len(r["unknown_claims"]) for r in rows)
    neither = [e.global_id for e in entries if not e.claims and not e.reason.strip()]
    return {"documents": rows, "totals": totals, "neither": neither,
            "unknown_claims": [u for r in rows for u in r["unknown_claims"]],
            "claims_cited": len({c for e in entries for c in e.claims} & claim_ids),
            "claims_uncited": sorted(claim_ids - {c for e in entries for c in e.claims})}
