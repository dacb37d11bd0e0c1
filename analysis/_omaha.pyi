"""Omaha core: batch high and low evaluation, exact equity (compiled from ext/omaha.pyx)."""

import numpy as np
import numpy.typing as npt

def high_batch(
    hole: npt.NDArray[np.int8],
    board: npt.NDArray[np.int8],
    board_pair: npt.NDArray[np.uint16],
    flush: npt.NDArray[np.uint16],
    threads: int = 1,
) -> npt.NDArray[np.uint16]: ...
def low_batch(
    hole: npt.NDArray[np.int8],
    board: npt.NDArray[np.int8],
    low_best: npt.NDArray[np.uint8],
    low_bit: npt.NDArray[np.uint8],
    threads: int = 1,
) -> npt.NDArray[np.uint8]: ...
def equity_histogram(
    hands: npt.NDArray[np.int8],
    cards: npt.NDArray[np.int8],
    known: int,
    hilo: bool,
    omaha_pair: npt.NDArray[np.uint16],
    flush: npt.NDArray[np.uint16],
    low_best: npt.NDArray[np.uint8],
    low_bit: npt.NDArray[np.uint8],
    threads: int = 1,
) -> npt.NDArray[np.int64]: ...
def outcome_sets(hist: npt.NDArray[np.int64]) -> dict[tuple[int, int], int]: ...
