"""The per-state outcome store: parquet shards plus a JSON manifest, in one folder.

* One folder per game and deck: ``<root>/<game>-<fingerprint>/`` (the fingerprint hashes
  the rules the counts depend on and the engine version). The root is ``--store`` or
  ``$CASINO_OMAHA_STORE``, else ``data/outcomes/`` in a checkout of the project, else a
  per-user cache folder.
* ``shard-NNNNN.parquet``: the canonical states of a run of :data:`FLOPS_PER_SHARD` flop
  classes, in key order, with ``flop0..2``, ``hole0..k``, ``weight`` and the 40 count
  columns of :data:`analysis.outcomes.COLUMNS`.
* ``manifest.json``: rules, engine and package version, shard list with rows, a SHA-256 of
  each shard's content (the store checksum, when complete, hashes these) and of its file,
  and a SHA-256 of the manifest itself. Every read of a shard checks its file's hash while
  reading; a mismatch is a :class:`StoreError` that names the file and the fix
  (``casino-omaha enumerate --repair`` re-enumerates exactly the damaged or missing shards).
* ``.lock``: held (``fcntl.flock``) by an enumeration for as long as it runs; a second
  enumeration of the same store waits for it, then finds the finished shards.
* ``derived/<name>/``: pay-independent arrays computed from a complete store (the return
  engine's packed counts, hand classes), kept as ``.npy`` files that are mapped, not read.
* Every file is written to a temporary name and renamed, so an interrupted run never
  leaves a half-written shard, and the next run resumes from the finished ones.

Only this module knows the shard layout: the rest asks for a state
(:meth:`OutcomeStore.read_state`), for every shard in turn, or for derived arrays.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import hashlib
import json
import os
import platform
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from math import ceil
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .atomic import atomic_write_bytes, remove_temporary
from .derived import derived_arrays
from .outcomes import COLUMNS, StateCounts, empty_counts
from .rules import Rules
from .symmetry import FlopClass, canonical_states, colex_codes, flop_classes

#: Version of the counting method; bump when the meaning of the stored counts changes.
ENGINE_VERSION = 1
FORMAT = "casino-omaha-outcomes/1"
#: Flop classes per shard: a shard is the unit of progress, resumption and parallel work.
FLOPS_PER_SHARD = 32
#: Rows per parquet row group: reading one state reads one group of counts.
ROW_GROUP = 16384
CHECKOUT = Path(__file__).resolve().parents[1]


class StoreError(RuntimeError):
    """A store that cannot be used: wrong game, damaged or unfinished."""


def default_root() -> Path:
    """Where stores live unless ``--store`` says otherwise (see the module docstring)."""
    if os.environ.get("CASINO_OMAHA_STORE"):
        return Path(os.environ["CASINO_OMAHA_STORE"])
    if (CHECKOUT / "pyproject.toml").is_file() and (CHECKOUT / "data" / "outcomes").is_dir():
        return CHECKOUT / "data" / "outcomes"
    import platformdirs

    return Path(platformdirs.user_cache_dir("casino-omaha")) / "outcomes"


def package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("casino-omaha-analysis")
    except PackageNotFoundError:
        return "unknown"


def shard_plan(rules: Rules) -> list[list[FlopClass]]:
    """The flop classes of each shard, in code order."""
    classes = flop_classes(rules.deck, rules.suits)
    return [classes[i : i + FLOPS_PER_SHARD] for i in range(0, len(classes), FLOPS_PER_SHARD)]


def content_digest(sc: StateCounts) -> str:
    """SHA-256 of a shard's columns in a fixed layout (independent of the file format)."""
    h = hashlib.sha256()
    # each array transposed once: its columns become contiguous rows (a column at a time is a slow strided copy)
    columns = [*np.ascontiguousarray(sc.flop.T), *np.ascontiguousarray(sc.hole.T), sc.weight]
    columns += list(np.ascontiguousarray(sc.counts.T))
    for col in columns:
        h.update(np.ascontiguousarray(col).data)
    return h.hexdigest()


