"""Exact counting core of the Casino Omaha family (compiled from ext/enumerator.pyx)."""

import numpy as np
import numpy.typing as npt

class BoardResults:
    """Every board's class results, once per suit-isomorphism class of boards."""

    boards: int
    nbytes: int
    game: tuple[int, bool, int, int, int]
    def __init__(
        self,
        k: int,
        omaha: bool,
        qualifier: int,
        deck: int,
        dealer_total: int,
        pair_table: npt.NDArray[np.uint16],
        flush: npt.NDArray[np.uint16],
        category: npt.NDArray[np.uint8],
        threads: int = 1,
    ) -> None: ...

def count_states(
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
    threads: int = 1,
    boards: BoardResults | None = None,
) -> None: ...
