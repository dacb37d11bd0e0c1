"""Return-engine core over packed per-state counts (compiled from ext/engine.pyx)."""

import numpy as np
import numpy.typing as npt

def play(
    packed: npt.NDArray[np.uint8],
    rows: int,
    ncols: int,
    width: int,
    weight: npt.NDArray[np.uint8],
    coef: npt.NDArray[np.int64],
    base: int,
    wide: bool,
    calls: npt.NDArray[np.uint8],
    decide: bool,
    threads: int = 1,
    offset: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.uint64]: ...
def margins(
    packed: npt.NDArray[np.uint8],
    rows: int,
    ncols: int,
    width: int,
    coef: npt.NDArray[np.float64],
    base: float,
    threads: int = 1,
) -> npt.NDArray[np.float64]: ...
def linear(
    packed: npt.NDArray[np.uint8],
    rows: int,
    ncols: int,
    width: int,
    coef: npt.NDArray[np.int64],
    threads: int = 1,
) -> npt.NDArray[np.int64]: ...
def group_sums(
    packed: npt.NDArray[np.uint8],
    rows: int,
    ncols: int,
    width: int,
    weight: npt.NDArray[np.uint8],
    group: npt.NDArray[np.int32],
    ngroups: int,
    threads: int = 1,
) -> npt.NDArray[np.uint64]: ...
