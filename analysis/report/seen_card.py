"""The game protection section of a multi-street game's par sheet: what one flashed dealer
card is worth to a player who decides every street knowing it (and one flop card besides),
what gives him away, and by the rank of the card; read from an earlier ``protect`` run (nothing is counted here), and
where there is none, the command that counts it."""

from __future__ import annotations

import pandas as pd

from analysis.model.game import GameSpec
from analysis.protection.seen_card import SeenCardFigures, seen_card_fits
from analysis.report.document import Block, Command, Paragraph, Plot, Subsection, Table
from analysis.report.street_tables import STREET_WORDS
from analysis.report.wording import percent


def seen_card_sheets(f: SeenCardFigures) -> dict[str, pd.DataFrame]:
    """The section's tables: the edge against the information (the columns of the
    one-decision games' table, so one plot draws both), by the rank seen, the decisions and
    the pre-flop decisions that differ from the optimal player's."""
    base = f.base.house_edge
    rows = [
        ("none (optimal play)", "exact", base),
        ("1 dealer card seen (optimal play knowing it)", "exact", f.house_edge),
    ]
    if f.flop_card is not None:
        rows.append(("1 dealer card and 1 flop card seen before the first decision", "exact", f.flop_card.house_edge))
    if f.runout_card is not None:
        rows.append(("1 dealer card and 1 turn or river card seen before it", "exact", f.runout_card.house_edge))
    information = pd.DataFrame(
        {
            "information": [r[0] for r in rows],
            "method": [r[1] for r in rows],
            "house_edge": [float(r[2]) for r in rows],
            "ci95_low": [float(r[2]) for r in rows],
            "ci95_high": [float(r[2]) for r in rows],
            "house_edge_exact": [str(r[2]) for r in rows],
        }
    )
    by_rank = pd.DataFrame(
        {
            "card_seen": list(f.by_rank),
            "player's result per hand (antes)": [float(v) for v in f.by_rank.values()],
            "house_edge": [float(-v) for v in f.by_rank.values()],
            "house_edge_exact": [str(-v) for v in f.by_rank.values()],
        }
    )
    rates = f.decision_rates()
    rates["street"] = [STREET_WORDS[s] for s in rates["street"]]
    tells = pd.DataFrame(
        {
            "before the flop, the player who saw the card": list(f.preflop_changes()),
            "share of deals": [float(v) for v in f.preflop_changes().values()],
        }
    )
    return {
        "Game protection": information,
        "Protection by card seen": by_rank,
        "Protection decisions": rates.rename(
            columns={
                "street": "decision point",
                "with the card": "share of deals, with the card",
                "without it": "share of deals, without it",
            }
        ),
        "Protection tells": tells,
    }


def seen_card_blocks(game: GameSpec, f: SeenCardFigures | None, sheets: dict[str, pd.DataFrame]) -> tuple[Block, ...]:
    """The section's text, plot and tables, or what is missing and why."""
    if f is None:
        if not seen_card_fits(game):
            return (
                Paragraph(
                    f"A flashed dealer card is counted for games of two hole cards and the best five of seven whose "
                    f"bets do not add up; {game.title} is not yet one of them.",
                    note=True,
                ),
            )
        return (
            Paragraph(
                "Not counted yet. This command counts every deal with one dealer card seen, with a flop card seen "
                "too and with a turn or river card seen too (about six minutes for Ultimate Texas Hold'em on two "
                "cores), and keeps the result; the par sheet includes it once it is there:",
                note=True,
            ),
            Command(f"casino-omaha protect --game {game.name} --exposed 1 --runout-card"),
        )
    he, base = f.house_edge, f.base.house_edge
    changes = f.preflop_changes()
    return (
        Paragraph(
            f"A player who sees one of the dealer's two cards before he acts, and decides every street knowing it, "
            f"plays at a house edge of {percent(he)} of the ante (exactly {he}) against {percent(base)} without the "
            f"card: the card is worth {percent(base - he)} of the ante to him. Every deal is counted exactly, once per "
            f"dealer card ({f.deals:,} deals). Before the flop he bets where the optimal player checks on "
            f"{percent(changes['bets where the optimal player checks'])} of deals and checks where the optimal "
            f"player bets on {percent(changes['checks where he bets'])}: the pattern surveillance can see."
            + (
                f" A dealer who also flashes the flop's bottom card before the player acts gives away more: "
                f"with one flop card seen too the house edge is {percent(f.flop_card.house_edge)} (exactly "
                f"{f.flop_card.house_edge}), from the same count."
                if f.flop_card is not None
                else ""
            )
            + (
                f" With the turn or the river card seen instead, the flop decided knowing it too: "
                f"{percent(f.runout_card.house_edge)} (exactly {f.runout_card.house_edge})."
                if f.runout_card is not None
                else ""
            )
        ),
        Plot("protection", "What one dealer card seen is worth"),
        Table(sheets["Game protection"].drop(columns=["ci95_low", "ci95_high"])),
        Subsection("By the rank of the card seen", (Table(sheets["Protection by card seen"]),)),
        Subsection(
            "How he plays",
            (Table(sheets["Protection decisions"]), Table(sheets["Protection tells"])),
        ),
        Paragraph(
            f"Read from the kept result store {f.store.name if f.store else '(this process)'} (checksum "
            f"{f.checksum or 'none'}).",
            note=True,
        ),
    )
