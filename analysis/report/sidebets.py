"""The side bets of a report: which bets (those that ship for the game unless others are
named), a summary row and the return table of each, played with the report's main game.

A forfeited bet is shown with the joint strategy (the main game re-optimised with it) and,
beside it, the combined house edge when the player keeps the report's strategy (separate).
A progressive is shown at its seed, with its break-even meter and long-run return.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from analysis.engine.no_board import NoBoardFigures
from analysis.engine.result import GameResult
from analysis.engine.return_engine import ReturnEngine
from analysis.engine.streets import StreetFigures
from analysis.sidebets.bet import SideBetSpec, shipped_sidebets
from analysis.sidebets.progressive import Progressive, analyse_progressive
from analysis.sidebets.result import SideBetResult
from analysis.sidebets.returns import SideBetEngine
from analysis.sidebets.street_bets import StreetSideBets

_NAN = float("nan")


def side_bet_tables(
    engine: ReturnEngine, result: GameResult, specs: Iterable[SideBetSpec] | None = None
) -> tuple[pd.DataFrame, pd.DataFrame, list[SideBetResult]]:
    """(summary, lines, results) of the side bets ``specs`` (default: those that ship for the
    game) played with the main game of ``result``."""
    bet_specs: list[SideBetSpec] = [*shipped_sidebets(result.rules.name)] if specs is None else list(specs)
    bets = SideBetEngine(engine, result.paytable, result.pays_on, main=result)
    rows, results = [], []
    for spec in bet_specs:
        r = bets.evaluate(spec)
        row = side_bet_row(r)
        if r.bet.forfeit:
            row["combined_house_edge_separate"] = float(bets.evaluate(spec, strategy="separate").combined.house_edge)
        if r.bet.meter is not None:
            row |= progressive_columns(analyse_progressive(bets, spec))
        rows.append(row)
        results.append(r)
    return pd.DataFrame(rows), side_bet_lines(results), results


def street_side_bet_tables(
    figures: StreetFigures | NoBoardFigures, specs: Iterable[SideBetSpec] | None = None
) -> tuple[pd.DataFrame, pd.DataFrame, list[SideBetResult]]:
    """(summary, lines, results) of the side bets ``specs`` (default: those that ship for the
    game) on a solved multi-street game or game without a board, played with its optimal
    strategy; a progressive at its seed."""
    bet_specs = [*shipped_sidebets(figures.game.name)] if specs is None else list(specs)
    bets = StreetSideBets(figures)
    results = [bets.evaluate(spec) for spec in bet_specs]
    rows = []
    for r in results:
        row = side_bet_row(r)
        if r.bet.meter is not None:
            row |= progressive_columns(analyse_progressive(bets, r.bet, strategy="separate"))
        rows.append(row)
    return pd.DataFrame(rows), side_bet_lines(results), results


def progressive_columns(p: Progressive) -> dict[str, str | float | None]:
    """A progressive's columns of the summary row: the meter played, the break-even meter
    (blank when the meter pays nothing) and the long-run return."""
    return {
        "meter": float(p.result.meter) if p.result.meter is not None else _NAN,
        "break_even_meter": float(p.break_even) if p.break_even is not None else _NAN,
        "long_run_return": float(p.long_run_return),
    }


def side_bet_row(r: SideBetResult) -> dict[str, str | float | None]:
    """A side bet's summary row (the separate strategy and the meter's figures left blank)."""
    e, c = r.exact, r.combined
    return {
        "bet": r.bet.name,
        "kind": r.bet.kind,
        "forfeited_on_fold": "yes" if r.bet.forfeit else "no",
        "strategy": r.strategy,
        "house_edge": float(e.house_edge),
        "house_edge_exact": str(e.house_edge),
        "return": float(e.player_return),
        "hit_frequency": float(e.hit_frequency),
        "standard_deviation": e.standard_deviation,
        "call_rate": float(r.main.exact.call_rate),
        "combined_house_edge_per_hand": float(c.house_edge),
        "combined_house_edge_exact": str(c.house_edge),
        "combined_per_unit_wagered": float(c.per_unit_wagered),
        "combined_house_edge_separate": _NAN,
        "meter": _NAN,
        "break_even_meter": _NAN,
        "long_run_return": _NAN,
    }


def side_bet_lines(results: list[SideBetResult]) -> pd.DataFrame:
    """Every bet's return table, one after the other, each row named by its bet."""
    lines = [r.table.assign(bet=r.bet.name)[["bet", *r.table.columns]] for r in results]
    return pd.concat(lines, ignore_index=True) if lines else pd.DataFrame()
