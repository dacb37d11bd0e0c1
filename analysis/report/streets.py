"""The par sheet of a game with several decision points (a game file's ``[betting]`` with
pre-flop, flop and river decisions: Ultimate Texas Hold'em, Casino Omaha with Ultimate
betting, a designer's own file), from the street engine's exact figures.

Everything is in words: the rules as numbered sentences drawn from the game file, the
summary figures with each percentage's exact fraction beside it, the return table, how often
each option is taken at each decision point, the pre-flop strategy (for two hole cards a
grid of pairs, suited and offsuit hands), plots, and what produced the sheet (package
version, the game file and its SHA-256, the result store's checksum). The tables are
:mod:`analysis.report.street_tables`; this module makes the report (sheets, plots and the
document of its page and PDF), written through :mod:`analysis.report.render` as the
single-decision report's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from analysis.engine.streets import StreetFigures, has_written_strategy, solve_streets
from analysis.hands import written_turn
from analysis.model.cards import format_cards
from analysis.model.errors import InputError
from analysis.model.game import GameSpec, load_game, shipped_games
from analysis.parallel.options import RunOptions
from analysis.protection.seen_card import SeenCardFigures, stored_seen_card
from analysis.report.document import (
    NUMBERS_NOTE,
    Block,
    Command,
    Document,
    Image,
    Items,
    Paragraph,
    Plot,
    Section,
    Subsection,
    Table,
    figures_sha256,
    image,
)
from analysis.report.examples import signed_antes
from analysis.report.plots import plot_protection
from analysis.report.regulation import game_rules_of_play
from analysis.report.render import Written, document_html, write_report
from analysis.report.sections import (
    ODDS_NOTE,
    PAY_LINE_COLUMNS,
    confidence_blocks,
    edge_notice,
    maximum_payout_section,
    per_wager_section,
    regulation_blocks,
    side_bet_blocks,
)
from analysis.report.seen_card import seen_card_blocks, seen_card_sheets
from analysis.report.sidebet_plots import plot_side_bet
from analysis.report.sidebets import street_side_bet_tables
from analysis.report.street_examples import StreetExample, street_examples, street_examples_table
from analysis.report.street_plots import (
    plot_bet_share_grid,
    plot_decision_rates,
    plot_preflop_grid,
    plot_result_distribution,
)
from analysis.report.street_tables import (
    STREET_WORDS,
    bet_share_grid,
    street_maximum_payout,
    street_sheets,
    written_cost_table,
    written_rules_table,
)
from analysis.report.turn_examples import turn_examples
from analysis.report.wording import percent
from analysis.sidebets.result import SideBetResult


@dataclass
class StreetReport:
    """The par sheet of one multi-street game: its tables (one sheet each), plots (PNG)
    and the exact figures they come from."""

    game: GameSpec
    figures: StreetFigures
    game_file: Path | None
    sheets: dict[str, pd.DataFrame] = field(default_factory=dict)
    images: dict[str, Image] = field(default_factory=dict)
    examples: tuple[StreetExample, ...] = ()
    side_bets: list[SideBetResult] = field(default_factory=list)
    #: the figures of the written strategy, when the game has one (the document only)
    written: StreetFigures | None = None
    #: one dealer card seen, when an earlier ``protect`` run kept it
    protection: SeenCardFigures | None = None

    @property
    def stem(self) -> str:
        """The files' name: the game's and the strategy's, safe in any folder (a what-if
        game's name ends with ``*``, written ``_``)."""
        return re.sub(r"[^\w.+-]+", "_", f"{self.game.name}-optimal-par-sheet")

    def write(self, out_dir: str | Path) -> Written:
        """Write ``<stem>.xlsx``, ``<stem>.html`` and ``<stem>.pdf`` (with its ``.sha256``) into ``out_dir``."""
        self._whole()
        return write_report(street_document(self), self.sheets, out_dir, self.stem)

    def html(self) -> str:
        """The par sheet as one self-contained page (plots embedded as PNG)."""
        self._whole()
        return document_html(street_document(self))

    def _whole(self) -> None:
        if not self.images:
            raise InputError(f"{self.game.title}: this report was built without its document (document=False)")


