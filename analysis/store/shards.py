"""A checked shard folder: shard files plus a JSON manifest that records each shard's
SHA-256 and its own, one lock file for writers, and atomic writes. The outcome store and
the protection result store are both built on it, so they keep the same guarantees under
the same names.

* ``shard-NNNNN<suffix>``: one shard, written under a temporary name and renamed; the
  manifest records its file's SHA-256 (``file_sha256``), checked on every read.
* ``manifest.json``: what the folder holds (the subclass's fields), ``shards`` (an entry per
  shard) and ``manifest_sha256``, a SHA-256 of the rest; a manifest that does not match it
  is refused.
* ``.lock``: held (``fcntl.flock``) by a writer for as long as it runs; a second writer waits.
  Every writer holds it, so the next one removes the temporary files an interrupted one left.

Every problem is a :class:`StoreError` that names the file and says how to fix it.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from analysis.model.errors import AnalysisError
from analysis.store.atomic import atomic_write_bytes, remove_temporary


class StoreError(AnalysisError, RuntimeError):
    """A store that cannot be used: made for something else, damaged or unfinished."""


def package_version() -> str:
    """This package's version, as recorded in manifests and reports."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("casino-omaha-analysis")
    except PackageNotFoundError:
        return "unknown"


def now() -> str:
    """The time, for manifests: UTC, to the second."""
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


class ShardFolder:
    """Shards and their manifest in one folder (see the module docstring). A subclass says
    what its manifest holds (:meth:`new_manifest`, :meth:`check_manifest`), how a shard's
    file ends (``suffix``) and how to fix a damaged folder (:meth:`fix_hint`)."""

    suffix = ""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.manifest_path = self.path / "manifest.json"
        self.manifest: dict[str, Any] = {}
        self.reload()

    # --- what a subclass says --------------------------------------------------------

    def new_manifest(self) -> dict[str, Any]:
        """The manifest of an empty folder (without ``shards``)."""
        raise NotImplementedError

    def check_manifest(self, manifest: dict[str, Any]) -> None:
        """Raise StoreError when a read manifest belongs to something else."""
        raise NotImplementedError

    def fix_hint(self) -> str:
        """What the user runs to mend this folder (ends every error message)."""
        raise NotImplementedError

    # --- the manifest ----------------------------------------------------------------

    def reload(self) -> None:
        """Read the manifest again (another process may have added shards), or start one."""
        if self.manifest_path.exists():
            manifest = read_manifest(self.manifest_path, self.fix_hint())
            self.check_manifest(manifest)
            self.manifest = manifest
        else:
            self.manifest = self.new_manifest() | {"shards": {}}

    def save_manifest(self) -> None:
        self.manifest["manifest_sha256"] = manifest_digest(self.manifest)
        atomic_write_bytes(self.manifest_path, (json.dumps(self.manifest, indent=1) + "\n").encode())

    # --- shards ----------------------------------------------------------------------

    def shard_path(self, i: int) -> Path:
        return self.path / f"shard-{i:05d}{self.suffix}"

    def entry(self, i: int) -> dict[str, Any] | None:
        """Shard i's manifest entry (None when it has none)."""
        return self.manifest["shards"].get(str(i))

    def done(self) -> set[int]:
        """Shards recorded in the manifest whose file is present."""
        return {int(i) for i in self.manifest["shards"] if self.shard_path(int(i)).exists()}

    def write_shard_bytes(self, i: int, data: bytes, **fields: Any) -> None:
        """Keep shard i's file atomically, then its entry (its SHA-256 and ``fields``)."""
        self.path.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(self.shard_path(i), data)
        self.manifest["shards"][str(i)] = fields | {"file_sha256": hashlib.sha256(data).hexdigest()}
        self.save_manifest()

    def shard_bytes(self, i: int) -> bytes:
        """The file of shard i, checked against the SHA-256 its entry records."""
        path, fix, entry = self.shard_path(i), self.fix_hint(), self.entry(i)
        if entry is None or not isinstance(entry.get("file_sha256"), str):
            raise StoreError(f"{path}: this shard is not in the manifest; {fix}")
        try:
            data = path.read_bytes()
        except OSError as e:
            raise StoreError(f"{path}: cannot read the shard ({e.strerror}); {fix}") from None
        if hashlib.sha256(data).hexdigest() != entry["file_sha256"]:
            raise StoreError(f"{path}: the file does not match its checksum in the manifest; {fix}")
        return data

    def shard_is_sound(self, i: int) -> bool:
        """Whether shard i is recorded, present and matches its checksums."""
        try:
            self.check_shard(i)
        except StoreError:
            return False
        return True

    def check_shard(self, i: int) -> None:
        """Raise StoreError unless shard i is sound (a subclass may check its content too)."""
        self.shard_bytes(i)

    def forget(self, shards: list[int]) -> None:
        """Drop these shards (damaged or missing), so that they are computed again."""
        for i in shards:
            self.manifest["shards"].pop(str(i), None)
            self.shard_path(i).unlink(missing_ok=True)
        self.save_manifest()

    def forget_damaged(self) -> list[int]:
        """Drop every recorded shard that is missing or damaged; returns them."""
        bad = [int(i) for i in self.manifest["shards"] if not self.shard_is_sound(int(i))]
        if bad:
            self.forget(bad)
        return bad

    # --- writers ---------------------------------------------------------------------

    def lock(self, on_wait: Callable[[], None] | None = None) -> AbstractContextManager[None]:
        """Hold the folder's lock file (another holder is waited for, ``on_wait`` told first)."""
        return folder_lock(self.path, on_wait)

    @contextmanager
    def writing(self, on_wait: Callable[[], None] | None = None) -> Iterator[None]:
        """Be the folder's one writer: hold its lock, read the manifest again (the last
        holder may have changed it) and remove the temporary files any interrupted writer
        left (no live writer can be using them: every writer holds the lock). Taking the
        lock creates ``.lock``, so only writers call this: a complete folder is read without."""
        with self.lock(on_wait):
            self.reload()
            self.clean_temporary()
            yield

    def clean_temporary(self) -> None:
        """Remove temporary files that an interrupted writer left (call it holding the lock)."""
        remove_temporary(self.path)


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


def read_manifest(path: Path, fix: str) -> dict[str, Any]:
    """A manifest (a JSON object with a ``shards`` object), checked against its own SHA-256;
    any problem is a StoreError naming the file and ending with ``fix``."""
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise StoreError(f"{path}: the manifest cannot be read ({e}); {fix}") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("shards"), dict):
        raise StoreError(f"{path}: not a store manifest; {fix}")
    if manifest.get("manifest_sha256") != manifest_digest(manifest):
        raise StoreError(f"{path}: the manifest does not match its own checksum; {fix}")
    return manifest


def manifest_digest(manifest: dict[str, Any], own: str = "manifest_sha256") -> str:
    """SHA-256 of a manifest's content, its own checksum (the field ``own``) left out."""
    body = {k: v for k, v in manifest.items() if k != own}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
