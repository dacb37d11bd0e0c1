"""The resumable store of a job's shard results (a protection run, a multi-street solve):
JSON files or arrays plus a manifest, kept and checked as the outcome store keeps its
shards (:mod:`analysis.store.outcome_store`).

* One folder per job: ``<folder>/<kind>-<digest>/`` (by default ``<store root>/protection``,
  beside the outcome stores), the digest hashing the job's
  key (game, pay table, pay rule, information, seed, method versions); the manifest keeps
  the key itself, so a folder is never used for another job.
* ``shard-NNNNN.json``: one shard's exact result (integers only), written to a temporary
  name and renamed; the manifest records its SHA-256, checked on every read, and its size
  (states or flop classes), so a shard computed for a shorter sampled run is extended.
* ``shard-NNNNN.npz`` instead, for a job whose results are arrays (:class:`ArrayResults`:
  a multi-street game's flop decision in every state), checked the same way.
* ``manifest.json``: format, kind, key, package version, shards, and a SHA-256 of itself;
  ``.lock``: held while a run writes, so two runs of one job do not both compute it.

A damaged or missing shard is a :class:`~analysis.store.outcome_store.StoreError` naming the file; the
next run of the job computes exactly the shards that are missing or damaged again.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from analysis.store.outcome_store import default_root
from analysis.store.shards import ShardFolder, StoreError, now, package_version

FORMAT = "casino-omaha-results/2"
_Store = TypeVar("_Store", bound="ResultStore")


def results_folder(root: Path | None = None) -> Path:
    """Where result stores live by default: ``protection/`` under the outcome stores' root."""
    return (Path(root) if root is not None else default_root()) / "protection"


def key_digest(key: dict[str, Any]) -> str:
    """SHA-256 of a job's key (and of the format, so that a new format is a new folder)."""
    return hashlib.sha256(json.dumps({"format": FORMAT, "key": key}, sort_keys=True).encode()).hexdigest()


def stored_jobs(kind: str, folder: Path | None = None, **fields: object) -> list[ResultStore]:
    """The sound result stores of ``kind`` in ``folder`` whose key has the given fields
    (a damaged or foreign one is passed over: it is not these results)."""
    folder = Path(folder) if folder is not None else results_folder()
    found = []
    for manifest in sorted(folder.glob(f"{kind}-*/manifest.json")):
        try:
            key = json.loads(manifest.read_text(encoding="utf-8")).get("key", {})
            if isinstance(key, dict) and all(key.get(k) == v for k, v in fields.items()):
                found.append(ResultStore(manifest.parent, kind, key))
        except (OSError, ValueError, StoreError):
            continue
    return found


class ResultStore(ShardFolder):
    """The shard results of one job (see the module docstring)."""

    suffix = ".json"

    def __init__(self, path: Path, kind: str, key: dict[str, Any]) -> None:
        self.kind, self.key = kind, key
        super().__init__(path)

    @classmethod
    def for_job(cls: type[_Store], kind: str, key: dict[str, Any], folder: Path | None = None) -> _Store:
        """The job's store in ``folder`` (default: ``protection/`` under the store root)."""
        folder = Path(folder) if folder is not None else results_folder()
        return cls(folder / f"{kind}-{key_digest(key)[:12]}", kind, key)

    def new_manifest(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "kind": self.kind,
            "key": self.key,
            "package_version": package_version(),
            "created": now(),
        }

    def check_manifest(self, manifest: dict[str, Any]) -> None:
        if manifest.get("format") != FORMAT or manifest.get("kind") != self.kind or manifest.get("key") != self.key:
            raise StoreError(f"{self.manifest_path}: these results belong to another job; {self.fix_hint()}")

    def fix_hint(self) -> str:
        return f"delete {self.path} and run the job again"

    def size(self, i: int) -> int:
        """The size recorded with shard i (0 when it is not there)."""
        entry = self.entry(i)
        return entry["size"] if entry is not None and self.shard_path(i).exists() else 0

    def has(self, sizes: dict[int, int]) -> bool:
        """Whether every shard i is kept, sound, at ``sizes[i]`` or more: then a run has
        nothing to compute and reads the folder without its lock (read-only media too)."""
        return all(self.size(i) >= n and self.shard_is_sound(i) for i, n in sizes.items())

    def write(self, i: int, result: object, size: int) -> None:
        """Keep shard i's result (JSON-able, exact integers) and its checksum."""
        self.write_shard_bytes(i, json.dumps(result, separators=(",", ":")).encode(), size=size)

    def read(self, i: int) -> Any:
        """Shard i's result (what :meth:`write` kept, read back from JSON), checked against its SHA-256."""
        return json.loads(self.shard_bytes(i))

    def checksum(self, shards: list[int]) -> str:
        """SHA-256 over the given shards' checksums, in order: the run's checksum."""
        return hashlib.sha256(
            "".join(self.manifest["shards"][str(i)]["file_sha256"] for i in shards).encode()
        ).hexdigest()


class ArrayResults(ResultStore):
    """The shard results of a job that are arrays (one state's decision per row): each shard
    an ``.npz`` of named arrays, kept and checked like the JSON results."""

    suffix = ".npz"

    def write_arrays(self, i: int, size: int, **arrays: np.ndarray) -> None:
        """Keep shard i's arrays and their checksum."""
        buffer = io.BytesIO()
        np.savez(buffer, allow_pickle=False, **arrays)
        self.write_shard_bytes(i, buffer.getvalue(), size=size)

    def write(self, i: int, result: object, size: int) -> None:
        """Keep shard i's result: named arrays (a dict of them, as a shard function returns)."""
        if not isinstance(result, dict):
            raise TypeError(f"{self.path}: shard {i}'s result is not a dict of arrays")
        self.write_arrays(i, size, **result)

    def read_arrays(self, i: int) -> dict[str, np.ndarray]:
        """Shard i's arrays, checked against its SHA-256 (no pickled objects are read)."""
        with np.load(io.BytesIO(self.shard_bytes(i)), allow_pickle=False) as data:
            return {name: data[name] for name in data.files}
