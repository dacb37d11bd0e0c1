"""Odds per wager and pay line of a game's return, and the largest payout of one hand: what
a regulator reads beside the rules (probability, true odds against, payout odds, "1 in N",
and what each line and wager adds to the return).

Exact values are kept as Fractions to the last step and given as text beside each float
(``"..._exact"`` columns), as in :func:`analysis.report.tables.return_table`. The two wagers
are settled by the one settlement (:mod:`analysis.model.settlement`); their expected nets
per hand add up to the game's, exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import pandas as pd

from analysis.engine.result import GameResult, Outcome
from analysis.engine.wagers import WagerFigures, wager_figures
from analysis.model.categories import CATEGORIES
from analysis.model.payoffs import BY_CATEGORY, RowKey, outcome_payoffs, row_keys
from analysis.model.settlement import Settlement
from analysis.report.regulation import odds_words
from analysis.report.wording import category_words

#: What the expected net of each wager is per: the ante and the blind are made on every
#: hand, the play bet ({play}) only on the hands that make it.
WAGER_DEFINITIONS = {
    "ante": "per ante: every hand places one ante",
    "blind": "per blind: every hand places one blind, equal to the ante",
    "play": "per unit of {play} bet actually made: the {play} bet's net over the hands that make it, divided by "
    "the antes it puts up",
    "ante_bonus": "per ante of the hands that play: it is paid on the player's hand whenever he plays, whatever "
    "the dealer holds, and puts up no stake of its own",
}
#: (dealer qualifies, sign of the player's hand) of each return-table outcome a hand is shown down in.
ROW_RESULTS = {
    "dealer_not_qualifying": (False, 1),
    "player_wins": (True, 1),
    "tie": (True, 0),
    "dealer_wins": (True, -1),
}


@dataclass(frozen=True)
class MaximumPayout:
    """The largest net win of one hand, in antes (ante and call bet together)."""

    outcome: str  # in words: "a royal flush beats the dealer's qualifying hand"
    net: Fraction  # antes
    combinations: int  # deals that pay it
    probability: Fraction
    one_in: float  # 1 / probability


def _combinations(result: GameResult) -> dict[RowKey, int]:
    t = result.table
    return {(o, c): int(n) for o, c, n in zip(t.outcome, t.category, t.combinations)}


def wager_nets(result: GameResult) -> dict[str, dict[RowKey, Fraction]]:
    """Net result of the ante and of the call bet, in antes, on every return-table row, as
    the one settlement (:mod:`analysis.model.settlement`) settles them (a fold makes no call)."""
    settlement, m = result.settlement, result.rules.call_multiple
    ante: dict[RowKey, Fraction] = {}
    call: dict[RowKey, Fraction] = {}
    for key in row_keys():
        outcome, category = key
        if outcome == "fold":
            ante[key], call[key] = settlement.fold, Fraction(0)
            continue
        qualifies, sign = ROW_RESULTS[outcome]
        nets = settlement.wager_nets(category or CATEGORIES[0], qualifies, sign, m)
        ante[key], call[key] = nets["ante"], nets["play"]
    return {"ante": ante, "call": call}


def _payoffs(result: GameResult) -> dict[RowKey, Fraction]:
    return outcome_payoffs(result.paytable, result.rules, result.pays_on)


def _paying_rows(result: GameResult) -> tuple[str, ...]:
    """The outcomes on which the pay table pays its wager: the ante also when the dealer
    does not qualify, the call bet only when the player beats the dealer."""
    if result.pays_on == "ante":
        return ("dealer_not_qualifying", "player_wins")
    return ("player_wins",)


def line_odds(category: str, n: int, total: int, pays: Fraction, contribution: Fraction) -> dict[str, object]:
    """One pay line's row: it pays on ``n`` of ``total`` deals at ``pays`` to 1, adding
    ``contribution`` antes per hand to its wager's return."""
    p = Fraction(n, total)
    against = Fraction(total - n, n) if n else None
    return {
        "category": category,
        "hand": category_words(category),
        "combinations": n,
        "probability": float(p),
        "probability_exact": str(p),
        "one_in": float(1 / p) if n else float("inf"),
        "true_odds": float(against) if against is not None else float("inf"),
        "true_odds_exact": str(against) if against is not None else "",
        "true_odds_text": f"{float(against):,.2f} to 1" if against is not None else "never",
        "pays": float(pays),
        "pays_exact": str(pays),
        "payout_odds": odds_words(pays),
        "contribution": float(contribution),
        "contribution_exact": str(contribution),
    }


