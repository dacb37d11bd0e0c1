"""The per-state outcome store: parquet shards plus a JSON manifest, in one folder.

* One folder per game and deck: ``<root>/<game>-<fingerprint>/`` (the fingerprint hashes
  the rules the counts depend on and the engine version). The root is ``--store`` or
  ``$CASINO_OMAHA_STORE``, else ``data/outcomes/`` in a checkout of the project, else a
  per-user cache folder.
* ``shard-NNNNN.parquet``: the canonical states of a run of :data:`FLOPS_PER_SHARD` flop
  classes, in key order, with ``flop0..2``, ``hole0..k``, ``weight`` and the 40 count
  columns of :data:`analysis.model.outcomes.COLUMNS`.
* ``manifest.json``: rules, engine and package version, shard list with rows, a SHA-256 of
  each shard's content (the store checksum, when complete, hashes these) and of its file,
  and a SHA-256 of the manifest itself. Every read of a shard checks its file's hash while
  reading; a mismatch is a :class:`StoreError` that names the file and the exact command
  that fixes this store (``casino-omaha enumerate --game ... --store ... --repair``
  re-enumerates exactly the damaged or missing shards).
* ``.lock``: held (``fcntl.flock``) by every writer (an enumeration, a repair, the making of
  derived arrays) for as long as it writes; a second one waits for it, and removes the
  temporary files an interrupted one left. A complete store is read without it (and so
  from read-only media).
* ``derived/<name>/``: pay-independent arrays computed from a complete store (the return
  engine's packed counts, hand classes), kept as ``.npy`` files that are mapped, not read,
  and checked block by block against their SHA-256 as they are read (:mod:`analysis.store.derived`).
* Every file is written to a temporary name and renamed, so an interrupted run never
  leaves a half-written shard, and the next run resumes from the finished ones.

Only this module knows the shard layout: the rest asks for a state
(:meth:`OutcomeStore.read_state`), for every shard in turn, or for derived arrays.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shlex
import sys
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import cached_property
from math import ceil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from analysis.counting.symmetry import FlopClass, canonical_states, flop_classes
from analysis.model.outcomes import COLUMNS, StateCounts, colex_codes, empty_counts
from analysis.model.rules import PRESETS, Rules, qualifier_text
from analysis.store.derived import BlockFile, check_derived, derived_arrays, inspect_derived, open_derived
from analysis.store.shards import ShardFolder, StoreError, now, package_version

if TYPE_CHECKING:  # pyarrow is imported where shards are read or written: not to read derived arrays
    import pyarrow as pa

#: Version of the counting method; bump when the meaning of the stored counts changes.
ENGINE_VERSION = 1
FORMAT = "casino-omaha-outcomes/2"
#: Flop classes per shard: a shard is the unit of progress, resumption and parallel work.
FLOPS_PER_SHARD = 32
#: Rows per parquet row group: reading one state reads one group of counts.
ROW_GROUP = 16384
CHECKOUT = Path(__file__).resolve().parents[2]


def default_root() -> Path:
    """Where stores live unless ``--store`` says otherwise (see the module docstring)."""
    if os.environ.get("CASINO_OMAHA_STORE"):
        return Path(os.environ["CASINO_OMAHA_STORE"])
    if (CHECKOUT / "pyproject.toml").is_file() and (CHECKOUT / "data" / "outcomes").is_dir():
        return CHECKOUT / "data" / "outcomes"
    import platformdirs

    return Path(platformdirs.user_cache_dir("casino-omaha")) / "outcomes"


def shard_plan(rules: Rules) -> list[list[FlopClass]]:
    """The flop classes of each shard, in code order."""
    classes = flop_classes(rules.deck, rules.suits)
    return [classes[i : i + FLOPS_PER_SHARD] for i in range(0, len(classes), FLOPS_PER_SHARD)]


def content_digest(sc: StateCounts) -> str:
    """SHA-256 of a shard's columns in a fixed layout (independent of the file format)."""
    return _digest(_columns(sc))


def _columns(sc: StateCounts) -> list[np.ndarray]:
    """A shard's columns in the digest's order: flop cards, hole cards, weight, the 40 counts.
    Each array is transposed once: its columns become contiguous rows (a column at a time
    is a slow strided copy)."""
    return [
        *np.ascontiguousarray(sc.flop.T),
        *np.ascontiguousarray(sc.hole.T),
        sc.weight,
        *np.ascontiguousarray(sc.counts.T),
    ]


