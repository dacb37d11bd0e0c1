"""Final-hand category counts of Omaha-style holdings per board (compiled from ext/distribution.pyx)."""

import numpy as np
import numpy.typing as npt

def category_counts(
    k: int,
    boards: npt.NDArray[np.int8],
    deck: int,
    board_pair: npt.NDArray[np.uint16],
    flush: npt.NDArray[np.uint16],
    category: npt.NDArray[np.uint8],
    threads: int = 1,
) -> npt.NDArray[np.int64]: ...
