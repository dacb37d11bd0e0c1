"""The per-state outcome store: parquet shards plus a JSON manifest, in one folder.

* One folder per game and deck: ``<root>/<game>-<fingerprint>/`` (the fingerprint hashes
  the rules the counts depend on and the engine version).
* ``shard-NNNNN.parquet``: the canonical states of a run of flop classes, with
  ``flop0..2``, ``hole0..k``, ``weight`` and the 40 count columns.
* ``manifest.json``: rules, engine and package version, shard list with rows and a
  SHA-256 of each shard's content, and when complete the store checksum.
* Every file is written to a temporary name and renamed, so an interrupted run never
  leaves a half-written shard, and the next run resumes from the finished ones.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import platform
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .enumeration import COLUMNS, StateCounts
from .rules import Rules

#: Version of the counting method; bump when the meaning of the stored counts changes.
ENGINE_VERSION = 1
FORMAT = "casino-omaha-outcomes/1"
DEFAULT_ROOT = Path(os.environ.get("CASINO_OMAHA_STORE", Path(__file__).resolve().parents[1] / "data" / "outcomes"))


class StoreError(RuntimeError):
    """A store that cannot be used: wrong game, damaged or unfinished."""


def package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("casino-omaha-analysis")
    except PackageNotFoundError:
        return "unknown"


def content_digest(sc: StateCounts) -> str:
    """SHA-256 of a shard's columns in a fixed layout (independent of the file format)."""
    h = hashlib.sha256()
    columns = [sc.flop[:, j] for j in range(3)] + [sc.hole[:, j] for j in range(sc.hole.shape[1])]
    columns += [sc.weight] + [sc.counts[:, j] for j in range(sc.counts.shape[1])]
    for col in columns:
        h.update(np.ascontiguousarray(col).data)
    return h.hexdigest()


def atomic_write_bytes(path: Path, data: bytes) -> None:
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.", delete=False) as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(f.name, path)


class OutcomeStore:
    """A store folder for one game (see the module docstring)."""

    def __init__(self, path: Path, rules: Rules, n_shards: int):
        self.path = Path(path)
        self.rules = rules
        self.n_shards = n_shards
        self.manifest_path = self.path / "manifest.json"
        if self.manifest_path.exists():
            self.manifest = json.loads(self.manifest_path.read_text())
            self._check_matches()
        else:
            self.manifest = {
                "format": FORMAT,
                "engine_version": ENGINE_VERSION,
                "package_version": package_version(),
                "rules": rules.describe(),
                "fingerprint": fingerprint(rules),
                "columns": list(COLUMNS),
                "n_shards": n_shards,
                "total_states": rules.states,
                "completions_per_state": rules.completions,
                "total_combinations": rules.total_combinations,
                "created": _now(),
                "machine": platform.platform(),
                "shards": {},
                "complete": False,
            }

    @classmethod
    def for_rules(cls, rules: Rules, n_shards: int, root: Path | None = None) -> OutcomeStore:
        root = Path(root) if root is not None else DEFAULT_ROOT
        return cls(root / f"{rules.name}-{fingerprint(rules)}", rules, n_shards)

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

    def shard_path(self, i: int) -> Path:
        return self.path / f"shard-{i:05d}.parquet"

    def done(self) -> set[int]:
        """Shards recorded in the manifest whose file is present."""
        return {int(i) for i in self.manifest["shards"] if self.shard_path(int(i)).exists()}

    def write_shard(self, i: int, sc: StateCounts) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        k = sc.hole.shape[1]
        columns = {f"flop{j}": sc.flop[:, j].astype(np.int8) for j in range(3)}
        columns |= {f"hole{j}": sc.hole[:, j].astype(np.int8) for j in range(k)}
        columns["weight"] = sc.weight.astype(np.int64)
        columns |= {name: sc.counts[:, j] for j, name in enumerate(COLUMNS)}
        table = pa.table(columns)
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink, compression="zstd", compression_level=1, write_page_checksum=True)
        atomic_write_bytes(self.shard_path(i), sink.getvalue().to_pybytes())
        self.manifest["shards"][str(i)] = {
            "rows": len(sc),
            "weight": int(sc.weight.sum()),
            "sha256": content_digest(sc),
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
        atomic_write_bytes(self.manifest_path, (json.dumps(self.manifest, indent=1) + "\n").encode())

    def read_shard(self, i: int, verify: bool = False, into: StateCounts | None = None, at: int = 0) -> StateCounts:
        """One shard's states; written into ``into`` at row ``at`` when given.

        Parquet page checksums are always checked; ``verify`` also recomputes the
        shard's content SHA-256 against the manifest.
        """
        table = pq.read_table(self.shard_path(i), page_checksum_verification=True)
        n, k = table.num_rows, self.rules.hole_cards
        out = into if into is not None else empty_counts(n, k)
        rows = slice(at, at + n)
        for j in range(3):
            out.flop[rows, j] = table.column(f"flop{j}").to_numpy()
        for j in range(k):
            out.hole[rows, j] = table.column(f"hole{j}").to_numpy()
        out.weight[rows] = table.column("weight").to_numpy()
        for j, name in enumerate(COLUMNS):
            out.counts[rows, j] = table.column(name).to_numpy()
        part = StateCounts(out.flop[rows], out.hole[rows], out.weight[rows], out.counts[rows])
        if verify and content_digest(part) != self.manifest["shards"][str(i)]["sha256"]:
            raise StoreError(f"{self.shard_path(i)}: content does not match its checksum; delete the store and rerun")
        return part

    def load(self, verify: bool = False) -> StateCounts:
        """Every state of a complete store, in key order (shards read in parallel)."""
        if not self.complete:
            raise StoreError(f"{self.path}: the store is not complete; run the enumeration to finish it")
        rows = [self.manifest["shards"][str(i)]["rows"] for i in range(self.n_shards)]
        starts = np.concatenate([[0], np.cumsum(rows)])
        out = empty_counts(int(starts[-1]), self.rules.hole_cards)
        with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
            parts = pool.map(lambda i: self.read_shard(i, verify, into=out, at=int(starts[i])), range(self.n_shards))
            for i, part in enumerate(parts):
                if len(part) != rows[i]:
                    raise StoreError(f"{self.shard_path(i)}: holds {len(part)} rows, the manifest says {rows[i]}")
        return out

    def verify(self) -> None:
        """Recompute every shard's content checksum; raise StoreError on a mismatch."""
        for i in range(self.n_shards):
            self.read_shard(i, verify=True)


def empty_counts(n: int, k: int) -> StateCounts:
    """Uninitialised column-major arrays for n states (columns are what analysis reads)."""
    return StateCounts(
        flop=np.empty((n, 3), np.int8, order="F"),
        hole=np.empty((n, k), np.int8, order="F"),
        weight=np.empty(n, np.int64),
        counts=np.empty((n, len(COLUMNS)), np.uint32, order="F"),
    )


def fingerprint(rules: Rules) -> str:
    return hashlib.sha256(f"{rules.fingerprint()}/{ENGINE_VERSION}".encode()).hexdigest()[:10]


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
