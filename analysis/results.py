"""The resumable store of a protection run's shard results: small JSON files plus a
manifest, kept and checked as the outcome store keeps its shards (:mod:`analysis.store`).

* One folder per job: ``<folder>/<kind>-<digest>/`` (by default ``<store root>/protection``,
  beside the outcome stores), the digest hashing the job's
  key (game, pay table, pay rule, information, seed, method versions); the manifest keeps
  the key itself, so a folder is never used for another job.
* ``shard-NNNNN.json``: one shard's exact result (integers only), written to a temporary
  name and renamed; the manifest records its SHA-256, checked on every read, and its size
  (states or flop classes), so a shard computed for a shorter sampled run is extended.
* ``manifest.json``: format, kind, key, package version, shards, and a SHA-256 of itself;
  ``.lock``: held while a run writes, so two runs of one job do not both compute it.

A damaged or missing shard is a :class:`~analysis.store.StoreError` naming the file; the
next run of the job computes exactly the shards that are missing or damaged again.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

from .atomic import atomic_write_bytes, remove_temporary
from .store import (
    StoreError,
    checked_bytes,
    default_root,
    folder_lock,
    manifest_digest,
    package_version,
    read_manifest,
)

FORMAT = "casino-omaha-results/1"


def results_folder(root: Path | None = None) -> Path:
    """Where result stores live by default: ``protection/`` under the outcome stores' root."""
    return (Path(root) if root is not None else default_root()) / "protection"


def key_digest(key: dict) -> str:
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()


def stored_jobs(kind: str, folder: Path | None = None, **fields) -> list[ResultStore]:
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


class ResultStore:
    """The shard results of one job (see the module docstring)."""

    def __init__(self, path: Path, kind: str, key: dict):
        self.path, self.kind, self.key = Path(path), kind, key
        self.manifest_path = self.path / "manifest.json"
        self.reload()

    @classmethod
    def for_job(cls, kind: str, key: dict, folder: Path | None = None) -> ResultStore:
        """The job's store in ``folder`` (default: ``protection/`` under the store root)."""
        folder = Path(folder) if folder is not None else results_folder()
        return cls(folder / f"{kind}-{key_digest(key)[:12]}", kind, key)

    def reload(self) -> None:
        """Read the manifest again (or start one)."""
        if not self.manifest_path.exists():
            self.manifest = {
                "format": FORMAT,
                "kind": self.kind,
                "key": self.key,
                "package_version": package_version(),
                "created": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                "shards": {},
            }
            return
        hint = f"delete {self.path} and run the job again"
        manifest = read_manifest(self.manifest_path, hint, checksum_required=True)
        if manifest.get("format") != FORMAT or manifest.get("kind") != self.kind or manifest.get("key") != self.key:
            raise StoreError(f"{self.manifest_path}: these results belong to another job; {hint}")
        self.manifest = manifest

    def lock(self, on_wait=None):
        """Hold the job's lock file for a run."""
        return folder_lock(self.path, on_wait)

    def shard_path(self, i: int) -> Path:
        return self.path / f"shard-{i:05d}.json"

    def size(self, i: int) -> int:
        """The size recorded with shard i (0 when it is not there)."""
        entry = self.manifest["shards"].get(str(i))
        return entry["size"] if entry is not None and self.shard_path(i).exists() else 0

    def write(self, i: int, result, size: int) -> None:
        """Keep shard i's result (JSON-able, exact integers) and its checksum."""
        data = json.dumps(result, separators=(",", ":")).encode()
        self.path.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(self.shard_path(i), data)
        self.manifest["shards"][str(i)] = {"size": size, "sha256": hashlib.sha256(data).hexdigest()}
        self._save_manifest()

    def read(self, i: int):
        """Shard i's result, checked against its SHA-256."""
        entry = self.manifest["shards"].get(str(i))
        return json.loads(checked_bytes(self.shard_path(i), entry, "sha256", "run the job again to compute it anew"))

    def sound(self, i: int) -> bool:
        """Whether shard i is there and matches its checksum."""
        try:
            self.read(i)
        except StoreError:
            return False
        return True

    def forget_damaged(self) -> list[int]:
        """Drop the shards that are missing or damaged (to be computed again); returns them."""
        bad = [int(i) for i in self.manifest["shards"] if not self.sound(int(i))]
        for i in bad:
            self.manifest["shards"].pop(str(i))
            self.shard_path(i).unlink(missing_ok=True)
        if bad:
            self._save_manifest()
        return bad

    def clean_temporary(self) -> None:
        remove_temporary(self.path)

    def checksum(self, shards: list[int]) -> str:
        """SHA-256 over the given shards' checksums, in order: the run's checksum."""
        return hashlib.sha256("".join(self.manifest["shards"][str(i)]["sha256"] for i in shards).encode()).hexdigest()

    def _save_manifest(self) -> None:
        self.manifest["manifest_sha256"] = manifest_digest(self.manifest)
        atomic_write_bytes(self.manifest_path, (json.dumps(self.manifest, indent=1) + "\n").encode())
