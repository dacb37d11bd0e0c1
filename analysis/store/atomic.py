"""Atomic file writes: a file is written under a temporary name in its folder and renamed
into place, so a reader never sees half a file and an old file survives a failed write.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write_bytes(folder / "a.txt", b"hello")
>>> (folder / "a.txt").read_bytes(), [p.name for p in folder.iterdir()]
(b'hello', ['a.txt'])
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary path beside ``path`` to write to; renamed to ``path`` when the block
    ends normally, removed when it raises."""
    path = Path(path)
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    tmp = Path(name)
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
    (only call it when no writer can be at work there)."""
    for path in Path(folder).rglob(".*.tmp"):
        path.unlink(missing_ok=True)
