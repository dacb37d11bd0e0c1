"""The side bets of a report: which bets (those that ship for the game unless others are
named), a summary row and the return table of each, played with the report's main game.

A forfeited bet is shown with the joint strategy (the main game re-optimised with it) and,
beside it, the combined house edge when the player keeps the report's strategy (separate).
A progressive is shown at its seed, with its break-even meter and long-run return.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from analysis.engine.result import GameResult
from analysis.engine.return_engine import ReturnEngine
from analysis.sidebets.bet import SideBetSpec, shipped_sidebets
from analysis.sidebets.progressive import analyse_progressive
from analysis.sidebets.result import SideBetResult
from analysis.sidebets.returns import SideBetEngine

_NAN = float("nan")


def side_bet_tables(
    engine: ReturnEngine, result: GameResult, specs: Iterable[SideBetSpec] | None = None
) -> tuple[pd.DataFrame, pd.DataFrame, list[SideBetResult]]:
    """(summary, lines, results) of the side bets ``specs`` (default: those that ship for the
    game) played with the main game of ``result``."""
    bet_specs: list[SideBetSpec] = [*shipped_sidebets(result.rules.name)] if specs is None else list(specs)
    bets = SideBetEngine(engine, result.paytable, result.pays_on, main=result)
    rows, lines, results = [], [], []
    for spec in bet_specs:
        r = bets.evaluate(spec)
        e, c = r.exact, r.combined
        row: dict[str, str | float | None] = {
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
        if r.bet.forfeit:
            row["combined_house_edge_separate"] = float(bets.evaluate(spec, strategy="separate").combined.house_edge)
        if r.bet.meter is not None:
            p = analyse_progressive(bets, spec).summary()
            row |= {"meter": p["meter"], "break_even_meter": p["break_even_meter"] or _NAN}
            row["long_run_return"] = p["long_run_return"]
        rows.append(row)
        lines.append(r.table.assign(bet=r.bet.name)[["bet", *r.table.columns]])
        results.append(r)
    return pd.DataFrame(rows), (pd.concat(lines, ignore_index=True) if lines else pd.DataFrame()), results
