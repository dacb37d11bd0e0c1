"""Exact counting core of games with a decision after the river (compiled from ext/streets.pyx)."""

import numpy as np
import numpy.typing as npt

def count_streets(
    k: int,
    omaha: bool,
    qualifier: int,
    deck: int,
    dealer_total: int,
    coef: npt.NDArray[np.int64],
    flops: npt.NDArray[np.int8],
    holdings: npt.NDArray[np.int8],
    hold_offsets: npt.NDArray[np.int64],
    tr_pairs: npt.NDArray[np.int8],
    tr_new_orbit: npt.NDArray[np.uint8],
    tr_offsets: npt.NDArray[np.int64],
    pair_table: npt.NDArray[np.uint16],
    flush: npt.NDArray[np.uint16],
    category: npt.NDArray[np.uint8],
    out: npt.NDArray[np.uint32],
    threads: int = 1,
    by_class: int = -1,
) -> None: ...
def count_turns(
    k: int,
    omaha: bool,
    qualifier: int,
    deck: int,
    dealer_total: int,
    flops: npt.NDArray[np.int8],
    holdings: npt.NDArray[np.int8],
    hold_offsets: npt.NDArray[np.int64],
    tr_pairs: npt.NDArray[np.int8],
    tr_new_orbit: npt.NDArray[np.uint8],
    tr_offsets: npt.NDArray[np.int64],
    pair_table: npt.NDArray[np.uint16],
    flush: npt.NDArray[np.uint16],
    category: npt.NDArray[np.uint8],
    out: npt.NDArray[np.uint32],
    bets: npt.NDArray[np.uint64],
    threads: int = 1,
) -> None: ...
