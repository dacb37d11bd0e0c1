"""Every wager on its own (ante, blind, play): how often it wins, pushes and loses, what
each pay line contributes, and its own house edge, for any game, from the outcomes of its
result (:class:`~analysis.engine.result.Outcome`, the same for both engines) and the one
settlement (:mod:`analysis.model.settlement`), exactly.

The wagers' expected results add up to the game's: the per-wager house edges are a split
of the one figure, not a second computation of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from analysis.engine.result import Outcome
from analysis.model.categories import CATEGORIES
from analysis.model.settlement import Settlement

#: (dealer qualifies, sign of the player's hand against the dealer's) of each dealer result
#: the engines count; a one-decision game's "noqual" settles alike for every sign.
DEALER_RESULTS = {
    "noqual": (False, 1),
    "noqual_win": (False, 1),
    "noqual_tie": (False, 0),
    "noqual_loss": (False, -1),
    "win": (True, 1),
    "tie": (True, 0),
    "loss": (True, -1),
}


@dataclass(frozen=True)
class WagerLine:
    """The deals in which one wager ended one way: ``result`` is ``"wins"``, ``"pushes"``,
    ``"loses"`` or ``"not made"`` (a play bet never put up); ``final_hand`` is the player's
    category where the wager's pay depends on it (else empty); ``net`` the wager's net
    result in antes (a play bet of several antes nets several)."""

    wager: str
    result: str
    final_hand: str
    net: Fraction
    stake: int
    deals: int


@dataclass(frozen=True)
class WagerFigures:
    """One wager over every deal: its lines, the deals it was made in, and exact figures."""

    wager: str
    lines: tuple[WagerLine, ...]
    total: int  # every deal of the game

    @property
    def made(self) -> int:
        return sum(line.deals for line in self.lines if line.result != "not made")

    def share(self, result: str) -> Fraction:
        """The share of the deals in which the wager was made that ended ``result`` (0 for a
        wager never made)."""
        n = sum(line.deals for line in self.lines if line.result == result)
        return Fraction(n, self.made) if self.made else Fraction(0)

    @property
    def expected(self) -> Fraction:
        """The player's expected net result on this wager per hand, in antes."""
        return sum((line.net * line.deals for line in self.lines), Fraction(0)) / self.total

    @property
    def average_stake(self) -> Fraction:
        """Antes put on this wager per hand (0 where it is not made)."""
        return Fraction(sum(line.stake * line.deals for line in self.lines), self.total)

    @property
    def house_edge(self) -> Fraction:
        """The house's expected win per ante put on this wager (0 for one never made)."""
        return -self.expected / self.average_stake if self.average_stake else Fraction(0)


def wager_figures(outcomes: Sequence[Outcome], settlement: Settlement) -> list[WagerFigures]:
    """Each of the settlement's wagers over the outcomes of a result (folds included)."""
    tally: dict[tuple[str, str, str, Fraction, int], int] = {}
    for o in outcomes:
        if o.ended == "fold":
            nets = settlement.fold_nets
        else:
            qualifies, sign = DEALER_RESULTS[o.dealer]
            category = o.final_hand or CATEGORIES[0]  # a row over every hand: its wagers settle alike for each
            nets = settlement.wager_nets(category, qualifies, sign, o.play_bet)
        for wager in settlement.wagers:
            stake = o.play_bet if wager == "play" else 1  # the ante bonus: per ante of a hand that plays
            if wager not in nets or stake == 0:  # a fold, or a check to the showdown, puts up no play bet
                key = (wager, "not made", "", Fraction(0), 0)
            else:
                net = nets[wager]
                result = "wins" if net > 0 else "loses" if net < 0 else "pushes"
                by_hand = result == "wins" and _pays_by_hand(settlement, wager)
                key = (wager, result, o.final_hand if by_hand else "", net, stake)
            tally[key] = tally.get(key, 0) + o.deals
    return wagers_of(tally, settlement.wagers, sum(o.deals for o in outcomes))


def wagers_of(
    tally: dict[tuple[str, str, str, Fraction, int], int], wagers: Sequence[str], total: int
) -> list[WagerFigures]:
    """Each wager's figures from its lines tallied by (wager, result, final hand, net,
    stake): wins first, the larger net first, then pushes, losses and deals not made."""
    order = {"wins": 0, "pushes": 1, "loses": 2, "not made": 3}
    lines = sorted(
        (WagerLine(w, r, h, net, stake, n) for (w, r, h, net, stake), n in tally.items()),
        key=lambda line: (order[line.result], -line.net, line.stake),
    )
    return [WagerFigures(w, tuple(line for line in lines if line.wager == w), total) for w in wagers]


def _pays_by_hand(settlement: Settlement, wager: str) -> bool:
    """Whether a win of the wager pays by the player's final hand (a pay table)."""
    pays = {"ante": settlement.ante, "play": settlement.play, "blind": settlement.blind}
    return pays.get(wager, settlement.ante_bonus) is not None
