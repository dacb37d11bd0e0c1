"""The par sheet of a game without a board as a workbook, a page and a PDF: the sheets
(:mod:`analysis.report.no_board`'s tables, the return table, odds per wager, the side bets
that ship for the game, metadata) and the document made of them.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from analysis.engine.no_board import NoBoardFigures
from analysis.parallel.options import RunOptions
from analysis.report.document import NUMBERS_NOTE, Document, Paragraph, Plot, Section, Table, figures_sha256, image
from analysis.report.hand_bets import hand_bet_sections, hand_bet_table
from analysis.report.no_board import (
    PUBLISHED,
    examples_rows,
    rules_of_play,
    strategy_by_category,
    strategy_table,
    strategy_words,
    summary_table,
    written_rules,
    written_rules_table,
)
from analysis.report.no_board_protection import protection_blocks, protection_table
from analysis.report.odds import wager_odds
from analysis.report.render import Written, write_report
from analysis.report.sections import (
    confidence_blocks,
    edge_notice,
    file_facts,
    file_metadata,
    per_wager_section,
    regulation_blocks,
    side_bet_blocks,
)
from analysis.report.sidebet_plots import plot_side_bet
from analysis.report.sidebets import street_side_bet_tables
from analysis.report.street_plots import plot_result_distribution
from analysis.report.street_tables import result_distribution
from analysis.report.tables import clauses_table, confidence_table, return_table
from analysis.report.wording import percent


def no_board_sheets(
    f: NoBoardFigures, game_file: Path | None, options: RunOptions | None = None
) -> dict[str, pd.DataFrame]:
    """The workbook's sheets."""
    table = return_table(f.outcomes(), play="play")
    table["betting ended"] = table["betting ended"].replace("bet before the flop", "played")  # no flop to name
    protection = protection_table(f, options)
    bets = f.hand_bets()
    return {
        "Summary": summary_table(f),
        "Rules": clauses_table(rules_of_play(f)),
        "Strategy": strategy_table(f),
        "Examples": examples_rows(f),
        "Return table": table,
        "Result distribution": result_distribution(f),
        "Confidence ranges": confidence_table(f),
        "Odds per wager": wager_odds(f.outcomes(), f.settlement, play="play"),
        **({"Bets on the hand": hand_bet_table(bets)} if bets else {}),
        **side_bet_sheets(f),
        **({"Written strategies": written_rules_table(f)} if written_rules(f) else {}),
        **({"Game protection": protection} if len(protection) else {}),
        "Metadata": file_metadata(
            f.game.title, game_file, "optimal hand by hand (an exact tie folds)", no_board_digest(f)
        ),
    }


def side_bet_sheets(f: NoBoardFigures) -> dict[str, pd.DataFrame]:
    """The side bets that ship for the game (a progressive at its seed): a summary row and
    the lines of each; none when none ships."""
    summary, lines, results = street_side_bet_tables(f)
    return {"Side bets": summary, "Side bet lines": lines} if results else {}


def no_board_digest(f: NoBoardFigures) -> str:
    """SHA-256 of the exact figures: every outcome's deals and exact net result."""
    rows = [f"{k},{n},{f.value(k)}" for k, n in sorted(f.counts.items())]
    return figures_sha256([f.game.name, *rows, f"house edge,{f.exact.house_edge}", f"variance,{f.exact.variance}"])


def strategy_blocks(f: NoBoardFigures, sheets: dict[str, pd.DataFrame]) -> tuple[Paragraph | Table, ...]:
    """The strategy section: every class of hands when they are few (Three Card Poker's
    1,755), else the share played by category, and the written strategies priced exactly."""
    words = strategy_words(f)
    lead = Paragraph(
        f"{words[0].upper()}{words[1:]}. Expected results in antes per hand; suits are interchangeable, so each "
        "class of hands stands for all the hands of its class."
    )
    blocks: tuple[Paragraph | Table, ...] = (lead, Table(sheets["Strategy"]))
    if len(f.strategy) > 5_000:  # too many rows for a page: the workbook has them
        blocks = (
            lead,
            Paragraph(
                f"The workbook's Strategy sheet gives the decision of each of the {len(f.strategy):,} classes of "
                "hands; by the player's hand, the share of deals played:"
            ),
            Table(strategy_by_category(f)),
        )
    if "Written strategies" in sheets:
        blocks += (
            Paragraph(
                "Strategies a player can carry, each priced exactly against every deal (net over every deal, house "
                "edge, element of risk) and its cost against optimal play:"
            ),
            Table(sheets["Written strategies"]),
        )
    return blocks


