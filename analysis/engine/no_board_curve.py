"""The exact curve of a game without a board's optimal house edge in one pay, every
breakpoint of it, from the counts made once.

A pay enters each state's option values linearly (the play bet's pay on the player's
category, the ante bonus when he plays): value = v + pay * s, exact integers for the
pays 0 and 1 over one denominator. Each state's best option is the upper envelope of its
few lines, so the optimal return is piecewise linear and convex in the pay, and the house
edge concave; it turns only where some state's envelope does. Those events, sorted, give
the edge at every breakpoint, and the exact pay of a target edge on the piece it falls in,
without solving the game again.

>>> from analysis.engine.no_board import no_board_counts, solve_no_board
>>> from analysis.model.game import load_game
>>> from dataclasses import replace
>>> game = load_game("three-card-poker")
>>> nb = game.no_board
>>> def bonus(pay):
...     return replace(game, no_board=replace(nb, ante_bonus=dict(nb.ante_bonus) | {"straight": pay}))
>>> curve = NoBoardCurve(bonus(0), bonus(1), no_board_counts(game))
>>> curve.house_edge(Fraction(3)) == solve_no_board(bonus(3)).exact.house_edge
True
"""

from __future__ import annotations

from bisect import bisect_right
from fractions import Fraction
from itertools import accumulate

import numpy as np

from analysis.counting.no_board import NoBoardCounts
from analysis.engine.no_board import option_values
from analysis.hands.rankings import RANKINGS
from analysis.model.errors import InputError
from analysis.model.game import GameSpec


