"""`verify sep --scheduler`: one separation rank's degree blocks as tasks on a Dask cluster (issue 49 item 4).

The cluster is a LocalCluster of two in-process workers (threads: the machine has two cores), each
declaring a MEMORY resource; a worker plugin records, on the worker, every block task it executed with
the resources and priority it ran under.  Expected values come from closed forms: the derivative-space
count sum_a min(rows_a, cols_a) (docs/mathematics.md §6) for the rank, and the memory estimate's parts
(slice entries x bytes an entry, 32 bytes a term and component of q, 2^29 overhead) for a task's memory.
"""

import json
import pickle
from math import comb

import pytest

distributed = pytest.importorskip("distributed")

from verify import NetworkSpec, separation_rank  # noqa: E402
from verify.cli.main import main  # noqa: E402
from verify.errors import InputError  # noqa: E402
from verify.exact.fields import Field  # noqa: E402
from verify.rank import block_tasks  # noqa: E402
from verify.rank.block_plan import Placement, plan_run  # noqa: E402
from verify.sweeps.block_rows import BlockRows  # noqa: E402
from verify.sweeps.sep_cluster import KEY_PREFIX, BlockCluster, block_cluster  # noqa: E402
from verify.sweeps.store import Store  # noqa: E402

SPEC = NetworkSpec(depth=3, width=2)
TWO_HEADS = NetworkSpec(depth=3, width=2, heads=2)
MEMORY = 2**31


def derivative_count(width: int, depth: int) -> int:
    """sum over a of min(rows_a, cols_a), n = d(d+1)/2 variables, degree C(L) = (3^L - 1)/2, d components."""
    n, top = width * (width + 1) // 2, (3**depth - 1) // 2
    return sum(min(comb(a + n - 1, n - 1), width * comb(top - a + n - 1, n - 1)) for a in range(top + 1))


class Ran(distributed.WorkerPlugin):
    """On each worker: the block tasks it executed, with their resource restrictions and priority."""

    name = "verify-ran"

    def setup(self, worker):
        self.worker, self.ran = worker, []

    def transition(self, key, start, finish, **kwargs):
        if start == "executing" and finish == "memory" and str(key).startswith(KEY_PREFIX):
            task = self.worker.state.tasks[key]
            self.ran.append((str(key), dict(task.resource_restrictions or {}), task.priority[0]))


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp",
                                  host="127.0.0.1", dashboard_address=":0", resources={"MEMORY": MEMORY}) as local:
        with distributed.Client(local) as client:
            client.register_plugin(Ran())
            yield local, client


def ran(client) -> dict:
    """{worker address: [(block degree, resources, priority), ...]} since the last call (then cleared)."""
    def take(dask_worker):
        plugin = dask_worker.plugins["verify-ran"]
        out, plugin.ran = plugin.ran, []
        return out
    return {w: [(int(k[len(KEY_PREFIX):].split("-")[0]), r, p) for k, r, p in rows]
            for w, rows in client.run(take).items()}


def facts(result) -> tuple:
    d = result.as_dict()
    return (d["rank"], result.certainty.label, d["certified_exact"], d["probability_bound"], d["upper_bound"],
            d["runs"], d["primes"], [(b.rows, b.cols, b.rank, b.implied_by, b.upper_bound) for b in result.blocks])


