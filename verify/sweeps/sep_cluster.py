"""One separation rank's degree blocks on a Dask cluster (``verify sep --scheduler ADDRESS``).

``verify.rank.block_tasks`` turns a reduced-route run into one task per degree block and decides what
the results mean; this module only places the tasks.  ``BlockCluster`` connects through the sweeps'
connection (``executor.executor``: the same address check and the same one-line refusal of an
unreachable scheduler), sends the run's plan and moment table once (``Client.scatter``), and submits
each block with a **memory resource**, ``resources={"MEMORY": bytes}``, so that a block goes only to a
worker started with ``--resources MEMORY=<bytes it may hold>`` at least that large, and a worker runs
at once only the blocks whose memory adds up to its own; ``priority`` puts the largest blocks first.
Each finished block comes back to the caller, which stores it (the store lives with the client).  A
block that no worker can hold, or a cluster with no such worker, is refused before any block runs.

Task keys are ``verify-sep-block-<a>-<token>``, so the scheduler's and the workers' logs name the block.
"""

from __future__ import annotations

import uuid
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..validate import scheduler_address
from .executor import executor

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from distributed import Client

    from ..exact.fields import Field
    from ..model.spec import NetworkSpec
    from ..rank.block_tasks import BlockTask
    from ..rank.blocks import Block

__all__ = ["BlockCluster", "block_cluster", "KEY_PREFIX", "RESOURCE"]

#: The Dask worker resource a block task asks for, in bytes.
RESOURCE = "MEMORY"
#: Every block task's key starts with this.
KEY_PREFIX = "verify-sep-block-"
#: How a worker declares what it may hold, for the refusals.
START = "dask worker ADDRESS --nthreads 1 --resources MEMORY=68719476736 (64 GiB)"


def _gib(n: float) -> str:
    return f"{n / 2**30:.3g} GiB"


class BlockCluster:
    """A ``verify.rank.block_tasks.BlockRunner`` on the Dask cluster of ``client`` (at ``address``)."""

    client: Client
    address: str

    def __init__(self, client: Client, address: str) -> None:
        self.client, self.address = client, address

    def workers(self) -> dict[str, float | None]:
        """Each worker's address and its MEMORY resource in bytes (None where it declares none)."""
        info = self.client.scheduler_info(n_workers=-1)["workers"]
        return {address: (w.get("resources") or {}).get(RESOURCE) for address, w in sorted(info.items())}

    def able(self, memory: int, workers: dict[str, float | None] | None = None) -> list[str]:
        """The workers that can hold a task of ``memory`` bytes."""
        workers = self.workers() if workers is None else workers
        return [address for address, most in workers.items() if most is not None and most >= memory]

    def admit(self, tasks: list[BlockTask]) -> None:
        """Refuse (``InputError``) a cluster with no worker declaring MEMORY, or a task larger than every one."""
        workers = self.workers()
        declared = {a: m for a, m in workers.items() if m is not None}
        if not declared:
            none = "has no workers" if not workers else \
                f"has {len(workers)} workers but none declares a {RESOURCE} resource"
            raise InputError(f"the Dask cluster at {self.address} {none}, so no degree block can be placed; start each "
                             f"worker with the bytes it may hold, e.g. {START}")
        largest = max(declared.values())
        for task in tasks:
            if task.memory > largest:
                raise InputError(f"degree block {task.degree} ({task.rows:,} x {task.cols:,}) needs about "
                                 f"{_gib(task.memory)}, more than any worker of the Dask cluster at {self.address} "
                                 f"may hold (largest {RESOURCE} {_gib(largest)}); start a worker with {RESOURCE} of at "
                                 f"least {task.memory}, or use a smaller depth or width")

    def plan(self, spec: NetworkSpec, method: str = "auto", field: Field | str | None = None, device: str = "cpu",
             max_memory_gib: float = 16.0) -> dict[Any, Any]:
        """The first run's plan (``verify.rank.sep.plan_separation_rank``) with each block's task ``memory``
        (bytes) and the ``workers`` that can hold it, and the cluster's ``workers`` ({address: MEMORY or
        None}): ``verify sep --dry-run --scheduler``.  Refused as the run is: ``--device gpu`` included."""
        from ..rank.block_tasks import plan_tasks
        from ..rank.sep import CLUSTER_ON_GPU, cluster_refusals, plan_separation_rank

        cluster_refusals(spec, method, False)
        if device == "gpu":
            raise InputError(CLUSTER_ON_GPU)
        planned = plan_separation_rank(spec, method, field, "cpu", max_memory_gib)
        workers = self.workers()
        memory = {task.degree: task.memory for task in plan_tasks(planned, spec)}
        blocks = [{**b, "memory": memory[b["degree"]], "workers": self.able(memory[b["degree"]], workers)}
                  for b in planned.as_dict()["blocks"]]
        return {**planned.as_dict(), "blocks": blocks, "scheduler": self.address, "workers": workers}

    def describe(self) -> str:
        workers = self.workers()
        return f"the Dask cluster at {self.address} ({len(workers)} worker{'s' if len(workers) != 1 else ''})"

    # over 40 lines of one loop: submission, completion and the drops share the futures
    def rank_blocks(self, rank_one: Callable[..., Any], shared: tuple[Any, ...], tasks: list[BlockTask],
                    needed: Callable[[BlockTask], bool]) -> Iterator[tuple[BlockTask, Block]]:
        """``rank_one(shared, task)`` of each task on a worker that can hold it, the largest first (highest
        priority), yielded as each finishes; pending tasks no longer ``needed`` are cancelled, and every
        pending one is on leaving (an interrupt, an error)."""
        from distributed import as_completed

        token = uuid.uuid4().hex[:12]
        [sent] = self.client.scatter([shared], hash=False)  # the plan and moment table, once for the run
        futures = {}
        for i, task in enumerate(tasks):
            future = self.client.submit(rank_one, sent, task, key=f"{KEY_PREFIX}{task.degree}-{token}",
                                        resources={RESOURCE: task.memory}, priority=len(tasks) - i, pure=False)
            futures[future] = task
        try:
            for future in as_completed(list(futures)):
                task = futures[future]
                if future.cancelled():
                    continue
                try:
                    block = future.result()
                except InputError:
                    raise
                except Exception as exc:
                    if not type(exc).__module__.startswith(("distributed", "tornado", "asyncio", "concurrent")):
                        raise
                    raise InputError(f"the Dask cluster at {self.address} lost degree block {task.degree} "
                                     f"({type(exc).__name__}: {exc}); the blocks finished so far are in --store if "
                                     f"given: check the workers and rerun the same command") from None
                yield task, block
                for other, pending in futures.items():
                    if not other.done() and not needed(pending):
                        other.cancel()
        finally:
            for future in futures:
                if not future.done():
                    future.cancel()
            sent.release()


@contextmanager
def block_cluster(scheduler: str) -> Iterator[BlockCluster]:
    """A ``BlockCluster`` on the Dask scheduler at ``scheduler`` (``tcp://HOST:PORT``), connected as the sweeps
    connect (``executor.executor``: an unreachable address is one ``InputError``), closed on leaving."""
    with executor(scheduler) as pool:
        # the sweeps' executor is distributed's ClientExecutor over the connected client: its only
        # holder (the executor offers no per-task resources, priorities or keys, which the blocks need)
        yield BlockCluster(pool._client, scheduler_address(scheduler))
