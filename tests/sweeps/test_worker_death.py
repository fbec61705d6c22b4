"""Sweep workers die with their parent, whatever ends it (issue 35, item 4): a SIGKILL to the main
process (the OOM killer, ``kill -9``) gives it no chance to stop its pool, so each worker watches
for it itself (``executor._die_with_parent``)."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")

SCRIPT = textwrap.dedent('''
    import time
    import verify.sweeps.executor as executor
    from verify.model.spec import NetworkSpec
    from verify.sweeps.store import Store, Task

    def slow(task):  # a worker that would outlive its parent by a minute
        time.sleep(60)
        return {}

    executor.compute = slow
    tasks = [Task("sep", NetworkSpec(depth=1, width=w), "reduced", "gf:101") for w in (2, 3)]
    with Store(None) as store:
        executor.run_sweep(tasks, store, workers=2)
''')


def _children(pid: int) -> set[int]:
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.add(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_sigkill_to_the_main_process_leaves_no_worker():
    main = subprocess.Popen([sys.executable, "-c", SCRIPT])
    workers = set()
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline:  # both workers started
            time.sleep(0.2)
            workers = _children(main.pid)
        assert len(workers) >= 2, workers
        time.sleep(1.0)  # the workers have run their initializer and hold their tasks
        os.kill(main.pid, signal.SIGKILL)
        main.wait(timeout=30)
        deadline = time.monotonic() + 5
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [w for w in workers if _alive(w)]
        assert not left, f"workers {left} outlived their SIGKILLed parent"
    finally:
        for pid in [main.pid, *workers]:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
