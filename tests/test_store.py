"""The outcome store: atomic shards, resume after an interruption, reuse, damage detection,
one state read from its shard, and the return engine's arrays kept beside the shards."""

import json

import numpy as np
import pytest

from analysis import runs
from analysis import store as store_module
from analysis.engine import ReturnEngine
from analysis.enumeration import count_flops, plan
from analysis.rules import preset
from analysis.store import OutcomeStore, StoreError
from analysis.symmetry import suit_permutations


@pytest.fixture
def small(monkeypatch):
    monkeypatch.setattr(store_module, "FLOPS_PER_SHARD", 40)  # several shards on a small deck
    return preset("casino-omaha").small_deck("89TJQKA", "cd")


def test_interrupted_run_resumes_to_the_same_store(small, tmp_path, monkeypatch):
    real_run = runs.run
    calls = {"n": 0}

    def run_then_interrupt(prepared, threads=None):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real_run(prepared, threads)

    monkeypatch.setattr(runs, "run", run_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        runs.ensure_store(small, tmp_path, progress=False)
    store = OutcomeStore.for_rules(small, tmp_path)
    assert store.done() == {0, 1, 2} and not store.complete
    assert not list(tmp_path.rglob(".shard-*"))  # no half-written files

    monkeypatch.setattr(runs, "run", real_run)
    resumed = runs.ensure_store(small, tmp_path, progress=False)
    assert resumed.complete and resumed.n_shards == 5 and len(resumed.done()) == 5
    fresh = runs.ensure_store(small, tmp_path / "fresh", progress=False)
    assert resumed.checksum == fresh.checksum
    loaded = resumed.load(verify=True)
    direct = count_flops(small, plan(small))
    np.testing.assert_array_equal(loaded.counts, direct.counts)
    np.testing.assert_array_equal(loaded.weight, direct.weight)
    np.testing.assert_array_equal(loaded.hole, direct.hole)


def test_complete_store_is_reused(small, tmp_path, monkeypatch):
    runs.ensure_store(small, tmp_path, progress=False)
    monkeypatch.setattr(runs, "run", lambda *a: pytest.fail("a complete store must not be recomputed"))
    store = runs.ensure_store(small, tmp_path, progress=False)
    m = json.loads((store.path / "manifest.json").read_text())
    assert m["complete"] and m["total_states"] == small.states and m["rules"]["hole_cards"] == 3
    assert m["engine_version"] >= 1 and len(m["checksum"]) == 64


def test_damaged_shard_is_detected(small, tmp_path):
    store = runs.ensure_store(small, tmp_path, progress=False)
    sc = store.read_shard(1)
    sc.counts[0, 0] += 1
    store_copy = OutcomeStore.for_rules(small, tmp_path)
    digest = store_copy.manifest["shards"]["1"]["sha256"]
    store_copy.write_shard(1, sc)  # rewrites the shard and its checksum ...
    store_copy.manifest["shards"]["1"]["sha256"] = digest  # ... then restore the old checksum
    store_copy._save_manifest()
    with pytest.raises(StoreError, match="does not match its checksum"):
        OutcomeStore.for_rules(small, tmp_path).verify()


def test_store_of_other_rules_is_refused(small, tmp_path):
    store = runs.ensure_store(small, tmp_path, progress=False)
    other = preset("casino-holdem").small_deck("89TJQKA", "cd")
    with pytest.raises(StoreError, match="other rules"):
        OutcomeStore(store.path, other)


def test_read_state_finds_any_relabelling_of_a_state(small, tmp_path):
    store = runs.ensure_store(small, tmp_path, progress=False)
    direct = count_flops(small, plan(small))
    rng = np.random.default_rng(7)
    perms = suit_permutations(small.suits)
    for row in rng.choice(len(direct), 12, replace=False):
        p = perms[rng.integers(len(perms))]
        hole, flop = rng.permutation(p[direct.hole[row]]), rng.permutation(p[direct.flop[row]])
        np.testing.assert_array_equal(store.read_state(hole.tolist(), flop.tolist()), direct.counts[row])


def test_engine_of_a_store_is_the_engine_of_its_counts(small, tmp_path, monkeypatch):
    store = runs.ensure_store(small, tmp_path, progress=False)
    mapped = ReturnEngine.from_store(store)
    memory = ReturnEngine.from_counts(count_flops(small, plan(small)), small)
    for strategy in ("optimal", "always-call", "simple"):
        for pays_on in ("ante", "call"):
            a, b = mapped.decide("madrid", strategy, pays_on), memory.decide("madrid", strategy, pays_on)
            assert a.exact == b.exact and np.array_equal(a.calls, b.calls)
    everything = np.ones(mapped.states, dtype=bool)
    assert mapped.column_sums(everything) == memory.column_sums(everything)
    # the packed arrays and the hand profile are kept and mapped, not rebuilt
    assert isinstance(mapped.pay.data, np.memmap)
    monkeypatch.setattr(store_module.OutcomeStore, "iter_shards", lambda self: pytest.fail("rebuilt"))
    monkeypatch.setattr(store_module.OutcomeStore, "cards", lambda self: pytest.fail("rebuilt"))
    again = ReturnEngine.from_store(OutcomeStore.for_rules(small, tmp_path))
    assert again.decide(None, "simple").exact == memory.decide(None, "simple").exact
