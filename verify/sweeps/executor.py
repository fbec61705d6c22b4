"""Sweeps: independent computations through a ``concurrent.futures`` executor, with the store.

Local worker processes by default (``ProcessPoolExecutor``), or a Dask distributed cluster when
given a scheduler address (``distributed.Client(address).get_executor()``, a real
``concurrent.futures`` executor).  Every task is looked up in the store first; each computed
result is written to the store the moment it arrives, so an interrupted sweep resumes where it
stopped.  What a task computes is named by ``Task.kind`` and dispatched by ``compute``.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass

from ..errors import InputError
from .progress import SweepProgress
from .store import Store, Task

__all__ = ["compute", "executor", "run_sweep", "SweepStats", "cpu_count"]


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _init_worker(threads: int) -> None:
    import flint

    flint.ctx.threads = max(1, threads)


def compute(task: Task) -> dict:
    """Compute one task (runs in a worker): the value stored for it, JSON-serialisable."""
    from ..exact.fields import parse_field

    start = time.perf_counter()
    if task.kind == "sep":
        from ..rank.sep import separation_rank

        found = separation_rank(task.spec, task.method, field=parse_field(task.field), seed=task.seed,
                                **dict(task.limits))
        value = {"rank": found.rank, "certified_lower_bound": found.certainty.certified_lower_bound,
                 "probability_bound": found.certainty.probability_bound,
                 "valid_for_tokens": (found.extra or {}).get("valid_for_tokens"),
                 "blocks": len(found.blocks)}
    elif task.kind == "real_rank":
        from ..rank.numrank import real_grid_rank

        params = dict(task.params)
        value = real_grid_rank(task.spec, task.seed, templates=params["templates"], tokens=params["tokens"],
                               real=task.method == "bert").as_dict()
    elif task.kind == "probe_step":
        from .probe import probe_step

        value = probe_step(task.spec, parse_field(task.field), task.seed, **dict(task.params), **dict(task.limits))
    else:
        raise ValueError(f"unknown task kind {task.kind!r}")
    value["compute_seconds"] = round(time.perf_counter() - start, 3)
    return value


@contextmanager
def executor(scheduler: str | None = None, workers: int | None = None):
    """Yield a Dask client's executor, local processes, or (one worker) a single thread in this process."""
    if scheduler:
        try:
            from distributed import Client
        except ImportError:
            raise InputError("--scheduler needs dask.distributed; install it with pip install 'verify[dask]'") from None
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise InputError(f"cannot reach the Dask scheduler at {scheduler}: {exc}; "
                             f"check the address (e.g. tcp://127.0.0.1:8786)") from None
        try:
            yield client.get_executor(pure=False)
        finally:
            client.close()
        return
    workers = cpu_count() if workers is None else workers
    if workers < 1:
        raise InputError(f"--workers must be at least 1, got {workers}")
    if workers == 1:
        with ThreadPoolExecutor(max_workers=1) as pool:
            yield pool
        return
    with ProcessPoolExecutor(max_workers=workers, initializer=_init_worker,
                             initargs=(max(1, cpu_count() // workers),)) as pool:
        yield pool


@dataclass
class SweepStats:
    total: int = 0
    reused: int = 0
    computed: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict:
        return {"total": self.total, "reused": self.reused, "computed": self.computed,
                "seconds": round(self.seconds, 3)}


def run_sweep(tasks: list[Task], store: Store, scheduler: str | None = None, workers: int | None = None,
              progress: SweepProgress | None = None, cost=None) -> tuple[list[dict], SweepStats]:
    """Values of ``tasks`` in order: from the store where present, else computed and stored.

    ``cost`` (task -> number) orders the submissions, most expensive first, so that the long
    tasks do not start last.
    """
    start = time.perf_counter()
    stats = SweepStats(total=len(tasks))
    values: dict[str, dict] = {}
    missing: dict[str, Task] = {}
    for task in tasks:
        key = task.key()
        if key in values or key in missing:
            continue
        found = store.get(task)
        if found is not None:
            values[key] = found
            stats.reused += 1
        else:
            missing[key] = task
    if progress is not None:
        progress(len(values), len(tasks), stats.reused, 0)
    if missing:
        order = sorted(missing.values(), key=cost, reverse=True) if cost is not None else list(missing.values())
        with executor(scheduler, workers) as pool:
            futures: dict[Future, Task] = {pool.submit(compute, task): task for task in order}
            try:
                for future in as_completed(futures):
                    task = futures[future]
                    value = future.result()
                    store.put(task, value, value.get("compute_seconds", 0.0))
                    values[task.key()] = value
                    stats.computed += 1
                    if progress is not None:
                        progress(len(values), len(tasks), stats.reused, stats.computed)
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
    stats.seconds = time.perf_counter() - start
    return [values[t.key()] for t in tasks], stats
