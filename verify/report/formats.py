"""The API's output formats, for the CLI and scripts: the reviewers' table as markdown or CSV, the claims'
table, JUnit XML of a claims run, the store's CSV export and the plots. Each is a thin door onto the
module that owns the format (``sweeps.table``, ``report.run_report``, ``report.junit``, ``sweeps.store``,
``report.plot``); the command line imports this module directly."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..rank.certainty import PRIME_CONDITION
from ..schema import stamp
from ..sweeps.headline import probability_text

if TYPE_CHECKING:
    from ..claims.registry import Registry, RegistrySource

__all__ = ["PRIME_CONDITION", "probability_text", "stamp", "table_markdown", "table_csv", "claims_table", "junit_xml",
           "export_csv", "plot_probe", "plot_table", "require_matplotlib", "ReviewersTable"]


class ReviewersTable(dict[str, Any]):
    """What ``verify.reviewers_table`` returns: the dict it always returned (``rows``, ``skipped``, ``sweep``,
    ...; ``json.dumps`` takes it as it is), shown in a notebook as the table ``verify table`` prints:
    Markdown (``_repr_markdown_``) or HTML (``_repr_html_``), bound ids B<n> as everywhere."""

    registry: RegistrySource | Registry

    def __init__(self, data: dict[str, Any], registry: RegistrySource | Registry = None) -> None:
        super().__init__(data)
        self.registry = registry

    def _repr_markdown_(self) -> str:
        return table_markdown(self["rows"], self.registry)

    def _repr_html_(self) -> str:
        from ..sweeps.table import _grid, bound_columns
        from .html_report import _reviewers_section

        head, body, used = _grid(self["rows"], bound_columns(registry=self.registry))
        notes = [f"{col.id}: {col.claim_id}, {col.check.kind} bound, {col.source}" + col.note for col in used]
        return _reviewers_section({"columns": head, "rows": body, "notes": notes})


def table_markdown(rows: list[dict[str, Any]], registry: RegistrySource | Registry = None) -> str:
    """The reviewers' table as markdown, its bound columns read from the registry."""
    from ..sweeps.table import bound_columns, markdown

    return markdown(rows, bound_columns(registry=registry))


def table_csv(rows: list[dict[str, Any]], registry: RegistrySource | Registry = None) -> str:
    """The reviewers' table as CSV, its bound columns read from the registry."""
    from ..claims.registry import find_registry
    from ..sweeps.table import bound_columns
    from .table_csv import to_csv

    return to_csv(rows, bound_columns(registry=registry), find_registry(registry).name)


def claims_table(records: list[dict[str, Any]]) -> tuple[str, str]:
    """The claims' table and the one-line summary of their outcomes."""
    from .run_report import summary, table

    return table(records), summary(records)


def junit_xml(records: list[dict[str, Any]], header: dict[str, Any], testcase_properties: bool = False) -> str:
    """JUnit XML of a claims run (``verify run --junit``): see ``verify.report.junit``
    (``testcase_properties``: also each claim's properties inside its testcase, which the
    junit-10.xsd schema does not allow)."""
    from .junit import junit_xml as write

    return write(records, header, header.get("registry"), testcase_properties)


def export_csv(rows: list[dict[str, Any]]) -> str:
    from ..sweeps.store import export_csv as flat

    return flat(rows)


def plot_probe(data: dict[str, Any], path: str, field: str | None = None, seed: int | None = None) -> None:
    from .plot import plot_probe as draw

    draw(data, path, field=field, seed=seed)


def plot_table(rows: list[dict[str, Any]], path: str, title: str | None = None) -> None:
    from .plot import plot_table as draw

    draw(rows, path, title=title)


def require_matplotlib() -> None:
    """Refuse (InputError naming the install command) a plot asked for without matplotlib, before any work."""
    from .plot import require_matplotlib as require

    require()
