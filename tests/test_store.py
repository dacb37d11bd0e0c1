"""The outcome store: atomic shards, resume after an interruption, reuse, damage detection."""

import json

import numpy as np
import pytest

from analysis import exact
from analysis.enumeration import count_flops, plan
from analysis.rules import preset
from analysis.store import OutcomeStore, StoreError


@pytest.fixture
def small(monkeypatch):
    monkeypatch.setattr(exact, "FLOPS_PER_SHARD", 40)  # several shards on a small deck
    return preset("casino-omaha").small_deck("89TJQKA", "cd")


def test_interrupted_run_resumes_to_the_same_store(small, tmp_path, monkeypatch):
    real_run = exact.run
    calls = {"n": 0}

    def run_then_interrupt(prepared, threads=None):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real_run(prepared, threads)

    monkeypatch.setattr(exact, "run", run_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        exact.ensure_store(small, tmp_path, progress=False)
    store = OutcomeStore.for_rules(small, exact.shard_count(small), tmp_path)
    assert store.done() == {0, 1, 2} and not store.complete
    assert not list(tmp_path.rglob(".shard-*"))  # no half-written files

    monkeypatch.setattr(exact, "run", real_run)
    resumed = exact.ensure_store(small, tmp_path, progress=False)
    assert resumed.complete
    fresh = exact.ensure_store(small, tmp_path / "fresh", progress=False)
    assert resumed.checksum == fresh.checksum
    loaded = resumed.load(verify=True)
    direct = count_flops(small, plan(small))
    np.testing.assert_array_equal(loaded.counts, direct.counts)
    np.testing.assert_array_equal(loaded.weight, direct.weight)
    np.testing.assert_array_equal(loaded.hole, direct.hole)


def test_complete_store_is_reused(small, tmp_path, monkeypatch):
    exact.ensure_store(small, tmp_path, progress=False)
    monkeypatch.setattr(exact, "run", lambda *a: pytest.fail("a complete store must not be recomputed"))
    store = exact.ensure_store(small, tmp_path, progress=False)
    m = json.loads((store.path / "manifest.json").read_text())
    assert m["complete"] and m["total_states"] == small.states and m["rules"]["hole_cards"] == 3
    assert m["engine_version"] >= 1 and len(m["checksum"]) == 64


def test_damaged_shard_is_detected(small, tmp_path):
    store = exact.ensure_store(small, tmp_path, progress=False)
    sc = store.read_shard(1)
    sc.counts[0, 0] += 1
    store_copy = OutcomeStore.for_rules(small, store.n_shards, tmp_path)
    digest = store_copy.manifest["shards"]["1"]["sha256"]
    store_copy.write_shard(1, sc)  # rewrites the shard and its checksum ...
    store_copy.manifest["shards"]["1"]["sha256"] = digest  # ... then restore the old checksum
    store_copy._save_manifest()
    with pytest.raises(StoreError, match="does not match its checksum"):
        OutcomeStore.for_rules(small, store.n_shards, tmp_path).verify()


def test_store_of_other_rules_is_refused(small, tmp_path):
    store = exact.ensure_store(small, tmp_path, progress=False)
    other = preset("casino-holdem").small_deck("89TJQKA", "cd")
    with pytest.raises(StoreError, match="other rules"):
        OutcomeStore(store.path, other, store.n_shards)