def test_cli_depth_3_width_2_on_the_cluster_is_232_certified_exact_with_its_blocks_run_on_the_workers(cluster, capsys):
    local, client = cluster
    ran(client)
    assert main(["sep", "--depth", "3", "--width", "2", "--scheduler", local.scheduler_address, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert derivative_count(2, 3) == 232
    assert (out["rank"], out["certified_exact"], out["probability_bound"], out["upper_bound"]) == (232, True, 0.0, 232)
    executed = ran(client)
    assert set(executed) == set(local.scheduler_info["workers"])  # the cluster's workers, no other
    degrees = {a for rows in executed.values() for a, _, _ in rows}
    computed = {a for a, b in enumerate(out["blocks"]) if b["implied_by"] is None}
    assert computed == {7, 8} and computed <= degrees  # the walk's blocks ran on a worker
    assert any("Dask cluster at " + local.scheduler_address in n for n in out["notes"])
    here = separation_rank(SPEC)
    assert (out["rank"], out["certified_exact"], out["probability_bound"]) == (here.rank, True, 0.0)
    assert [(b["rank"], b["implied_by"]) for b in out["blocks"]] == [(b.rank, b.implied_by) for b in here.blocks]


def test_each_task_asks_for_its_memory_and_the_largest_go_first(cluster):
    local, client = cluster
    ran(client)
    with block_cluster(local.scheduler_address) as remote:
        separation_rank(SPEC, cluster=remote)
    rows = sorted((r for rows in ran(client).values() for r in rows), key=lambda r: r[2])  # priority, first first
    n, top = 3, 13
    for a, resources, _ in rows:  # every block below 256 a side: FLINT, 28 bytes an entry
        m, c = comb(a + n - 1, n - 1), 2 * comb(top - a + n - 1, n - 1)
        short, long = min(m, c), max(m, c)
        take = min(long, short + 32)  # each block's bound is its short side here (232 is the count)
        assert resources == {"MEMORY": short * take * 28 + 2 * comb(top + n - 1, n - 1) * 32 + 2**29}, a
    memories = [r["MEMORY"] for _, r, _ in rows]
    assert len(rows) >= 2 and memories == sorted(memories, reverse=True)
    entries = {a: min(comb(a + 2, 2), 2 * comb(15 - a, 2)) * min(max(comb(a + 2, 2), 2 * comb(15 - a, 2)),
                                                                min(comb(a + 2, 2), 2 * comb(15 - a, 2)) + 32)
               for a in range(top + 1)}
    assert rows[0][0] == max(entries, key=entries.get) == 7


def test_two_heads_and_the_block_level_repeats_give_the_local_result(cluster):
    local, client = cluster
    thin = NetworkSpec(depth=3, width=2, attn_dim=1)  # below its count: a later run ranks some blocks again
    ran(client)
    with block_cluster(local.scheduler_address) as remote:
        there, repeated = separation_rank(TWO_HEADS, cluster=remote), separation_rank(thin, cluster=remote)
    assert facts(there) == facts(separation_rank(TWO_HEADS))
    here = separation_rank(thin)
    assert facts(repeated) == facts(here) and repeated.as_dict()["runs"] == 2
    assert not here.certainty.certified_exact and 0 < repeated.as_dict()["probability_bound"] < 1e-9
    timeless = lambda result: [{k: v for k, v in run.items() if k != "seconds"}  # noqa: E731
                               for run in result.as_dict()["run_details"]]
    assert timeless(repeated) == timeless(here) and timeless(here)[1]["blocks"] == list(range(1, 13))
    degrees = [a for rows in ran(client).values() for a, _, _ in rows]
    assert len(degrees) > 14  # the later run's blocks ran there too


class InOrder:
    """A runner in this process: ranks the tasks one by one in ``order`` (given, or reversed), skipping those
    no longer needed; records what it ranked and what it dropped."""

    def __init__(self, reverse=False, kill_after=None):
        self.reverse, self.kill_after, self.ranked, self.dropped, self.submitted = reverse, kill_after, [], [], []

    def admit(self, tasks):
        pass

    def describe(self):
        return "this process, in order"

    def rank_blocks(self, rank_one, shared, tasks, needed):
        self.submitted.append([t.degree for t in tasks])
        shared = pickle.loads(pickle.dumps(shared))  # as a worker gets it
        for task in (reversed(tasks) if self.reverse else tasks):
            if not needed(task):
                self.dropped.append(task.degree)
                continue
            if self.kill_after is not None and len(self.ranked) == self.kill_after:
                raise KeyboardInterrupt
            self.ranked.append(task.degree)
            yield task, rank_one(shared, task)


def test_in_submitted_order_only_the_local_walks_blocks_are_ranked_and_the_rest_dropped():
    runner = InOrder()
    result = separation_rank(SPEC, cluster=runner)
    assert runner.ranked == [7, 8] and sorted(runner.dropped) == [a for a in range(14) if a not in (7, 8)]
    assert facts(result) == facts(separation_rank(SPEC))


def test_in_any_order_the_walk_is_the_local_one():
    for spec in (SPEC, TWO_HEADS):
        runner = InOrder(reverse=True)  # smallest first: every block ranked, the walk decides afterwards
        assert facts(separation_rank(spec, cluster=runner)) == facts(separation_rank(spec))
        assert sorted(runner.ranked) == list(range(14))


def test_a_killed_run_resumes_from_the_store_with_the_same_call(tmp_path):
    path = tmp_path / "blocks.sqlite"
    killed = InOrder(kill_after=2)
    with Store(path) as store, pytest.raises(KeyboardInterrupt):
        separation_rank(TWO_HEADS, cluster=killed, resume=BlockRows(store, TWO_HEADS))
    with Store(path) as store:
        assert len(store) == 2
        again = InOrder()
        result = separation_rank(TWO_HEADS, cluster=again, resume=BlockRows(store, TWO_HEADS))
        assert sorted(again.submitted[0] + killed.ranked) == list(range(14))  # the two kept are not sent again
        kept = len(store)
        rerun = InOrder()
        assert facts(separation_rank(TWO_HEADS, cluster=rerun, resume=BlockRows(store, TWO_HEADS))) == facts(result)
        assert rerun.submitted == [] and len(store) == kept  # everything read back, nothing ranked
    assert facts(result) == facts(separation_rank(TWO_HEADS))


@pytest.mark.parametrize("over, refused", [(0, False), (1, True)])
def test_a_stored_block_above_its_proven_bound_by_one_is_the_store_damaged(tmp_path, over, refused):
    import sqlite3

    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        separation_rank(TWO_HEADS, cluster=InOrder(reverse=True), resume=BlockRows(store, TWO_HEADS))
    bound = "json_extract(value, '$.plan.upper_bound')"
    with sqlite3.connect(path) as conn:  # the deficient blocks (bound below the short side) at bound + over
        changed = conn.execute(f"UPDATE results SET value = json_set(value, '$.rank', {bound} + {over}) WHERE "
                               f"{bound} < min(json_extract(value, '$.rows'), json_extract(value, '$.cols'))").rowcount
    conn.close()
    assert changed > 0
    with Store(path) as store:
        if refused:
            with pytest.raises(InputError, match="is damaged .* above the block's proven bound"):
                separation_rank(TWO_HEADS, cluster=InOrder(), resume=BlockRows(store, TWO_HEADS))
        else:
            assert separation_rank(TWO_HEADS, cluster=InOrder(), resume=BlockRows(store, TWO_HEADS)).rank == 215


def test_a_later_runs_blocks_are_those_a_local_later_run_gives():
    from verify.rank.reduced import reduced_separation_rank

    thin, field, only = NetworkSpec(depth=3, width=2, attn_dim=1), Field(2**63 - 25), list(range(1, 13))
    here = reduced_separation_rank(thin, field, 1, 2**62, only_blocks=only)
    there = reduced_separation_rank(thin, field, 1, 2**62, only_blocks=only, placement=Placement(runner=InOrder()))
    shape = lambda result: [(b.rank, b.ranked, b.implied_by, b.upper_bound, b.probability_bound)  # noqa: E731
                            for b in result.blocks]
    assert shape(there) == shape(here) and [b.ranked for b in here.blocks] == [False] + [True] * 12 + [False]
    assert there.rank == here.rank and there.notes == here.notes


def test_the_plan_and_the_moment_table_travel_by_pickle():
    plan = Placement(runner=object()).plan(SPEC, Field(1048573))
    back = pickle.loads(pickle.dumps(plan))
    assert back.runner is None and back.as_dict() == plan.as_dict() and back.device.xp is plan.device.xp


def test_dry_run_prints_each_blocks_memory_and_the_workers_that_can_hold_it(cluster, capsys):
    local, _ = cluster
    address = local.scheduler_address
    assert main(["sep", "--depth", "3", "--width", "2", "--scheduler", address, "--dry-run", "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    workers = sorted(local.scheduler_info["workers"])
    assert plan["workers"] == {w: MEMORY for w in workers}
    local_plan = plan_run(SPEC, Field(1048573))
    for block, planned in zip(plan["blocks"], local_plan.blocks, strict=True):
        assert block["memory"] == planned.bytes + 2 * comb(15, 2) * 32 + 2**29
        assert block["workers"] == workers
    assert main(["sep", "--depth", "3", "--width", "2", "--scheduler", address, "--dry-run"]) == 0
    text = capsys.readouterr().out
    assert f"w1 = {workers[0]} (MEMORY 2 GiB)" in text and text.splitlines()[-1].endswith("w1,w2")


def test_dry_run_says_which_blocks_fit_no_worker(cluster, capsys):
    local, _ = cluster
    assert main(["sep", "--depth", "4", "--width", "3", "--scheduler", local.scheduler_address, "--dry-run",
                 "--max-memory-gib", "60"]) == 0
    lines = capsys.readouterr().out.splitlines()
    homeless = [line.split()[0] for line in lines[3:-1] if line.endswith(" none")]
    n, top = 6, 40  # a block's task: its 8-byte slice, the moments (3 x terms x 32 bytes), 2^29
    terms = comb(top + n - 1, n - 1)
    need = {a: 8 * min(r, c) * min(max(r, c), min(r, c) + 32) + 3 * terms * 32 + 2**29 for a in range(top + 1)
            for r, c in [(comb(a + n - 1, n - 1), 3 * comb(top - a + n - 1, n - 1))]}
    assert [int(a) for a in homeless] == [a for a in range(top + 1) if need[a] > MEMORY]
    assert lines[-1].startswith(f"{len(homeless)} blocks fit no worker") and f"MEMORY={max(need.values())}" in lines[-1]


def test_a_stored_cli_run_resumes_with_the_same_command_and_ranks_nothing_again(cluster, tmp_path, capsys):
    local, client = cluster
    argv = ["sep", "--depth", "3", "--width", "2", "--heads", "2", "--scheduler", local.scheduler_address, "--json",
            "--store", str(tmp_path / "s.sqlite")]
    ran(client)
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert sum(len(rows) for rows in ran(client).values()) >= 1
    assert main(argv) == 0
    second = json.loads(capsys.readouterr().out)
    assert ran(client) == {w: [] for w in local.scheduler_info["workers"]}  # every block read back
    assert [(b["rank"], b["implied_by"]) for b in second["blocks"]] == [(b["rank"], b["implied_by"])
                                                                        for b in first["blocks"]]
    # 215: the token route's limit for depth 3, width 2, two heads (results/n_atlas.csv), another route
    assert (second["rank"], second["certified_exact"]) == (first["rank"], first["certified_exact"]) == (215, True)


def slow_block(shared, task):
    import time

    time.sleep(0.5)
    return task.degree


def test_tasks_no_longer_needed_are_cancelled_before_they_run(cluster):
    local, client = cluster
    ran(client)
    tasks = [block_tasks.BlockTask(a, 1, 1, None, 1) for a in range(6)]
    got = []
    remote = BlockCluster(client, local.scheduler_address)
    for task, value in remote.rank_blocks(slow_block, None, tasks, lambda t: not got or t.degree < 2):
        assert value == task.degree
        got.append(value)
    assert {0, 1} <= set(got)
    executed = [a for rows in ran(client).values() for a, _, _ in rows]
    assert sorted(executed)[:2] == [0, 1] and len(executed) <= 4  # two workers: at most one more each, raced


def test_a_worker_is_able_only_for_blocks_its_memory_holds():
    remote = BlockCluster(None, "tcp://127.0.0.1:1")
    workers = {"tcp://a:1": 100.0, "tcp://b:1": 50.0, "tcp://c:1": None}
    assert remote.able(50, workers) == ["tcp://a:1", "tcp://b:1"]
    assert remote.able(51, workers) == ["tcp://a:1"] and remote.able(101, workers) == []


def test_a_block_no_worker_can_hold_and_workers_without_memory_are_refused_before_any_work(capsys):
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                  host="127.0.0.1", dashboard_address=":0", resources={"MEMORY": 2**29}) as small:
        assert main(["sep", "--depth", "3", "--width", "2", "--scheduler", small.scheduler_address]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "more than any worker" in err and "MEMORY 0.5 GiB" in err
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                  host="127.0.0.1", dashboard_address=":0") as bare:
        with block_cluster(bare.scheduler_address) as remote, pytest.raises(InputError, match="none declares"):
            separation_rank(SPEC, cluster=remote)


@pytest.mark.parametrize("extra, words", [
    (["--tokens", "4"], "coefficients route has none"),
    (["--residual"], "residual network has none"),
    (["--device", "gpu"], "drop --device gpu"),
])
def test_what_the_cluster_cannot_run_is_one_line_and_exit_2(cluster, capsys, extra, words):
    local, _ = cluster
    assert main(["sep", "--depth", "2", "--width", "2", "--scheduler", local.scheduler_address, *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_line_and_exit_2_within_the_connect_timeout():
    import subprocess
    import sys
    import time

    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "verify", "sep", "--depth", "3", "--width", "2", "--scheduler",
                           "tcp://127.0.0.1:1"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "Dask scheduler" in done.stderr and time.monotonic() - start < 25


def test_block_tasks_are_planned_from_the_spec():
    tasks = block_tasks.plan_tasks(plan_run(SPEC, Field(1048573)), SPEC)
    assert [t.degree for t in tasks] == list(range(14))
    assert [(t.rows, t.cols) for t in tasks] == [(comb(a + 2, 2), 2 * comb(15 - a, 2)) for a in range(14)]