def pay_line_odds(result: GameResult) -> pd.DataFrame:
    """Per pay line (each category the pay table pays on, best first): the deals where it
    pays, their probability, "1 in N", true odds against, payout odds, and the line's
    contribution to its wager's return in antes per hand (ante 1). A line paid on several
    outcomes (the ante: the dealer does not qualify, or the player wins) counts them all."""
    combos, total = _combinations(result), result.exact.deals
    rows_paying = _paying_rows(result)
    nets = wager_nets(result)["ante" if result.pays_on == "ante" else "call"]
    rows = []
    for c in reversed(CATEGORIES):
        pays = result.paytable.pays[c]
        if pays == 0:
            continue
        by_outcome = {o: combos[(o, c)] if o in rows_paying else 0 for o in ("dealer_not_qualifying", "player_wins")}
        n = sum(by_outcome.values())
        contribution = Fraction(sum(combos[(o, c)] * nets[(o, c)] for o in rows_paying), total)
        row = line_odds(c, n, total, pays, contribution)
        row["combinations_dealer_not_qualifying"] = by_outcome["dealer_not_qualifying"]
        row["combinations_player_wins"] = by_outcome["player_wins"]
        rows.append(row)
    return pd.DataFrame(rows)


def wager_odds(outcomes: Sequence[Outcome], settlement: Settlement, play: str = "call") -> pd.DataFrame:
    """Per wager (ante, blind, and the play bet, named ``play``: the call of a one-decision
    game) of any game's outcomes (:mod:`analysis.engine.wagers`): see :func:`odds_table`."""
    return odds_table(
        wager_figures(outcomes, settlement),
        {
            w: (play if w == "play" else w.replace("_", " "), d.format(play=play))  # "ante bonus"
            for w, d in WAGER_DEFINITIONS.items()
        },
    )


def odds_table(wagers: Sequence[WagerFigures], words: Mapping[str, tuple[str, str]]) -> pd.DataFrame:
    """Per wager, its name and definition (``words[wager]``): how often it is made, the
    chance it wins, pushes or loses when made, its expected net per unit of it made, the
    return to player and house edge of that, and its expected net per hand in units (they
    add up to the game's: -house edge)."""
    rows = []
    for w in wagers:
        name, definition = words[w.wager]
        per_unit = -w.house_edge
        row: dict[str, object] = {"wager": name, "definition": definition}
        figures = {
            "made": Fraction(w.made, w.total),
            "win_probability": w.share("wins"),
            "push_probability": w.share("pushes"),
            "lose_probability": w.share("loses"),
            "expected_net": per_unit,
            "return_to_player": 1 + per_unit,
            "house_edge": -per_unit,
            "expected_net_per_ante": w.expected,
        }
        for key, value in figures.items():
            row |= {key: float(value), f"{key}_exact": str(value)}
        rows.append(row)
    return pd.DataFrame(rows)


#: The outcomes that the player's hand does not name, in words.
OUTCOME_WORDS = {
    "fold": "the player folds",
    "tie": "the player's hand ties the dealer's",
    "dealer_wins": "the dealer's hand beats the player's",
}


def _outcome_words(outcome: str, categories: list[str], qualifier: bool) -> str:
    if outcome not in BY_CATEGORY:
        return OUTCOME_WORDS[outcome]
    hands = [category_words(c) for c in categories]
    listed = hands[0] if len(hands) == 1 else f"{', '.join(hands[:-1])} or {hands[-1]}"
    if outcome == "dealer_not_qualifying":
        return f"the player's {listed} when the dealer's hand does not qualify"
    return f"the player's {listed} beats the dealer's {'qualifying ' if qualifier else ''}hand"


def maximum_payout(result: GameResult) -> MaximumPayout:
    """The largest net win of one hand in antes over the rows that occur, the outcome in
    words, and how often it happens (all rows that pay it together)."""
    combos, total = _combinations(result), result.exact.deals
    payoff = {k: v for k, v in _payoffs(result).items() if combos[k]}
    best = max(payoff.values())
    rows = [k for k, v in payoff.items() if v == best]
    outcomes = dict.fromkeys(o for o, _ in rows)
    qualifier = result.rules.qualifier_rank is not None
    words = "; or ".join(_outcome_words(o, [c for r, c in rows if r == o], qualifier) for o in outcomes)
    n = sum(combos[k] for k in rows)
    return MaximumPayout(words, best, n, Fraction(n, total), total / n)