def build_street_report(
    game: GameSpec | str | Path,
    options: RunOptions | None = None,
    figures: StreetFigures | None = None,
    game_file: str | Path | None = None,
    document: bool = True,
) -> StreetReport:
    """The par sheet of ``game`` (a :class:`GameSpec`, a shipped game's name or a game file),
    solved exactly (read back from its result store when solved before) unless ``figures``
    are given. ``game_file``: the file the game was read from, for its SHA-256 (found from
    the game when it is a shipped game or a file that exists). ``document=False``: the
    sheets only, without the worked examples and plots that only the document shows (what
    the command line prints as text, JSON or CSV)."""
    if isinstance(game, (str, Path)):
        spec = load_game(game)
        game_file = game_file if game_file is not None else _file_of(game)
    elif isinstance(game, GameSpec):
        spec = game
    else:
        raise InputError(f"game: a GameSpec, a shipped game's name or a .toml file, not {type(game).__name__}")
    if figures is None:
        figures = solve_streets(spec, options)
    elif figures.game != spec:
        raise InputError(f"the figures given are those of {figures.game.name}, not of {spec.name}")
    path = Path(game_file) if game_file is not None else _source_file(spec)
    report = StreetReport(spec, figures, path)
    if document:
        report.examples = turn_examples(figures) if spec.adds else tuple(street_examples(figures))
        if has_written_strategy(spec):
            report.written = solve_streets(spec, options, written=True)
    sheets = street_sheets(spec, figures, path)
    if report.written is not None:
        sheets["Strategy in words"] = written_rules_table(spec)
        sheets["Written rules' cost"] = written_cost_table(figures, report.written)
    report.protection = stored_seen_card(spec, figures, options)
    if report.protection is not None:
        sheets |= seen_card_sheets(report.protection)
    metadata = sheets.pop("Metadata")  # stays the last sheet
    summary, lines, report.side_bets = street_side_bet_tables(figures)
    bets = {"Side bets": summary, "Side bet lines": lines} if report.side_bets else {}
    examples = {"Worked examples": street_examples_table(report.examples)} if report.examples else {}
    report.sheets = sheets | examples | bets | {"Metadata": metadata}
    if document:
        report.images = street_plots(report)
    return report


def _file_of(spec: str | Path) -> Path | None:
    """The game file behind a name or path, as :func:`load_game` finds it: a file that
    exists, else a shipped game's name."""
    path = Path(spec)
    if path.is_file():
        return path
    return shipped_games().get(str(spec))


def _source_file(game: GameSpec) -> Path | None:
    """The file a game was read from, by its ``source``: a shipped file's name, else a path."""
    by_name = {p.name: p for p in shipped_games().values()}
    if game.source in by_name:
        return by_name[game.source]
    path = Path(game.source)
    return path if path.suffix == ".toml" and path.is_file() else None


# ---- plots and page --------------------------------------------------------------------


def street_plots(report: StreetReport) -> dict[str, Image]:
    """Every plot of the par sheet (PNG and SVG), keyed by name."""
    game, s = report.game, report.sheets
    title = game.title
    options = {STREET_WORDS[st]: [str(o) for o in opts] for st, opts in game.streets.items()}
    plots = {
        "decisions": image(plot_decision_rates(s["Decisions"], options, f"{title}: how often each option is taken")),
        "distribution": image(plot_result_distribution(s["Result distribution"], f"{title}: the net result of a hand")),
    }
    if "Pre-flop grid" in s:
        plots["preflop"] = image(
            plot_preflop_grid(
                s["Pre-flop grid"],
                [str(o) for o in game.preflop],
                f"{title}: the optimal decision before the flop\n(pairs on the diagonal, suited above, offsuit below)",
            )
        )
    elif game.preflop:
        plots["preflop"] = image(
            plot_bet_share_grid(bet_share_grid(report.figures), f"{title}: share of hands that bet before the flop")
        )
    if "Game protection" in s:
        plots["protection"] = image(plot_protection(s["Game protection"], s["Protection by card seen"]))
    return plots | {f"side-bet-{i}": image(plot_side_bet(b)) for i, b in enumerate(report.side_bets)}


def street_figures_digest(f: StreetFigures) -> str:
    """SHA-256 of the exact figures: every outcome's deals and exact net result."""
    rows = [f"{tuple(o[:4])},{o.deals},{o.net}" for o in f.outcomes()]
    return figures_sha256([f.game.name, *rows, f"house edge,{f.house_edge}", f"variance,{f.variance}"])


