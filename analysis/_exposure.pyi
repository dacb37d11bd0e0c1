"""Exact counting core of a flashed dealer card (compiled from ext/exposure.pyx)."""

import numpy as np
import numpy.typing as npt

E_GROUPS: int
RELATIONS: tuple[str, str, str]

def count_exposed(
    k: int,
    omaha: bool,
    qualifier: int,
    deck: int,
    dealer_total: int,
    rest_total: int,
    flops: npt.NDArray[np.int8],
    holdings: npt.NDArray[np.int8],
    hold_offsets: npt.NDArray[np.int64],
    weight: npt.NDArray[np.int64],
    hgroup: npt.NDArray[np.int32],
    n_hgroups: int,
    tr_pairs: npt.NDArray[np.int8],
    tr_new_orbit: npt.NDArray[np.uint8],
    tr_offsets: npt.NDArray[np.int64],
    pair_table: npt.NDArray[np.uint16],
    flush: npt.NDArray[np.uint16],
    category: npt.NDArray[np.uint8],
    coef: npt.NDArray[np.int64],
    base: int,
    margins_out: npt.NDArray[np.int64] | None = None,
    threads: int = 1,
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.object_], npt.NDArray[np.uint64]]: ...
