"""Batch poker evaluation (compiled from ext/evaluator.pyx); strengths 1..7462, bigger is better."""

import numpy as np
import numpy.typing as npt

def best_of(
    cards: npt.NDArray[np.int8],
    rank_table: npt.NDArray[np.uint16],
    flush: npt.NDArray[np.uint16],
    threads: int = 1,
) -> npt.NDArray[np.uint16]: ...
def omaha(
    hole: npt.NDArray[np.int8],
    board: npt.NDArray[np.int8],
    omaha_pair: npt.NDArray[np.uint16],
    flush: npt.NDArray[np.uint16],
    threads: int = 1,
) -> npt.NDArray[np.uint16]: ...
