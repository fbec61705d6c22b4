"""How report.html cites a paper: authors, year, venue and arXiv id, read from the one place a registry
states them, the ``citation`` line of each file of its coverage index (``proofs/coverage/*.toml``, e.g.
``"Levine, Wies, Sharir, Bata, Shashua. Limits to Depth Efficiencies of Self-Attention. NeurIPS 2020.
arXiv:2006.12467"``: authors, title, venue and year, arXiv id, as docs/claims.md describes).

>>> c = parse("Levine, Wies, Sharir, Bata, Shashua. Limits to Depth Efficiencies of Self-Attention. "
...           "NeurIPS 2020. arXiv:2006.12467")
>>> c.short, c.year, c.venue, c.arxiv
('Levine et al. 2020', '2020', 'NeurIPS 2020', 'arXiv:2006.12467')
>>> parse("Wies, Levine. A title. ICML 2021").short, parse("Wies. A title. ICML 2021").short
('Wies and Levine 2021', 'Wies 2021')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..claims.registry import Registry, RegistrySource

__all__ = ["Citation", "parse", "registry_citations"]

_ARXIV = re.compile(r"arXiv:\s*(\d{4}\.\d{4,5}(?:v\d+)?)")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


@dataclass(frozen=True)
class Citation:
    """One paper: ``authors`` (surnames), ``title``, ``venue`` (with its year), ``year``, ``arxiv``
    (``arXiv:NNNN.NNNNN`` or ""), ``note`` (what follows the arXiv id, e.g. "revised supplementary
    material") and ``text``, the citation line as the registry gives it."""

    authors: tuple[str, ...]
    title: str
    venue: str
    year: str
    arxiv: str
    note: str
    text: str

    @property
    def short(self) -> str:
        """``Levine et al. 2020``, ``Wies and Levine 2021`` or ``Wies 2021``: how the page names the paper."""
        names = (f"{self.authors[0]} et al." if len(self.authors) > 2 else " and ".join(self.authors)) or self.title
        return f"{names} {self.year}".strip()

    @property
    def line(self) -> str:
        """Authors, year, venue and arXiv id in one line: ``Levine et al. 2020, NeurIPS 2020, arXiv:2006.12467``."""
        return ", ".join(part for part in (self.short, self.venue, self.arxiv) if part) + \
            (f" ({self.note})" if self.note else "")


def parse(text: str) -> Citation:
    """The ``Citation`` of a coverage index's ``citation`` line (sentences: authors. title. venue year.
    arXiv:id), tolerant of missing parts (an author response has no arXiv id of its own)."""
    sentences = [s.strip() for s in re.split(r"\.\s+(?=[A-Za-z])", text.strip()) if s.strip()]
    authors = tuple(a.strip() for a in sentences[0].split(",") if a.strip()) if sentences else ()
    title = sentences[1] if len(sentences) > 1 else ""
    venue = next((s for s in sentences[2:] if _YEAR.search(s) and not _ARXIV.search(s)), "")
    year = _YEAR.search(venue or text)
    arxiv = _ARXIV.search(text)
    note = text[arxiv.end():].strip().strip("()").strip() if arxiv else ""
    return Citation(authors, title, venue.rstrip("."), year.group(0) if year else "",
                    f"arXiv:{arxiv.group(1)}" if arxiv else "", note, text.strip())


def registry_citations(registry: RegistrySource | Registry = None) -> dict[str, Citation]:
    """document (a claim's ``source.document``) -> its ``Citation``, from the registry's coverage index;
    {} for a registry without one (the page then names the documents by their file names)."""
    from ..claims.coverage import default_directory, load_index
    from ..errors import InputError

    try:
        parts, _, _ = load_index(default_directory(registry))
    except InputError:
        return {}
    found: dict[str, Citation] = {}
    for part in parts:  # the first file of a document names it (its parts share the paper)
        if part["document"] and part["citation"] and part["document"] not in found:
            found[part["document"]] = parse(part["citation"])
    return found
