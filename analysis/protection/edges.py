"""Game protection: what a flashed dealer card is worth to the player, exactly, and the
pattern of play that gives him away; and the table of the player's edge against every kind
of information (exact where it can be, sampled with a 95% interval otherwise).

Everything here is numbers from the exposure run's group sums (:mod:`analysis.protection.exposure`):
the optimal player's return table and exact figures, the same by the rank of the card
seen, how often he plays against the base game's optimal strategy (the pattern
surveillance looks for), and the simple advantage-play strategy
(:mod:`analysis.protection.advantage`) with its exact edge.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from analysis.engine.result import GameResult, game_result
from analysis.hands.classes import HAND_CLASSES
from analysis.model.cards import RANKS
from analysis.model.outcomes import COLUMNS
from analysis.model.payoffs import margin_coefficients, row_keys, row_of
from analysis.model.paytable import PayTable
from analysis.model.rules import Rules
from analysis.protection.advantage import AdvantageStrategy, GroupAxes, derive_advantage_strategy, group_axes
from analysis.protection.exposure import RELATIONS, ExposedGame, ExposureSums
from analysis.protection.sampling import SampleEstimate


@dataclass
class ExposureResult:
    """One dealer card seen: the optimal player's exact return, and what gives him away."""

    rules: Rules
    result: GameResult  # the optimal player's return table and exact figures
    base_house_edge: Fraction  # the base game's, recovered from the same sums
    by_rank: pd.DataFrame  # per rank of the card seen
    by_relation: pd.DataFrame  # per relation of the card seen to the player's cards
    pattern: pd.DataFrame  # per hand class: call rates, and calls the basic player folds
    advantage: AdvantageStrategy  # the simple advantage-play strategy, exact

    def summary(self) -> dict[str, object]:
        """The figures for display and JSON (the keys of ``protect --exposed 1``)."""
        e = self.result.exact
        return {
            "game": self.rules.name,
            "exposed": 1,
            "paytable": self.result.paytable.name,
            "pays_on": self.result.pays_on,
            "house_edge": float(e.house_edge),
            "house_edge_exact": str(e.house_edge),
            "element_of_risk": float(e.element_of_risk),
            "call_rate": float(e.call_rate),
            "deals": e.deals,
            "base_house_edge": float(self.base_house_edge),
            "by_rank": self.by_rank.to_dict(orient="records"),
            "advantage_strategy": self.advantage.summary(),
        }


def exposure_result(rules: Rules, paytable: PayTable, pays_on: str, sums: ExposureSums) -> ExposureResult:
    """The figures of a complete exposure run (its sums over every flop class)."""
    game = ExposedGame(rules)
    _, scale, _ = margin_coefficients(paytable, rules, pays_on, game.completions)
    total = int(sums.states.sum())
    if total != game.states:
        raise AssertionError(f"the exposure run counts {total} states, expected {game.states}")
    called = int(sums.states[..., 1].sum())
    combos = dict.fromkeys(row_keys(), 0)
    combos[("fold", "")] = (total - called) * game.completions
    for column, n in zip(COLUMNS, sums.called):
        combos[row_of(column)] += int(n)
    result = game_result(rules, paytable, "optimal with one dealer card seen", pays_on, combos, np.empty(0, bool), game)
    # pass 1 (margins) and pass 2 (counts) of the kernel must tell the same story
    ev = Fraction(int(sums.margins[..., 1].sum()) - total * scale, total * scale)
    if ev != result.exact.ev:
        raise AssertionError(f"the exposure run's margins give EV {ev}, its counts {result.exact.ev}")
    base = -Fraction(int(sums.margins[:, 1].sum()) - total * scale, total * scale)
    axes = group_axes(sums)
    return ExposureResult(
        rules,
        result,
        base,
        _breakdown(axes, scale, "rank_seen", [f"{r}" for r in RANKS], axes.rank),
        _breakdown(axes, scale, "seen_card", list(RELATIONS), axes.relation),
        _pattern(axes),
        derive_advantage_strategy(axes, scale, rules.call_multiple),
    )


def _breakdown(axes: GroupAxes, scale: int, name: str, labels: list[str], key: np.ndarray) -> pd.DataFrame:
    """House edge, call rate and play against the base strategy, per value of ``key``."""
    rows = []
    total = int(axes.states.sum())
    for i, label in enumerate(labels):
        pick = key == i
        states = int(axes.states[pick].sum())
        if not states:
            continue
        edge = -Fraction(int(axes.margins[pick & axes.call].sum()) - states * scale, states * scale)
        rows.append(
            {
                name: label,
                "share": states / total,
                "house_edge": float(edge),
                "call_rate": _rate(axes, pick, axes.call),
                "calls_basic_folds": _rate(axes, pick, axes.call & ~axes.basic),
                "folds_basic_calls": _rate(axes, pick, ~axes.call & axes.basic),
                "house_edge_exact": str(edge),
            }
        )
    return pd.DataFrame(rows)