class OutcomeStore:
    """A store folder for one game (see the module docstring)."""

    def __init__(self, path: Path, rules: Rules):
        self.path = Path(path)
        self.rules = rules
        self.n_shards = ceil(len(flop_classes(rules.deck, rules.suits)) / FLOPS_PER_SHARD)
        self.manifest_path = self.path / "manifest.json"
        self.reload()

    def reload(self) -> None:
        """Read the manifest again (another process may have added shards)."""
        if self.manifest_path.exists():
            self.manifest = self._read_manifest()
            self._check_matches()
        else:
            rules = self.rules
            self.manifest = {
                "format": FORMAT,
                "engine_version": ENGINE_VERSION,
                "package_version": package_version(),
                "rules": rules.describe(),
                "fingerprint": fingerprint(rules),
                "columns": [c.name for c in COLUMNS],
                "n_shards": self.n_shards,
                "flops_per_shard": FLOPS_PER_SHARD,
                "total_states": rules.states,
                "completions_per_state": rules.completions,
                "total_combinations": rules.total_combinations,
                "created": _now(),
                "machine": platform.platform(),
                "shards": {},
                "complete": False,
            }

    def _read_manifest(self) -> dict:
        repair = f"run `casino-omaha enumerate --game {self.rules.name} --repair` to rebuild the store"
        return read_manifest(self.manifest_path, repair)

    @classmethod
    def for_rules(cls, rules: Rules, root: Path | None = None) -> OutcomeStore:
        return cls(cls.path_for(rules, root), rules)

    @staticmethod
    def path_for(rules: Rules, root: Path | None = None) -> Path:
        """The folder of the game's store under ``root`` (default: :func:`default_root`)."""
        return (Path(root) if root is not None else default_root()) / f"{rules.name}-{fingerprint(rules)}"

    def _check_matches(self) -> None:
        m = self.manifest
        if m.get("format") != FORMAT or m.get("fingerprint") != fingerprint(self.rules):
            raise StoreError(f"{self.manifest_path}: this store was made for other rules or another engine")
        if m.get("n_shards") != self.n_shards:
            raise StoreError(f"{self.manifest_path}: made with {m.get('n_shards')} shards, expected {self.n_shards}")

    @property
    def complete(self) -> bool:
        return bool(self.manifest.get("complete"))

    @property
    def checksum(self) -> str | None:
        return self.manifest.get("checksum")

    @property
    def rows(self) -> int:
        """Canonical states stored."""
        return sum(s["rows"] for s in self.manifest["shards"].values())

    def shard_path(self, i: int) -> Path:
        return self.path / f"shard-{i:05d}.parquet"

    def done(self) -> set[int]:
        """Shards recorded in the manifest whose file is present."""
        return {int(i) for i in self.manifest["shards"] if self.shard_path(int(i)).exists()}

    def repair_hint(self) -> str:
        return f"run `casino-omaha enumerate --game {self.rules.name} --repair` to re-enumerate it"

    def lock(self, on_wait: Callable[[], None] | None = None):
        """Hold the store's lock file (another holder is waited for, ``on_wait`` told first)."""
        return folder_lock(self.path, on_wait)

    def clean_temporary(self) -> None:
        """Remove temporary files that an interrupted writer left (call it holding the lock)."""
        remove_temporary(self.path)

    def forget(self, i: int) -> None:
        """Drop shard i (damaged or missing) from the store, so that it is enumerated again."""
        self.manifest["shards"].pop(str(i), None)
        self.shard_path(i).unlink(missing_ok=True)
        for key in ("complete", "checksum", "rows", "finished"):
            self.manifest.pop(key, None)
        self._save_manifest()

    # --- writing ----------------------------------------------------------------------

    def write_shard(self, i: int, sc: StateCounts) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        k = sc.hole.shape[1]
        columns = {f"flop{j}": sc.flop[:, j].astype(np.int8) for j in range(3)}
        columns |= {f"hole{j}": sc.hole[:, j].astype(np.int8) for j in range(k)}
        columns["weight"] = sc.weight.astype(np.int64)
        columns |= {c.name: sc.counts[:, j] for j, c in enumerate(COLUMNS)}
        table = pa.table(columns)
        sink = pa.BufferOutputStream()
        pq.write_table(
            table, sink, compression="zstd", compression_level=1, write_page_checksum=True, row_group_size=ROW_GROUP
        )
        data = sink.getvalue().to_pybytes()
        atomic_write_bytes(self.shard_path(i), data)
        self.manifest["shards"][str(i)] = {
            "rows": len(sc),
            "weight": int(sc.weight.sum()),
            "sha256": content_digest(sc),
            "file_sha256": hashlib.sha256(data).hexdigest(),
        }
        self._save_manifest()

    def finish(self, elapsed: float) -> None:
        shards = self.manifest["shards"]
        if sorted(int(i) for i in shards) != list(range(self.n_shards)):
            raise StoreError(f"{self.path}: cannot finish, shards are missing")
        weight = sum(s["weight"] for s in shards.values())
        if weight != self.rules.states:
            raise StoreError(f"{self.path}: states add up to {weight}, expected {self.rules.states}")
        digest = hashlib.sha256("".join(shards[str(i)]["sha256"] for i in range(self.n_shards)).encode())
        self.manifest |= {
            "complete": True,
            "checksum": digest.hexdigest(),
            "rows": sum(s["rows"] for s in shards.values()),
            "finished": _now(),
            "elapsed_seconds": round(elapsed, 1),
        }
        self._save_manifest()

    def _save_manifest(self) -> None:
        self.manifest["manifest_sha256"] = manifest_digest(self.manifest)
        atomic_write_bytes(self.manifest_path, (json.dumps(self.manifest, indent=1) + "\n").encode())

    # --- reading ----------------------------------------------------------------------

    def _require_complete(self) -> None:
        if not self.complete:
            raise StoreError(
                f"{self.path}: the store is not complete; run `casino-omaha enumerate "
                f"--game {self.rules.name}` to finish it"
            )

    def shard_bytes(self, i: int) -> bytes:
        """The file of shard i, checked against the SHA-256 the manifest records for it."""
        entry = self.manifest["shards"].get(str(i))
        return checked_bytes(self.shard_path(i), entry, "file_sha256", self.repair_hint())

    def read_shard(self, i: int, into: StateCounts | None = None, at: int = 0, counts: bool = True) -> StateCounts:
        """One shard's states (checked), written into ``into`` at row ``at`` when given;
        ``counts=False`` reads the cards and weights only.

        The file's SHA-256 is checked while reading, and parquet's page checksums. A store
        written before files had checksums has each shard's content checked against its
        content SHA-256 on first read, and the file's checksum recorded then.
        """
        if not counts and self._legacy(i):
            self.read_shard(i)  # an old store: check the whole shard once
        data = self.shard_bytes(i)
        legacy = self._legacy(i)
        k = self.rules.hole_cards
        names = [f"flop{j}" for j in range(3)] + [f"hole{j}" for j in range(k)] + ["weight"]
        if counts:
            names += [c.name for c in COLUMNS]
        table = self._parse(i, data, names)
        n = table.num_rows
        if n != self.manifest["shards"][str(i)]["rows"]:
            raise StoreError(
                f"{self.shard_path(i)}: holds {n} rows, the manifest says "
                f"{self.manifest['shards'][str(i)]['rows']}; {self.repair_hint()}"
            )
        out = into if into is not None else empty_counts(n, k, len(COLUMNS) if counts else 0)
        rows = slice(at, at + n)
        for j in range(3):
            out.flop[rows, j] = table.column(f"flop{j}").to_numpy()
        for j in range(k):
            out.hole[rows, j] = table.column(f"hole{j}").to_numpy()
        out.weight[rows] = table.column("weight").to_numpy()
        if counts:
            for j, c in enumerate(COLUMNS):
                out.counts[rows, j] = table.column(c.name).to_numpy()
        part = StateCounts(out.flop[rows], out.hole[rows], out.weight[rows], out.counts[rows])
        if legacy:
            self._adopt_legacy(i, data, part)
        return part

    def _legacy(self, i: int) -> bool:
        """Whether shard i was written before files had checksums."""
        return "file_sha256" not in self.manifest["shards"].get(str(i), {"file_sha256": None})

    def _parse(self, i: int, data: bytes, names: list[str]) -> pa.Table:
        try:
            return pq.read_table(pa.BufferReader(data), columns=names, page_checksum_verification=True)
        except (pa.ArrowException, OSError, ValueError) as e:
            raise StoreError(f"{self.shard_path(i)}: not a readable shard ({e}); {self.repair_hint()}") from None

    def _adopt_legacy(self, i: int, data: bytes, part: StateCounts) -> None:
        """Check an old shard's content against its content checksum, then record its file's."""
        if content_digest(part) != self.manifest["shards"][str(i)]["sha256"]:
            raise StoreError(f"{self.shard_path(i)}: content does not match its checksum; {self.repair_hint()}")
        self.manifest["shards"][str(i)]["file_sha256"] = hashlib.sha256(data).hexdigest()
        self._save_manifest()

    def shard_is_sound(self, i: int) -> bool:
        """Whether shard i is in the manifest, present, readable and matches its checksums."""
        try:
            part = self.read_shard(i)
        except StoreError:
            return False
        return content_digest(part) == self.manifest["shards"][str(i)]["sha256"]

    def iter_shards(self) -> Iterator[tuple[int, StateCounts]]:
        """(first row, states) of every shard in order; the next shard is read while the
        caller works on the current one."""
        self._require_complete()
        start = 0
        with ThreadPoolExecutor(max_workers=1) as pool:
            pending = pool.submit(self.read_shard, 0)
            for i in range(self.n_shards):
                part = pending.result()
                if i + 1 < self.n_shards:
                    pending = pool.submit(self.read_shard, i + 1)
                yield start, part
                start += len(part)

    def _starts(self) -> np.ndarray:
        return np.cumsum([0] + [self.manifest["shards"][str(i)]["rows"] for i in range(self.n_shards)])

    def load(self) -> StateCounts:
        """Every state of a complete store, in key order (shards read in parallel; 3 GB for
        Casino Omaha: the return engine needs only what :meth:`derived` keeps)."""
        self._require_complete()
        starts = self._starts()
        out = empty_counts(int(starts[-1]), self.rules.hole_cards)
        with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
            list(pool.map(lambda i: self.read_shard(i, into=out, at=int(starts[i])), range(self.n_shards)))
        return out

    def cards(self) -> tuple[np.ndarray, np.ndarray]:
        """(hole, flop) of every stored state, in key order (the count columns are not read)."""
        self._require_complete()
        starts = self._starts()
        out = empty_counts(int(starts[-1]), self.rules.hole_cards, 0)
        with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
            list(pool.map(lambda i: self.read_shard(i, out, int(starts[i]), counts=False), range(self.n_shards)))
        return out.hole, out.flop

    def read_state(self, hole, flop) -> np.ndarray:
        """The 40 counts (int64) of one real state, any suits and card order: only the
        shard that holds its canonical form is read (and checked), and of its counts only
        the row group (:data:`ROW_GROUP` rows) that holds the state."""
        self._require_complete()
        flop_code, hole_code = canonical_states(np.array([hole]), np.array([flop]), self.rules.suits)
        codes = [fc.code for shard in shard_plan(self.rules) for fc in shard]
        i = int(np.searchsorted(codes, flop_code[0])) // FLOPS_PER_SHARD
        if self._legacy(i):
            self.read_shard(i)  # an old store: check the whole shard once
        data = self.shard_bytes(i)
        k = self.rules.hole_cards
        cards = self._parse(i, data, [f"flop{j}" for j in range(3)] + [f"hole{j}" for j in range(k)])
        flops = np.stack([cards.column(f"flop{j}").to_numpy() for j in range(3)], axis=1)
        rows = np.flatnonzero(colex_codes(flops) == flop_code[0])
        holes = np.stack([cards.column(f"hole{j}").to_numpy()[rows] for j in range(k)], axis=1)
        found = rows[colex_codes(holes) == hole_code[0]] if len(rows) else rows
        if len(found) != 1:
            raise StoreError(
                f"{self.shard_path(i)}: state {list(hole)} / {list(flop)} is missing; {self.repair_hint()}"
            )
        shard = pq.ParquetFile(pa.BufferReader(data))
        row, group = int(found[0]), 0
        while row >= shard.metadata.row_group(group).num_rows:
            row -= shard.metadata.row_group(group).num_rows
            group += 1
        counts = shard.read_row_group(group, columns=[c.name for c in COLUMNS])
        return np.array([counts.column(c.name)[row].as_py() for c in COLUMNS], dtype=np.int64)

    def verify(self) -> list[int]:
        """The shards that are missing, unreadable or do not match their checksums."""
        return [i for i in range(self.n_shards) if not self.shard_is_sound(i)]

    def derived(self, name: str, build: Callable[[OutcomeStore], dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
        """Pay-independent arrays computed from this complete store by ``build(store)``,
        kept beside the shards and mapped (see :mod:`analysis.derived`)."""
        self._require_complete()
        return derived_arrays(self.path / "derived" / name, self.checksum, lambda: build(self))


def checked_bytes(path: Path, entry: dict | None, key: str, fix: str) -> bytes:
    """A shard file, checked against the SHA-256 its manifest ``entry`` records under ``key``
    (when it records one); a missing entry or file, or a mismatch, is a StoreError."""
    if entry is None:
        raise StoreError(f"{path}: this shard is not in the manifest; {fix}")
    try:
        data = path.read_bytes()
    except OSError as e:
        raise StoreError(f"{path}: cannot read the shard ({e.strerror}); {fix}") from None
    recorded = entry.get(key)
    if recorded is not None and hashlib.sha256(data).hexdigest() != recorded:
        raise StoreError(f"{path}: the file does not match its checksum in the manifest; {fix}")
    return data


@contextmanager
def folder_lock(folder: Path, on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold ``folder/.lock`` (``fcntl.flock``); another holder is waited for, ``on_wait`` told first."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "a+") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait is not None:
                on_wait()
            fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def read_manifest(path: Path, fix: str, checksum_required: bool = False) -> dict:
    """A manifest (a JSON object with a ``shards`` object), checked against its own SHA-256;
    any problem is a StoreError naming the file and ending with ``fix``."""
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise StoreError(f"{path}: the manifest cannot be read ({e}); {fix}") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("shards"), dict):
        raise StoreError(f"{path}: not a store manifest; {fix}")
    recorded = manifest.get("manifest_sha256")
    if (recorded is not None or checksum_required) and recorded != manifest_digest(manifest):
        raise StoreError(f"{path}: the manifest does not match its own checksum; {fix}")
    return manifest


def manifest_digest(manifest: dict) -> str:
    """SHA-256 of a manifest's content, its own checksum left out."""
    body = {k: v for k, v in manifest.items() if k != "manifest_sha256"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def fingerprint(rules: Rules) -> str:
    return hashlib.sha256(f"{rules.fingerprint()}/{ENGINE_VERSION}".encode()).hexdigest()[:10]


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
