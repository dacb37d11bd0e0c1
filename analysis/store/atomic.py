"""Atomic file writes: a file is written under a temporary name in its folder and renamed
into place, so a reader never sees half a file and an old file survives a failed write.
The file gets the mode a plain ``open()`` gives it (0666 less the umask), so whoever may
read the folder can read what is written there.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write_bytes(folder / "a.txt", b"hello")
>>> (folder / "a.txt").read_bytes(), [p.name for p in folder.iterdir()]
(b'hello', ['a.txt'])
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def _create_temporary(path: Path) -> Path:
    """A new empty file ``.<name>.<random>.tmp`` beside ``path``; created with mode 0666 so
    that the kernel applies the umask (``tempfile.mkstemp`` would make it 0600)."""
    while True:
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            continue
        return tmp


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary path beside ``path`` to write to; renamed to ``path`` when the block
    ends normally, removed when it raises."""
    tmp = _create_temporary(Path(path))
    try:
        yield tmp
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def remove_temporary(folder: Path) -> None:
    """Remove the temporary files that interrupted atomic writes left below ``folder``
    (only call it holding the folder's lock, which every writer there holds)."""
    for path in Path(folder).rglob(".*.tmp"):
        path.unlink(missing_ok=True)
