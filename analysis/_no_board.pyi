"""Exact counting core of the games without a board (compiled from ext/no_board.pyx)."""

import numpy as np
import numpy.typing as npt

def file_by_subset(
    hands: npt.NDArray[np.int8],
    offsets: list[npt.NDArray[np.int64]],
    runs: list[npt.NDArray[np.uint16]],
    values: npt.NDArray[np.uint16],
    binom: npt.NDArray[np.int64],
    dense: list[npt.NDArray[np.int32]] | None = None,
    threads: int = 1,
) -> None: ...
def count_states(
    players: npt.NDArray[np.int8],
    seen: npt.NDArray[np.int8],
    values: npt.NDArray[np.int32],
    floor: int,
    offsets: list[npt.NDArray[np.int64]],
    runs: list[npt.NDArray[np.uint16]],
    dense: list[npt.NDArray[np.int32]],
    binom: npt.NDArray[np.int64],
    threads: int = 1,
) -> npt.NDArray[np.int64]: ...
