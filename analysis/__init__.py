"""Exact mathematics of Casino Omaha Poker and its family.

Typical use::

    from analysis import preset, load_outcomes, evaluate_strategy
    rules = preset("casino-omaha")
    result = evaluate_strategy(load_outcomes(rules), rules)   # default AnteWin table
    result.table, result.summary()
"""

from .exact import ensure_store, load_outcomes
from .paytable import PayTable
from .returns import evaluate_strategy
from .rules import PRESETS, Rules, preset

__all__ = ["PRESETS", "PayTable", "Rules", "ensure_store", "evaluate_strategy", "load_outcomes", "preset"]
