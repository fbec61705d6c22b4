"""The block plan: what each degree block of a reduced-route run will run on, decided once, before any work.

A run of the reduced route (``verify.rank.degree_blocks``) ranks degree block a through a *slice*: its
short side by ``take`` seeded lines of its long side (take = short + 32, or the proven upper bound + 32
where that is narrower).  Which kernel eliminates the slice (``verify.exact.kernels.kernel_for``), on
which device, with which leaf route for the block LU, how many bytes it holds and how long it should
take are fixed by the field, the device and the block's shape, so they are decided here, once a
block, as a ``BlockPlan``; the run, the memory estimate (``reduced_memory``), the resume store (each
stored block records its plan) and ``verify sep --dry-run`` read it.  (The repeat loop still prices a later
prime family through ``kernels.kernel_again``, not through a plan of that family.)  The device is part of
the plan (``Placement``), not a parameter beside the field: the eliminations beside the slice (the probe,
the complement, a block ranked whole) ask the run's plan (``RunPlan.kernel``), so every one of them runs
where the plan says.  So is a runner of standalone block tasks (``Placement.runner``: a Dask cluster,
``verify.rank.block_tasks``); a plan sent to a worker travels as what decides it (field, device name, leaf
route, block shapes and bounds) and is planned again there, identically, without the runner.

Seconds are the kernels' measured prices (``verify.exact.tuning.SECONDS``), never a result; bytes are
what one slice holds at once (8 an entry for the float kernels, 28 for FLINT's).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as dc_field
from math import comb
from typing import TYPE_CHECKING, Any

from ..exact.device import CPU, Device
from ..exact.fields import Field
from ..exact.kernels import BlockLUKernel, Kernel, kernel_for
from ..exact.leaves import default_route

if TYPE_CHECKING:
    from ..model.spec import NetworkSpec

__all__ = ["SLICE_EXTRA", "BlockPlan", "RunPlan", "Placement", "slice_width", "plan_block", "plan_run",
           "degree_sizes"]

#: Columns gathered beyond the short side (or the proven bound) for the slice S.
SLICE_EXTRA = 32


def slice_width(short: int, long: int, upper: int | None) -> int:
    """Lines of the long side a block's first slice takes: upper + 32 where the proven bound is at least
    64 below the short side (``degree_blocks.block_rank``'s bound slice), else short + 32, at most long.

    >>> slice_width(1000, 5000, None), slice_width(1000, 5000, 900), slice_width(1000, 5000, 960)
    (1032, 932, 1032)
    """
    if upper is not None and upper + 2 * SLICE_EXTRA <= short:
        return min(long, upper + SLICE_EXTRA)
    return min(long, short + SLICE_EXTRA)


@dataclass(frozen=True)
class BlockPlan:
    """Degree block ``degree`` (rows x cols, proven bound ``upper``): its slice, kernel, bytes and seconds."""

    degree: int
    rows: int
    cols: int
    upper: int | None
    slice_rows: int
    slice_cols: int
    kernel: Kernel
    leaf: str | None
    bytes: int
    seconds: float

    @property
    def device(self) -> Device:
        return self.kernel.device

    def as_dict(self) -> dict[Any, Any]:
        return {"degree": self.degree, "rows": self.rows, "cols": self.cols, "upper_bound": self.upper,
                "slice": [self.slice_rows, self.slice_cols], "kernel": self.kernel.name,
                "device": self.device.name, "leaf": self.leaf, "bytes": self.bytes,
                "seconds": round(self.seconds, 3)}


def plan_block(field: Field, device: Device, degree: int, rows: int, cols: int, upper: int | None = None,
               leaf: str | None = None) -> BlockPlan:
    """The plan of one degree block (module notes); ``leaf`` the block LU's leaf route (default the device's)."""
    short, long = min(rows, cols), max(rows, cols)
    take = slice_width(short, long, upper) if short else 0
    kernel = kernel_for(field, short, take, device=device)
    if isinstance(kernel, BlockLUKernel):
        kernel.leaf = leaf or default_route(device.xp)
    route = getattr(kernel, "leaf", None)
    return BlockPlan(degree, rows, cols, upper, short, take, kernel, route, short * take * kernel.bytes_per_entry,
                     kernel.seconds(short, take) if short else 0.0)


@dataclass
class RunPlan:
    """The plans of one run's degree blocks, over ``field`` on ``device`` (``blocks[a]`` is block a)."""

    field: Field
    device: Device = CPU
    leaf: str | None = None
    blocks: list[Any] = dc_field(default_factory=list)
    turn: int | None = None
    #: What the run holds at once, as ``check_memory`` prices it against the limit (``reduced_memory.memory_parts``:
    #: the largest slice, q, the fixed part, their total, in bytes), where the plan was made for a run.
    memory: dict[str, Any] | None = None
    #: Ranks the blocks as standalone tasks elsewhere (``verify.rank.block_tasks``), or None: here, in turn.
    runner: object | None = None

    def __reduce__(self) -> tuple[Callable[..., RunPlan], tuple[Any, ...]]:
        """Pickled as what decides it, planned again where it is unpickled (a device holds its array
        module, which does not pickle); the runner stays behind (a worker ranks its block itself)."""
        shapes = [(b.degree, b.rows, b.cols, b.upper) for b in self.blocks]
        return (_replanned, (self.field, self.device.name, self.leaf, shapes, self.turn))

    def kernel(self, rows: int, cols: int) -> Kernel:
        """The kernel for a rows x cols elimination of this run beside the slices (probe, complement, a
        block ranked whole): the registry's choice on the plan's device, with the plan's leaf route."""
        kernel = kernel_for(self.field, rows, cols, device=self.device)
        if isinstance(kernel, BlockLUKernel):
            kernel.leaf = self.leaf or default_route(self.device.xp)
        return kernel

    def slice_kernel(self, degree: int | None, rows: int, cols: int) -> Kernel:
        """Block ``degree``'s planned kernel when the slice has the planned shape, else ``kernel``."""
        if degree is not None and degree < len(self.blocks):
            planned = self.blocks[degree]
            if (planned.slice_rows, planned.slice_cols) == (rows, cols):
                return planned.kernel
        return self.kernel(rows, cols)

    @property
    def bytes(self) -> int:
        """The most one slice holds at once (the largest block's)."""
        return max((b.bytes for b in self.blocks), default=0)

    @property
    def largest_side(self) -> int:
        """The shortest side of the largest slice (whether a GPU pays: ``verify.exact.device``)."""
        return max((b.slice_rows for b in self.blocks), default=0)

    @property
    def seconds(self) -> float:
        """Every block's price added up: an upper estimate (blocks implied by a full neighbour are not ranked)."""
        return sum(b.seconds for b in self.blocks)

    def as_dict(self) -> dict[Any, Any]:
        return {"field": self.field.name, "device": self.device.name, "leaf": self.leaf, "turn": self.turn,
                "bytes": self.bytes, "memory": self.memory, "seconds": round(self.seconds, 3),
                "blocks": [b.as_dict() for b in self.blocks]}


