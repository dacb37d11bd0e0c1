"""The game protection section of the par sheet of a game without a board: what a dealer
who flashes her cards gives away. A game whose dealer shows none is solved here with one
and two of her cards seen (seconds); where she shows one, the hole card beside it is a
count of minutes, read from an earlier ``protect --exposed 1`` run, and where there is
none the sheet names the command."""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from analysis.engine.no_board import NoBoardFigures
from analysis.model.game import shipped_games
from analysis.parallel.options import RunOptions
from analysis.protection.hole_card import HoleCardExposure, stored_hole_card
from analysis.protection.no_board import BoardlessExposure, exposure_no_board
from analysis.report.document import Paragraph, Table
from analysis.report.wording import percent


def protection_table(f: NoBoardFigures, options: RunOptions | None = None) -> pd.DataFrame:
    """The game as dealt, then with the dealer's cards seen before the decision, each
    solved exactly: the house edge, how often the player plays, and what gives him away.
    Where the dealer shows a card, its hole card beside it if a ``protect`` run kept it
    (in the ``options``' results folder; else empty)."""
    nb = f.game.no_board
    if nb is None:
        return pd.DataFrame()
    e = f.exact
    rows = [("nothing (the game as dealt)", e.house_edge, e.call_rate, Fraction(0), Fraction(0))]
    seen: list[tuple[str, BoardlessExposure | HoleCardExposure]]
    if nb.up:
        hole = stored_hole_card(f.game, f, options)
        if hole is None:
            return pd.DataFrame()
        seen = [("one hole card beside the up card", hole)]
    else:
        seen = [
            (f"{('one', 'two')[n - 1]} of the dealer's cards", exposure_no_board(f.game, n, f))
            for n in range(1, min(2, nb.dealer_cards - 1) + 1)
        ]
    for what, x in seen:
        rows.append((what, x.house_edge, x.call_rate, x.plays_folded, x.folds_played))
    return pd.DataFrame(
        [
            {
                "the player saw": what,
                "house edge": percent(edge),
                "house edge (exact)": str(edge),
                "hands played": percent(played),
                "plays a hand the optimal player folds (share of deals)": percent(folded),
                "folds a hand the optimal player plays (share of deals)": percent(kept),
            }
            for what, edge, played, folded, kept in rows
        ]
    )


def protection_blocks(f: NoBoardFigures, sheets: dict[str, pd.DataFrame]) -> tuple[Paragraph | Table, ...]:
    """The protection section: the table of what the player saw, or the command that
    counts the hole card beside the up card."""
    up = f.game.no_board is not None and f.game.no_board.up
    if "Game protection" in sheets:
        how = (
            "the hole card counted exactly by an earlier run of protect with one card exposed, every state decided "
            "knowing both cards"
            if up
            else "the game solved exactly with the cards seen before the decision"
        )
        return (
            Paragraph(
                f"What a dealer who flashes her cards gives away: {how}, and the pattern of play that shows a "
                "player who sees them:"
            ),
            Table(sheets["Game protection"]),
        )
    game = f.game.name if f.game.name in shipped_games() else "GAME-FILE"
    return (
        Paragraph(
            "A hole card seen beside the dealer's up card makes a game of its own, 145 million states for five-card "
            f"hands, counted exactly in minutes by casino-omaha protect --game {game} --exposed 1; this sheet shows "
            "its figures once that command has kept them."
        ),
    )
