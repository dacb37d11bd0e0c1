"""The one-decision return table's rows and their net payoff in antes, from the one
settlement of every game (:mod:`analysis.model.settlement`), and the exact integer margin
of a call over a fold that the engines decide on.

A folding player loses the ante. A calling player puts up ``call_multiple`` more antes
and, for each completion, nets:

==================================  ==============================  ===========================
outcome                             ``pays_on="ante"`` (AnteWin)    ``pays_on="call"`` (Caribbean)
==================================  ==============================  ===========================
dealer does not qualify, category   ante pays the table, call push  ante pays 1, call push
player beats a qualifying dealer    ante pays the table, call 1:1   ante 1:1, call pays the table
tie with a qualifying dealer        push                            push
dealer wins                         lose ante and call              lose ante and call
==================================  ==============================  ===========================

>>> from analysis.model.paytable import PayTable
>>> from analysis.model.rules import preset
>>> p = outcome_payoffs(PayTable.load(None), preset("casino-omaha"))
>>> p[("player_wins", "flush")], p[("dealer_wins", "")]
(Fraction(4, 1), Fraction(-3, 1))
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

from analysis.model.outcomes import COLUMNS, Column
from analysis.model.paytable import PayTable
from analysis.model.rules import PAYS_ON, Rules
from analysis.model.settlement import BY_CATEGORY, ONE_DECISION, OUTCOMES, RowKey, check_pays_on, row_keys

__all__ = ["BY_CATEGORY", "OUTCOMES", "PAYS_ON", "RESULT_OUTCOME", "RowKey", "check_pays_on", "row_keys"]

#: The return-table outcome of each dealer result of the counts.
RESULT_OUTCOME = {"noqual": "dealer_not_qualifying", "win": "player_wins", "tie": "tie", "loss": "dealer_wins"}


def row_of(column: Column) -> RowKey:
    """The return-table row that a count column adds to."""
    outcome = RESULT_OUTCOME[column.result]
    return (outcome, column.category if outcome in BY_CATEGORY else "")


def outcome_payoffs(paytable: PayTable, rules: Rules, pays_on: str = "ante") -> dict[RowKey, Fraction]:
    """Net payoff in antes of every row of the return table, in return-table order: the
    one-decision family's settlement with ``paytable`` on the ante or the call."""
    return ONE_DECISION.with_table(paytable, pays_on).return_rows(rules.call_multiple)


def margin_coefficients(paytable: PayTable, rules: Rules, pays_on: str, completions: int) -> tuple[list[int], int, int]:
    """(coef, base, d) over the 40 count columns of :data:`analysis.model.outcomes.COLUMNS`:
    EV(call) - EV(fold) of a state with ``completions`` completions, times d x completions,
    is the integer ``base + coef . counts`` (d: the common denominator of the payoffs)."""
    payoffs = outcome_payoffs(paytable, rules, pays_on)
    values = [payoffs[row_of(c)] for c in COLUMNS]
    d = lcm(*(p.denominator for p in values))
    return [int(p * d) for p in values], d * completions, d