@dataclass(frozen=True)
class Placement:
    """Where a run's eliminations go (a ``verify.exact.device.Device`` and, for the block LU, a leaf route):
    it makes each run's ``RunPlan`` (one a field: the repeats change the prime, not the device)."""

    device: Device = CPU
    leaf: str | None = None
    #: Where the degree blocks are ranked as standalone tasks (``verify.rank.block_tasks.BlockRunner``), or None.
    runner: object | None = None

    def plan(self, spec: NetworkSpec, field: Field) -> RunPlan:
        plan = plan_run(spec, field, self.device, self.leaf)
        plan.runner = self.runner
        return plan


def _replanned(field: Field, device: str, leaf: str | None, shapes: list[Any], turn: int | None) -> RunPlan:
    """``RunPlan.__reduce__``'s other half: the same plan, made again from the same inputs."""
    from ..exact.device import resolve_device

    on = CPU if device == CPU.name else resolve_device(device)
    return RunPlan(field, on, leaf, [plan_block(field, on, *shape, leaf) for shape in shapes], turn)


def degree_sizes(nvars: int, top: int, components: int) -> list[tuple[int, int]]:
    """(rows, cols) of degree blocks 0..top of a homogeneous q of degree ``top`` in ``nvars`` variables."""
    return [(comb(a + nvars - 1, nvars - 1), components * comb(top - a + nvars - 1, nvars - 1)) for a in range(top + 1)]


def plan_run(spec: NetworkSpec, field: Field, device: Device = CPU, leaf: str | None = None) -> RunPlan:
    """The block plan of one reduced-route run of ``spec`` over ``field`` on ``device`` (closed form: no q is
    built).  A residual network has no degree blocks (one candidate block, split by its pattern): no blocks."""
    from .bound import derivative_bound

    plan = RunPlan(field, device, leaf)
    if spec.residual:
        return plan
    nvars = spec.width * (spec.width + 1) // 2
    sizes = degree_sizes(nvars, spec.layer_degree, spec.width)
    bound = derivative_bound(spec)
    uppers = [most for _, _, most in bound.blocks] if len(bound.blocks) == len(sizes) else [None] * len(sizes)
    plan.turn = max(a for a, (rows, cols) in enumerate(sizes) if rows <= cols)
    plan.blocks = [plan_block(field, device, a, rows, cols, upper, leaf)
                   for a, ((rows, cols), upper) in enumerate(zip(sizes, uppers, strict=False))]
    return plan
