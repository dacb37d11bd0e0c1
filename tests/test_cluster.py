"""Heavy jobs on dask.distributed: a real scheduler and two workers on 127.0.0.1 (one killed
mid-run), a LocalCluster, and the same results as a run in this process; the protection
runs' result store resumes after an interruption and recomputes a damaged shard."""

import json
import signal
import subprocess
import sys
import time
from contextlib import contextmanager

import pytest

from analysis.counting.enumeration import count_flops, plan
from analysis.engine.return_engine import ReturnEngine
from analysis.engine.streets import solve_streets
from analysis.model.game import game_from_document
from analysis.model.rules import preset
from analysis.parallel import cluster as cluster_module
from analysis.parallel.cluster import connect_cluster
from analysis.parallel.options import RunOptions
from analysis.protection import runs as protection_runs
from analysis.protection.exposure import ExposureSums
from analysis.protection.sampling import Information
from analysis.store import outcome_store as store_module
from analysis.store import runs
from analysis.store.outcome_store import OutcomeStore
from analysis.store.result_store import ResultStore
from analysis.store.shards import StoreError
from test_streets import doc

SMALL = ("casino-omaha", "789TJQKA", "cdh")


def quiet(results):
    """Run options of a test: results kept in ``results``, no progress bar."""
    return RunOptions(results=results, progress=False)


def small_rules():
    game, ranks, suits = SMALL
    return preset(game).small_deck(ranks, suits)


@contextmanager
def dask_processes(folder, workers=2):
    """``dask scheduler`` and ``dask worker`` processes listening on 127.0.0.1 only (the
    dashboards too), stopped at the end. Yields (address, worker processes)."""
    scheduler_file = folder / "scheduler.json"
    local = ["--dashboard-address", "127.0.0.1:0"]
    log = open(folder / "dask.log", "w")
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port", "0", *local]
            + ["--scheduler-file", str(scheduler_file)],
            stdout=log,
            stderr=log,
        )
    ]
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        address = json.loads(scheduler_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        for i in range(workers):
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-m", "dask", "worker", address, "--host", "127.0.0.1", "--nthreads", "1"]
                    + ["--no-nanny", "--name", f"w{i}", "--local-directory", str(folder / f"w{i}"), *local],
                    stdout=log,
                    stderr=log,
                )
            )
        yield address, procs[1:]
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
        log.close()


@pytest.mark.slow
def test_scheduler_and_workers_killed_mid_run_give_the_local_checksum(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "FLOPS_PER_SHARD", 16)  # 25 shards for the workers
    rules = small_rules()
    local = runs.ensure_store(rules, RunOptions(root=tmp_path / "local", progress=False))
    with dask_processes(tmp_path) as (address, workers), connect_cluster(address) as cluster:
        cluster.client.wait_for_workers(2, timeout=60)
        victim = workers[1]
        victim_address = next(a for a, w in cluster.client.scheduler_info()["workers"].items() if w["name"] == "w1")
        real_write = OutcomeStore.write_shard_bytes
        killed = []

        def write_then_kill(self, i, data, **fields):
            real_write(self, i, data, **fields)
            if not killed:  # on the first result: kill the second worker while it holds a shard
                deadline = time.monotonic() + 10
                while not cluster.client.processing().get(victim_address) and time.monotonic() < deadline:
                    time.sleep(0.01)
                killed.append(bool(cluster.client.processing().get(victim_address)))
                victim.kill()

        monkeypatch.setattr(OutcomeStore, "write_shard_bytes", write_then_kill)
        remote = runs.ensure_store(rules, RunOptions(root=tmp_path / "remote", cluster=cluster, progress=False))
        assert killed == [True] and victim.wait(timeout=10) == -signal.SIGKILL
        assert len(cluster.client.scheduler_info()["workers"]) == 1
    assert remote.complete and remote.checksum == local.checksum


@pytest.mark.slow
def test_scheduler_option_and_environment_run_the_sampled_job(tmp_path, cli, cli_process, monkeypatch, holdem):
    job = ["protect", "--exposed", "2", "--game", "casino-holdem", "--samples", "300", "--no-progress"]
    job += ["--format", "json"]  # the base game's store is the shared one; each run keeps its own results
    here = cli(*job, "--seed", "3", "--no-cluster", "--results", tmp_path / "here").json()
    with dask_processes(tmp_path) as (address, _):
        remote = cli(*job, "--seed", "3", "--scheduler", address, "--results", tmp_path / "remote").json()
        monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", address)  # dask reads it when a process starts
        other = cli_process(*job, "--seed", "4", "--results", tmp_path / "other")
        assert f"dask: scheduler {address}, 2 workers" in other.stderr
    assert remote["checksum"] == here["checksum"] and remote["house_edge"] == here["house_edge"]
    assert remote["samples"] == 300 and other.json()["checksum"] != here["checksum"]


