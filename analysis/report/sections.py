"""The blocks both par sheets share (the one-decision game's and the multi-street game's):
odds per pay line and per wager, the largest payout of a hand, the house's result after N
hands, and the notice a game whose house edge is negative carries on its first page.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path

import pandas as pd

from analysis.report.document import Block, Items, Paragraph, Plot, Subsection, Table
from analysis.report.odds import MaximumPayout
from analysis.report.regulation import RuleSection
from analysis.report.wording import Kind, cell_text, machine_rows, percent, side_by_side, signed_antes
from analysis.store.shards import package_version


def regulation_blocks(sections: Sequence[RuleSection]) -> tuple[Block, ...]:
    """The rules in numbered regulation form, each pay table worded as a regulation words it."""
    blocks: list[Block] = []
    for section in sections:
        lines = pd.DataFrame(list(section.table), columns=["hand", "pays no less than"])
        blocks.append(Subsection(section.heading, (Items(section.clauses), *((Table(lines),) if len(lines) else ()))))
    return tuple(blocks)


def edge_notice(house_edge: Fraction) -> tuple[Block, ...]:
    """A negative house edge said first: the game as it stands pays the player."""
    if house_edge >= 0:
        return ()
    return (
        Paragraph(
            f"This game cannot be offered as it stands: the house edge is negative. A player who plays the strategy "
            f"of this sheet wins {percent(-house_edge)} of the ante per hand on average (exactly {-house_edge}); "
            "lower a pay or change a rule, then compute the sheet again."
        ),
    )


def maximum_payout_section(m: MaximumPayout, total: int) -> Subsection:
    """The largest net win of one hand, its outcome, probability and "1 in N"."""
    return Subsection(
        "Maximum payout per hand",
        (
            Paragraph(
                f"The largest net win of one hand is {signed_antes(m.net).lstrip('+')} ({m.outcome}): probability "
                f"{float(m.probability):.6%} (exactly {m.probability}), 1 in {m.one_in:,.0f}, in "
                f"{m.combinations:,} of {total:,} deals."
            ),
        ),
    )


#: What "true odds" and "payout odds" mean, above every odds table.
ODDS_NOTE = Paragraph(
    "True odds are the odds against the event, (1 - p) to p, written X to 1; payout odds are what the pay "
    "table pays. Probabilities are over every deal, the player playing the report's strategy.",
    note=True,
)


#: The pay-line columns a reader needs (the workbook has them all, with exact true odds).
PAY_LINE_COLUMNS = [
    "hand",
    "combinations",
    "probability",
    "probability_exact",
    "one_in",
    "true_odds_text",
    "payout_odds",
    "contribution",
]

#: The per-wager figures, one row each, in words.
WAGER_FIGURES: dict[str, tuple[str, Kind]] = {
    "made": ("How often the wager is placed", "percent"),
    "win_probability": ("Wins, when placed", "percent"),
    "push_probability": ("Pushes, when placed", "percent"),
    "lose_probability": ("Loses, when placed", "percent"),
    "return_to_player": ("Return to player", "percent"),
    "house_edge": ("House edge", "percent"),
    "house_edge_exact": ("House edge (exact)", "text"),
    "expected_net_per_ante": ("Expected net per hand (antes)", "number"),
}


def per_wager(odds: pd.DataFrame) -> pd.DataFrame:
    """The wagers side by side, one figure per row."""
    rows = []
    for key, (words, kind) in WAGER_FIGURES.items():
        rows.append({"figure": words} | {w: cell_text(v, kind) for w, v in zip(odds["wager"], odds[key])})
    return pd.DataFrame(rows)


def per_wager_section(odds: pd.DataFrame) -> Subsection:
    """Each wager's figures side by side, then what each is per."""
    return Subsection(
        "Per wager",
        (
            Table(per_wager(odds)),
            Items(tuple(f"{w.capitalize()}: {d}." for w, d in zip(odds.wager, odds.definition)), numbered=False),
        ),
    )


def confidence_blocks(ranges: pd.DataFrame) -> tuple[Block, ...]:
    """The house's result after N hands: how it is computed, then the table."""
    return (Paragraph("Normal approximation; results in antes (ante = 1).", note=True), Table(ranges))


def side_bet_blocks(sheets: Mapping[str, pd.DataFrame], bets: int, how: str) -> tuple[Block, ...]:
    """The side bets' section: the bets side by side, each one's plot and its lines (``how``:
    how the main game is played with them)."""
    if not bets:
        return (Paragraph("No side bets in this report.", note=True),)
    return (
        Paragraph(
            'Per unit of side stake; "combined" is the main game and a side stake of one ante together, per hand in '
            f"antes. {how}",
            note=True,
        ),
        Table(side_by_side(sheets["Side bets"], "bet")),
        *(Plot(f"side-bet-{i}", sheets["Side bets"]["bet"].iloc[i]) for i in range(bets)),
        Table(sheets["Side bet lines"]),
    )


def file_metadata(title: str, game_file: Path | None, strategy: str, digest: str) -> pd.DataFrame:
    """The metadata sheet of a par sheet solved from a game file: the package, the date, the
    file and its SHA-256, the strategy, the method, the figures' SHA-256 and the machine."""
    rows = [
        ("package version", package_version()),
        ("generated (UTC)", dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")),
        ("game", title),
        ("game file", game_file.name if game_file is not None else "none (built in memory)"),
        ("game file SHA-256", file_sha256(game_file) if game_file is not None else "not read from a file"),
        ("strategy", strategy),
        ("method", "every deal counted exactly; no sampling, no rounding before display"),
        ("figures SHA-256", digest),
        *machine_rows(),
    ]
    return pd.DataFrame(rows, columns=["item", "value"]).astype({"value": str})


def file_facts(title: str, metadata: pd.DataFrame, strategy: str) -> tuple[tuple[str, str], ...]:
    """The facts on a par sheet's first page, from its metadata sheet."""
    meta = dict(zip(metadata["item"], metadata["value"]))
    return (
        ("Game", title),
        ("Game file", meta["game file"]),
        ("Game file SHA-256", meta["game file SHA-256"]),
        ("Strategy", strategy),
        ("Package version", meta["package version"]),
        ("Date (UTC)", meta["generated (UTC)"]),
        ("Figures SHA-256", meta["figures SHA-256"]),
    )


def file_sha256(path: Path) -> str:
    """SHA-256 of a file's bytes (a game file, as the sheet names it)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()
