"""Pay-independent arrays derived from a complete outcome store (the return engine's packed
counts, the hand profile of every state), kept beside the shards as ``.npy`` files and
mapped read-only, so that a process loads only the pages it reads.

Every figure is computed from these arrays, so every byte is checked against a SHA-256
before it is used, whatever the files' times say: one flipped bit is a wrong exact house
edge. A file is checked by blocks of :data:`BLOCK` bytes: ``<key>.blocks`` beside it holds
the SHA-256 of each block, ``meta.json`` the SHA-256 of that list, of the whole file (what a
report names), the store checksum the set was made from, and its own SHA-256. A reader of the
whole array (:func:`derived_arrays`) checks every block; a reader of a few rows
(:func:`open_derived`, :meth:`BlockFile.rows`) checks the blocks those rows lie in, the
first time it reads them. Within one process a file checked whole is not hashed again while
its ``os.stat`` identity (device, inode, size, modification and change times) is unchanged;
putting a file's modification time back changes its change time.

Arrays that do not match are never used: the store's writer (holding the store's lock)
makes them again from the checked shards. So is a set kept in the format before blocks (one
SHA-256 per file), which is not trusted. ``meta.json`` is removed before a set is written
and written last, so a set with one is whole.
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
from math import ceil, prod
from pathlib import Path
from typing import BinaryIO

import numpy as np

from analysis.store.atomic import atomic_path, atomic_write_bytes
from analysis.store.shards import StoreError, manifest_digest

#: Bytes a block: a few rows read cost at most this much hashing each (about 0.2 ms).
BLOCK = 1 << 18
#: More than any .npy header numpy writes (it pads them to 64 bytes; 65535 is version 1's limit).
_HEADER_MAX = 1 << 17
_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")
_DIGEST = hashlib.sha256().digest_size
#: SHA-256 of the files checked whole in this process, by their os.stat identity.
_VERIFIED: dict[tuple[int, ...], str] = {}

#: The arrays of a set by key, and the SHA-256 of each one's file.
Loaded = tuple[dict[str, np.ndarray], dict[str, str]]


class _Unusable(Exception):
    """A set of arrays that cannot be used; ``reason`` is None when it was never made, and
    ``damaged`` says whether something in it does not match (else it is stale or old)."""

    def __init__(self, reason: str | None, damaged: bool = True) -> None:
        super().__init__(reason)
        self.reason, self.damaged = reason, damaged and reason is not None


class BlockFile:
    """A derived array's ``.npy`` file mapped read-only, each block checked against its
    SHA-256 in ``blocks`` the first time it is read (the header's blocks when opened).
    A block that does not match is a ValueError; ``fix`` says, in a StoreError, how to
    mend the store when a read of rows finds one."""

    def __init__(self, path: Path, sha256: str, blocks: bytes, fix: str = "") -> None:
        self.path, self.sha256, self.blocks, self.fix = path, sha256, blocks, fix
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            if st.st_size == 0:
                raise ValueError("the file is empty")
            self.bytes = np.memmap(f, dtype=np.uint8, mode="r")
        self.identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        if len(blocks) != _DIGEST * ceil(st.st_size / BLOCK):
            raise ValueError("the file's size does not match its blocks' SHA-256")
        self.checked = np.zeros(len(blocks) // _DIGEST, dtype=bool)
        self._check(0, min(st.st_size, _HEADER_MAX))
        self.array, self.start = _npy_array(self.bytes)

    def _check(self, begin: int, end: int) -> None:
        """Check the blocks that bytes ``begin:end`` lie in (ValueError when one differs)."""
        view = self.bytes.data
        for b in range(begin // BLOCK, ceil(end / BLOCK)):
            if not self.checked[b]:
                if (
                    hashlib.sha256(view[b * BLOCK : (b + 1) * BLOCK]).digest()
                    != self.blocks[b * _DIGEST : (b + 1) * _DIGEST]
                ):
                    raise ValueError(
                        f"bytes {b * BLOCK:,} to {min((b + 1) * BLOCK, len(view)):,} do not match their SHA-256"
                    )
                self.checked[b] = True

    def whole(self, memo: bool = True) -> np.ndarray:
        """The array, every block checked (``memo``: unless this process checked the same
        file, by its stat identity, whole before)."""
        if not (memo and _VERIFIED.get(self.identity) == self.sha256):
            self._check(0, len(self.bytes))
            _VERIFIED[self.identity] = self.sha256
        return self.array

    def rows(self, first: int, stop: int | None = None) -> np.ndarray:
        """Rows ``first:stop`` of the array (``stop``: the next row), only their blocks
        checked; a damaged one is a StoreError naming the file and the fix."""
        stop = first + 1 if stop is None else stop
        if not 0 <= first < stop <= len(self.array):
            raise IndexError(f"rows {first}:{stop} of an array of {len(self.array)}")
        if not self.array.flags.c_contiguous:  # its rows' bytes would not lie together
            raise ValueError(f"{self.path}: rows of an array kept column by column")
        row = self.array.itemsize * prod(self.array.shape[1:])
        try:
            self._check(self.start + first * row, self.start + stop * row)
        except ValueError as e:
            raise StoreError(f"{self.path}: {e}; {self.fix}") from None
        return self.array[first:stop]


def _npy_array(whole: np.memmap) -> tuple[np.ndarray, int]:
    """The array a mapped ``.npy`` file holds (a view of the mapping), and where its data start."""
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
    return whole[start:].view(dtype).reshape(shape, order="F" if fortran else "C"), start


def _open(folder: Path, checksum: str | None, fix: str = "") -> dict[str, BlockFile]:
    """The files of the set in ``folder``, opened (``meta.json`` and every list of block
    SHA-256 checked, no block of data yet); raises _Unusable saying why it cannot be used."""
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
    if meta.get("block") != BLOCK or not all(isinstance(v.get("blocks_sha256"), str) for v in entries.values()):
        raise _Unusable(f"{folder}: kept in an older format (one SHA-256 a file, checked whole), not trusted", False)
    if meta.get("meta_sha256") != manifest_digest(meta, "meta_sha256"):
        raise _Unusable(f"{folder / 'meta.json'}: does not match its own SHA-256")
    if meta.get("checksum") != checksum:
        raise _Unusable(f"{folder}: made from another store (checksum {str(meta.get('checksum'))[:16]})", False)
    files = {}
    for key, entry in entries.items():
        path = folder / f"{key}.npy"
        try:
            blocks = (folder / f"{key}.blocks").read_bytes()
            if hashlib.sha256(blocks).hexdigest() != entry["blocks_sha256"]:
                raise ValueError(f"{key}.blocks does not match its SHA-256 in meta.json")
            files[key] = BlockFile(path, entry["sha256"], blocks, fix)
        except (OSError, ValueError) as e:
            raise _Unusable(f"{path}: {e.strerror if isinstance(e, OSError) else e}") from None
    return files


def _load(folder: Path, checksum: str | None, memo: bool = True) -> Loaded:
    """The set of arrays in ``folder``, every block of every file checked (the files in
    parallel); raises _Unusable saying why it cannot be used."""
    files = _open(folder, checksum)

    def one(key: str) -> np.ndarray:
        try:
            return files[key].whole(memo)
        except ValueError as e:
            raise _Unusable(f"{files[key].path}: {e}") from None

    with ThreadPoolExecutor(max_workers=max(1, min(len(files), os.cpu_count() or 1))) as pool:
        arrays = dict(zip(files, pool.map(one, files)))
    return arrays, {key: file.sha256 for key, file in files.items()}


class _HashingWriter:
    """A file that hashes what is written to it, whole and by blocks of :data:`BLOCK`
    bytes (np.save writes the .npy through it)."""

    def __init__(self, f: BinaryIO) -> None:
        self.f, self.sha256, self.blocks = f, hashlib.sha256(), bytearray()
        self.block, self.filled = hashlib.sha256(), 0

    def write(self, data: bytes) -> int:
        self.sha256.update(data)
        view = memoryview(data).cast("B")
        while len(view):
            part = view[: BLOCK - self.filled]
            self.block.update(part)
            self.filled += len(part)
            view = view[len(part) :]
            if self.filled == BLOCK:
                self.blocks += self.block.digest()
                self.block, self.filled = hashlib.sha256(), 0
        return self.f.write(data)

    def block_digests(self) -> bytes:
        """The SHA-256 of every block written (the last one may be short)."""
        return bytes(self.blocks) + (self.block.digest() if self.filled else b"")


def _write(folder: Path, checksum: str | None, arrays: dict[str, np.ndarray]) -> None:
    """Keep a set of arrays: ``meta.json`` goes first and comes back last, with the SHA-256
    of the bytes written (not of the file read back: that is what the next load checks).
    The files are written in parallel (a new Casino Omaha engine's 2.3 GB: 6.1 s -> 3.5 s)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "meta.json").unlink(missing_ok=True)

    def one(key: str) -> dict[str, str]:
        with atomic_path(folder / f"{key}.npy") as tmp, open(tmp, "wb") as f:
            sink = _HashingWriter(f)
            np.save(sink, np.asarray(arrays[key]), allow_pickle=False)
        blocks = sink.block_digests()
        atomic_write_bytes(folder / f"{key}.blocks", blocks)
        return {"sha256": sink.sha256.hexdigest(), "blocks_sha256": hashlib.sha256(blocks).hexdigest()}

    with ThreadPoolExecutor(max_workers=max(1, min(len(arrays), os.cpu_count() or 1))) as pool:
        meta = {"checksum": checksum, "block": BLOCK, "arrays": dict(zip(arrays, pool.map(one, arrays)))}
    meta["meta_sha256"] = manifest_digest(meta, "meta_sha256")
    atomic_write_bytes(folder / "meta.json", json.dumps(meta).encode())


def derived_arrays(
    folder: Path,
    checksum: str | None,
    build: Callable[[], dict[str, np.ndarray]],
    writing: Callable[[], AbstractContextManager[None]],
    fix: str,
    say: Callable[[str], None],
) -> Loaded:
    """The arrays kept in ``folder`` for the store of this checksum (checked), and their
    files' SHA-256. When they are missing, stale, damaged or in the older format they are
    made by ``build()`` as the store's writer (``writing()``: its lock held, stale temporary
    files removed), saying so through ``say`` when they were there but unusable; a store
    that cannot be written is a StoreError that ends with ``fix``."""
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


def open_derived(folder: Path, checksum: str | None, fix: str) -> dict[str, BlockFile] | None:
    """The files of the set in ``folder``, for reading a few rows (each block checked when
    first read); None when the set was never made, is stale or in the older format (nothing
    is made here). Damage found is a StoreError ending with ``fix``, now or when read."""
    try:
        return _open(folder, checksum, fix)
    except _Unusable as e:
        if e.damaged:
            raise StoreError(f"{e.reason}; {fix}") from None
        return None


def check_derived(root: Path, checksum: str | None) -> list[str]:
    """Hash every set of arrays below ``root`` (each a folder) in full and remove the sets
    that are unfinished, stale, damaged or in the older format, so that they are made again
    when next used; returns what was wrong with each. Only the store's writer (holding its
    lock) calls it."""
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
