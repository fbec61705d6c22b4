"""A computed separation rank and what it certifies, as every route returns it."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

from ..exact.kernels import factorization_check
from ..model.spec import NetworkSpec
from .certainty import Certainty

__all__ = ["SepResult"]


@dataclass
class SepResult:
    """A computed separation rank and what it certifies."""

    rank: int
    method: str
    field: str
    spec: NetworkSpec
    seed: int
    partition: tuple[Any, ...] | None
    certainty: Certainty
    blocks: list[Any] = dc_field(default_factory=list)
    notes: list[Any] = dc_field(default_factory=list)
    seconds: float = 0.0
    extra: dict[Any, Any] = dc_field(default_factory=dict)

    def as_dict(self) -> dict[Any, Any]:
        out = {
            "rank": self.rank,
            "method": self.method,
            "field": self.field,
            "depth": self.spec.depth,
            "width": self.spec.width,
            "heads": self.spec.heads,
            "attn_dim": self.spec.attn_dim,
            "tokens": self.spec.tokens,
            "output": self.spec.output,
            "position": self.spec.position,
            "residual": self.spec.residual,
            "seed": self.seed,
            "partition": list(self.partition) if self.partition is not None else None,
            "certified_lower_bound": self.certainty.certified_lower_bound,
            "probability_bound": self.certainty.probability_bound,
            "meaning": self.certainty.explanation,
            "certified_exact": self.certainty.certified_exact,
            "blocks": [{"rows": b.rows, "cols": b.cols, "rank": b.rank, "compressed_to": b.compressed_to,
                        "implied_by": b.implied_by, "upper_bound": getattr(b, "upper_bound", None),
                        "seconds": getattr(b, "seconds", None)}
                       for b in self.blocks],
            "notes": list(self.notes),
            "seconds": round(self.seconds, 3),
        }
        # the kernel that ranked each block says whether (and how) it verified its factorization before
        # returning (verify.exact.kernels.factorization_check): the float PLUQ and the block LU do
        modulus = int(self.field[3:]) if self.field.startswith("gf:") and self.field[3:].isdigit() else None
        checks = [c for c in (factorization_check(getattr(b, "elimination", None), modulus) for b in self.blocks) if c]
        out["factorization_check"] = {
            "method": " + ".join(sorted({c[0] for c in checks})), "blocks_checked": len(checks),
            "false_pass_per_block_at_most": max(checks, key=lambda c: c[1])[2]} if checks else None
        out.update(self.extra)
        return out

    def _repr_markdown_(self) -> str:
        """A notebook's view: the rank, the network, what the rank certifies, its probability bound, the route."""
        s, p = self.spec, self.certainty.probability_bound
        bound = "" if p in (None, 0.0) else f", probability of being below the generic rank at most {p:.3g}"
        return (f"**sep = {self.rank:,}** for depth {s.depth}, width {s.width}, {s.heads} head(s): "
                f"{self.certainty.label}{bound} ({self.method} route over {self.field}, seed {self.seed}, "
                f"{self.seconds:.1f} s)\n")

    def _repr_html_(self) -> str:
        from html import escape

        head, rest = self._repr_markdown_().strip().replace("**", "").split(":", 1)
        return f"<p><b>{escape(head)}</b>:{escape(rest)}</p>"