def _examples(report: StreetReport) -> tuple[Block, ...]:
    """Each way the betting ends and each settlement on a real deal, played by the optimal
    strategy and settled by the package's settlement code."""
    blocks: list[Block] = [
        Paragraph(
            "Real deals, one for each way the betting ends and each way a hand is settled, found in dealt hands, "
            "each played by the optimal strategy (before the flop as its class of hole cards is played, at the flop "
            f"and the {'turn' if report.game.adds else 'river'} by the exact expected results of the deal's own "
            "cards, ante and blind included) and settled by the package's settlement code; results in antes "
            "(ante = 1).",
            note=True,
        )
    ]
    for x in report.examples:
        board = f"{format_cards(x.board[:3])} (flop), {format_cards(x.board[3:])} (turn and river)"
        opens = "opens" if x.dealer_qualifies else "does not open"
        lines = (
            f"Player's cards: {format_cards(x.hole)}",
            f"Board: {board}",
            f"Dealer's cards: {format_cards(x.dealer)}",
            *(d.words for d in x.decisions),
            f"Player's hand: {x.player_hand}",
            f"Dealer's hand: {x.dealer_hand} (the dealer {opens})",
            f"Settlement: {x.settlement}",
            f"Ante {signed_antes(x.ante)}"
            + (f", blind {signed_antes(x.blind)}" if report.game.blind is not None else "")
            + f", {'bets' if report.game.adds else 'play bet'} {signed_antes(x.play)}; net {signed_antes(x.net)}.",
        )
        blocks.append(Subsection(x.case, (Items(lines, numbered=False),)))
    return tuple(blocks)


def _method(report: StreetReport) -> tuple[Block, ...]:
    """How every figure was computed, how it is checked, and the commands that reproduce it."""
    game, f = report.game, report.figures
    name = report.game_file.name if report.game_file is not None else f"{game.name}.toml"
    spec = game.name if game.source in {p.name for p in shipped_games().values()} else name
    streets = " and ".join(STREET_WORDS[s] for s in game.streets)
    return (
        Paragraph(
            f"Every deal of the game is counted: all {f.total:,} combinations of the player's cards, the board and "
            "the dealer's cards, board first (flops grouped by the symmetry of suits, each weighted by the number "
            "of real flops it stands for). The optimal strategy is found by backward induction over exact integer "
            f"counts: the decision {streets} is the option with the greatest expected result, counted over every "
            "deal that can follow it (the river board by board, the flop over every turn and river, before the "
            "flop over every flop for each class of hole cards), an exact tie going to the option that risks less. "
            "Every figure is an exact fraction of those counts; nothing is rounded before it is displayed."
        ),
        Paragraph(
            "Independent checks, run by the package's test suite: the same engine on small decks agrees on every "
            "count and every decision with a brute force that plays the whole game tree deal by deal; a Monte "
            "Carlo simulation with its own dealer, hand evaluator and settlement agrees within four standard "
            "errors; Ultimate Texas Hold'em gives its published house edge, 2.1850% of the ante; and Casino "
            "Hold'em, solved by this engine as a game of one decision, equals the one-decision engine exactly.",
        ),
        Subsection(
            "Commands that reproduce every figure",
            (
                Paragraph("With the package installed (pip install, or make setup in its source):", note=True),
                Command(
                    f"casino-omaha report --game {spec} --out reports\n"
                    f"casino-omaha solve --game {spec} --format json\n"
                    f"casino-omaha simulate --game {spec} --hands 1000000"
                ),
            ),
        ),
    )


