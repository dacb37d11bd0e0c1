"""``make results``: the figures of docs/results.md that cost more than the test suite may spend.

The dealer's qualifier x the call bet of Casino Omaha (docs/results.md, "The dealer's qualifier and
the call bet"): a pair of 7s (the game's rule), a pair of 2s and no qualifier, each with a
call bet of 1x to 4x the ante; AnteWin table paid on the ante, optimal play, exact. A call
bet re-plays the same counts, but every qualifier other than the game's own has its own
outcome store, enumerated once and kept beside the others (2.9 GB each with the engine's
arrays, 1 to 10 minutes on 2 cores): that is why notebook 02 and the tests show only the
7s row (tests/test_rule_knobs.py checks that row of docs/results.md against this module).

Prints the table's rows (and each exact house edge) and writes them to
``bench/results/rule-grid.json``. ``RESULTS_QUALIFIERS`` (default ``7,2,none``) picks the
qualifiers.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pandas as pd

from analysis import CALL_MULTIPLES, RunOptions, preset, rule_grid
from analysis.engine.variants import Engines
from analysis.model.rules import parse_qualifier, qualifier_text

GAME = "casino-omaha"
#: The table's rows: the game's own qualifier (7s), a pair of 2s, none.
QUALIFIERS = (5, 0, None)
RESULTS = Path(__file__).resolve().parent / "results"


def percent(x: float) -> str:
    """As docs/results.md writes an edge or a call rate: 3 decimals, 4 below 1%, a real minus sign."""
    text = f"{abs(x):.4%}" if abs(x) < 0.01 else f"{abs(x):.3%}"
    return ("\N{MINUS SIGN}" if x < 0 else "") + text


def table_row(game: str, rows: pd.DataFrame, first: bool = False) -> str:
    """One qualifier's row of the table in docs/results.md (``rows``: that qualifier's part of
    :func:`analysis.rule_grid`, a row per call bet); the game's own rules in bold, the
    ``first`` row's first call rate labelled."""
    own = preset(game)
    qualifier = rows["qualifier"].iloc[0]
    rank = parse_qualifier(qualifier)
    name = "none" if rank is None else f"pair of {qualifier}"
    if rank == own.qualifier_rank:
        name += " (the game's rule)"
    cells = []
    for i, row in enumerate(rows.sort_values("call_multiple").itertuples()):
        edge = percent(row.house_edge)
        if rank == own.qualifier_rank and row.call_multiple == own.call_multiple:
            edge = f"**{edge}**"
        rate = f"{row.call_rate:.1%}"
        cells.append(f"{edge} (call rate {rate})" if first and i == 0 else f"{edge} ({rate})")
    return f"| {name} | " + " | ".join(cells) + " |"


def main() -> None:
    chosen = os.environ.get("RESULTS_QUALIFIERS")
    qualifiers = QUALIFIERS if not chosen else tuple(parse_qualifier(q) for q in chosen.split(","))
    engines = Engines(RunOptions(progress=True))
    out = []
    print(f"{GAME}: dealer's qualifier x call bet, AnteWin table paid on the ante, optimal play (exact)")
    print("| dealer qualifies with | " + " | ".join(f"call {m}x" for m in CALL_MULTIPLES) + " |")
    print("|---" * (len(CALL_MULTIPLES) + 1) + "|")
    for i, q in enumerate(qualifiers):
        began = time.perf_counter()
        rows = rule_grid(GAME, [q], CALL_MULTIPLES, engines=engines)
        seconds = time.perf_counter() - began
        print(table_row(GAME, rows, first=i == 0))
        exact = ", ".join(f"{m}x {e}" for m, e in zip(rows.call_multiple, rows.house_edge_exact))
        print(f"    exact house edges: {exact} ({seconds:.0f} s, the store included when it was missing)")
        out += [
            row | {"house_edge_exact": str(row["house_edge_exact"]), "seconds": seconds}
            for row in rows.to_dict("records")
        ]
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / "rule-grid.json"
    path.write_text(json.dumps({"game": GAME, "rows": out}, indent=1) + "\n")
    print(f"written {path} (qualifiers: {', '.join(qualifier_text(q) for q in qualifiers)})")


if __name__ == "__main__":
    main()