@pytest.mark.slow
def test_local_cluster_equals_a_run_in_this_process(tmp_path):
    rules = small_rules()
    engine = ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules)
    here = runs.ensure_store(rules, RunOptions(root=tmp_path / "here", progress=False))
    _, sums_here, _ = protection_runs.exposure_run(
        rules, engine=engine, options=RunOptions(results=tmp_path / "here", progress=False)
    )
    info = Information("colluders", 1)
    _, margins_here, run_here = protection_runs.sampled_run(
        rules, info, 600, 1, options=RunOptions(results=tmp_path / "here", progress=False)
    )
    game = game_from_document(doc(ranks="TJQKA", suits="cdh"), "a game of several shards")
    solved_here = solve_streets(game, RunOptions(root=tmp_path / "here", progress=False))
    with connect_cluster(workers=2) as cluster:
        solved_there = solve_streets(game, RunOptions(root=tmp_path / "there", cluster=cluster, progress=False))
        there = runs.ensure_store(rules, RunOptions(root=tmp_path / "there", cluster=cluster, progress=False))
        _, sums, _ = protection_runs.exposure_run(
            rules, engine=engine, options=RunOptions(results=tmp_path / "there", cluster=cluster, progress=False)
        )
        _, margins, run = protection_runs.sampled_run(
            rules, info, 600, 1, options=RunOptions(results=tmp_path / "there", cluster=cluster, progress=False)
        )
        assert cluster.local and cluster.dashboard.startswith("http://127.0.0.1:")
    assert there.checksum == here.checksum
    assert sums.digest() == sums_here.digest() and margins == margins_here and run.checksum == run_here.checksum
    assert solved_there.counts == solved_here.counts and solved_there.checksum == solved_here.checksum
    assert solved_there.store != solved_here.store


def test_an_interrupted_run_resumes_and_a_damaged_shard_is_computed_again(tmp_path, monkeypatch):
    rules = small_rules()
    info = Information("exposed", 2)
    real = protection_runs._sample_shard
    calls = []

    def shard_then_interrupt(*args, **kwargs):
        calls.append(args[1])
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(protection_runs, "_sample_shard", shard_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        protection_runs.sampled_run(
            rules, info, 1000, 9, options=RunOptions(results=tmp_path, progress=False, threads=1)
        )
    monkeypatch.setattr(protection_runs, "_sample_shard", real)
    job, first, run = protection_runs.sampled_run(rules, info, 1000, 9, options=quiet(tmp_path))
    assert run.computed == 2 and run.shards == 4  # the two finished shards were kept
    store = ResultStore.for_job("sampled", job.key(), tmp_path)
    assert not list(store.path.glob(".*.tmp"))
    # a shard replaced by other numbers is refused by name, and computed again next time
    path = store.shard_path(1)
    path.write_text(json.dumps([0] * 256))
    with pytest.raises(StoreError, match="shard-00001.json: the file does not match its checksum"):
        store.read(1)
    _, again, rerun = protection_runs.sampled_run(rules, info, 1000, 9, options=quiet(tmp_path))
    assert again == first and rerun.computed == 1 and rerun.checksum == run.checksum
    # a longer run extends the shorter one; a damaged manifest is a clear error
    _, longer, _ = protection_runs.sampled_run(rules, info, 1300, 9, options=quiet(tmp_path))
    assert longer[:1000] == first
    store.manifest_path.write_text(store.manifest_path.read_text().replace('"size": 256', '"size": 255', 1))
    with pytest.raises(StoreError, match="manifest does not match its own checksum"):
        ResultStore.for_job("sampled", job.key(), tmp_path)


def test_exposure_results_are_kept_per_shard_and_reused(tmp_path, monkeypatch):
    rules = preset("casino-holdem").small_deck("9TJQKA", "cd")
    engine = ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules)
    monkeypatch.setattr(store_module, "FLOPS_PER_SHARD", 10)
    job, sums, run = protection_runs.exposure_run(rules, engine=engine, options=quiet(tmp_path))
    assert run.computed == run.shards > 2
    whole = job.run(plan(rules), threads=2)
    assert sums.digest() == whole.digest() == run.checksum
    monkeypatch.setattr(protection_runs, "_exposure_shard", lambda *a, **k: pytest.fail("recomputed"))

    class Unstarted:  # a run with every shard kept starts no cluster (it could fail: nothing to do)
        @property
        def client(self):
            pytest.fail("a cluster was started for a run with nothing to compute")

    _, again, rerun = protection_runs.exposure_run(
        rules, engine=engine, options=RunOptions(results=tmp_path, cluster=Unstarted(), progress=False)
    )
    assert rerun.computed == 0 and again.digest() == sums.digest()
    stored = ExposureSums.from_json(ResultStore.for_job("exposure", job.key(), tmp_path).read(0))
    assert int(stored.states.sum()) > 0


def test_no_scheduler_reachable_is_one_clear_error(cli, monkeypatch):
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", 2.0)  # the same error, without waiting 20 s for it
    out = cli("protect", "--turn", "--game", "casino-holdem", "--scheduler", "tcp://127.0.0.1:9", "--samples", "10")
    assert out.returncode == 2 and "cannot reach the dask scheduler at tcp://127.0.0.1:9" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_worker_count_is_checked(cli):
    out = cli("protect", "--turn", "--workers", "0")
    assert out.returncode == 2 and "workers must be from 1 to 256, got 0" in out.stderr


@pytest.mark.slow
def test_shards_run_in_this_process_unless_a_cluster_is_asked_for(tmp_path, cli, monkeypatch, holdem):
    # on one machine the process is the fast path (docs/speed.md), so it is the default
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    job = ["protect", "--turn", "--game", "casino-holdem", "--samples", "40", "--no-progress", "--format", "json"]
    here = cli(*job, "--seed", "5", "--results", tmp_path / "here")
    assert "dask:" not in here.stderr
    there = cli(*job, "--seed", "5", "--cluster", "--workers", "1", "--results", tmp_path / "there")
    assert "dask: local cluster, 1 workers" in there.stderr
    assert there.json()["checksum"] == here.json()["checksum"]
