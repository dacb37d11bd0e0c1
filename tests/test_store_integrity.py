"""Hostile and unlucky stores: a bit flipped in a derived array with its time put back, a
repair, temporary files left by killed writers, a live writer's lock, hints that name the
store, read-only media, and the modes files are written with. Every test has a time limit."""

import errno
import hashlib
import json
import os
import shlex
import shutil
import signal
import stat
import threading
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from analysis.cli import parser
from analysis.cli.common import rules_for
from analysis.engine.return_engine import ReturnEngine
from analysis.model.rules import preset
from analysis.parallel.options import RunOptions
from analysis.report.build import metadata_table
from analysis.store import atomic, derived, runs, shards
from analysis.store import outcome_store as store_module
from analysis.store.outcome_store import OutcomeStore
from analysis.store.result_store import ResultStore
from analysis.store.runs import run_into_store
from analysis.store.shards import StoreError
from exact_figures import HOLDEM_OPTIMAL_EDGE

QUIET = RunOptions(progress=False)


@pytest.fixture(autouse=True)
def time_limit():
    """Each test here ends within 5 minutes, or fails."""

    def expired(signum, frame):
        raise TimeoutError("the test took more than 300 s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(300)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def small(monkeypatch, tmp_path):
    """A complete small-deck store with its engine's arrays."""
    monkeypatch.setattr(store_module, "FLOPS_PER_SHARD", 40)
    rules = preset("casino-omaha").small_deck("89TJQKA", "cd")
    store = runs.ensure_store(rules, RunOptions(root=tmp_path / "stores", progress=False))
    ReturnEngine.from_store(store)
    return store


@pytest.fixture
def holdem_copy(tmp_path):
    """The full Casino Hold'em store under a root of its own: shards and manifest linked
    (they are only ever replaced, never written in place), the engine's arrays copied."""
    source = runs.ensure_store(preset("casino-holdem"), QUIET)
    ReturnEngine.from_store(source)  # its arrays exist and are sound
    root = tmp_path / "stores"
    target = root / source.path.name
    (target / "derived" / "engine").mkdir(parents=True)
    for path in [source.manifest_path, *(source.shard_path(i) for i in range(source.n_shards))]:
        os.link(path, target / path.name)
    for path in (source.path / "derived" / "engine").iterdir():
        shutil.copy2(path, target / "derived" / "engine" / path.name)
    return OutcomeStore.for_rules(source.rules, root)


def flip_bit_keep_times(path: Path, offset: int) -> None:
    """Flip one bit of the file and put its access and modification times back."""
    before = path.stat()
    with open(path, "r+b") as f:
        f.seek(offset)
        byte = f.read(1)[0]
        f.seek(offset)
        f.write(bytes([byte ^ 0x10]))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)


def damaged_block(path: Path, offset: int) -> str:
    """What a check says of the block of ``path`` that holds byte ``offset``."""
    first = offset // derived.BLOCK * derived.BLOCK
    return f"bytes {first:,} to {min(first + derived.BLOCK, path.stat().st_size):,} do not match their SHA-256"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def engine_meta(store: OutcomeStore) -> dict:
    return json.loads((store.path / "derived" / "engine" / "meta.json").read_text())["arrays"]


def house_edge(store: OutcomeStore):
    fresh = OutcomeStore.for_rules(store.rules, store.root)
    return ReturnEngine.from_store(fresh).decide().exact.house_edge