def _rate(axes: GroupAxes, pick: np.ndarray, mask: np.ndarray) -> float:
    """Share of the picked states (weighted) that are in ``mask``."""
    states = int(axes.states[pick].sum())
    return int(axes.states[pick & mask].sum()) / states if states else float("nan")


def _pattern(axes: GroupAxes) -> pd.DataFrame:
    """Per hand class: how the player who saw a card plays against the base game's optimal
    player; calls where the basic player folds are what surveillance sees."""
    total, rows = int(axes.states.sum()), []
    for c, hand in enumerate(HAND_CLASSES):
        pick = axes.hand_class == c
        rows.append(
            {
                "hand": hand,
                "share": int(axes.states[pick].sum()) / total,
                "basic_call_rate": _rate(axes, pick, axes.basic),
                "call_rate_seeing_a_card": _rate(axes, pick, axes.call),
                "calls_basic_folds": _rate(axes, pick, axes.call & ~axes.basic),
                "folds_basic_calls": _rate(axes, pick, ~axes.call & axes.basic),
            }
        )
    return pd.DataFrame(rows)


#: The information that protection runs compute, in words, and the option of ``protect``
#: that computes each (a report shows the words and lists the commands apart).
PROTECTION_RUNS = {
    "1 dealer card seen": "--exposed 1",
    "2 dealer cards seen": "--exposed 2",
    "the turn seen early": "--turn",
    "colluding seats": "--colluders K",
}

#: What ``information_table`` says when a kind of information was not computed.
NOT_COMPUTED = "not computed yet: a protection run computes it, then the report again"


def missing_information(exposure: ExposureResult | None, sampled: list[SampleEstimate]) -> list[str]:
    """The kinds of information (keys of :data:`PROTECTION_RUNS`) no run has computed."""
    done = {e.information.kind for e in sampled}
    have = (exposure is not None, "exposed" in done, "turn" in done, "colluders" in done)
    return [words for words, ok in zip(PROTECTION_RUNS, have) if not ok]


def information_table(base: GameResult, exposure: ExposureResult | None, sampled: list[SampleEstimate]) -> pd.DataFrame:
    """The player's edge against the information he has: the base game and one card seen
    exactly (and the simple advantage strategy), the rest sampled (estimate, standard
    error, 95% interval); a row says what has not been computed."""

    def exact(information: str, he: Fraction, call_rate: Fraction, states: int) -> dict[str, object]:
        return {
            "information": information,
            "method": "exact",
            "house_edge": float(he),
            "std_error": 0.0,
            "ci95_low": float(he),
            "ci95_high": float(he),
            "call_rate": float(call_rate),
            "states": states,
            "house_edge_exact": str(he),
        }

    rows = [exact("none (optimal basic strategy)", base.exact.house_edge, base.exact.call_rate, base.rules.states)]
    if exposure is not None:
        a, seen, states = exposure.advantage, exposure.result.exact, ExposedGame(exposure.rules).states
        rows.append(exact("1 dealer card seen (optimal)", seen.house_edge, seen.call_rate, states))
        rows.append(exact("1 dealer card seen (simple advantage strategy)", a.house_edge, a.call_rate, states))
    for e in sampled:
        low, high = e.interval() or (float("nan"), float("nan"))
        rows.append(
            {
                "information": e.information.describe(),
                "method": f"sampled: {e.method}" + (f"; {e.too_few}" if e.too_few else ""),
                "house_edge": float(e.house_edge),
                "std_error": e.std_error,
                "ci95_low": low,
                "ci95_high": high,
                "call_rate": e.call_rate,
                "states": e.samples,
                "house_edge_exact": "",
            }
        )
    missing = missing_information(exposure, sampled)
    if missing:
        rows.append({"information": ", ".join(missing), "method": NOT_COMPUTED, "states": "", "house_edge_exact": ""})
    return pd.DataFrame(rows).astype({"states": object})


def seen_card_table(exposure: ExposureResult) -> pd.DataFrame:
    """One dealer card seen: the optimal player's edge and play by the card's rank, then by
    what it pairs."""
    by_rank = exposure.by_rank.rename(columns={"rank_seen": "card_seen"})
    by_relation = exposure.by_relation.rename(columns={"seen_card": "card_seen"})
    return pd.concat([by_rank, by_relation], ignore_index=True)
