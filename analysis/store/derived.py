"""Pay-independent arrays derived from a complete outcome store (the return engine's packed
counts, the hand profile of every state), kept beside the shards as ``.npy`` files and
mapped read-only, so that a process loads only the pages it reads.

``meta.json`` records the store checksum the arrays were made from and, per file, its
size, modification time and SHA-256. A file whose size or time changed is hashed again;
arrays that do not match are made again from the (checked) shards, never used.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np

from analysis.store.atomic import atomic_path, atomic_write_bytes

_CHUNK = 1 << 24


def file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(_CHUNK):
            h.update(block)
    return h.hexdigest()


def _stamp(path: Path) -> list[int]:
    stat = path.stat()
    return [stat.st_size, stat.st_mtime_ns]


def _usable(folder: Path, checksum: str | None) -> dict[str, Path] | None:
    """The arrays' paths when they were made from this store and are unchanged, else None.
    A file touched but unchanged gets its new size and time recorded."""
    try:
        meta = json.loads((folder / "meta.json").read_text())
        if meta.get("checksum") != checksum:
            return None
        paths = {key: folder / f"{key}.npy" for key in meta["arrays"]}
        touched = False
        for key, path in paths.items():
            entry = meta["arrays"][key]
            if _stamp(path) != entry["stamp"]:
                if file_digest(path) != entry["sha256"]:
                    return None
                entry["stamp"], touched = _stamp(path), True
        if touched:
            atomic_write_bytes(folder / "meta.json", json.dumps(meta).encode())
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return paths


def derived_arrays(
    folder: Path, checksum: str | None, build: Callable[[], dict[str, np.ndarray]]
) -> dict[str, np.ndarray]:
    """The arrays kept in ``folder`` for the store of this checksum, made by ``build()``
    when missing, stale or damaged."""
    paths = _usable(folder, checksum)
    if paths is None:
        arrays = build()
        folder.mkdir(parents=True, exist_ok=True)
        entries = {}
        for key, array in arrays.items():
            path = folder / f"{key}.npy"
            with atomic_path(path) as tmp:
                with open(tmp, "wb") as f:
                    np.save(f, np.asarray(array), allow_pickle=False)
                digest = file_digest(tmp)
            entries[key] = {"sha256": digest, "stamp": _stamp(path)}
        atomic_write_bytes(folder / "meta.json", json.dumps({"checksum": checksum, "arrays": entries}).encode())
        paths = {key: folder / f"{key}.npy" for key in arrays}
    return {key: np.load(path, mmap_mode="r", allow_pickle=False) for key, path in paths.items()}
