"""Every field the recheck reads, checked for its type and range before any check or price uses it (issue 46
item 4): a malformed field is one line naming the file, the row and the field (``BadInput``, exit 2).

Why the ranges: each is what keeps every closed form of ``formulas`` under about a second and every price of
``network`` finite (measured: the block bound (B1)-(B4) at depth 8 and width 64 with residual connections
1.6 s; eq. 7.4 with the caps at depth 7, N = 256 0.2 s); a file beyond them is refused, not run.  They are far
beyond what any export of verify holds (depth <= 5, width <= 13, N <= 64 in results/).
"""

from __future__ import annotations

import math
from typing import Any

from .core import BadInput
from .reading import MAX_INT_DIGITS, NotFinite, TooLong

__all__ = ["Fields", "LIMITS", "validate_sep", "validate_token_cell", "pairs"]

#: The ranges read (inclusive), named in every refusal.
LIMITS = {
    "sep_depth": (1, 8),        # continuous networks (table, report, reach, store sep rows, certificates)
    "token_depth": (1, 7),      # token networks (probe-n, atlas, cells, store probe_step rows)
    "width": (1, 64),
    "heads": (1, 64),
    "attn_dim": (1, 64),
    "vocab": (1, 2**20),
    "embedding_rank": (1, 64),
    "positional_rank": (0, 16),
    "tokens": (2, 256),
    "rank": (0, 10**12),        # a rank of a matrix the engine can eliminate
    "bound": (0, 10**MAX_INT_DIGITS),
    "seed": (-(2**63), 2**64),
    "weight_range": (1, 2**62),
    "prime": (0, 2**64),
    "integer": (-(10**MAX_INT_DIGITS), 10**MAX_INT_DIGITS),  # a value judged by its check, any sign
}


def _show(value) -> str:
    if isinstance(value, (TooLong, NotFinite)):
        return repr(value)
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class Fields:
    """The fields of one row (a dict of JSON values, or of CSV texts), read with their type and range."""

    path: str
    where: str
    data: dict[str, Any]  # refused at construction unless a dict
    texts: bool

    def __init__(self, path: str, where: str, data, texts: bool = False):
        """``texts``: the row of a CSV table, whose fields are texts (JSON fields have their JSON types)."""
        self.path, self.where, self.data, self.texts = path, where, data, texts
        if not isinstance(data, dict):
            raise BadInput(f"{path} {where}: a {type(data).__name__} where an object of fields belongs; pass the "
                           f"file verify wrote")

    def bad(self, name: str, value, want: str):
        raise BadInput(f"{self.path} {self.where}: field '{name}' = {_show(value)} is not {want}; pass the file "
                       f"verify wrote")

    def has(self, name: str) -> bool:
        value = self.data.get(name)
        return value is not None and not (isinstance(value, str) and value.strip() in ("", "-"))

    def int(self, name: str, limit: str, optional: bool = False, even: bool = False):
        """An integer in ``LIMITS[limit]`` (a JSON integer, or a CSV text of digits); None if optional and absent."""
        lo, hi = LIMITS[limit]
        want = f"an integer in [{lo}, {hi}]" if hi < 10**20 else (
            f"an integer of at most {MAX_INT_DIGITS} digits" + (", >= 0" if lo == 0 else ""))
        if name not in self.data and not optional:
            raise BadInput(f"{self.path} {self.where}: field '{name}' is missing; pass the file verify wrote")
        if not self.has(name):
            if optional:
                return None
            self.bad(name, self.data.get(name), want)
        value = self.data[name]
        if isinstance(value, str) and self.texts:
            value = self.csv_int(name, value, want)
        if isinstance(value, bool) or not isinstance(value, int) or isinstance(value, TooLong):
            self.bad(name, value, want)
        if not lo <= value <= hi or (even and value % 2):
            self.bad(name, value, want + (", even" if even else ""))
        return value

    def csv_int(self, name: str, text: str, want: str) -> int:
        digits = text.strip()
        body = digits[1:] if digits[:1] in "+-" else digits
        if not body.isdigit() or not body.isascii():
            self.bad(name, text, want)
        if len(body) > MAX_INT_DIGITS:
            self.bad(name, TooLong(len(body)), want)
        return int(digits)

    def number(self, name: str, lo: float = -math.inf, hi: float = math.inf, optional: bool = True):
        """A finite number in [lo, hi] (JSON number or a CSV/JSON text of one)."""
        if not self.has(name):
            if optional:
                return None
            self.bad(name, self.data.get(name), "a number")
        value = self.data[name]
        want = f"a finite number in [{lo:g}, {hi:g}]"
        if isinstance(value, str) and self.texts:
            if len(value) > 64:
                self.bad(name, value, want)
            try:
                value = float(value)
            except ValueError:
                self.bad(name, value, want)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or isinstance(value, TooLong):
            self.bad(name, value, want)
        if not math.isfinite(value) or not lo <= value <= hi:
            self.bad(name, value, want)
        return value

    def text(self, name: str, optional: bool = True):
        if name not in self.data or self.data[name] is None:
            if optional:
                return None
            raise BadInput(f"{self.path} {self.where}: field '{name}' is missing; pass the file verify wrote")
        if not isinstance(self.data[name], str):
            self.bad(name, self.data[name], "a text")
        return self.data[name]

    def flag(self, name: str, optional: bool = True):
        value = self.data.get(name)
        if value is None and optional:
            return None
        if self.texts and isinstance(value, str) and value.strip().lower() in ("true", "false", ""):
            return value
        if not isinstance(value, bool):
            self.bad(name, value, "true or false")
        return value

    def array(self, name: str, optional: bool = True) -> list | None:
        value = self.data.get(name)
        if value is None and optional:
            return None
        if not isinstance(value, list):
            self.bad(name, value, "a list")
        return value

    def obj(self, name: str, optional: bool = True) -> dict | None:
        value = self.data.get(name)
        if value is None and optional:
            return None
        if not isinstance(value, dict):
            self.bad(name, value, "an object")
        return value


