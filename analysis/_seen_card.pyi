"""Exact counting core of one dealer card seen in a multi-street game (compiled from ext/seen_card.pyx)."""

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

def count_seen_card(
    flops: npt.NDArray[np.int8],
    weights: npt.NDArray[np.int64],
    tr: npt.NDArray[np.int8],
    tr_weight: npt.NDArray[np.int64],
    tr_offsets: npt.NDArray[np.int64],
    stab: npt.NDArray[np.int8],
    stab_offsets: npt.NDArray[np.int64],
    deck: int,
    rank7: npt.NDArray[np.uint16],
    flush: npt.NDArray[np.uint16],
    category: npt.NDArray[np.uint8],
    qualifier: int,
    a0: npt.NDArray[np.int64],
    b0: npt.NDArray[np.int64],
    fold: int,
    river: Sequence[tuple[int, int]],
    flop: Sequence[tuple[int, int]],
    cls: npt.NDArray[np.int32],
    nclasses: int,
    cls_f: npt.NDArray[np.int32],
    nclasses_f: int,
    runout: bool = False,
    threads: int = 1,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...
