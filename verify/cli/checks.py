"""Checks done before any work: argument values at parse time (each message gives the valid
range) and output paths (a file or folder the command could not write is refused up front, so a
long computation is never lost to a typo in ``--out``)."""

from __future__ import annotations

import argparse
import math
import os
import tempfile
from pathlib import Path

from ..errors import InputError
from ..exact.fields import DEFAULT_PRIME, parse_field
from ..files import STDOUT, check_output, is_stream

__all__ = ["int_range", "memory_limit", "field_text", "writable_file", "writable_dir", "plot_file", "route_size", "weights_size",
           "MAX_DEPTH", "MAX_WIDTH", "MAX_TOKENS"]

#: Largest depth the parser accepts: C(L) = (3^L - 1)/2 is already above 10^9 at L = 20, far past
#: anything an estimate lets through, and every estimate stays closed-form below this.
MAX_DEPTH = 64
#: Largest width the parser accepts (the estimates refuse far smaller ones at any depth).
MAX_WIDTH = 10**6
#: Largest value of the other integer options (vocabulary, templates; seeds are unbounded).
MAX_COUNT = 10**9
#: Largest sequence length the parser accepts (the exact routes refuse far smaller ones).
MAX_TOKENS = 10**4
#: Balanced partitions ``--all-partitions`` may visit.
MAX_PARTITIONS = 10**4


def int_range(option: str, low: int, high: int | None = None, what: str | None = None):
    """An argparse ``type`` accepting integers in [low, high]; the message names the range.

    >>> int_range("--depth", 1, 64)("3")
    3
    """
    span = f"from {low} to {high:,}" if high is not None else f"at least {low}"
    name = f"{option} ({what})" if what else option

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer {span}, got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{name} must be an integer {span}, got {value}")
        return value

    parse.__name__ = option  # argparse names the type in its own messages
    return parse


def memory_limit(text: str) -> float:
    """``--max-memory-gib``: a finite number above 0 (nan, inf and negatives would disable the limit).

    >>> memory_limit("0.5")
    0.5
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0 or value > 2**40:
        raise argparse.ArgumentTypeError(f"--max-memory-gib must be a number above 0 and at most 2^40, got "
                                         f"{text!r}; e.g. --max-memory-gib 16")
    return value


def field_text(text: str) -> str:
    """``--field``: ``qq`` or ``gf:P`` with P a prime below 2^63 (the moment tables and matrices hold
    residues in signed 64-bit words), returned as given.

    >>> field_text("gf:101")
    'gf:101'
    """
    try:
        field = parse_field(text)
    except InputError as exc:
        raise argparse.ArgumentTypeError(f"--field {text!r}: {exc}") from None
    if field.modulus is not None and field.modulus >= 2**63:
        raise argparse.ArgumentTypeError(f"--field modulus {field.modulus} is above 2^63; the exact routes hold "
                                         f"residues in 64-bit words, so use a prime below 2^63, e.g. "
                                         f"gf:{DEFAULT_PRIME}")
    return text


def _probe_folder(folder: Path, option: str, what: str) -> None:
    """Create ``folder`` if needed and write (then delete) a scratch file in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, scratch = tempfile.mkstemp(dir=folder, prefix=".verify-probe.")
        os.close(fd)
        os.unlink(scratch)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise InputError(f"{option} {what}: cannot write in {folder} ({reason}); choose a writable path") from None


def writable_file(path: str | None, option: str) -> None:
    """Refuse an output file that could not be written, before any work is done (``-`` is stdout;
    a symlink, ``/dev/null`` or a FIFO is accepted and written the way ``verify.files`` writes it)."""
    check_output(path, option)


def plot_file(path: str | None, option: str = "--plot") -> None:
    """Refuse, before any work, a plot path that is not a .png (or ``-``), not writable, or a plot
    without matplotlib installed."""
    if path is None:
        return
    if not is_stream(path) and not path.lower().endswith(".png"):
        raise InputError(f"plot file {path!r} must end in .png; use e.g. {option} plot.png")
    check_output(path, option)
    from ..sweeps.plot import require_matplotlib
    require_matplotlib()


