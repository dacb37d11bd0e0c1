"""Counting core of one state with more information (compiled from ext/informed.pyx)."""

import numpy as np
import numpy.typing as npt

def count_informed(
    k: int,
    omaha: bool,
    qualifier: int,
    deck: int,
    holes: npt.NDArray[np.int8],
    flops: npt.NDArray[np.int8],
    seen: npt.NDArray[np.int8],
    turns: npt.NDArray[np.int8],
    dead: npt.NDArray[np.uint64],
    pair_table: npt.NDArray[np.uint16],
    flush: npt.NDArray[np.uint16],
    category: npt.NDArray[np.uint8],
    out: npt.NDArray[np.uint32],
    threads: int = 1,
) -> None: ...
