"""Exact mathematics of Casino Omaha Poker and its family.

Typical use::

    from analysis import load_engine
    engine = load_engine("casino-omaha")          # the outcome store is computed on first use
    result = engine.decide()                      # default AnteWin table, optimal strategy
    result.table, result.summary()
    engine.decide("madrid", "always-call", pays_on="call")

The names below are the public API; they are imported on first use, so that
``import analysis`` (and the command line's ``--help``) stays instant. (No public name is
also the name of a submodule: importing the submodule would replace it.)
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

#: Public name -> the module that defines it.
_API = {
    "PRESETS": "rules",
    "Rules": "rules",
    "preset": "rules",
    "PAYS_ON": "rules",
    "PayTable": "paytable",
    "PayTableError": "paytable",
    "StateCounts": "outcomes",
    "COLUMNS": "outcomes",
    "OutcomeStore": "store",
    "StoreError": "store",
    "ensure_store": "runs",
    "load_outcomes": "runs",
    "ReturnEngine": "engine",
    "GameResult": "engine",
    "STRATEGIES": "engine",
    "load_engine": "engine",
    "Tuner": "tuning",
    "solve_paytable": "tuning",
    "compare_paytables": "tuning",
    "tuning_panel": "panel",
    "TuningPanel": "panel",
    "rule_grid": "variants",
    "variant_rules": "variants",
    "Engines": "variants",
    "QUALIFIERS": "variants",
    "CALL_MULTIPLES": "variants",
    "advise": "advice",
    "exposure_run": "protection_runs",
    "sampled_run": "protection_runs",
    "stored_protection": "protection_runs",
    "exposure_result": "protection",
    "information_table": "protection",
    "seen_card_table": "protection",
    "Information": "sampling",
    "BaseControl": "sampling",
    "estimate": "sampling",
    "connect": "cluster",
    "analyse_strategy": "strategy_analysis",
    "StrategyAnalysis": "strategy_analysis",
    "SimpleStrategy": "simple_strategy",
    "derive_simple_strategy": "simple_strategy",
    "HAND_CLASSES": "hand_classes",
    "hand_profile": "hand_classes",
    "simulate_strategy": "simulate",
    "build_report": "report",
    "Report": "report",
    "summary_table": "figures",
    "confidence_table": "figures",
    "return_table": "figures",
    "final_hands_table": "figures",
    "rules_table": "figures",
    "plot_contributions": "plots",
    "plot_outcome_distribution": "plots",
    "plot_outcome_comparison": "plots",
    "plot_final_hands": "plots",
    "plot_confidence": "plots",
    "plot_call_rates": "plots",
    "plot_margin": "plots",
    "plot_sweep": "plots",
    "plot_protection": "plots",
    "compute_equity": "equity",
    "EquityResult": "equity",
    "final_hand_distribution": "distribution",
    "paytable_return": "distribution",
    "omaha_high": "omaha",
    "omaha_low": "omaha",
    "describe_high": "omaha",
    "describe_low": "omaha",
    "low_ranks": "omaha",
    "describe": "evaluate",
    "describe_omaha": "evaluate",
    "SideBet": "sidebet",
    "SideBetError": "sidebet",
    "SideBets": "side_returns",
    "SideBetResult": "side_returns",
    "solve_side_bet": "side_tuning",
    "analyse_progressive": "progressive",
    "Progressive": "progressive",
    "meter_returns": "progressive",
    "floor_figures": "floor",
    "side_bet_wagers": "floor",
    "Wager": "floor",
    "simulate_side_bet": "side_simulation",
    "plot_side_bet": "side_plots",
    "plot_line_probabilities": "side_plots",
    "plot_meter": "side_plots",
    "CATEGORIES": "tables",
    "parse_cards": "cards",
    "format_cards": "cards",
}
__all__ = sorted(_API)


def __getattr__(name: str):
    if name not in _API:
        raise AttributeError(f"module 'analysis' has no attribute {name!r}")
    value = getattr(import_module(f".{_API[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # for type checkers and editors: the same names, imported eagerly
    from .advice import advise
    from .cards import format_cards, parse_cards
    from .cluster import connect
    from .distribution import final_hand_distribution, paytable_return
    from .engine import STRATEGIES, GameResult, ReturnEngine, load_engine
    from .equity import EquityResult, compute_equity
    from .evaluate import describe, describe_omaha
    from .figures import confidence_table, final_hands_table, return_table, rules_table, summary_table
    from .floor import Wager, floor_figures, side_bet_wagers
    from .hand_classes import HAND_CLASSES, hand_profile
    from .omaha import describe_high, describe_low, low_ranks, omaha_high, omaha_low
    from .outcomes import COLUMNS, StateCounts
    from .panel import TuningPanel, tuning_panel
    from .paytable import PayTable, PayTableError
    from .plots import (
        plot_call_rates,
        plot_confidence,
        plot_contributions,
        plot_final_hands,
        plot_margin,
        plot_outcome_comparison,
        plot_outcome_distribution,
        plot_protection,
        plot_sweep,
    )
    from .progressive import Progressive, analyse_progressive, meter_returns
    from .protection import exposure_result, information_table, seen_card_table
    from .protection_runs import exposure_run, sampled_run, stored_protection
    from .report import Report, build_report
    from .rules import PAYS_ON, PRESETS, Rules, preset
    from .runs import ensure_store, load_outcomes
    from .sampling import BaseControl, Information, estimate
    from .side_plots import plot_line_probabilities, plot_meter, plot_side_bet
    from .side_returns import SideBetResult, SideBets
    from .side_simulation import simulate_side_bet
    from .side_tuning import solve_side_bet
    from .sidebet import SideBet, SideBetError
    from .simple_strategy import SimpleStrategy, derive_simple_strategy
    from .simulate import simulate_strategy
    from .store import OutcomeStore, StoreError
    from .strategy_analysis import StrategyAnalysis, analyse_strategy
    from .tables import CATEGORIES
    from .tuning import Tuner, compare_paytables, solve_paytable
    from .variants import CALL_MULTIPLES, QUALIFIERS, Engines, rule_grid, variant_rules
