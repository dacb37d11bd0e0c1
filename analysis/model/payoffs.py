"""How a hand is settled: the net payoff, in antes, of every row of the return table.

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

from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.outcomes import COLUMNS, Column
from analysis.model.paytable import PayTable
from analysis.model.rules import PAYS_ON, Rules

#: The outcomes of a hand, in return-table order.
OUTCOMES = ("fold", "dealer_not_qualifying", "player_wins", "tie", "dealer_wins")
#: The return-table outcome of each dealer result of the counts.
RESULT_OUTCOME = {"noqual": "dealer_not_qualifying", "win": "player_wins", "tie": "tie", "loss": "dealer_wins"}
#: Outcomes whose return-table row is split by the player's category (the pay table pays them).
BY_CATEGORY = ("dealer_not_qualifying", "player_wins")

RowKey = tuple[str, str]


def check_pays_on(pays_on: str) -> str:
    if pays_on not in PAYS_ON:
        raise InputError(f"pays_on must be one of {PAYS_ON}, not {pays_on!r}")
    return pays_on


def row_keys() -> list[RowKey]:
    """The rows of a return table, (outcome, category), best categories first."""
    keys = [("fold", "")]
    for outcome in BY_CATEGORY:
        keys += [(outcome, c) for c in reversed(CATEGORIES)]
    return keys + [("tie", ""), ("dealer_wins", "")]


def row_of(column: Column) -> RowKey:
    """The return-table row that a count column adds to."""
    outcome = RESULT_OUTCOME[column.result]
    return (outcome, column.category if outcome in BY_CATEGORY else "")


def outcome_payoffs(paytable: PayTable, rules: Rules, pays_on: str = "ante") -> dict[RowKey, Fraction]:
    """Net payoff in antes of every row of the return table, in return-table order."""
    check_pays_on(pays_on)
    m, pay = rules.call_multiple, paytable.pays
    out: dict[RowKey, Fraction] = {}
    for outcome, category in row_keys():
        if outcome == "fold":
            value = Fraction(-1)
        elif outcome == "dealer_not_qualifying":
            value = pay[category] if pays_on == "ante" else Fraction(1)
        elif outcome == "player_wins":
            value = pay[category] + m if pays_on == "ante" else 1 + m * pay[category]
        elif outcome == "tie":
            value = Fraction(0)
        else:
            value = Fraction(-1 - m)
        out[(outcome, category)] = value
    return out


def margin_coefficients(paytable: PayTable, rules: Rules, pays_on: str, completions: int) -> tuple[list[int], int, int]:
    """(coef, base, d) over the 40 count columns of :data:`analysis.model.outcomes.COLUMNS`:
    EV(call) - EV(fold) of a state with ``completions`` completions, times d x completions,
    is the integer ``base + coef . counts`` (d: the common denominator of the payoffs)."""
    payoffs = outcome_payoffs(paytable, rules, pays_on)
    values = [payoffs[row_of(c)] for c in COLUMNS]
    d = lcm(*(p.denominator for p in values))
    return [int(p * d) for p in values], d * completions, d
