"""Per-state counts packed row by row for the compiled return-engine core
(:mod:`analysis._engine`): ``width`` bytes a count (3 for every game of the family), so
Casino Omaha's 18.5 million states take 1.1 GB for the 21 pay-relevant columns.

>>> import numpy as np
>>> p = Packed.pack(np.array([[1, 2, 70000], [3, 0, 5]], dtype=np.uint32), [(0,), (1, 2)], 3)
>>> p.unpack([0, 1]).tolist()
[[1, 70002], [3, 5]]
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

import analysis._engine as _engine
from analysis.model.categories import CATEGORIES
from analysis.model.outcomes import COLUMNS, column_index
from analysis.model.rules import Rules
from analysis.parallel.threads import check_threads

_INT64 = 2**63
if sys.byteorder != "little":  # the compiled core reads packed counts as little-endian words
    raise ImportError("analysis.packed needs a little-endian machine")

#: Columns of the pay-relevant matrix: each is the sum of these count columns.
PAY_SOURCES = (
    [(column_index("noqual", c),) for c in CATEGORIES]
    + [(column_index("win", c),) for c in CATEGORIES]
    + [tuple(column_index("loss", c) for c in CATEGORIES)]
)
#: The other count columns (ties and dealer wins per category), mapped, not kept: the
#: final-hands table of a report is their only reader.
REST_SOURCES = [(column_index(r, c),) for c in CATEGORIES for r in ("tie", "loss")]


class Packed:
    """Counts packed row by row, ``width`` bytes each (see :mod:`analysis._engine`)."""

    def __init__(self, data: np.ndarray, rows: int, ncols: int, width: int) -> None:
        self.data, self.rows, self.ncols, self.width = data, rows, ncols, width

    @classmethod
    def pack(cls, counts: np.ndarray, sources: Sequence[tuple[int, ...]], width: int) -> Packed:
        """Pack columns that are sums of ``counts`` columns (uint32 rows x 40)."""
        rows = len(counts)
        data = np.zeros(rows * len(sources) * width + 1, dtype=np.uint8)
        cls.fill(data, rows, 0, counts, sources, width)
        return cls(data, rows, len(sources), width)

    @staticmethod
    def fill(
        data: np.ndarray, rows: int, start: int, counts: np.ndarray, sources: Sequence[tuple[int, ...]], width: int
    ) -> None:
        """Write the packed rows ``start...`` of ``counts`` into ``data``."""
        stride = len(sources) * width
        block = data[: rows * stride].reshape(rows, stride)[start : start + len(counts)]
        for j, cols in enumerate(sources):
            column = counts[:, cols[0]].astype("<u4")
            for c in cols[1:]:
                column += counts[:, c]
            if width == 3 and len(column) and int(column.max()) >= 1 << 24:
                raise OverflowError("a count does not fit in 3 bytes")
            block[:, j * width : (j + 1) * width] = column.view(np.uint8).reshape(-1, 4)[:, :width]

    def unpack(self, rows: ArrayLike) -> np.ndarray:
        """The counts of the given rows as int64 (rows x ncols)."""
        stride = self.ncols * self.width
        raw = self.data[: self.rows * stride].reshape(self.rows, stride)[np.asarray(rows)]
        raw = raw.reshape(len(raw), self.ncols, self.width).astype(np.int64)
        return sum(raw[:, :, b] << (8 * b) for b in range(self.width))

    def play(
        self,
        weight: np.ndarray,
        calls: np.ndarray,
        coef: Sequence[int] | None = None,
        base: int = 0,
        threads: int | None = None,
        offset: np.ndarray | None = None,
    ) -> np.ndarray:
        """Sums of weight x count over the called rows (and the called weight, last).
        With ``coef``, ``calls`` is filled first with the exact decisions, a state called
        when ``base + offset[state] + coef . counts > 0`` (``offset``: int64 per row, or None)."""
        decide = coef is not None
        c = np.asarray(coef if decide else [], dtype=np.int64)
        largest = int(np.abs(offset).max(initial=0)) if offset is not None else 0
        # the sum fits in 64 bits unless |coef| x largest count x columns + |base| + |offset| does not
        wide = (
            coef is not None
            and max(map(abs, coef)) * (1 << 8 * self.width) * self.ncols + abs(base) + largest >= _INT64
        )
        sums = _engine.play(
            self.data,
            self.rows,
            self.ncols,
            self.width,
            weight,
            c,
            base,
            wide,
            calls.view(np.uint8),
            decide,
            check_threads(threads),
            None if offset is None else np.ascontiguousarray(offset, dtype=np.int64),
        )
        return sums.astype(np.int64)

    def linear(self, coef: Sequence[int], threads: int | None = None) -> np.ndarray:
        """``coef . counts`` of every row, exact (int64); raises OverflowError when the
        coefficients could take a row beyond 64 bits."""
        if max(map(abs, coef), default=0) * (1 << 8 * self.width) * self.ncols >= _INT64:
            raise OverflowError("linear: coefficients too large for exact 64-bit sums")
        return _engine.linear(
            self.data, self.rows, self.ncols, self.width, np.asarray(coef, dtype=np.int64), check_threads(threads)
        )

    def margins(self, coef: Sequence[float], base: float, threads: int | None = None) -> np.ndarray:
        return _engine.margins(
            self.data,
            self.rows,
            self.ncols,
            self.width,
            np.asarray(coef, dtype=np.float64),
            float(base),
            check_threads(threads),
        )

    def group_sums(self, weight: np.ndarray, groups: np.ndarray, n: int, threads: int | None = None) -> np.ndarray:
        sums = _engine.group_sums(
            self.data,
            self.rows,
            self.ncols,
            self.width,
            weight,
            np.ascontiguousarray(groups, dtype=np.int32),
            n,
            check_threads(threads),
        )
        return sums.astype(np.int64)


def counts_of(pay: Packed, rest: Packed, rows: ArrayLike) -> np.ndarray:
    """The 40 counts (COLUMNS order, int64) of the given rows of a game's two packed
    matrices (:data:`PAY_SOURCES`, :data:`REST_SOURCES`)."""
    rows = np.asarray(rows, dtype=np.int64)
    out = np.zeros((len(rows), len(COLUMNS)), dtype=np.int64)
    for packed, sources in ((pay, PAY_SOURCES), (rest, REST_SOURCES)):
        unpacked = packed.unpack(rows)
        for j, cols in enumerate(sources):
            if len(cols) == 1:
                out[:, cols[0]] = unpacked[:, j]
    return out


def count_width(rules: Rules) -> int:
    """Bytes per packed count: 3 when no state has 2**24 completions (every game here)."""
    return 3 if rules.completions < 1 << 24 else 4


def small_weights(weight: np.ndarray) -> np.ndarray:
    """Weights as uint8: a state stands for at most 24 suit relabellings of itself."""
    if len(weight) and (int(weight.min()) < 0 or int(weight.max()) > 255):
        raise ValueError("state weights must be 0..255")
    return np.ascontiguousarray(weight, dtype=np.uint8)
