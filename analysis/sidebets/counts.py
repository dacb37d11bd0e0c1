"""What side bets are paid on, counted exactly: the deals of a game by *side outcome* and by
the main game's return-table row, for a given set of the player's decisions.

The counts do not depend on any side bet's pays, so a new side-bet pay table is a sum over
these few numbers, not a pass over the states:

* ``first-six`` bets are paid on the best hand of the hole cards and the flop, a function
  of the decision state alone: its strength per state is a pay-independent array (cached
  beside the store like the hand profile), and the outcome is that strength (0..7462);
* ``final`` bets on the final category, the outcome (10 of them);
* ``bad-beat`` bets on the final category and whether the player lost to a qualifying
  dealer, the outcome ``2 x category + lost`` (20 of them).

For final hands both come straight from the store's 40 counts (category x dealer result).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from analysis.hands.evaluate import best_strength, omaha_strength
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.outcomes import COLUMNS
from analysis.model.payoffs import row_keys, row_of
from analysis.model.rules import Rules
from analysis.sidebets.bet import SideBet

if TYPE_CHECKING:
    from analysis.engine.return_engine import ReturnEngine

#: Number of side outcomes of each kind (see the module docstring).
OUTCOMES = {"first-six": 7463, "final": len(CATEGORIES), "bad-beat": 2 * len(CATEGORIES)}
#: Chunk of states evaluated at a time (bounds the temporary arrays).
CHUNK = 1 << 21


def first_six_strengths(rules: Rules, hole: np.ndarray, flop: np.ndarray) -> np.ndarray:
    """Strength of the best five-card hand of each state's hole cards and flop under the
    game's rule: exactly two hole cards with the three flop cards (Omaha style), or the
    five cards (Hold'em's two hole cards and the flop)."""
    out = np.empty(len(hole), dtype=np.uint16)
    for lo in range(0, len(hole), CHUNK):
        h = np.ascontiguousarray(hole[lo : lo + CHUNK], dtype=np.int8)
        f = np.ascontiguousarray(flop[lo : lo + CHUNK], dtype=np.int8)
        if rules.omaha:
            out[lo : lo + CHUNK] = omaha_strength(h, f)
        elif h.shape[1] == 2:
            out[lo : lo + CHUNK] = best_strength(np.concatenate([h, f], axis=1))
        else:
            raise InputError(f"{rules.name}: first-six hands are defined for two hole cards or Omaha play")
    return out


def state_first_six(engine: ReturnEngine) -> np.ndarray:
    """The first-six strength of every stored state of the engine (cached beside the store)."""
    rules = engine.rules
    return engine.source.derived("first-six", lambda src: {"strength": first_six_strengths(rules, *src.cards())})[
        "strength"
    ]


def outcome_counts(engine: ReturnEngine, kind: str, calls: np.ndarray) -> np.ndarray:
    """Deals by side outcome (rows, see :data:`OUTCOMES`) and main-game return-table row
    (columns, ``row_keys()`` order) when the player calls exactly the ``calls`` states.
    The fold column holds the folded deals by the outcome they would have had."""
    if kind == "first-six":
        return engine.combos_by_group(calls, state_first_six(engine), OUTCOMES[kind])
    if kind not in OUTCOMES:
        raise InputError(f"unknown side-bet kind {kind!r}")
    keys = row_keys()
    called, every = engine.column_sums(calls), engine.column_sums()
    out = np.zeros((OUTCOMES[kind], len(keys)), dtype=np.int64)
    for column in COLUMNS:
        c = CATEGORIES.index(column.category)
        outcome = c if kind == "final" else 2 * c + (column.result == "loss")
        out[outcome, keys.index(row_of(column))] += called[column.key]
        out[outcome, keys.index(("fold", ""))] += every[column.key] - called[column.key]
    return out


def outcome_lines(bet: SideBet) -> np.ndarray:
    """The line (index) that pays each side outcome of the bet's kind, -1 where none does."""
    if bet.kind == "first-six":
        return bet.strength_lines().astype(np.int64)
    by_category = bet.category_lines().astype(np.int64)
    if bet.kind == "final":
        return by_category
    return np.stack([np.full(len(CATEGORIES), -1), by_category], axis=1).reshape(-1)  # paid only when lost