def pairs(fields: Fields, name: str, value_check=None) -> dict:
    """A CSV cell 'N:value N:value ...' (N an even token count in range), values checked by ``value_check``."""
    out = {}
    for item in (fields.text(name) or "").split():
        n, sep, value = item.partition(":")
        if not sep or not n.isdigit() or len(n) > 4 or not (2 <= int(n) <= LIMITS["tokens"][1]) or int(n) % 2:
            fields.bad(name, item, f"'N:value' pairs with N an even count in [2, {LIMITS['tokens'][1]}]")
        if value_check is not None and not value_check(value):
            fields.bad(name, item, "'N:value' pairs of the documented form")
        out[int(n)] = value
    return out


def is_count(text: str) -> bool:
    return text.isdigit() and text.isascii() and len(text) <= 13  # at most LIMITS["rank"]


def validate_sep(fields: Fields, depth="depth", width="width", heads="heads", rank="rank") -> None:
    """The fields a sep row's checks read (``sep.check_sep_row``)."""
    w = fields.int(width, "width")
    fields.int(depth, "sep_depth")
    h = fields.int(heads, "heads")
    if h > w:
        fields.bad(heads, h, f"at most the width {w}")
    fields.int("attn_dim", "attn_dim", optional=True)
    fields.int(rank, "rank")
    for name in ("seed",):
        fields.int(name, "seed", optional=True)
    fields.int("valid_from_tokens", "tokens", optional=True, even=True)
    fields.int("upper_bound", "bound", optional=True)
    fields.number("probability_bound", 0, 1)
    fields.number("log3_sep")
    fields.text("certainty")
    fields.text("regime")


def validate_token_cell(fields: Fields, depth="depth", width="width", heads="heads", vocab="vocab",
                        rank="rank", positional_rank="positional_rank", seed="seed", prime=None) -> None:
    """The fields that make a token network (``tokens.Cell``)."""
    w = fields.int(width, "width")
    fields.int(depth, "token_depth")
    h = fields.int(heads, "heads")
    if h > w:
        fields.bad(heads, h, f"at most the width {w}")
    fields.int("attn_dim", "attn_dim", optional=True)
    fields.int(vocab, "vocab")
    fields.int(rank, "embedding_rank")
    fields.int(positional_rank, "positional_rank", optional=True)
    fields.int(seed, "seed", optional=True)
    fields.int("weight_range", "weight_range", optional=True)
    if prime is not None:
        fields.int(prime, "prime", optional=True)