def _digest(columns: list[np.ndarray]) -> str:
    h = hashlib.sha256()
    for col in columns:
        h.update(np.ascontiguousarray(col).data)
    return h.hexdigest()


class OutcomeStore(ShardFolder):
    """A store folder for one game (see the module docstring)."""

    suffix = ".parquet"

    def __init__(self, path: Path, rules: Rules) -> None:
        self.rules = rules
        #: The SHA-256 of every derived file read through this store, by set and array:
        #: what figures computed from them came from (a report's metadata names them).
        self.derived_sha256: dict[str, dict[str, str]] = {}
        super().__init__(path)

    @cached_property
    def n_shards(self) -> int:
        """Shards of a whole store (the game's flop classes, :data:`FLOPS_PER_SHARD` a shard)."""
        return ceil(len(flop_classes(self.rules.deck, self.rules.suits)) / FLOPS_PER_SHARD)

    def new_manifest(self) -> dict:
        rules = self.rules
        return {
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
            "created": now(),
            "machine": platform.platform(),
            "complete": False,
        }

    def check_manifest(self, manifest: dict) -> None:
        if manifest.get("format") != FORMAT or manifest.get("fingerprint") != fingerprint(self.rules):
            raise StoreError(
                f"{self.manifest_path}: this store was made for other rules or another engine; {self.fix_hint()}"
            )
        # the rules and the flop classes a shard holds fix the shards (no flop classes
        # computed here: a question that reads derived arrays never needs them)
        if manifest.get("flops_per_shard") != FLOPS_PER_SHARD:
            raise StoreError(
                f"{self.manifest_path}: made with {manifest.get('flops_per_shard')} flop classes a shard, "
                f"expected {FLOPS_PER_SHARD}"
            )

    def fix_hint(self) -> str:
        return f"run `{self.enumerate_command(repair=True)}` to check it and make the damaged parts again"

    def enumerate_command(self, repair: bool = False) -> str:
        """What enumerates (``repair``: checks and repairs) exactly this store: its game,
        qualifier and root spelled out, since another qualifier or root is another store.
        Rules the command line cannot select (a small deck) get the Python call."""
        root, rules, base = str(self.root.absolute()), self.rules, PRESETS.get(self.rules.name)
        if base is None or base.fingerprint() != replace(rules, qualifier_rank=base.qualifier_rank).fingerprint():
            flag = ", repair=True" if repair else ""
            return f"analysis.ensure_store(rules, analysis.RunOptions(root={root!r}){flag})"
        words = ["casino-omaha", "enumerate", "--game", rules.name]
        if rules.qualifier_rank != base.qualifier_rank:
            words += ["--qualifier", qualifier_text(rules.qualifier_rank)]
        return shlex.join(words + ["--store", root] + (["--repair"] if repair else []))

    @classmethod
    def for_rules(cls, rules: Rules, root: Path | None = None) -> OutcomeStore:
        return cls(cls.path_for(rules, root), rules)

    @staticmethod
    def path_for(rules: Rules, root: Path | None = None) -> Path:
        """The folder of the game's store under ``root`` (default: :func:`default_root`)."""
        return (Path(root) if root is not None else default_root()) / f"{rules.name}-{fingerprint(rules)}"

    @property
    def root(self) -> Path:
        """The stores' root this store is under (a small deck's name holds a ``/``)."""
        return self.path.parents[len(Path(f"{self.rules.name}-{fingerprint(self.rules)}").parts) - 1]

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

    def forget(self, shards: list[int]) -> None:
        """Drop these shards (damaged or missing), so that they are enumerated again."""
        for key in ("complete", "checksum", "rows", "finished"):
            self.manifest.pop(key, None)
        super().forget(shards)

    # --- writing ----------------------------------------------------------------------

    def write_shard(self, i: int, sc: StateCounts) -> None:
        """Write shard ``i`` (see :meth:`encode_shard`)."""
        data, fields = self.encode_shard(sc)
        self.write_shard_bytes(i, data, **fields)

    def encode_shard(self, sc: StateCounts) -> tuple[bytes, dict[str, Any]]:
        """A shard's file (parquet, zstd, page checksums; plain encoding: the counts are too
        varied for dictionaries, which cost a third of the writing for nothing) and its
        manifest fields, for :meth:`write_shard_bytes`. Changes nothing: any thread may call it."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        k = sc.hole.shape[1]
        cols = _columns(sc)
        names = [f"flop{j}" for j in range(3)] + [f"hole{j}" for j in range(k)] + ["weight"]
        names += [c.name for c in COLUMNS]
        types = [np.int8] * (3 + k) + [np.int64] + [np.uint32] * len(COLUMNS)
        sink = pa.BufferOutputStream()
        pq.write_table(
            pa.table({n: c.astype(t, copy=False) for n, c, t in zip(names, cols, types)}),
            sink,
            compression="zstd",
            compression_level=1,
            write_page_checksum=True,
            row_group_size=ROW_GROUP,
            use_dictionary=False,
        )
        return sink.getvalue().to_pybytes(), {"rows": len(sc), "weight": int(sc.weight.sum()), "sha256": _digest(cols)}

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
            "finished": now(),
            "elapsed_seconds": round(elapsed, 1),
        }
        self.save_manifest()

    # --- reading ----------------------------------------------------------------------

    def _require_complete(self) -> None:
        if not self.complete:
            raise StoreError(f"{self.path}: the store is not complete; run `{self.enumerate_command()}` to finish it")

    def read_shard(self, i: int, into: StateCounts | None = None, at: int = 0, counts: bool = True) -> StateCounts:
        """One shard's states (checked), written into ``into`` at row ``at`` when given;
        ``counts=False`` reads the cards and weights only. The file's SHA-256 is checked
        while reading, and parquet's page checksums."""
        data = self.shard_bytes(i)
        k = self.rules.hole_cards
        names = [f"flop{j}" for j in range(3)] + [f"hole{j}" for j in range(k)] + ["weight"]
        if counts:
            names += [c.name for c in COLUMNS]
        table = self._parse(i, data, names)
        n, recorded = len(table["weight"]), self.manifest["shards"][str(i)]["rows"]
        if n != recorded:
            raise StoreError(f"{self.shard_path(i)}: holds {n} rows, the manifest says {recorded}; {self.fix_hint()}")
        out = into if into is not None else empty_counts(n, k, len(COLUMNS) if counts else 0)
        rows = slice(at, at + n)
        for j in range(3):
            out.flop[rows, j] = table[f"flop{j}"]
        for j in range(k):
            out.hole[rows, j] = table[f"hole{j}"]
        out.weight[rows] = table["weight"]
        if counts:
            for j, c in enumerate(COLUMNS):
                out.counts[rows, j] = table[c.name]
        return StateCounts(out.flop[rows], out.hole[rows], out.weight[rows], out.counts[rows])

    def _parse(self, i: int, data: bytes, names: list[str], group: int | None = None) -> dict[str, np.ndarray]:
        """These columns of shard ``i``'s file (of one row group when ``group`` is given),
        parquet's page checksums checked. Neither ``read_table`` nor ``to_numpy``: the
        first goes through pyarrow's dataset layer and the second through its pandas
        conversion, and both import pandas (a third of a second of a one-state question)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            shard = pq.ParquetFile(pa.BufferReader(data), page_checksum_verification=True)
            table = shard.read(columns=names) if group is None else shard.read_row_group(group, columns=names)
            return {name: _integers(table.column(name)) for name in names}
        except (pa.ArrowException, OSError, ValueError) as e:
            raise StoreError(f"{self.shard_path(i)}: not a readable shard ({e}); {self.fix_hint()}") from None

    def check_shard(self, i: int) -> None:
        """Shard i is recorded, present, readable, and its content matches its checksum."""
        if content_digest(self.read_shard(i)) != self.manifest["shards"][str(i)]["sha256"]:
            raise StoreError(f"{self.shard_path(i)}: content does not match its checksum; {self.fix_hint()}")

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

    def read_state(self, hole: Sequence[int], flop: Sequence[int]) -> np.ndarray:
        """The 40 counts (int64) of one real state, any suits and card order: only the
        shard that holds its canonical form is read (and checked), and of its counts only
        the row group (:data:`ROW_GROUP` rows) that holds the state."""
        self._require_complete()
        flop_code, hole_code = canonical_states(np.array([hole]), np.array([flop]), self.rules.suits)
        codes = [fc.code for shard in shard_plan(self.rules) for fc in shard]
        i = int(np.searchsorted(codes, flop_code[0])) // FLOPS_PER_SHARD
        data = self.shard_bytes(i)
        k = self.rules.hole_cards
        cards = self._parse(i, data, [f"flop{j}" for j in range(3)] + [f"hole{j}" for j in range(k)])
        flops = np.stack([cards[f"flop{j}"] for j in range(3)], axis=1)
        holes = np.stack([cards[f"hole{j}"] for j in range(k)], axis=1)

        def key(row: int) -> tuple[int, int]:
            return int(colex_codes(flops[row])[0]), int(colex_codes(holes[row])[0])

        # the rows are in key order: a binary search codes some twenty of them, not the shard
        wanted = (int(flop_code[0]), int(hole_code[0]))
        found = bisect_left(range(len(flops)), wanted, key=key)
        if found == len(flops) or key(found) != wanted:
            raise StoreError(f"{self.shard_path(i)}: state {list(hole)} / {list(flop)} is missing; {self.fix_hint()}")
        import pyarrow as pa
        import pyarrow.parquet as pq

        groups = pq.read_metadata(pa.BufferReader(data))  # the file parsed above
        row, group = found, 0
        while row >= groups.row_group(group).num_rows:
            row -= groups.row_group(group).num_rows
            group += 1
        counts = self._parse(i, data, [c.name for c in COLUMNS], group)
        return np.array([counts[c.name][row] for c in COLUMNS], dtype=np.int64)

    def verify(self) -> list[int]:
        """The shards that are missing, unreadable or do not match their checksums."""
        return [i for i in range(self.n_shards) if not self.shard_is_sound(i)]

    def derived(self, name: str, build: Callable[[OutcomeStore], dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
        """Pay-independent arrays computed from this complete store by ``build(store)``,
        kept beside the shards, checked and mapped (see :mod:`analysis.store.derived`);
        damaged ones are made again, and said so on stderr."""
        from tqdm import tqdm  # here: a one-state question reads no derived array

        self._require_complete()
        arrays, self.derived_sha256[name] = derived_arrays(
            self.path / "derived" / name,
            self.checksum,
            lambda: build(self),
            self.writing,
            self.fix_hint(),
            lambda message: tqdm.write(message, file=sys.stderr),
        )
        return arrays

    def open_derived(self, name: str) -> dict[str, BlockFile] | None:
        """The files of a set of derived arrays, to read a few rows of each (only the blocks
        read are checked); None when the set was not made, is stale or in the older format
        (nothing is made). Damage is a StoreError that ends with this store's fix."""
        self._require_complete()
        return open_derived(self.path / "derived" / name, self.checksum, self.fix_hint())

    def check_derived(self) -> list[str]:
        """Hash every derived array in full; remove the sets that are unfinished, stale or
        damaged (made again when next used) and say what was wrong with each. Call it holding
        the lock (:meth:`writing`)."""
        return check_derived(self.path / "derived", self.checksum)

    def inspect_derived(self) -> dict[str, str | None]:
        """Every set of derived arrays, each file hashed in full, by name, and what is wrong
        with it (None: sound); nothing is removed or made (see :meth:`check_derived`)."""
        return {
            folder.name: problem for folder, problem in inspect_derived(self.path / "derived", self.checksum).items()
        }


def _integers(column: pa.ChunkedArray) -> np.ndarray:
    """A stored column (fixed-width integers, no nulls) as a numpy view of its buffers."""
    dtype = np.dtype(str(column.type))
    if dtype.kind not in "iu" or column.null_count:
        raise ValueError(f"a column of {column.type} with {column.null_count} nulls, not of integers")
    parts = [
        np.frombuffer(chunk.buffers()[1], dtype, len(chunk), chunk.offset * dtype.itemsize) for chunk in column.chunks
    ]
    if len(parts) == 1:  # the usual case: a view, not a copy
        return parts[0]
    return np.concatenate(parts) if parts else np.empty(0, dtype)


def fingerprint(rules: Rules) -> str:
    """Short hash of the rules the counts depend on, the counting method and the format."""
    return hashlib.sha256(f"{rules.fingerprint()}/{ENGINE_VERSION}/{FORMAT}".encode()).hexdigest()[:10]