class NoBoardCurve:
    """The optimal house edge of ``at_zero``'s game as one pay runs from 0 up: ``at_zero``
    and ``at_one`` are the game with that pay 0 and 1 (every other pay alike), ``counted``
    its counts."""

    def __init__(self, at_zero: GameSpec, at_one: GameSpec, counted: NoBoardCounts) -> None:
        nb = at_zero.no_board
        if nb is None:
            raise InputError(f"{at_zero.title}: an exact pay curve here is of a game without a board")
        category = RANKINGS[nb.ranking].category(counted.value)
        v0, d0 = option_values(at_zero, counted.counts, category)
        v1, d1 = option_values(at_one, counted.counts, category)
        if d0 != d1:
            raise InputError(f"{at_zero.title}: the pays at 0 and 1 are over different denominators")
        slope = v1 - v0
        self.scale = counted.dealer_hands * d0 * int(counted.weight.sum())  # house edge = -sum / scale
        risk = np.argsort([o.risk for o in at_zero.preflop], kind="stable")  # an exact tie: the option risking less
        v0, slope = v0[:, risk], slope[:, risk]
        moves = (slope != slope[:, :1]).any(axis=1)  # states whose best option may change with the pay
        w, still = counted.weight, ~moves
        best = np.argmax(v0[still], axis=1)
        rows = np.arange(int(still.sum()))
        self.base = _dot(w[still], v0[still][rows, best])
        self.base_slope = _dot(w[still], slope[still][rows, best])
        self._events(v0[moves], slope[moves], counted.weight[moves])

    def _events(self, v: np.ndarray, s: np.ndarray, w: np.ndarray) -> None:
        """Each moving state's envelope walked from pay 0: where its best option changes
        (an exact pay), and the change of the sums' value and slope there."""
        if len(v) and int(abs(v).max() + 1) * int(abs(s).max() + 1) >= 2**60:  # cross products beyond int64
            v, s = v.astype(object), s.astype(object)
        n, k = v.shape
        idx = np.arange(n)
        active = np.argmax(v, axis=1)  # the best at pay 0, the first of equals: the option risking less
        self.base += _dot(w, v[idx, active])
        self.base_slope += _dot(w, s[idx, active])
        nums: list[np.ndarray] = []
        dens: list[np.ndarray] = []
        dv: list[np.ndarray] = []
        ds: list[np.ndarray] = []
        alive = np.ones(n, dtype=bool)
        for _ in range(k - 1):  # an envelope of k lines turns at most k - 1 times
            va, sa = v[idx, active], s[idx, active]
            # the next turn: the line crossing first after the current pay (it is past it:
            # the active line is the best there), of equal crossings the steepest
            best = np.full(n, -1)
            bnum, bden = np.zeros(n, dtype=v.dtype), np.ones(n, dtype=v.dtype)
            for j in range(k):
                rise = s[:, j] - sa
                num = va - v[:, j]
                ok = alive & (rise > 0)
                left, right = num * bden, bnum * np.where(ok, rise, 1)
                better = ok & ((best < 0) | (left < right) | ((left == right) & (s[:, j] > s[idx, best])))
                best = np.where(better, j, best)
                bnum, bden = np.where(better, num, bnum), np.where(better, rise, bden)
            alive &= best >= 0
            at = np.nonzero(alive)[0]
            if not len(at):
                break
            to = best[at]
            nums.append(bnum[at])
            dens.append(bden[at])
            dv.append(w[at].astype(object) * (v[at, to] - v[at, active[at]]).astype(object))
            ds.append(w[at].astype(object) * (s[at, to] - s[at, active[at]]).astype(object))
            active[at] = to
        # the events of one pay merged: each distinct pay once, in order, with its changes summed
        num = np.concatenate([*nums, np.zeros(0, dtype=v.dtype)])
        den = np.concatenate([*dens, np.ones(0, dtype=v.dtype)])
        if num.dtype != object:  # in lowest terms, so that equal pays are equal pairs
            g = np.gcd(num, den)
            num, den = num // g, den // g
        pairs, inverse = np.unique(np.stack([num, den], axis=1), axis=0, return_inverse=True)
        change_v, change_s = np.zeros(len(pairs), dtype=object), np.zeros(len(pairs), dtype=object)
        np.add.at(change_v, inverse.ravel(), np.concatenate([*dv, np.zeros(0, dtype=object)]))
        np.add.at(change_s, inverse.ravel(), np.concatenate([*ds, np.zeros(0, dtype=object)]))
        merged: dict[Fraction, list[int]] = {}
        for (a, b), x, y in zip(pairs.tolist(), change_v.tolist(), change_s.tolist()):
            sums = merged.setdefault(Fraction(int(a), int(b)), [0, 0])  # object pairs may still share a pay
            sums[0] += int(x)
            sums[1] += int(y)
        self.event_pay = sorted(merged)
        # the sums' value at pay 0 and slope on each piece: after the first k events, the k-th
        self._pieces = list(
            accumulate(
                (merged[p] for p in self.event_pay),
                lambda at, d: (at[0] + d[0], at[1] + d[1]),
                initial=(self.base, self.base_slope),
            )
        )

    def __len__(self) -> int:
        """The breakpoints of the curve (pays where some state's best option changes)."""
        return len(self.event_pay)

    def _sums(self, pay: Fraction) -> tuple[int, int]:
        """The optimal sum's value at pay 0 and slope of the piece that holds ``pay`` (the
        events at ``pay`` itself taken: the curve is continuous there)."""
        return self._pieces[bisect_right(self.event_pay, pay)]

    def house_edge(self, pay: Fraction | int) -> Fraction:
        """The optimal house edge (per ante) with the pay at ``pay``, exactly."""
        pay = Fraction(pay)
        if pay < 0:
            raise InputError(f"a pay is 0 or more, not {pay}")
        value, slope = self._sums(pay)
        return -(value + slope * pay) / self.scale

    def breakpoints(self, low: Fraction, high: Fraction) -> list[tuple[Fraction, Fraction]]:
        """(pay, house edge) at ``low``, at every breakpoint between and at ``high``, exactly:
        the curve is the straight line between consecutive points."""
        inner = sorted({p for p in self.event_pay if low < p < high})
        return [(p, self.house_edge(p)) for p in [Fraction(low), *inner, Fraction(high)]]

    def pay_for(self, target: Fraction, low: Fraction, high: Fraction) -> Fraction | None:
        """The least pay in [``low``, ``high``] whose optimal house edge is ``target``,
        exactly (the edge falls as the pay rises), or None when it is out of that range."""
        points = self.breakpoints(low, high)
        for (a, ea), (b, eb) in zip(points, points[1:]):
            if ea >= target >= eb:
                if ea == eb:
                    return a
                return a + (ea - target) * (b - a) / (ea - eb)
        return None


def _dot(w: np.ndarray, x: np.ndarray) -> int:
    """The exact sum of ``w * x``: in int64 when it cannot overflow, else in Python ints."""
    if not len(w):
        return 0
    if int(abs(w).max()) * int(abs(x).max()) * len(w) < 2**62:
        return int(np.dot(w.astype(np.int64), x.astype(np.int64)))
    return int(np.dot(w.astype(object), x.astype(object)))
