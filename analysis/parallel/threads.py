"""How many threads the compiled kernels use: all cores by default, a checked number otherwise.

>>> check_threads(2)
2
>>> check_threads(0)
Traceback (most recent call last):
...
analysis.model.errors.InputError: threads must be a whole number from 1 to 256, got 0
"""

from __future__ import annotations

import os

from analysis.model.errors import InputError

#: More OpenMP threads than this only costs memory (each holds its own buffers).
MAX_THREADS = 256


def default_threads() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def check_threads(threads: int | None) -> int:
    """``threads``, checked, or the default when None."""
    if threads is None:
        return default_threads()
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise InputError(f"threads must be a whole number from 1 to {MAX_THREADS}, got {threads!r}")
    return threads
