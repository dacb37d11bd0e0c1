"""The full report of a game, pay table and strategy (a "par sheet" for a regulator or test
lab): every table and plot, assembled from the return engine's exact figures.

The numbers are :mod:`analysis.report.tables` (with the rules in regulation form, worked
examples and odds of :mod:`~analysis.report.regulation`, :mod:`~analysis.report.examples`
and :mod:`~analysis.report.odds`), the plots :mod:`analysis.report.plots`, the document
:mod:`analysis.report.parsheet`, the files :mod:`analysis.report.render`; this module puts
them together.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from analysis.engine.result import GameResult
from analysis.engine.return_engine import ReturnEngine, StateSource
from analysis.hands.classes import HAND_CLASSES, class_notes
from analysis.model.errors import InputError
from analysis.model.game import game_title
from analysis.model.paytable import PayTableSpec
from analysis.model.rules import Rules
from analysis.protection.edges import information_table, seen_card_table
from analysis.protection.runs import StoredProtection, stored_protection
from analysis.report.appendix import Verification, kept_verification
from analysis.report.document import Document, Image, image
from analysis.report.examples import WorkedExample, worked_examples
from analysis.report.odds import MaximumPayout, maximum_payout, pay_line_odds, wager_odds
from analysis.report.parsheet import parsheet
from analysis.report.plots import (
    plot_call_rates,
    plot_confidence,
    plot_contributions,
    plot_final_hands,
    plot_margin,
    plot_outcome_distribution,
    plot_protection,
)
from analysis.report.regulation import RuleSection, rules_of_play
from analysis.report.render import Written, write_report
from analysis.report.sidebet_plots import plot_side_bet
from analysis.report.sidebets import side_bet_tables
from analysis.report.tables import (
    clauses_table,
    confidence_table,
    examples_table,
    figures_digest,
    final_hands_table,
    paytable_digest,
    paytable_table,
    return_table,
    rules_table,
    summary_table,
)
from analysis.report.wording import label, machine_rows, paytable_name, paytable_origin
from analysis.sidebets.bet import SideBetSpec
from analysis.sidebets.result import SideBetResult
from analysis.store.outcome_store import ENGINE_VERSION, OutcomeStore
from analysis.store.shards import package_version
from analysis.strategy.by_hand import COMPARED, StrategyAnalysis, analyse_strategy, call_rates

#: Strategies a report can be made for.
REPORT_STRATEGIES = COMPARED


@dataclass
class Report:
    """The tables (one sheet each), the plots and the figures of one report, and what its
    document shows beside them (rules of play, worked examples, the last verification)."""

    rules: Rules
    result: GameResult
    analysis: StrategyAnalysis
    sheets: dict[str, pd.DataFrame] = field(default_factory=dict)
    images: dict[str, Image] = field(default_factory=dict)
    side_bets: list[SideBetResult] = field(default_factory=list)
    protection: StoredProtection | None = None  # the protection results the report includes
    rules_of_play: tuple[RuleSection, ...] = ()
    examples: tuple[WorkedExample, ...] = ()
    maximum_payout: MaximumPayout | None = None
    verification: Verification | None = None  # the last ``verify`` of the store, when kept

    @property
    def title_of_game(self) -> str:
        return game_title(self.rules.name)

    @property
    def stem(self) -> str:
        """The files' name: game, pay table, strategy and pay rule, safe in any folder."""
        r = self.result
        return re.sub(r"[^\w.+-]+", "_", f"{self.rules.name}-{r.paytable.name}-{r.strategy}-pays-on-{r.pays_on}")

    def document(self) -> Document:
        return parsheet(self)

    def write(self, out_dir: str | Path) -> Written:
        """Write ``<stem>.xlsx``, ``<stem>.html`` and ``<stem>.pdf`` (with its ``.sha256``)
        into ``out_dir``."""
        return write_report(self.document(), self.sheets, out_dir, self.stem)


