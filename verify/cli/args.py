"""Arguments several commands share (the network, the output, the sweep), read from the engine's
defaults objects, and the small printing helpers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import InputError
from .argtypes import MAX_COUNT, MAX_DEPTH, MAX_TOKENS, MAX_WIDTH, field_text, int_range, memory_limit

if TYPE_CHECKING:
    import argparse

    from ..api import NetworkSpec
    from ..defaults import NetworkDefaults, ProbeDefaults, SepDefaults

__all__ = ["note", "add_network_args", "add_output_args", "add_registry_arg", "add_sweep_args", "store_path", "spec_of",
           "pairs_table"]


def add_network_args(p: argparse.ArgumentParser, defaults: SepDefaults | ProbeDefaults | NetworkDefaults,
                     tokens_required: bool = False, field_help: str | None = None,
                     weight_help: str | None = None) -> None:
    """``--depth`` ... ``--max-memory-gib``; ``defaults`` (e.g. ``api.SEP``) gives seed, weight range,
    field and memory limit."""
    g = p.add_argument_group("network (eq. 3)")
    g.add_argument("--depth", type=int_range("--depth", 1, MAX_DEPTH), required=True, help="number of layers L >= 1")
    g.add_argument("--width", type=int_range("--width", 1, MAX_WIDTH), required=True, help="embedding dimension d_x")
    g.add_argument("--heads", type=int_range("--heads", 1, MAX_WIDTH), default=1, help="attention heads H per layer "
        "(default 1)")
    g.add_argument("--attn-dim", type=int_range("--attn-dim", 1, MAX_WIDTH), default=None, help="attention dimension "
        "d_a (default d_x/H)")
    g.add_argument("--tokens", type=int_range("--tokens", 1, MAX_TOKENS), required=tokens_required, default=None,
                   help="sequence length N" + ("" if tokens_required else
                                               " (omit for the N-independent value of the reduced route)"))
    g.add_argument("--output", type=int_range("--output", 0, MAX_WIDTH), default=0, help="output coordinate p (default "
        "0)")
    g.add_argument("--position", type=int_range("--position", 0, MAX_COUNT), default=0, help="output position i "
        "(default 0)")
    g.add_argument("--residual", action="store_true", help="residual connections: each layer is I + T_l")
    g.add_argument("--seed", type=int_range("--seed", 0), default=defaults.seed, help="seed of the integer weights "
        "(default 0)")
    g.add_argument("--weight-range", type=int_range("--weight-range", 1, 2**62), default=defaults.weight_range,
                   help=weight_help or "weights uniform in [-R, R] (default 2^31)")
    g.add_argument("--field", type=field_text, default=defaults.field,
                   help=field_help or "qq (exact rationals) or gf:P for a prime P (default gf:2^63-25)")
    g.add_argument("--max-memory-gib", type=memory_limit, default=defaults.max_memory_gib,
                   help=f"refuse work estimated above this (default {defaults.max_memory_gib:g})")


def add_device_arg(p: argparse.ArgumentParser, default: str = "auto", what: str = "the reduced route's eliminations",
                   extra: str = "") -> None:
    """``--device auto|cpu|gpu`` (``verify.exact.device``); ``extra``: a sentence on what never uses it."""
    p.add_argument("--device", choices=["auto", "cpu", "gpu"], default=default,
                   help=f"where {what} run: gpu needs cupy and a CUDA device (pip install 'seprank-verify[gpu-cuda12]' "
                        "or '[gpu-cuda13]'); "
                        f"auto takes the GPU when one is present and the largest slice pays for it (default {default})"
                        + (f". {extra}" if extra else ""))


def add_output_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


def add_registry_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--registry", default=None, metavar="NAME|MODULE|FOLDER",
                   help="the claims registry: an entry-point name of verify.registries, a module or a package "
                        "folder (default $VERIFY_REGISTRY, else the one installed)")


def add_sweep_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("sweep")
    g.add_argument("--store", default=None, metavar="PATH",
                   help="SQLite results store (default $VERIFY_STORE or ~/.cache/verify/results.sqlite)")
    g.add_argument("--no-store", action="store_true", help="neither read nor write the results store")
    g.add_argument("--scheduler", default=None, metavar="ADDRESS", type=_scheduler,
                   help="run on a Dask distributed cluster, e.g. tcp://127.0.0.1:8786 (default: local processes)")
    g.add_argument("--workers", type=int_range("--workers", 1, 4096), default=None,
                   help="local worker processes (default: one per CPU; 1 runs in this process)")


def _scheduler(text: str) -> str:
    import argparse

    from ..validate import scheduler_address

    try:
        return scheduler_address(text)
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def store_path(args: argparse.Namespace) -> str | None:
    """The store the sweep arguments name: None with --no-store, else --store or the default path."""
    if args.no_store:
        return None
    if args.store is not None and not args.store.strip():
        raise InputError(f"--store {args.store!r} is an empty path; give the store's file path, or --no-store")
    from .. import api  # at run time: the parser loads no engine module

    return args.store or str(api.default_store_path())


def spec_of(args: argparse.Namespace) -> NetworkSpec:
    """The ``NetworkSpec`` of the network arguments."""
    from .. import api  # at run time: the parser loads no engine module

    return api.NetworkSpec(depth=args.depth, width=args.width, heads=args.heads, attn_dim=args.attn_dim,
                       tokens=args.tokens, output=args.output, position=args.position, residual=args.residual)


def pairs_table(pairs: list[tuple[str, object]]) -> str:
    width = max(len(k) for k, _ in pairs)
    return "\n".join(f"{k.ljust(width)}  {v}" for k, v in pairs)


def note(text: str) -> None:
    """A diagnostic line on stderr; a stderr that cannot take it (full, closed) drops it, never the
    result the command prints on stdout."""
    import sys

    try:
        print(text, file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass


def registry_note(registry: str | None) -> None:
    """With no --registry and several registries installed, the project's own is used: say so on stderr,
    naming the others (``verify.api.registry_note``)."""
    from .. import api

    line = api.registry_note(registry)
    if line:
        note(line)