def writable_dir(path: str, option: str) -> None:
    """Refuse an output folder that is a file or could not be created or written."""
    target = Path(path)
    if path == STDOUT:
        raise InputError(f"{option} - (stdout) cannot hold the report files; give a folder name, e.g. "
                         f"{option} verify-report (--json prints the report on stdout)")
    if target.exists() and not target.is_dir():
        raise InputError(f"{option} {path} is an existing file, not a folder; give a folder name for the reports, "
                         f"e.g. {option} verify-report")
    _probe_folder(target, option, path)


#: Bytes one drawn weight costs: a Python int (28-32 bytes) in a tuple (8), and the products the
#: routes form from them; 24 million weights (depth 2, width 3, d_a 10^6) measured 1.37 GB peak.
WEIGHT_BYTES = 64


def weights_size(spec, max_memory_gib: float) -> None:
    """Refuse (InputError), before any weight is drawn, weights estimated above the memory limit:
    4 L H d_a d_x integers (W^Q, W^K, W^V, W^O per head and layer, eq. 3) at ``WEIGHT_BYTES`` each.
    ``--attn-dim`` enters only here (no route's estimate depends on it)."""
    from ..rank.memory import guard

    count = 4 * spec.depth * spec.heads * spec.attn_dim * spec.width
    guard(count * WEIGHT_BYTES, max_memory_gib,
          f"the {count:,} weights of depth {spec.depth}, width {spec.width}, heads {spec.heads}, d_a {spec.attn_dim}",
          "use a smaller --attn-dim (default d_x/H)")


def route_size(spec, method: str, templates: int | None, max_evaluations: int, max_memory_gib: float,
               all_partitions: bool = False) -> None:
    """Refuse (InputError), in closed form and before anything is built, a coefficient or grid route
    (or a ``--all-partitions`` loop) that could not finish: the checks the routes make themselves,
    but on the log scale, so absurd sizes answer at once instead of computing the numbers.

    Coefficient route: y_p^i has at least binom(C + m - 1, C) monomials, m = (N - 1) d_x (x^i_p
    times the square of any degree-C(L) monomial in the other positions), at >= 500 bytes a term.
    Grid route: M^N evaluations for M templates per position.
    """
    from math import comb, log2

    from ..rank.memory import guard_log2, log2_multichoose

    n = spec.tokens
    weights_size(spec, max_memory_gib)
    if all_partitions and n is not None and comb(n - 1, n // 2 - 1) > MAX_PARTITIONS:
        count = comb(n - 1, n // 2 - 1)  # exact integer: printed by its digits, never through a float
        raise InputError(f"--all-partitions at N = {n} visits about 10^{len(str(count)) - 1} balanced partitions, "
                         f"over {MAX_PARTITIONS:,}; use fewer --tokens or one --partition")
    if n is None or method not in ("coefficients", "grid", "monomials"):
        return
    log2_c = spec.depth * log2(3) - 1  # C(L) = (3^L - 1)/2
    if method == "grid":
        if templates is None:  # binom(3^L + d_x, d_x), on the log scale
            log2_m = log2_multichoose(spec.depth * log2(3), spec.width)
            if log2_m < 60:
                log2_m = log2(comb(3**spec.depth + spec.width, spec.width))
        else:
            log2_m = log2(templates)
        if n * log2_m > log2(max_evaluations) + 1e-9:
            raise InputError(f"the grid needs about 2^{n * log2_m:,.0f} network evaluations (N = {n} positions), "
                             f"over the limit of {max_evaluations:,}; use --method coefficients or reduced, fewer "
                             f"--templates or --tokens, or raise --max-evaluations")
        return
    what = f"the exact polynomial for depth {spec.depth}, width {spec.width}, {n} tokens"
    fix = "use --method reduced (sep) or fewer --tokens"
    guard_log2(log2_multichoose(log2_c, (n - 1) * spec.width - 1) + log2(500), max_memory_gib, what, fix)
    if spec.depth > 20 or ((3**spec.depth + 1) // 2) ** 2 * n > 10**8:
        raise InputError(f"{what} has degree 3^L = 3^{spec.depth}, beyond what the coefficient route can expand; "
                         f"{fix}")