def no_board_document(f: NoBoardFigures, sheets: dict[str, pd.DataFrame]) -> Document:
    """The par sheet as a document (the page and the PDF)."""
    e, game = f.exact, f.game
    nb = game.no_board
    assert nb is not None
    summary = (
        Paragraph(
            f"House edge {percent(e.house_edge)} of the ante (exactly {e.house_edge}), element of risk "
            f"{percent(e.element_of_risk)} (exactly {e.element_of_risk}), standard deviation "
            f"{e.standard_deviation:.4f} antes per hand, over {e.deals:,} deals counted exactly, the player "
            f"playing the optimal strategy: {strategy_words(f)}."
        ),
        NUMBERS_NOTE,
        Table(sheets["Summary"]),
    )
    method = (
        Paragraph(
            f"Every deal is counted: each of the player's hands (grouped by the symmetry of suits, each class "
            f"weighted by the hands it stands for){' with each card the dealer may show' if nb.up else ''} against "
            f"every dealer hand of the other cards, {e.deals:,} deals. For each state the dealer hands below, equal "
            "to and above the player's, qualifying or not, are counted by inclusion and exclusion over the player's "
            "cards. Each state's decision is the option with the greatest exact expected result, an exact tie going "
            "to the option that risks less. Every figure is an exact fraction of those counts; nothing is rounded "
            "before it is displayed."
        ),
        Paragraph(
            "Independent checks, run by the package's test suite: the hand ranking against the closed-form count "
            "of every category and a ranking written independently; every count on small decks against every deal "
            "played one by one; every deal of a small deck, and sampled deals of the full deck, settled "
            "by settlement code written apart from the package's"
            + (f"; {PUBLISHED[game.name]}." if game.name in PUBLISHED else ".")
        ),
    )
    sections = (
        Section("summary", "Summary", (*edge_notice(e.house_edge), *summary)),
        Section("rules", "Rules of play", regulation_blocks(rules_of_play(f))),
        Section("strategy", "Strategy", strategy_blocks(f, sheets)),
        Section(
            "examples",
            "Worked examples",
            (
                Paragraph(
                    "Real deals, the first of each kind among seeded random deals, each played as the strategy of "
                    "this sheet plays it: the exact expected result of each option in the state the player saw, the "
                    "option taken, and how each wager settles."
                ),
                Table(sheets["Examples"]),
            ),
        ),
        Section("return-table", "Return table", (Table(sheets["Return table"]),)),
        Section(
            "distribution",
            "The net result of a hand",
            (Plot("distribution", "The net result of a hand"), Table(sheets["Result distribution"])),
        ),
        Section("confidence", "The house's result after N hands", confidence_blocks(sheets["Confidence ranges"])),
        Section("odds", "Odds per wager", (per_wager_section(sheets["Odds per wager"]),)),
        *hand_bet_sections(sheets, "Bets on the player's hand"),
        *(
            [
                Section(
                    "side-bets",
                    "Side bets",
                    side_bet_blocks(
                        sheets,
                        len(sheets["Side bets"]),
                        "Each is settled on the player's hand; one lost on a fold is played with the game's optimal "
                        "strategy, and a progressive at its seed, with the meter at which it breaks even.",
                    ),
                )
            ]
            if "Side bets" in sheets
            else []
        ),
        Section("protection", "Game protection", protection_blocks(f, sheets)),
        Section("method", "Method and verification", method),
        Section("metadata", "Run metadata", (Table(sheets["Metadata"]),)),
    )
    facts = file_facts(game.title, sheets["Metadata"], f"optimal hand by hand (house edge {percent(e.house_edge)})")
    images = {
        "distribution": image(
            plot_result_distribution(sheets["Result distribution"], f"{game.title}: the net result of a hand")
        )
    }
    if "Side bets" in sheets:  # the same bets as the sheet's, priced again (milliseconds) for their plots
        images |= {f"side-bet-{i}": image(plot_side_bet(r)) for i, r in enumerate(street_side_bet_tables(f)[2])}
    return Document(f"{game.title}: par sheet", "Optimal strategy: every deal counted exactly", facts, sections, images)


def write_no_board_report(
    f: NoBoardFigures, game_file: Path | None, out_dir: str | Path, options: RunOptions | None = None
) -> Written:
    """``<name>-optimal-par-sheet`` as a workbook, a page and a PDF in ``out_dir``;
    ``options``: where an earlier ``protect`` run kept a hole card's count."""
    sheets = no_board_sheets(f, game_file, options)
    return write_report(no_board_document(f, sheets), sheets, out_dir, f"{f.game.name}-optimal-par-sheet")
