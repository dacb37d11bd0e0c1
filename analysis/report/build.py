"""The full report of a game, pay table and strategy (a "par sheet" for a regulator or test
lab): every table and plot, assembled from the return engine's exact figures.

The numbers are :mod:`analysis.report.tables`, the plots :mod:`analysis.report.plots`, the workbook
and HTML page :mod:`analysis.report.render`; this module puts them together.
"""

from __future__ import annotations

import datetime as dt
import platform
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.engine.result import GameResult
from analysis.engine.return_engine import ReturnEngine, StateSource
from analysis.hands.classes import HAND_CLASSES, class_notes
from analysis.model.errors import InputError
from analysis.model.paytable import PayTableSpec
from analysis.model.rules import Rules
from analysis.protection.edges import information_table, seen_card_table
from analysis.protection.runs import StoredProtection, stored_protection
from analysis.report.plots import (
    plot_call_rates,
    plot_confidence,
    plot_contributions,
    plot_final_hands,
    plot_margin,
    plot_outcome_distribution,
    plot_protection,
    png,
)
from analysis.report.render import write_html, write_workbook
from analysis.report.sidebet_plots import plot_side_bet
from analysis.report.sidebets import side_bet_tables
from analysis.report.tables import (
    confidence_table,
    final_hands_table,
    paytable_digest,
    paytable_table,
    return_table,
    rules_table,
    summary_table,
)
from analysis.sidebets.bet import SideBetSpec
from analysis.sidebets.result import SideBetResult
from analysis.store.outcome_store import ENGINE_VERSION, OutcomeStore
from analysis.store.shards import package_version
from analysis.strategy.by_hand import COMPARED, StrategyAnalysis, analyse_strategy, call_rates

#: Strategies a report can be made for.
REPORT_STRATEGIES = COMPARED


@dataclass
class Report:
    """The tables (one sheet each), the plots (PNG) and the figures of one report."""

    rules: Rules
    result: GameResult
    analysis: StrategyAnalysis
    sheets: dict[str, pd.DataFrame] = field(default_factory=dict)
    plots: dict[str, bytes] = field(default_factory=dict)
    side_bets: list[SideBetResult] = field(default_factory=list)
    protection: StoredProtection | None = None  # the protection results the report includes

    @property
    def stem(self) -> str:
        """The files' name: game, pay table, strategy and pay rule, safe in any folder."""
        r = self.result
        return re.sub(r"[^\w.+-]+", "_", f"{self.rules.name}-{r.paytable.name}-{r.strategy}-pays-on-{r.pays_on}")

    def write(self, out_dir: str | Path) -> tuple[Path, Path]:
        """Write ``<stem>.xlsx`` and ``<stem>.html`` into ``out_dir``; returns both paths."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        xlsx, page = out / f"{self.stem}.xlsx", out / f"{self.stem}.html"
        write_workbook(self, xlsx)
        write_html(self, page)
        return xlsx, page


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
    report.sheets = {
        "Summary": summary_table(result, every_deal),
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
    report.plots = make_plots(report)
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
    the SHA-256 of every derived array read (each checked against it when it was read)."""
    m = source.manifest if isinstance(source, OutcomeStore) else {}
    read = source.derived_sha256 if isinstance(source, OutcomeStore) else {}
    rows = [
        ("package version", package_version()),
        ("engine version", ENGINE_VERSION),
        ("generated (UTC)", dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")),
        ("game", rules.name),
        ("strategy", result.strategy),
        ("pay table", result.paytable.name),
        ("pay table source", result.paytable.source or "in memory"),
        ("pay table SHA-256", paytable_digest(result.paytable)),
        ("pays on", result.pays_on),
        ("store checksum (SHA-256)", m.get("checksum", "counts in memory")),
        ("store fingerprint", m.get("fingerprint")),
        ("store canonical states", m.get("rows")),
        ("store created", m.get("created")),
        *(
            (f"derived/{name}/{key}.npy (SHA-256)", sha)
            for name, digests in sorted(read.items())
            for key, sha in sorted(digests.items())
        ),
        ("python", sys.version.split()[0]),
        ("numpy / pandas", f"{np.__version__} / {pd.__version__}"),
        ("platform", platform.platform()),
    ]
    return pd.DataFrame(rows, columns=["item", "value"]).astype({"value": str})


def make_plots(report: Report) -> dict[str, bytes]:
    """Every plot of the report as PNG bytes, keyed by name."""
    r, s = report.result, report.sheets
    return {
        "return-table": png(plot_contributions(r)),
        "outcomes": png(plot_outcome_distribution(r)),
        "final-hands": png(plot_final_hands(s["Final hands"])),
        "confidence": png(plot_confidence(s["Confidence ranges"], float(r.exact.house_edge))),
        "strategy": png(plot_call_rates(s["Strategy by hand"])),
        "margin": png(plot_margin(report.analysis)),
        "protection": png(plot_protection(s["Game protection"], s.get("Protection by card seen"))),
    } | {f"side-bet-{i}": png(plot_side_bet(b)) for i, b in enumerate(report.side_bets)}
