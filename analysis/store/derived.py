"""Pay-independent arrays derived from a complete outcome store (the return engine's packed
counts, the hand profile of every state), kept beside the shards as ``.npy`` files and
mapped read-only, so that a process loads only the pages it reads.

``meta.json`` records the store checksum the arrays were made from and each file's
SHA-256. Every figure is computed from these arrays, so every load hashes the bytes it
maps, whatever the files' times say: one flipped bit is a wrong exact house edge. Within
one process a file already verified is not hashed again while its ``os.stat`` identity
(device, inode, size, modification and change times) is unchanged; putting a file's
modification time back changes its change time.

Arrays that do not match are never used: the store's writer (holding the store's lock)
makes them again from the checked shards. ``meta.json`` is removed before a set is
written and written last, so a set with one is whole.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, ExitStack
from math import prod
from pathlib import Path
from typing import BinaryIO

import numpy as np

from analysis.store.atomic import atomic_path, atomic_write_bytes
from analysis.store.shards import StoreError

_CHUNK = 1 << 24
#: More than any .npy header numpy writes (it pads them to 64 bytes; 65535 is version 1's limit).
_HEADER_MAX = 1 << 17
_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: SHA-256 of the files hashed in this process, by their os.stat identity.
_VERIFIED: dict[tuple[int, ...], str] = {}

#: The arrays of a set by key, and the SHA-256 of each one's file.
Loaded = tuple[dict[str, np.ndarray], dict[str, str]]


class _Unusable(Exception):
    """A set of arrays that cannot be used; ``reason`` is None when it was never made."""

    def __init__(self, reason: str | None) -> None:
        super().__init__(reason)
        self.reason = reason


def map_verified(path: Path, sha256: str, memo: bool = True) -> np.ndarray:
    """The array of the ``.npy`` file ``path``, mapped read-only, once the mapped bytes are
    found to hash to ``sha256`` (``memo``: unless this process hashed the same file, by its
    stat identity, before). What is hashed is what the array reads: the same mapping.
    Raises ValueError saying what is wrong."""
    with open(path, "rb") as f:
        st = os.fstat(f.fileno())
        if st.st_size == 0:
            raise ValueError("the file is empty")
        whole = np.memmap(f, dtype=np.uint8, mode="r")
    identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    if not (memo and _VERIFIED.get(identity) == sha256):
        h = hashlib.sha256()
        for start in range(0, len(whole), _CHUNK):
            h.update(whole[start : start + _CHUNK].data)
        if h.hexdigest() != sha256:
            raise ValueError("the file does not match its SHA-256 in meta.json")
        _VERIFIED[identity] = sha256
    return _npy_array(whole)


def _npy_array(whole: np.memmap) -> np.ndarray:
    """The array a mapped ``.npy`` file holds (a view of the mapping)."""
    head = io.BytesIO(whole[:_HEADER_MAX].tobytes())
    version = np.lib.format.read_magic(head)
    if version == (1, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_1_0(head)
    elif version == (2, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_2_0(head)
    else:
        raise ValueError(f"not a .npy file of version 1.0 or 2.0 (found {version})")
    if dtype.hasobject:
        raise ValueError("the file holds Python objects")
    start = head.tell()
    if start + dtype.itemsize * prod(shape) != len(whole):
        raise ValueError("the file's size does not match its header")
    return whole[start:].view(dtype).reshape(shape, order="F" if fortran else "C")


def _load(folder: Path, checksum: str | None, memo: bool = True) -> Loaded:
    """The set of arrays in ``folder``, every file checked (its files hashed in parallel);
    raises _Unusable saying why it cannot be used."""
    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise _Unusable(None) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _Unusable(f"{folder / 'meta.json'}: cannot be read ({e})") from None
    entries = meta.get("arrays") if isinstance(meta, dict) else None
    if not isinstance(entries, dict) or not all(
        isinstance(k, str) and _KEY.fullmatch(k) and isinstance(v, dict) and isinstance(v.get("sha256"), str)
        for k, v in entries.items()
    ):
        raise _Unusable(f"{folder / 'meta.json'}: not a list of arrays and their SHA-256")
    if meta.get("checksum") != checksum:
        raise _Unusable(f"{folder}: made from another store (checksum {str(meta.get('checksum'))[:16]})")
    digests = {key: entry["sha256"] for key, entry in entries.items()}

    def one(key: str) -> np.ndarray:
        path = folder / f"{key}.npy"
        try:
            return map_verified(path, digests[key], memo)
        except (OSError, ValueError) as e:
            raise _Unusable(f"{path}: {e.strerror if isinstance(e, OSError) else e}") from None

    with ThreadPoolExecutor(max_workers=max(1, min(len(digests), os.cpu_count() or 1))) as pool:
        arrays = dict(zip(digests, pool.map(one, digests)))
    return arrays, digests


class _HashingWriter:
    """A file that hashes what is written to it (np.save writes the .npy through it)."""

    def __init__(self, f: BinaryIO) -> None:
        self.f, self.sha256 = f, hashlib.sha256()

    def write(self, data: bytes) -> int:
        self.sha256.update(data)
        return self.f.write(data)


def _write(folder: Path, checksum: str | None, arrays: dict[str, np.ndarray]) -> None:
    """Keep a set of arrays: ``meta.json`` goes first and comes back last, with the SHA-256
    of the bytes written (not of the file read back: that is what the next load checks).
    The files are written in parallel (a new Casino Omaha engine's 2.3 GB: 6.1 s -> 3.5 s)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "meta.json").unlink(missing_ok=True)

    def one(key: str) -> str:
        with atomic_path(folder / f"{key}.npy") as tmp, open(tmp, "wb") as f:
            sink = _HashingWriter(f)
            np.save(sink, np.asarray(arrays[key]), allow_pickle=False)
        return sink.sha256.hexdigest()

    with ThreadPoolExecutor(max_workers=max(1, min(len(arrays), os.cpu_count() or 1))) as pool:
        entries = {key: {"sha256": digest} for key, digest in zip(arrays, pool.map(one, arrays))}
    atomic_write_bytes(folder / "meta.json", json.dumps({"checksum": checksum, "arrays": entries}).encode())


def derived_arrays(
    folder: Path,
    checksum: str | None,
    build: Callable[[], dict[str, np.ndarray]],
    writing: Callable[[], AbstractContextManager[None]],
    fix: str,
    say: Callable[[str], None],
) -> Loaded:
    """The arrays kept in ``folder`` for the store of this checksum (checked), and their
    files' SHA-256. When they are missing, stale or damaged they are made by ``build()``
    as the store's writer (``writing()``: its lock held, stale temporary files removed),
    saying so through ``say`` when they were there but unusable; a store that cannot be
    written is a StoreError that ends with ``fix``."""
    try:
        return _load(folder, checksum)
    except _Unusable as e:
        problem = e.reason
    with ExitStack() as stack:
        try:
            stack.enter_context(writing())
        except OSError as e:
            what = problem or f"{folder}: these arrays were never made"
            raise StoreError(f"{what}, and this store cannot be written to make them ({e.strerror}); {fix}") from None
        try:
            return _load(folder, checksum)  # another writer made them while this one waited
        except _Unusable:
            pass
        if problem is not None:
            say(f"{problem}: making these arrays again from the shards")
        _write(folder, checksum, build())
        return _load(folder, checksum)


def check_derived(root: Path, checksum: str | None) -> list[str]:
    """Hash every set of arrays below ``root`` (each a folder) in full and remove the sets
    that are unfinished, stale or damaged, so that they are made again when next used;
    returns what was wrong with each. Only the store's writer (holding its lock) calls it."""
    problems = []
    for folder, problem in inspect_derived(root, checksum).items():
        if problem is not None:
            problems.append(problem)
            shutil.rmtree(folder)
    return problems


def inspect_derived(root: Path, checksum: str | None) -> dict[Path, str | None]:
    """Every set of arrays below ``root`` (each a folder), each file hashed in full (never
    from this process's memo), and what is wrong with it (None: sound). Changes nothing."""
    found: dict[Path, str | None] = {}
    for folder in sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []:
        try:
            _load(folder, checksum, memo=False)
            found[folder] = None
        except _Unusable as e:
            found[folder] = e.reason or f"{folder}: unfinished (no meta.json)"
    return found