def build_report(
    engine: ReturnEngine,
    paytable: PayTableSpec = None,
    strategy: str = "optimal",
    pays_on: str = "ante",
    sidebets: Iterable[SideBetSpec] | None = None,
    protection: StoredProtection | None = None,
) -> Report:
    """Compute everything the report shows; ``sidebets``: the side bets to show (names or
    files; default those that ship for the game, ``()`` for none). Game protection takes
    long to compute, so the report includes the results earlier ``protect`` runs kept
    (``protection``, by default looked up) and says what is missing."""
    if strategy not in REPORT_STRATEGIES:
        raise InputError(f"unknown strategy {strategy!r}; choose one of: {', '.join(REPORT_STRATEGIES)}")
    rules = engine.rules
    analysis = analyse_strategy(engine, paytable, pays_on)
    result = analysis.results[strategy]
    every_deal = engine.column_sums()
    report = Report(rules, result, analysis)
    if protection is None:
        protection = stored_protection(engine, result.paytable, pays_on)
    report.protection = protection
    # before the metadata, which names every derived array read
    summary, lines, report.side_bets = side_bet_tables(engine, result, sidebets)
    report.rules_of_play = rules_of_play(rules, result.paytable, pays_on)
    report.examples = worked_examples(engine, result)
    report.maximum_payout = maximum_payout(result)
    if isinstance(engine.source, OutcomeStore):
        report.verification = kept_verification(engine.source)
    report.sheets = {
        "Summary": summary_table(result, every_deal),
        "Rules of play": clauses_table(report.rules_of_play),
        "Worked examples": examples_table(report.examples),
        "Odds per pay line": pay_line_odds(result),
        "Odds per wager": wager_odds(result.outcomes(), result.settlement),
        "Confidence ranges": confidence_table(result),
        "Return table": return_table(result),
        "Final hands": final_hands_table(result, every_deal, engine.column_sums(result.calls)),
        "Strategy by hand": strategy_by_hand(analysis, result),
        "Call rate grid": analysis.grid.reset_index(),
        "Simple strategy": analysis.rule_costs,
        "Strategies compared": analysis.comparison,
        "Game protection": information_table(analysis.results["optimal"], protection.exposure, protection.sampled),
        **({"Protection by card seen": seen_card_table(protection.exposure)} if protection.exposure else {}),
        "Rules": rules_table(rules),
        "Pay table": paytable_table(result.paytable),
        "Metadata": metadata_table(rules, result, engine.source),
    }
    if report.side_bets:
        report.sheets |= {"Side bets": summary, "Side bet lines": lines}
    report.images = make_plots(report)
    return report


def strategy_by_hand(analysis: StrategyAnalysis, result: GameResult) -> pd.DataFrame:
    """Per hand class: share, optimal and simple call rates (and the report's strategy), meaning."""
    profile = analysis.profile.copy()
    if result.strategy not in ("optimal", "simple"):
        engine = analysis.engine
        profile[f"{result.strategy}_call_rate"] = call_rates(
            engine, result.calls, engine.hand_profile().hand_class, len(HAND_CLASSES)
        )
    notes = class_notes(analysis.rules)
    profile["meaning"] = [notes.get(h, "") for h in HAND_CLASSES]
    return profile


def metadata_table(rules: Rules, result: GameResult, source: StateSource) -> pd.DataFrame:
    """What produced the report: versions, pay table, the store the counts come from and
    the SHA-256 of every derived array read (each file checked, block by block, against
    the SHA-256 its set recorded with this one when it was read)."""
    m = source.manifest if isinstance(source, OutcomeStore) else {}
    read = source.derived_sha256 if isinstance(source, OutcomeStore) else {}
    rows = [
        ("package version", package_version()),
        ("engine version", ENGINE_VERSION),
        ("generated (UTC)", dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")),
        ("game", game_title(rules.name)),
        ("strategy", result.strategy),
        ("pay table", paytable_name(result.paytable)),
        ("pay table source", paytable_origin(result.paytable)),
        ("pay table SHA-256", paytable_digest(result.paytable)),
        ("pays on", result.pays_on),
        ("store checksum (SHA-256)", m.get("checksum", "counts in memory")),
        ("figures SHA-256", figures_digest(result)),
        ("store fingerprint", m.get("fingerprint")),
        ("store canonical states", m.get("rows")),
        ("store created", m.get("created")),
        *(
            (f"derived array: {label(name.replace('-', ' '))}, {label(key)} (SHA-256)", sha)
            for name, digests in sorted(read.items())
            for key, sha in sorted(digests.items())
        ),
        *machine_rows(),
    ]
    return pd.DataFrame(rows, columns=["item", "value"]).astype({"value": str})


def make_plots(report: Report) -> dict[str, Image]:
    """Every plot of the report (PNG for the page, SVG for the PDF), keyed by name."""
    r, s = report.result, report.sheets
    return {
        "return-table": image(plot_contributions(r)),
        "outcomes": image(plot_outcome_distribution(r)),
        "final-hands": image(plot_final_hands(s["Final hands"])),
        "confidence": image(plot_confidence(s["Confidence ranges"], float(r.exact.house_edge))),
        "strategy": image(plot_call_rates(s["Strategy by hand"])),
        "margin": image(plot_margin(report.analysis)),
        "protection": image(plot_protection(s["Game protection"], s.get("Protection by card seen"))),
    } | {f"side-bet-{i}": image(plot_side_bet(b)) for i, b in enumerate(report.side_bets)}