def test_a_flipped_bit_with_its_time_put_back_is_made_again(holdem_copy, capsys):
    store, pay = holdem_copy, holdem_copy.path / "derived" / "engine" / "pay.npy"
    assert house_edge(store) == HOLDEM_OPTIMAL_EDGE  # this process has now verified pay.npy
    want = engine_meta(store)["pay"]["sha256"]
    flip_bit_keep_times(pay, pay.stat().st_size // 2)
    # what the flipped array would give, were it taken as verified: a wrong exact edge
    st = pay.stat()
    identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    derived._VERIFIED[identity] = want
    try:
        assert house_edge(store) != HOLDEM_OPTIMAL_EDGE
    finally:
        del derived._VERIFIED[identity]
    capsys.readouterr()
    assert house_edge(store) == HOLDEM_OPTIMAL_EDGE
    assert f"{pay}: {damaged_block(pay, st.st_size // 2)}: making these arrays again" in capsys.readouterr().err
    assert sha256(pay) == want == engine_meta(store)["pay"]["sha256"]


def refuse_the_lock(monkeypatch):
    """Taking a store's lock fails as on read-only media (chmod does not bind root)."""

    def read_only(folder, on_wait=None):
        raise PermissionError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(shards, "folder_lock", read_only)


def test_a_flipped_bit_in_a_read_only_store_is_refused_with_the_command_that_fixes_it(holdem_copy, monkeypatch):
    store, rest = holdem_copy, holdem_copy.path / "derived" / "engine" / "rest.npy"
    flip_bit_keep_times(rest, 1000)
    refuse_the_lock(monkeypatch)
    command = f"casino-omaha enumerate --game casino-holdem --store {store.root} --repair"
    with pytest.raises(StoreError) as caught:
        house_edge(store)
    assert str(caught.value) == (
        f"{rest}: {damaged_block(rest, 1000)}, and this store cannot be written to make "
        f"them (Read-only file system); run `{command}` to check it and make the damaged parts again"
    )


def test_enumerate_repair_makes_a_damaged_derived_array_again(holdem_copy, cli):
    store, rest = holdem_copy, holdem_copy.path / "derived" / "engine" / "rest.npy"
    want = {key: entry["sha256"] for key, entry in engine_meta(store).items()}
    flip_bit_keep_times(rest, rest.stat().st_size - 5)
    run = cli("enumerate", "--game", "casino-holdem", "--store", store.root, "--repair", "--no-cluster")
    assert run.returncode == 0, run.stderr
    assert f"{rest}: {damaged_block(rest, rest.stat().st_size - 5)}: removed" in run.stderr
    assert f"derived/engine checked: pay.npy {want['pay'][:16]}" in run.stdout
    assert {key: entry["sha256"] for key, entry in engine_meta(store).items()} == want
    assert sha256(rest) == want["rest"]
    assert house_edge(store) == HOLDEM_OPTIMAL_EDGE


def test_repair_removes_a_damaged_set_that_is_made_again_when_next_used(small):
    profile = ReturnEngine.from_store(small).hand_profile()
    keep = {k: np.array(v) for k, v in vars(profile).items() if isinstance(v, np.ndarray)}
    path = small.path / "derived" / "hand-profile" / "hand_class.npy"
    flip_bit_keep_times(path, path.stat().st_size - 1)
    runs.ensure_store(small.rules, RunOptions(root=small.root, progress=False), repair=True)
    assert not path.parent.exists() and (small.path / "derived" / "engine" / "meta.json").exists()
    again = ReturnEngine.from_store(OutcomeStore.for_rules(small.rules, small.root)).hand_profile()
    for key, value in keep.items():
        np.testing.assert_array_equal(getattr(again, key), value)


def plant_stale_temporaries(store: OutcomeStore) -> list[Path]:
    """What a writer killed mid-write leaves: a shard's and a derived array's temporary file."""
    paths = [
        store.path / ".shard-00001.parquet.0123456789ab.tmp",
        store.path / "derived/engine/.pay.npy.ba9876543210.tmp",
    ]
    for path in paths:
        path.write_bytes(b"\0" * 4096)
    return paths


def test_a_killed_derived_write_is_cleaned_by_the_next_writer(small):
    """A report killed while writing the engine's arrays left a temporary file and no
    meta.json; the next load is the writer that makes them and removes both temporaries."""
    want = house_edge(small)
    stale = plant_stale_temporaries(small)
    (small.path / "derived" / "engine" / "meta.json").unlink()
    assert house_edge(small) == want
    assert not any(p.exists() for p in stale) and not list(small.path.rglob("*.tmp"))


def test_stale_temporaries_of_a_complete_store_are_removed_by_the_next_writer(small):
    stale = plant_stale_temporaries(small)
    house_edge(small)  # a reader leaves them
    assert all(p.exists() for p in stale)
    small.derived("extra", lambda s: {"n": np.arange(5)})  # a writer removes them
    assert not any(p.exists() for p in stale)


def test_a_live_writers_temporary_file_is_left_alone(small):
    """While another writer holds the lock, its temporary file is kept; the next writer
    waits, then removes what the holder left."""
    holding, release = threading.Event(), threading.Event()

    def writer() -> None:
        with small.lock():
            holding.set()
            release.wait(60)

    live = threading.Thread(target=writer)
    live.start()
    assert holding.wait(60)
    stale = plant_stale_temporaries(small)
    waiting = threading.Thread(target=lambda: small.derived("extra", lambda s: {"n": np.arange(5)}))
    waiting.start()
    waiting.join(1.0)
    assert waiting.is_alive() and all(p.exists() for p in stale)
    release.set()
    live.join(60)
    waiting.join(60)
    assert not waiting.is_alive() and not any(p.exists() for p in stale)


def test_hints_name_the_store_they_fix(tmp_path):
    """Another qualifier under another root (with a space) is another store: the hint's
    command, parsed as the command line parses it, selects exactly this one."""
    rules = replace(preset("casino-holdem"), qualifier_rank=4)
    store = OutcomeStore.for_rules(rules, tmp_path / "my stores")
    with pytest.raises(StoreError) as caught:
        store.derived("engine", lambda s: {})
    message = str(caught.value)
    root = shlex.quote(str(tmp_path / "my stores"))
    assert f"run `casino-omaha enumerate --game casino-holdem --qualifier 6s --store {root}` to finish it" in message
    hint = store.fix_hint()
    assert hint.startswith("run `casino-omaha enumerate --game casino-holdem --qualifier 6s --store ")
    words = shlex.split(hint.split("`")[1])
    args = parser().parse_args(words[1:])
    assert args.repair and OutcomeStore.path_for(rules_for(args), args.store) == store.path
    small = preset("casino-omaha").small_deck("89TJQKA", "cd")
    assert OutcomeStore.for_rules(small, tmp_path).fix_hint() == (
        f"run `analysis.ensure_store(rules, analysis.RunOptions(root={str(tmp_path)!r}), repair=True)` "
        "to check it and make the damaged parts again"
    )


def read_only_copy(folder: Path, target: Path) -> Path:
    """The folder's files but its lock file, in a folder made read-only (mode 0555)."""
    shutil.copytree(folder, target, ignore=shutil.ignore_patterns(".lock"))
    for path in [target, *target.rglob("*")]:
        if path.is_dir():
            path.chmod(0o555)
    return target


def listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.fixture
def writable_again(tmp_path):
    yield
    for path in [tmp_path, *tmp_path.rglob("*")]:
        if path.is_dir():
            path.chmod(0o755)


def test_a_complete_outcome_store_on_read_only_media_reads(small, tmp_path, monkeypatch, writable_again):
    engine = ReturnEngine.from_store(small)
    want, profile = engine.decide().exact, engine.hand_profile().hand_class
    target = read_only_copy(small.path, tmp_path / "ro" / small.path.relative_to(small.root))
    before = listing(target)
    refuse_the_lock(monkeypatch)
    store = runs.ensure_store(small.rules, RunOptions(root=tmp_path / "ro", progress=False))
    engine = ReturnEngine.from_store(store)
    assert engine.decide().exact == want
    np.testing.assert_array_equal(engine.hand_profile().hand_class, profile)
    assert listing(target) == before and ".lock" not in before


def test_a_complete_result_store_on_read_only_media_reads(tmp_path, monkeypatch, writable_again):
    key = {"game": "test", "seed": 1}
    store = ResultStore.for_job("exposure", key, tmp_path / "results")
    sizes = {0: 3, 1: 2}
    for i, n in sizes.items():
        store.write(i, [i] * n, n)
    target = read_only_copy(store.path, tmp_path / "ro" / store.path.name)
    before = listing(target)
    refuse_the_lock(monkeypatch)
    copy = ResultStore(target, "exposure", key)
    computed = run_into_store(copy, lambda *a: pytest.fail("computed again"), {0: (), 1: ()}, sizes, "test", QUIET)
    assert computed == 0 and [copy.read(i) for i in sizes] == [[0, 0, 0], [1, 1]]
    assert listing(target) == before
    # a shard short of its size still needs the writer, which read-only media refuse
    with pytest.raises(PermissionError):
        run_into_store(copy, lambda *a: pytest.fail("computed"), {0: (), 1: ()}, {0: 3, 1: 4}, "test", QUIET)


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_written_files_get_the_umasks_mode(small, tmp_path, umask):
    previous = os.umask(umask)
    try:
        atomic.atomic_write_bytes(tmp_path / "report.html", b"<p>")
        small.write_shard(0, small.read_shard(0))
        small.derived("extra", lambda s: {"n": np.arange(5)})
    finally:
        os.umask(previous)
    want = 0o666 & ~umask
    written = [tmp_path / "report.html", small.shard_path(0), small.manifest_path]
    written += [small.path / "derived" / "extra" / name for name in ("n.npy", "n.blocks", "meta.json")]
    assert {str(p): stat.S_IMODE(p.stat().st_mode) for p in written} == {str(p): want for p in written}


def test_report_metadata_names_what_was_read(small):
    engine = ReturnEngine.from_store(OutcomeStore.for_rules(small.rules, small.root))
    engine.hand_profile()
    result = engine.decide()
    rows = dict(metadata_table(small.rules, result, engine.source).itertuples(index=False))
    assert rows["store checksum (SHA-256)"] == small.checksum
    for name, keys in (("engine", ("pay", "rest", "weight", "totals")), ("hand-profile", ("hand_class",))):
        for key in keys:
            path = small.path / "derived" / name / f"{key}.npy"
            words = f"derived array: {name.replace('-', ' ')}, {key.replace('_', ' ')} (SHA-256)"
            assert rows[words] == sha256(path)


def wide_set(store: OutcomeStore) -> tuple[Path, np.ndarray]:
    """A set of one array of 2 million int64 (16 MB, 62 blocks) kept in ``store``."""
    values = np.arange(2_000_000, dtype=np.int64) * 3
    store.derived("wide", lambda s: {"n": values})
    return store.path / "derived" / "wide" / "n.npy", values


def test_a_flipped_byte_fails_the_read_that_touches_it_and_no_other(small):
    path, values = wide_set(small)
    row = len(values) // 2
    offset = small.open_derived("wide")["n"].start + 8 * row + 3
    flip_bit_keep_times(path, offset)
    n = OutcomeStore.for_rules(small.rules, small.root).open_derived("wide")["n"]
    # rows far from it are read, and only their block and the header's are hashed
    assert n.rows(10, 20).tolist() == values[10:20].tolist()
    assert n.rows(len(values) - 1).tolist() == [values[-1]]
    assert n.checked.sum() == 2 and len(n.checked) == 62
    with pytest.raises(StoreError) as caught:
        n.rows(row)
    assert str(caught.value) == f"{path}: {damaged_block(path, offset)}; {small.fix_hint()}"
    with pytest.raises(StoreError):  # a read of many rows that takes in the damaged block
        n.rows(0, len(values))
    assert n.rows(row - 40_000).tolist() == [values[row - 40_000]]  # another block still reads


def test_a_set_in_the_older_format_is_made_again_not_trusted(small, capsys):
    path, values = wide_set(small)
    folder = path.parent
    meta = json.loads((folder / "meta.json").read_text())
    old = {"checksum": meta["checksum"], "arrays": {"n": {"sha256": meta["arrays"]["n"]["sha256"]}}}
    (folder / "meta.json").write_text(json.dumps(old))  # as the format before blocks kept it
    (folder / "n.blocks").unlink()
    assert small.open_derived("wide") is None  # a question of a few rows reads the shards instead
    made = []
    capsys.readouterr()
    arrays = small.derived("wide", lambda s: made.append(1) or {"n": values})
    assert made == [1] and np.array_equal(arrays["n"], values)
    assert (
        f"{folder}: kept in an older format (one SHA-256 a file, checked whole), not trusted: "
        "making these arrays again from the shards"
    ) in capsys.readouterr().err
    assert small.open_derived("wide")["n"].rows(7).tolist() == [21]
