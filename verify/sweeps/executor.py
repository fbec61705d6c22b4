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
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, ThreadPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from ..validate import scheduler_address
from .progress import REFRESH_SECONDS, SweepProgress
from .store import Store, Task

__all__ = ["compute", "executor", "run_sweep", "SweepStats", "SweepInterrupted", "cpu_count"]


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


#: How often a worker's watchdog looks whether its parent is still there (seconds).
WATCHDOG_SECONDS = 0.5


def _die_with_parent(parent: int) -> None:
    """End this worker when the process that started the pool (``parent``) ends, whatever ended it
    (SIGKILL from the OOM killer included, which leaves the parent no chance to stop its pool): on
    Linux the kernel sends SIGKILL to the worker when its own parent dies
    (``prctl(PR_SET_PDEATHSIG)``, through ctypes); everywhere a daemon thread looks every
    ``WATCHDOG_SECONDS`` whether this worker was re-parented (its parent died) or ``parent`` is gone
    (a worker forked by a fork server is not ``parent``'s child), and ends the worker."""
    import signal
    import sys
    import threading

    first = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):  # pragma: no cover - no libc: the watchdog remains
            pass

    def gone() -> bool:
        if os.getppid() != first:
            return True
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            return True
        except OSError:  # alive, another user's (cannot happen for our parent, but never kill on doubt)
            pass
        return False

    if gone():  # the parent died before the lines above took effect
        os._exit(1)

    def watch() -> None:
        while not gone():
            time.sleep(WATCHDOG_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="verify-parent-watchdog", daemon=True).start()


def _init_worker(threads: int, parent: int | None = None) -> None:
    """Worker set-up: the worker dies with its parent (``_die_with_parent``); FLINT threads, and
    Ctrl-C left to the parent (which stops the pool), so an
    idle worker never prints a KeyboardInterrupt traceback; SIGTERM and SIGHUP back to their default
    (end the worker at once), replacing the handler the command line installed in the parent, which
    a forked worker inherits: the parent ends its workers with SIGTERM."""
    import signal

    import flint

    if parent is not None:
        _die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    flint.ctx.threads = max(1, threads)


#: How long an interrupted sweep waits for the pool's manager thread to wind down (it takes milliseconds
#: once the workers are ended; the bound only keeps a wedged thread from holding the exit).
_MANAGER_JOIN_SECONDS = 10.0


def _stop_workers(pool) -> None:
    """End a process pool's workers now (on interrupt or error): running tasks are abandoned, every
    result already received is in the store."""
    import multiprocessing

    processes = list((getattr(pool, "_processes", None) or {}).values())
    # a Ctrl-C that lands while the pool is still starting workers can leave one not yet in _processes:
    # every live child of this process is a worker here, so all of them are ended
    processes += [p for p in multiprocessing.active_children() if p not in processes]
    for process in processes:
        try:
            process.terminate()
        except (OSError, AttributeError):  # pragma: no cover - already gone
            pass
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    # Wait (briefly) for the pool's manager thread to see its ended workers and close its wake-up pipe.
    # Left running, it races CPython 3.11's exit hook (concurrent.futures.process._python_exit), which
    # writes to that pipe without a lock: the hook read the pipe's descriptor just before the thread
    # closed it and printed an "OSError: [Errno 9] Bad file descriptor" traceback after our one-line
    # message (seen once in CI after a Ctrl-C during `verify table`).  Python 3.12 takes a lock there.
    if manager is not None and manager.is_alive():
        manager.join(timeout=_MANAGER_JOIN_SECONDS)


def compute(task: Task) -> dict[Any, Any]:
    """Compute one task (runs in a worker): the value stored for it, JSON-serialisable."""
    from .tasks import compute_value

    start = time.perf_counter()
    value = compute_value(task)
    value["compute_seconds"] = round(time.perf_counter() - start, 3)
    return value


#: Seconds to wait for a Dask scheduler to answer (the TCP connection, then Dask's handshake).
CONNECT_SECONDS = 5.0


