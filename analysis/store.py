"""The per-state outcome store: parquet shards plus a JSON manifest, in one folder.

* One folder per game and deck: ``<root>/<game>-<fingerprint>/`` (the fingerprint hashes
  the rules the counts depend on and the engine version). The root is ``--store`` or
  ``$CASINO_OMAHA_STORE``, else ``data/outcomes/`` in a checkout of the project, else a
  per-user cache folder.
* ``shard-NNNNN.parquet``: the canonical states of a run of :data:`FLOPS_PER_SHARD` flop
  classes, in key order, with ``flop0..2``, ``hole0..k``, ``weight`` and the 40 count
  columns of :data:`analysis.outcomes.COLUMNS`.
* ``manifest.json``: rules, engine and package version, shard list with rows and a
  SHA-256 of each shard's content, and when complete the store checksum.
* ``derived/<name>/``: pay-independent arrays computed from a complete store (the return
  engine's packed counts, hand classes), kept as ``.npy`` files that are mapped, not read.
* Every file is written to a temporary name and renamed, so an interrupted run never
  leaves a half-written shard, and the next run resumes from the finished ones.

Only this module knows the shard layout: the rest asks for a state
(:meth:`OutcomeStore.read_state`), for every shard in turn, or for derived arrays.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import platform
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from math import ceil
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .atomic import atomic_path, atomic_write_bytes
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
    columns = [sc.flop[:, j] for j in range(3)] + [sc.hole[:, j] for j in range(sc.hole.shape[1])]
    columns += [sc.weight] + [sc.counts[:, j] for j in range(sc.counts.shape[1])]
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
                "columns": [c.name for c in COLUMNS],
                "n_shards": self.n_shards,
                "total_states": rules.states,
                "completions_per_state": rules.completions,
                "total_combinations": rules.total_combinations,
                "created": _now(),
                "machine": platform.platform(),
                "shards": {},
                "complete": False,
            }

    @classmethod
    def for_rules(cls, rules: Rules, root: Path | None = None) -> OutcomeStore:
        root = Path(root) if root is not None else default_root()
        return cls(root / f"{rules.name}-{fingerprint(rules)}", rules)

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

    # --- reading ----------------------------------------------------------------------

    def _require_complete(self) -> None:
        if not self.complete:
            raise StoreError(f"{self.path}: the store is not complete; run `casino-omaha enumerate` to finish it")

    def read_shard(
        self, i: int, verify: bool = False, into: StateCounts | None = None, at: int = 0, counts: bool = True
    ) -> StateCounts:
        """One shard's states; written into ``into`` at row ``at`` when given.

        Parquet page checksums are always checked; ``verify`` also recomputes the
        shard's content SHA-256 against the manifest. ``counts=False`` reads the cards only.
        """
        k = self.rules.hole_cards
        names = [f"flop{j}" for j in range(3)] + [f"hole{j}" for j in range(k)] + ["weight"]
        if counts:
            names += [c.name for c in COLUMNS]
        table = pq.read_table(self.shard_path(i), columns=names, page_checksum_verification=True)
        n = table.num_rows
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
        if verify and content_digest(part) != self.manifest["shards"][str(i)]["sha256"]:
            raise StoreError(f"{self.shard_path(i)}: content does not match its checksum; delete the store and rerun")
        return part

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

    def load(self, verify: bool = False) -> StateCounts:
        """Every state of a complete store, in key order (shards read in parallel)."""
        self._require_complete()
        rows = [self.manifest["shards"][str(i)]["rows"] for i in range(self.n_shards)]
        starts = np.concatenate([[0], np.cumsum(rows)])
        out = empty_counts(int(starts[-1]), self.rules.hole_cards)
        with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
            parts = pool.map(lambda i: self.read_shard(i, verify, into=out, at=int(starts[i])), range(self.n_shards))
            for i, part in enumerate(parts):
                if len(part) != rows[i]:
                    raise StoreError(f"{self.shard_path(i)}: holds {len(part)} rows, the manifest says {rows[i]}")
        return out

    def cards(self) -> tuple[np.ndarray, np.ndarray]:
        """(hole, flop) of every stored state, in key order (the count columns are not read)."""
        self._require_complete()
        out = empty_counts(self.rows, self.rules.hole_cards, 0)
        starts = np.cumsum([0] + [self.manifest["shards"][str(i)]["rows"] for i in range(self.n_shards)])
        with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
            list(
                pool.map(lambda i: self.read_shard(i, into=out, at=int(starts[i]), counts=False), range(self.n_shards))
            )
        return out.hole, out.flop

    def read_state(self, hole, flop) -> np.ndarray:
        """The 40 counts (int64) of one real state, any suits and card order: only the
        shard that holds its canonical form is read, and of its counts only the row group
        (:data:`ROW_GROUP` rows) that holds the state."""
        self._require_complete()
        flop_code, hole_code = canonical_states(np.array([hole]), np.array([flop]), self.rules.suits)
        codes = [fc.code for shard in shard_plan(self.rules) for fc in shard]
        path = self.shard_path(int(np.searchsorted(codes, flop_code[0])) // FLOPS_PER_SHARD)
        k = self.rules.hole_cards
        shard = pq.ParquetFile(path)
        cards = shard.read(columns=[f"flop{j}" for j in range(3)] + [f"hole{j}" for j in range(k)])
        flops = np.stack([cards.column(f"flop{j}").to_numpy() for j in range(3)], axis=1)
        rows = np.flatnonzero(colex_codes(flops) == flop_code[0])
        holes = np.stack([cards.column(f"hole{j}").to_numpy()[rows] for j in range(k)], axis=1)
        found = rows[colex_codes(holes) == hole_code[0]] if len(rows) else rows
        if len(found) != 1:
            raise StoreError(
                f"{path}: state {list(hole)} / {list(flop)} is missing from the outcome store; "
                "run `casino-omaha enumerate` again to rebuild it"
            )
        row, group = int(found[0]), 0
        while row >= shard.metadata.row_group(group).num_rows:
            row -= shard.metadata.row_group(group).num_rows
            group += 1
        counts = shard.read_row_group(group, columns=[c.name for c in COLUMNS])
        return np.array([counts.column(c.name)[row].as_py() for c in COLUMNS], dtype=np.int64)

    def verify(self) -> None:
        """Recompute every shard's content checksum; raise StoreError on a mismatch."""
        for i in range(self.n_shards):
            self.read_shard(i, verify=True)

    # --- derived arrays ---------------------------------------------------------------

    def derived(self, name: str, build: Callable[[OutcomeStore], dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
        """Pay-independent arrays computed from this complete store by ``build(store)``:
        computed once, kept in ``derived/<name>/`` with the store checksum they were made
        from, and mapped read-only on later calls (a rebuilt store makes them again)."""
        self._require_complete()
        folder = self.path / "derived" / name
        meta_path = folder / "meta.json"
        if meta_path.exists():
            meta = json.loads(meta_path.read_text())
            paths = {key: folder / f"{key}.npy" for key in meta["arrays"]}
            if meta.get("checksum") == self.checksum and all(
                p.exists() and p.stat().st_size == meta["arrays"][key] for key, p in paths.items()
            ):
                return {key: np.load(p, mmap_mode="r", allow_pickle=False) for key, p in paths.items()}
        arrays = build(self)
        folder.mkdir(parents=True, exist_ok=True)
        for key, array in arrays.items():
            with atomic_path(folder / f"{key}.npy") as tmp, open(tmp, "wb") as f:
                np.save(f, np.asarray(array), allow_pickle=False)
        sizes = {key: (folder / f"{key}.npy").stat().st_size for key in arrays}
        atomic_write_bytes(meta_path, json.dumps({"checksum": self.checksum, "arrays": sizes}, indent=1).encode())
        return self.derived(name, build)


def fingerprint(rules: Rules) -> str:
    return hashlib.sha256(f"{rules.fingerprint()}/{ENGINE_VERSION}".encode()).hexdigest()[:10]


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
