"""The outcome store: atomic shards, resume after an interruption, reuse, damage detection,
one state read from its shard, and the return engine's arrays kept beside the shards."""

import errno
import hashlib
import json
import random
import subprocess
import sys
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from analysis import STRATEGIES
from analysis.counting.enumeration import count_flops, plan
from analysis.counting.symmetry import suit_permutations
from analysis.engine.return_engine import ReturnEngine
from analysis.model.rules import preset
from analysis.parallel.options import RunOptions
from analysis.store import atomic, runs
from analysis.store import outcome_store as store_module
from analysis.store.outcome_store import OutcomeStore, shard_plan
from analysis.store.shards import StoreError


@pytest.fixture
def small(monkeypatch):
    monkeypatch.setattr(store_module, "FLOPS_PER_SHARD", 40)  # several shards on a small deck
    return preset("casino-omaha").small_deck("89TJQKA", "cd")


def test_interrupted_run_resumes_to_the_same_store(small, tmp_path, monkeypatch):
    real_run = runs.run
    calls = {"n": 0}

    def run_then_interrupt(prepared, threads=None, boards=None):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real_run(prepared, threads, boards)

    monkeypatch.setattr(runs, "run", run_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        runs.ensure_store(small, RunOptions(root=tmp_path, progress=False))
    store = OutcomeStore.for_rules(small, tmp_path)
    assert store.done() == {0, 1, 2} and not store.complete
    assert not list(tmp_path.rglob(".shard-*"))  # no half-written files

    monkeypatch.setattr(runs, "run", real_run)
    resumed = runs.ensure_store(small, RunOptions(root=tmp_path, progress=False))
    assert resumed.complete and resumed.n_shards == 5 and len(resumed.done()) == 5
    fresh = runs.ensure_store(small, RunOptions(root=tmp_path / "fresh", progress=False))
    assert resumed.checksum == fresh.checksum
    assert resumed.verify() == []
    loaded = resumed.load()
    direct = count_flops(small, plan(small))
    np.testing.assert_array_equal(loaded.counts, direct.counts)
    np.testing.assert_array_equal(loaded.weight, direct.weight)
    np.testing.assert_array_equal(loaded.hole, direct.hole)


def test_complete_store_is_reused(small, tmp_path, monkeypatch):
    runs.ensure_store(small, RunOptions(root=tmp_path, progress=False))
    monkeypatch.setattr(runs, "run", lambda *a: pytest.fail("a complete store must not be recomputed"))
    store = runs.ensure_store(small, RunOptions(root=tmp_path, progress=False))
    m = json.loads((store.path / "manifest.json").read_text())
    assert m["complete"] and m["total_states"] == small.states and m["rules"]["hole_cards"] == 3
    assert m["engine_version"] == store_module.ENGINE_VERSION and m["rules"] == json.loads(json.dumps(small.describe()))
    # the checksum is what anyone can recompute from the counts: SHA-256 of the shards'
    # content digests, each shard's states counted here in memory (the kernel whose counts
    # tests/test_enumerator.py checks against the brute force on this deck)
    digests = "".join(store_module.content_digest(count_flops(small, classes)) for classes in shard_plan(small))
    assert m["checksum"] == store.checksum == hashlib.sha256(digests.encode()).hexdigest()


def test_store_of_other_rules_is_refused(small, tmp_path):
    store = runs.ensure_store(small, RunOptions(root=tmp_path, progress=False))
    other = preset("casino-holdem").small_deck("89TJQKA", "cd")
    with pytest.raises(StoreError, match="other rules"):
        OutcomeStore(store.path, other)


def test_read_state_finds_any_relabelling_of_a_state(small, tmp_path):
    store = runs.ensure_store(small, RunOptions(root=tmp_path, progress=False))
    direct = count_flops(small, plan(small))
    rng = np.random.default_rng(7)
    perms = suit_permutations(small.suits)
    for row in rng.choice(len(direct), 12, replace=False):
        p = perms[rng.integers(len(perms))]
        hole, flop = rng.permutation(p[direct.hole[row]]), rng.permutation(p[direct.flop[row]])
        np.testing.assert_array_equal(store.read_state(hole.tolist(), flop.tolist()), direct.counts[row])


def test_engine_of_a_store_is_the_engine_of_its_counts(small, tmp_path, monkeypatch):
    store = runs.ensure_store(small, RunOptions(root=tmp_path, progress=False))
    mapped = ReturnEngine.from_store(store)
    memory = ReturnEngine.from_counts(count_flops(small, plan(small)), small)
    for strategy in ("optimal", "always-call", "simple"):
        for pays_on in ("ante", "call"):
            a, b = (
                mapped.decide("madrid", STRATEGIES[strategy], pays_on),
                memory.decide("madrid", STRATEGIES[strategy], pays_on),
            )
            assert a.exact == b.exact and np.array_equal(a.calls, b.calls)
    everything = np.ones(mapped.states, dtype=bool)
    assert mapped.column_sums(everything) == memory.column_sums(everything)
    # the packed arrays and the hand profile are kept and mapped, not rebuilt
    assert isinstance(mapped.pay.data, np.memmap)
    monkeypatch.setattr(store_module.OutcomeStore, "iter_shards", lambda self: pytest.fail("rebuilt"))
    monkeypatch.setattr(store_module.OutcomeStore, "cards", lambda self: pytest.fail("rebuilt"))
    again = ReturnEngine.from_store(OutcomeStore.for_rules(small, tmp_path))
    assert again.decide(None, STRATEGIES["simple"]).exact == memory.decide(None, STRATEGIES["simple"]).exact


def test_shards_written_as_a_cluster_hands_them_over_and_an_error_midway(small, tmp_path, monkeypatch):
    """The cluster's writer encodes on two threads and keeps each shard here in the order
    it came; an encoding that fails stops the run, the shards kept before it stay sound,
    and the next run counts only the rest, to the checksum of a run in this process."""
    counts = {i: count_flops(small, classes) for i, classes in enumerate(shard_plan(small))}
    store = OutcomeStore.for_rules(small, tmp_path)
    with runs._ShardWriter(store, 2) as writer:
        for i in (4, 2, 0):
            writer.put(i, counts[i])
    assert store.done() == {0, 2, 4} and store.verify() == [1, 3]
    real = OutcomeStore.encode_shard
    monkeypatch.setattr(OutcomeStore, "encode_shard", lambda self, sc: 1 / 0 if sc is counts[3] else real(self, sc))
    with pytest.raises(ZeroDivisionError), runs._ShardWriter(store, 2) as writer:
        for i in (1, 3):
            writer.put(i, counts[i])
    assert store.done() == {0, 1, 2, 4} and not list(tmp_path.rglob(".shard-*"))
    monkeypatch.setattr(OutcomeStore, "encode_shard", real)
    computed = []
    real_run = runs.run
    monkeypatch.setattr(runs, "run", lambda prepared, *a: computed.append(1) or real_run(prepared, *a))
    resumed = runs.ensure_store(small, RunOptions(root=tmp_path, progress=False))
    fresh = runs.ensure_store(small, RunOptions(root=tmp_path / "fresh", progress=False))
    assert len(computed) == 1 + 5 and resumed.checksum == fresh.checksum


def figures(store):
    result = ReturnEngine.from_store(store).decide("madrid", "optimal")
    return result.exact


def test_a_replaced_shard_is_refused_and_repaired(small, tmp_path):
    """A shard replaced by another valid parquet file (other counts): every read refuses it,
    naming the file and the fix; `enumerate --repair` restores the exact store."""
    store = runs.ensure_store(small, RunOptions(root=tmp_path, progress=False))
    want, checksum = figures(store), store.checksum
    table = pq.read_table(store.shard_path(2))
    counts = table.column("win_pair").to_numpy().copy()
    counts[0] += 1
    pq.write_table(
        table.set_column(table.schema.get_field_index("win_pair"), "win_pair", pa.array(counts)), store.shard_path(2)
    )
    import shutil

    shutil.rmtree(store.path / "derived", ignore_errors=True)  # the engine must read the shards again
    fresh = OutcomeStore.for_rules(small, tmp_path)
    for read in (lambda: fresh.read_shard(2), fresh.load, fresh.cards, lambda: ReturnEngine.from_store(fresh)):
        with pytest.raises(StoreError, match=r"shard-00002.parquet: the file does not match its checksum.*repair=True"):
            read()
    hole, flop = fresh.read_shard(1).hole[0], fresh.read_shard(1).flop[0]  # other shards still read
    assert len(fresh.read_state(hole.tolist(), flop.tolist())) == 40
    # a plain run does not look inside
    assert runs.ensure_store(small, RunOptions(root=tmp_path, progress=False)) is not None
    repaired = runs.ensure_store(small, RunOptions(root=tmp_path, progress=False), repair=True)
    assert repaired.checksum == checksum and repaired.verify() == []
    assert figures(repaired) == want


@pytest.mark.parametrize("damage", ["edit", "garbage"])
def test_a_damaged_manifest_is_refused_and_repaired(small, tmp_path, damage):
    store = runs.ensure_store(small, RunOptions(root=tmp_path, progress=False))
    want, checksum = figures(store), store.checksum
    path = store.manifest_path
    if damage == "edit":  # valid JSON, a shard said to hold other rows
        manifest = json.loads(path.read_text())
        manifest["shards"]["0"]["rows"] += 1
        path.write_text(json.dumps(manifest))
        message = "the manifest does not match its own checksum"
    else:
        path.write_bytes(b"\x00\x01 not json")
        message = "the manifest cannot be read"
    with pytest.raises(StoreError, match=f"manifest.json: {message}.*repair=True"):
        OutcomeStore.for_rules(small, tmp_path)
    repaired = runs.ensure_store(small, RunOptions(root=tmp_path, progress=False), repair=True)
    assert repaired.checksum == checksum and figures(repaired) == want


def test_a_deleted_shard_is_enumerated_again(small, tmp_path):
    store = runs.ensure_store(small, RunOptions(root=tmp_path, progress=False))
    checksum = store.checksum
    store.shard_path(3).unlink()
    again = runs.ensure_store(small, RunOptions(root=tmp_path, progress=False))
    assert again.checksum == checksum and again.shard_path(3).exists() and again.verify() == []


def test_a_full_disk_leaves_no_temporary_file_and_keeps_the_old_file(small, tmp_path, monkeypatch):
    store = runs.ensure_store(small, RunOptions(root=tmp_path, progress=False))
    before = store.shard_path(1).read_bytes()
    real_replace = atomic.os.replace

    def no_space(*args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", no_space)
    with pytest.raises(OSError, match="No space left"):
        store.write_shard(1, store.read_shard(1))
    monkeypatch.setattr(atomic.os, "replace", real_replace)
    assert store.shard_path(1).read_bytes() == before
    assert not [p for p in tmp_path.rglob("*") if p.name.startswith(".") and p.name.endswith(".tmp")]


def test_two_enumerations_at_once_killed_at_random_moments(small, tmp_path, monkeypatch):
    """Two processes enumerate one store; one of them is killed at a random moment, and the
    store that remains is always the clean one, with a complete manifest."""
    monkeypatch.setattr(store_module, "FLOPS_PER_SHARD", 4)  # many shards: many moments to die in
    clean = runs.ensure_store(small, RunOptions(root=tmp_path / "clean", progress=False))
    code = (
        "import sys\nfrom analysis import RunOptions, preset\nfrom analysis.store import outcome_store as store, runs\n"
        "store.FLOPS_PER_SHARD = 4\n"
        "small = preset('casino-omaha').small_deck('89TJQKA', 'cd')\n"
        "runs.ensure_store(small, RunOptions(root=sys.argv[1], progress=False))\n"
    )
    rng = random.Random(12)
    for attempt in range(3):
        root = tmp_path / f"run{attempt}"
        runners = [subprocess.Popen([sys.executable, "-c", code, str(root)]) for _ in range(2)]
        time.sleep(rng.uniform(0.3, 2.0))
        victim = runners[rng.randrange(2)]
        victim.kill()
        survivor = next(p for p in runners if p is not victim)
        assert survivor.wait(timeout=300) == 0
        victim.wait()
        store = OutcomeStore.for_rules(small, root)
        assert store.complete and store.checksum == clean.checksum and store.verify() == []
        assert not list(root.rglob(".*.tmp"))