def unreachable(address: str, reason: str) -> str:
    """The one line for a well-formed scheduler address where no scheduler answers."""
    return (f"no Dask scheduler answers at {address!r} ({reason}); is a scheduler running there? Start one "
            f"with `dask scheduler` (it prints the address to give) and its workers with `dask worker ADDRESS`, "
            f"or leave out --scheduler to run on local processes")


def _probe_port(address: str) -> None:
    """Refuse (``InputError``) a ``tcp://`` address whose port refuses or does not answer a connection
    within ``CONNECT_SECONDS``, or accepts one but sends no byte within ``CONNECT_SECONDS`` more: a Dask
    scheduler writes its handshake as soon as it accepts (``distributed.comm``: each side writes its own
    before reading the other's), while ``Client`` waits on a port that accepts and stays silent with no
    bound at all.  Dask's own connect retries with back-off for up to twice its timeout."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(address)
    if parts.scheme != "tcp":
        return
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=CONNECT_SECONDS) as conn:
            try:
                first = conn.recv(1)  # the connection's timeout bounds the wait
            except TimeoutError:
                raise InputError(unreachable(address, f"the port accepted a connection but sent no Dask handshake "
                                                      f"within {CONNECT_SECONDS:g} s")) from None
            if not first:
                raise InputError(unreachable(address, "the port closed the connection without a Dask handshake"))
    except TimeoutError:
        raise InputError(unreachable(address, f"no answer within {CONNECT_SECONDS:g} s")) from None
    except OSError as exc:
        raise InputError(unreachable(address, (exc.strerror or str(exc) or type(exc).__name__).lower())) from None


@contextmanager
def executor(scheduler: str | None = None, workers: int | None = None):
    """Yield a Dask client's executor, local processes, or (one worker) a single thread in this process."""
    if scheduler:
        scheduler = scheduler_address(scheduler)  # a port out of range never reaches Dask
        try:
            from distributed import Client
        except ImportError:
            raise InputError("--scheduler needs dask.distributed; install it with "
                             "pip install -e '.[dask]' in the seprank-verify checkout") from None
        try:
            _probe_port(scheduler)  # a refused or silent port answers in seconds, before Dask's retries
            client = Client(scheduler, timeout=f"{CONNECT_SECONDS:g}s")
        except InputError:
            raise
        except Exception as exc:  # noqa: BLE001 - Dask raises OSError, TimeoutError, ValueError, ...
            # only a network failure says why; anything else Dask raises (a MemoryError from its
            # parser, "Unable to allocate 3.07 EiB") is no reason a user can act on
            reason = (str(exc).splitlines()[0] if str(exc) else type(exc).__name__) \
                if isinstance(exc, OSError) and not isinstance(exc, TimeoutError) \
                else f"no scheduler answered within {CONNECT_SECONDS:g} s"
            raise InputError(unreachable(scheduler, reason)) from None
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
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_init_worker,
                               initargs=(max(1, cpu_count() // workers), os.getpid()))
    try:
        yield pool
        pool.shutdown(wait=True)  # inside the try: a signal while waiting still ends every worker
    except BaseException:
        _stop_workers(pool)
        raise


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM, SIGHUP) during a sweep: ``values`` (None where not computed), ``stats`` of
    what finished, ``store_path`` (None with no store: nothing was kept) and ``signal_name`` (None
    for Ctrl-C)."""

    def __init__(self, values: list[Any], stats: "SweepStats", store_path: str | os.PathLike[str] | None = None,
                 signal_name: str | None = None) -> None:
        super().__init__("interrupted")
        self.values: list[Any] = values
        self.stats: SweepStats = stats
        self.store_path: str | os.PathLike[str] | None = store_path
        self.signal_name: str | None = signal_name


@dataclass
class SweepStats:
    total: int = 0
    reused: int = 0
    computed: int = 0
    seconds: float = 0.0
    refused: list[Any] = field(default_factory=list)  # {"task": Task, "reason": str} for each refused task

    def as_dict(self) -> dict[Any, Any]:
        return {"total": self.total, "reused": self.reused, "computed": self.computed,
                "refused": len(self.refused), "seconds": round(self.seconds, 3)}


# over 80 lines: its closures start_progress and receive share the sweep's state (values, stats), and one
# try block is the interrupt boundary that hands back what is done; split, each piece would take all of it
def run_sweep(tasks: list[Task], store: Store, scheduler: str | None = None, workers: int | None = None,
              progress: SweepProgress | None = None,
              cost: Callable[[Task], float] | None = None) -> tuple[list[dict[Any, Any]], SweepStats]:
    """Values of ``tasks`` in order: from the store where present, else computed and stored.

    A task whose computation refuses its input (``InputError``, e.g. over the memory limit) gets
    the value None and is listed in ``stats.refused``; the others go on.

    ``cost`` (task -> number) orders the submissions, most expensive first, so that the long
    tasks do not start last.
    """
    start = time.perf_counter()
    stats = SweepStats(total=len(tasks))
    values: dict[str, dict[Any, Any]] = {}
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
    weight = (lambda task: max(float(cost(task)), 1.0)) if cost is not None else (lambda task: 1.0)

    def start_progress() -> None:  # once the workers are reachable: a refused scheduler shows no bar
        if hasattr(progress, "start"):
            reused_cost = sum(weight(t) for t in {t.key(): t for t in tasks if t.key() in values}.values())
            progress.start(sum(weight(t) for t in missing.values()) + reused_cost, reused_cost,
                           len(values) + len(missing), len(values))
        elif progress is not None:
            progress(len(values), len(tasks), stats.reused, 0)

    def receive(task: Task, outcome) -> None:
        """Store one finished task (or list its refusal) and move the progress on."""
        if isinstance(outcome, InputError):  # refused by its own estimate: listed, the sweep goes on
            stats.refused.append({"task": task, "reason": str(outcome)})
            values[task.key()] = None
        else:
            store.put(task, outcome, outcome.get("compute_seconds", 0.0))
            values[task.key()] = outcome
            stats.computed += 1
        if hasattr(progress, "advance"):
            progress.advance(weight(task))
        elif progress is not None:
            progress(len(values), len(tasks), stats.reused, stats.computed)

    order = sorted(missing.values(), key=cost, reverse=True) if cost is not None else list(missing.values())
    # no more local workers than tasks: 16 processes for 2 tasks cost memory and start-up for nothing
    local = None if scheduler else max(1, min(cpu_count() if workers is None else workers, len(order)))
    try:
        if not order:
            start_progress()
        elif not scheduler and local == 1:  # in this process: Ctrl-C stops it at once
            start_progress()
            for task in order:
                try:
                    outcome = compute(task)
                except InputError as exc:
                    outcome = exc
                receive(task, outcome)
        else:
            with executor(scheduler, local) as pool:
                start_progress()
                futures: dict[Future, Task] = {pool.submit(compute, task): task for task in order}
                pending = set(futures)
                try:
                    while pending:
                        finished, pending = wait(pending, timeout=REFRESH_SECONDS, return_when=FIRST_COMPLETED)
                        if hasattr(progress, "refresh"):
                            progress.refresh()
                        for future in finished:
                            try:
                                outcome = future.result()
                            except InputError as exc:
                                outcome = exc
                            except BrokenProcessPool:
                                raise InputError("a worker process died (killed from outside, most likely for "
                                                 "lack of memory); results so far are stored: rerun with fewer "
                                                 "--workers or a lower --max-memory-gib") from None
                            except Exception as exc:
                                if not type(exc).__module__.startswith("distributed"):
                                    raise
                                raise InputError(f"the Dask cluster lost a task ({type(exc).__name__}: {exc}); "
                                                 f"results so far are stored: check the workers and rerun") from None
                            receive(futures[future], outcome)
                except BaseException:
                    for future in futures:
                        future.cancel()
                    raise
    except KeyboardInterrupt as exc:  # hand back what is done (also stored), so the caller can print it
        stats.seconds = time.perf_counter() - start
        raise SweepInterrupted([values.get(t.key()) for t in tasks], stats, store.path,
                               getattr(exc, "signal_name", None)) from None
    finally:
        if hasattr(progress, "close"):
            progress.close()
    stats.seconds = time.perf_counter() - start
    return [values[t.key()] for t in tasks], stats