def street_document(report: StreetReport) -> Document:
    """The par sheet as a document (the page and the PDF)."""
    f, s, game = report.figures, report.sheets, report.game
    he, eor = f.house_edge, f.element_of_risk
    meta = dict(zip(s["Metadata"]["item"], s["Metadata"]["value"]))
    summary = (
        Paragraph(
            f"House edge {percent(he)} of the ante (exactly {he}), element of risk {percent(eor)} (exactly {eor}), "
            f"standard deviation {f.standard_deviation:.4f} antes per hand, hit frequency {percent(f.hit_frequency)} "
            f"(exactly {f.hit_frequency}), over {f.total:,} deals counted exactly, the player playing the optimal "
            "strategy."
        ),
        NUMBERS_NOTE,
        Table(s["Summary"].drop(columns="value")),  # "shown" says it in words
    )
    brief = Subsection("The game in brief", (Items(tuple(s["Rules"]["text"])),))
    rules = (*regulation_blocks(game_rules_of_play(game)), brief)
    strategy: tuple[Block, ...]
    if not game.preflop:
        strategy = (Paragraph("This game has no decision before the flop.", note=True),)
    elif "Pre-flop grid" in s:
        strategy = (
            Plot("preflop", "The pre-flop strategy grid"),
            Paragraph(
                "Pairs on the diagonal, suited hands above it, offsuit hands below; rows and columns are the ranks, "
                "highest first.",
                note=True,
            ),
            Table(s["Pre-flop grid"]),
            Subsection("By class of hole cards", (Table(s["Pre-flop strategy"]),)),
        )
    else:
        strategy = (
            Plot("preflop", "Share of hands that bet before the flop"),
            Paragraph(
                "Expected results in antes per hand, ante and blind included; suits are interchangeable, so each "
                "class stands for all its holdings.",
                note=True,
            ),
            Table(s["Pre-flop strategy"]),
        )
    if report.written is not None:
        w = report.written.house_edge
        strategy = (
            *strategy,
            Subsection(
                "The strategy in words",
                (
                    Table(s["Strategy in words"]),
                    Paragraph(
                        f"Played by these rules, every deal counted exactly, the house edge is {percent(w)} of the "
                        f"ante (exactly {w}), against {percent(he)} with optimal play: the rules cost the player "
                        f"{percent(w - he)} of the ante (exactly {w - he}). "
                        + (
                            f"The rules after the flop are {written_turn.SOURCE}; a hand counts only when a hole "
                            "card makes it (it beats the board's own cards by more than a kicker), and four cards "
                            "in a row or of a suit only when a hole card is among them."
                            if report.game.adds
                            else "A hidden hand beats the board's own cards by more than a kicker: a pair that uses "
                            "a hole card, or two pair, trips, a straight or a flush that a hole card makes or "
                            "improves."
                        )
                    ),
                    Table(s["Written rules' cost"]),
                ),
            ),
        )
    sections = (
        Section("summary", "Summary", (*edge_notice(he), *summary)),
        Section("rules", "Rules of play", rules),
        *((Section("examples", "Worked examples", _examples(report)),) if report.examples else ()),
        Section("return-table", "Return table", (Table(s["Return table"]),)),
        Section(
            "odds",
            "Odds per wager and pay line",
            (
                ODDS_NOTE,
                *(
                    (Table(s["Odds per pay line"][["wager", *PAY_LINE_COLUMNS]]),)
                    if len(s["Odds per pay line"])
                    else ()
                ),
                per_wager_section(s["Odds per wager"]),
                maximum_payout_section(street_maximum_payout(f), f.total),
            ),
        ),
        Section("confidence", "The house's result after N hands", confidence_blocks(s["Confidence ranges"])),
        Section(
            "distribution",
            "The net result of a hand",
            (Plot("distribution", "The net result of a hand"), Table(s["Result distribution"])),
        ),
        Section(
            "decisions",
            "Decisions at each street",
            (Plot("decisions", "How often each option is taken"), Table(s["Decisions"])),
        ),
        Section("strategy", "Strategy" if report.written is not None else "Pre-flop strategy", strategy),
        Section(
            "side-bets",
            "Side bets",
            side_bet_blocks(
                s,
                len(report.side_bets),
                "A bet lost on a fold is played with the game's optimal strategy; the others do not depend on it.",
            ),
        ),
        Section("protection", "Game protection", seen_card_blocks(game, report.protection, s)),
        Section("method", "Method and verification", _method(report)),
        Section("metadata", "Run metadata", (Table(s["Metadata"]),)),
    )
    facts = (
        ("Game", game.title),
        ("Game file", meta["game file"]),
        ("Game file SHA-256", meta["game file SHA-256"]),
        ("Changed from the game file", meta["changed from the game file"]),
        ("Strategy", f"optimal at every decision (house edge {percent(he)})"),
        ("Package version", meta["package version"]),
        ("Date (UTC)", meta["generated (UTC)"]),
        ("Result store checksum (SHA-256)", meta["result store checksum (SHA-256)"]),
        ("Figures SHA-256", street_figures_digest(f)),
    )
    return Document(
        f"{game.title}: par sheet",
        "Optimal strategy at every decision: every deal counted exactly",
        facts,
        sections,
        report.images,
    )
