"""How and where a heavy job runs: the options every run shares (the store's root, the
protection results' folder, the cluster, the kernels' threads, progress bars), checked once.

>>> RunOptions(threads=2).threads
2
>>> RunOptions(threads=0)
Traceback (most recent call last):
...
analysis.model.errors.InputError: threads must be a whole number from 1 to 256, got 0
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from analysis.model.errors import InputError
from analysis.parallel.threads import check_threads

if TYPE_CHECKING:
    from analysis.parallel.cluster import Cluster


@dataclass(frozen=True)
class RunOptions:
    """The options of a run; every field's default is the usual choice."""

    root: Path | None = None  # the outcome stores' root (None: $CASINO_OMAHA_STORE, data/outcomes, a cache)
    results: Path | None = None  # the protection results' folder (None: protection/ under the root)
    cluster: Cluster | None = None  # the dask cluster the shards run on (None: this process)
    threads: int | None = None  # threads of the compiled kernels (None: every core of this process)
    progress: bool | None = None  # progress bars (None: when stderr is a terminal)

    def __post_init__(self) -> None:
        for name in ("root", "results"):
            value = getattr(self, name)
            if value is not None:
                if not isinstance(value, (str, os.PathLike)):
                    raise InputError(f"{name} must be a folder path, not {type(value).__name__}")
                object.__setattr__(self, name, Path(value))
        if self.threads is not None:
            check_threads(self.threads)
        if self.progress is not None and not isinstance(self.progress, bool):
            raise InputError(f"progress must be True, False or None, not {self.progress!r}")

    def show_progress(self) -> bool:
        """Whether to draw progress bars."""
        return sys.stderr.isatty() if self.progress is None else self.progress
