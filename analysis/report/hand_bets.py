"""The bets on the player's hand alone in a par sheet (Pair Plus, Aces Up, Let It Ride's
3-Card Bonus): their rule in regulation form and their odds line by line, for a game without
a board and a game without a dealer alike."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import pandas as pd

from analysis.engine.hand_bets import HandBetFigures
from analysis.model.no_board import HandBet
from analysis.report.document import Section, Table
from analysis.report.regulation import RuleSection, odds_words
from analysis.report.wording import category_words, percent

#: How three-card hands rank, which a reader of five-card poker would not guess.
THREE_CARD_ORDER = " (a straight beats a flush; ace-two-three is the lowest straight)"


def hand_bet_rules(bet: HandBet, categories: tuple[str, ...], on: str) -> RuleSection:
    """The bet's rule: what it is a bet ``on`` and its pays, best first."""
    lines = bet.lines(categories)
    split = {x.category for x in lines if x.name != x.category}
    return RuleSection(
        bet.title,
        (f"{bet.title} is a bet on {on}. It is paid at these odds; any other hand loses:",),
        tuple((f"Any other {x.words().lower()}" if x.name in split else x.words(), odds_words(x.net)) for x in lines),
    )


def hand_bet_table(bets: Mapping[str, HandBetFigures]) -> pd.DataFrame:
    """Each bet line by line: hands, probability, pays, contribution; then its house edge."""
    rows = []
    for b in bets.values():
        total = sum(b.hands.values())
        lines = {x.name: x for x in b.bet.lines(b.categories)}
        split = {x.category for x in lines.values() if x.name != x.category}
        for c, n in b.hands.items():
            pays = Fraction(b.bet.pays.get(c, -1))
            p = Fraction(n, total)
            words = lines[c].words().lower() if c in lines else category_words(c)
            rows.append(
                {
                    "bet": b.bet.title,
                    "player's hand": f"any other {words}" if c in split else words,
                    "hands": n,
                    "probability": percent(p),
                    "probability (exact)": str(p),
                    "pays": str(pays) if pays >= 0 else "loses",
                    "contribution": str(p * pays),
                }
            )
        edge = b.exact.house_edge
        rows.append(
            {
                "bet": b.bet.title,
                "player's hand": "house edge",
                "probability": percent(edge),
                "contribution": str(-edge),
            }
        )
    return pd.DataFrame(rows, dtype=object).fillna("")


def hand_bet_sections(sheets: Mapping[str, pd.DataFrame], title: str) -> list[Section]:
    """The par sheet's section of the bets on the hand (its workbook sheet), when the game has them."""
    if "Bets on the hand" not in sheets:
        return []
    return [Section("hand-bets", title, (Table(sheets["Bets on the hand"]),))]
