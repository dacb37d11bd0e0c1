"""Tables as a person reads them: headers and labels in words, every value shown by its kind
(percentages with four decimals, counts with separators, "1 in N", pays "to 1"), the exact
fraction kept in its own column.

The report's tables keep machine names (JSON, CSV and the API use them); the workbook, the
page and the PDF go through here, so no header a person reads is a code identifier.
"""

from __future__ import annotations

import math
import platform
import sys
from collections.abc import Collection, Mapping
from fractions import Fraction
from numbers import Integral
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd

from analysis.model.paytable import PayTable

Kind = Literal["text", "label", "count", "percent", "number", "one_in", "exact", "pays", "flag", "level"]

#: Kinds shown right-aligned, as figures.
NUMERIC = frozenset({"count", "percent", "number", "one_in", "pays", "level"})

#: Digits after the point of a percentage (a regulator's sheet states how many).
PERCENT_DECIMALS = 4

#: Headers that a rule (underscores to spaces, first letter capital) would word badly.
HEADERS = {
    "outcome": "Outcome",
    "category": "Final hand",
    "final_hand": "Player's final hand",
    "combinations": "Combinations",
    "probability_exact": "Probability (exact)",
    "payoff": "Net result (antes)",
    "contribution": "Contribution to the return (antes)",
    "one_in": "1 in N",
    "expected_house_win": "Expected house win (antes)",
    "house_win_low": "House win, low end (antes)",
    "house_win_high": "House win, high end (antes)",
    "per_hand_low": "Per hand, low end (antes)",
    "per_hand_high": "Per hand, high end (antes)",
    "chance_house_ahead": "Chance the house is ahead",
    "called_combinations": "Called: combinations",
    "called_dealer_not_qualifying": "Called: dealer does not qualify",
    "called_player_wins": "Called: player wins",
    "called_tie": "Called: tie",
    "called_dealer_wins": "Called: dealer wins",
    "hand": "Hand",
    "share": "Share of states",
    "optimal_call_rate": "Optimal call rate",
    "simple_call_rate": "Simple strategy call rate",
    "always-call_call_rate": "Always-call call rate",
    "mean_call_minus_fold": "Average EV(call) minus EV(fold) (antes)",
    "cost_vs_optimal": "Cost against optimal play (per ante)",
    "cost_vs_optimal_exact": "Cost against optimal play (exact)",
    "house_edge_exact": "House edge (exact)",
    "standard_deviation": "Standard deviation (antes)",
    "std_error": "Standard error",
    "ci95_low": "95% interval, low end",
    "ci95_high": "95% interval, high end",
    "pays_to_1": "Pays (to 1)",
    "pays_exact": "Pays (exact)",
    "forfeited_on_fold": "Forfeited on a fold",
    "return": "Return to player",
    "combined_house_edge_per_hand": "Main game and side bet: house edge per hand",
    "combined_house_edge_exact": "Main game and side bet: house edge (exact)",
    "combined_per_unit_wagered": "Main game and side bet: per unit wagered",
    "combined_house_edge_separate": "Main game and side bet, strategies separate: house edge",
    "meter": "Meter (units)",
    "break_even_meter": "Break-even meter (units)",
    "long_run_return": "Long-run return",
    "at_least_1_in_100m": "At least 1 in 100 million",
    "pays": "Pays (to 1)",
    "net": "Net (units)",
    "made hand": "Made hand",
    "confidence": "Confidence level",
    "true_odds_text": "True odds",
    "true_odds": "True odds (to 1)",
    "payout_odds": "Payout odds",
}

#: Columns whose kind their name or values would not tell.
KINDS: dict[str, Kind] = {"states": "count", "hands": "count", "confidence": "level"}

#: Machine labels in a table's cells, in words.
LABELS = {
    "fold": "fold",
    "dealer_not_qualifying": "dealer does not qualify",
    "player_wins": "player wins",
    "tie": "tie",
    "dealer_wins": "dealer wins",
    "noqual": "dealer does not qualify",
    "win": "player wins",
    "loss": "dealer wins",
    "always-call": "always call",
    "optimal": "optimal",
    "simple": "simple",
    "bad-beat": "bad beat",
    "first-six": "hole cards and flop",
    "final": "final hand",
}

#: Columns whose cells are labels (translated to words), whatever their name says.
LABEL_COLUMNS = frozenset({"outcome", "category", "final_hand", "line", "strategy", "kind", "information"})

#: Units of a figure table's "value" column that are shares (shown as percentages).
PERCENT_UNITS = frozenset({"per ante", "per unit wagered", "of hands", "of deals", "of the ante", "per unit staked"})

_PERCENT_WORDS = (
    "probability",
    "rate",
    "frequency",
    "share",
    "edge",
    "risk",
    "chance",
    "return",
    "hold",
    "cost",
    "per_unit",
    "ci95",
    "std_error",
)


def header(name: object) -> str:
    """A column's header in words (a known header, else the name with spaces for underscores
    and a capital first letter)."""
    text = str(name)
    if text in HEADERS:
        return HEADERS[text]
    if text.endswith("_exact"):
        return f"{header(text[: -len('_exact')]).split(' (')[0]} (exact)"  # the unit goes: a fraction has none
    words = text.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def label(value: object) -> str:
    """A machine label in words (``"royal_flush"`` -> ``"royal flush"``)."""
    text = str(value)
    if text in LABELS:
        return LABELS[text]
    return text.replace("_", " ")


def percent(value: Fraction | float) -> str:
    """A share as the par sheets print it in their text: a percentage, four decimals."""
    return f"{float(value):.{PERCENT_DECIMALS}%}"


#: The pay tables that ship with the package, by the names their makers give them.
PAYTABLE_TITLES = {"antewin": "AnteWin", "madrid": "Madrid"}


def shipped_paytable(paytable: PayTable) -> bool:
    """Whether the table is one that ships with the package, loaded by its name."""
    return paytable.source.endswith("(package)")


def paytable_name(paytable: PayTable) -> str:
    """``"AnteWin"``: a shipped table by its maker's name, any other by its own."""
    return PAYTABLE_TITLES.get(paytable.name, paytable.name) if shipped_paytable(paytable) else paytable.name


def paytable_origin(paytable: PayTable) -> str:
    """Where a pay table comes from, in words and without a folder: shipped, a file's name,
    or made in memory."""
    if shipped_paytable(paytable):
        return "ships with the package"
    return f"the file {Path(paytable.source).name}" if paytable.source else "made in memory"


def signed_antes(amount: Fraction) -> str:
    """``"+4 antes"``, ``"-1 ante"``, ``"0 antes"``, ``"+7/2 antes"``."""
    return f"{'+' if amount > 0 else ''}{amount} ante{'' if abs(amount) == 1 else 's'}"


def machine_rows() -> list[tuple[str, str]]:
    """What a par sheet's metadata says of the machine that made it, in words (no build tags)."""
    return [
        ("python", sys.version.split()[0]),
        ("numpy / pandas", f"{np.__version__} / {pd.__version__}"),
        ("platform", f"{platform.system()} {platform.release()} ({platform.machine().replace('_', '-')})"),
    ]


def ante_multiple(multiple: int) -> str:
    """A bet of ``multiple`` antes as a table states it: ``"once the ante"``, ``"3 times the ante"``."""
    return "once the ante" if multiple == 1 else f"{multiple} times the ante"


def category_words(category: str) -> str:
    """A final hand in words: ``"royal flush"`` for ``"royal_flush"``."""
    return category.replace("_", " ")


def column_kind(name: str, values: pd.Series) -> Kind:
    """How a column's values are shown, from its name and its values."""
    text = str(name)
    if text in KINDS:
        return KINDS[text]
    if text in LABEL_COLUMNS:
        return "label"
    if text.endswith("exact") or "(exact)" in text:
        return "exact"
    if text == "one_in":
        return "one_in"
    if text in ("pays_to_1", "pays"):
        return "pays"
    if pd.api.types.is_bool_dtype(values):
        return "flag"
    if pd.api.types.is_integer_dtype(values):
        return "count"
    if pd.api.types.is_float_dtype(values):
        if "antes" in text or "(units)" in text:
            return "number"
        return "percent" if any(w in text for w in _PERCENT_WORDS) else "number"
    return "text"


def cell_text(value: object, kind: Kind) -> str:
    """One value as shown in the page and the PDF."""
    if value is None or (isinstance(value, (float, np.floating)) and math.isnan(value)):
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if kind == "label":
        return label(value)
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and kind in ("count", "number", "text"):
        return f"{int(value):,}"
    if isinstance(value, (int, float, np.integer, np.floating, Fraction)):
        v = float(value)
        if kind == "percent":
            return f"{v:.{PERCENT_DECIMALS}%}"
        if kind == "level":
            return f"{v:.0%}"
        if kind == "one_in":
            return "never" if math.isinf(v) else f"1 in {v:,.0f}" if v >= 100 else f"1 in {v:,.2f}"
        if kind == "pays":
            return f"{value:g} to 1" if isinstance(value, float) else f"{value} to 1"
        if kind == "count" and v == int(v):
            return f"{int(v):,}"
        return f"{v:,.4f}" if abs(v) >= 1e-3 or v == 0 else f"{v:.8f}"
    return str(value)


def _value_kinds(frame: pd.DataFrame) -> list[Kind] | None:
    """A figure table's "value" column holds figures of several kinds: each row's kind
    follows its unit (a share is a percentage)."""
    if "value" not in frame.columns or "unit" not in frame.columns:
        return None
    kinds: list[Kind] = []
    for value, unit in zip(frame["value"], frame["unit"]):
        if unit in PERCENT_UNITS:
            kinds.append("percent")
        elif isinstance(value, (int, np.integer)):
            kinds.append("count")
        elif isinstance(value, (float, np.floating)):
            kinds.append("number")
        else:
            kinds.append("text")
    return kinds


def cell_kinds(frame: pd.DataFrame) -> dict[str, list[Kind]]:
    """The kind of every cell, column by column."""
    out: dict[str, list[Kind]] = {}
    for col in frame.columns:
        kind = column_kind(str(col), frame[col])
        out[str(col)] = [kind] * len(frame)
    rows = _value_kinds(frame)
    if rows is not None:
        out["value"] = rows
    return out


def readable(frame: pd.DataFrame, kinds: dict[str, list[Kind]] | None = None) -> pd.DataFrame:
    """The table as text a person reads: headers in words, every cell shown by its kind
    (``kinds``: :func:`cell_kinds` of the frame, when the caller has them)."""
    kinds = cell_kinds(frame) if kinds is None else kinds
    return pd.DataFrame(
        {header(col): [cell_text(v, k) for v, k in zip(frame[col], kinds[str(col)])] for col in frame.columns},
        columns=[header(col) for col in frame.columns],
    )


def in_words(
    frame: pd.DataFrame,
    shares: Collection[str] = (),
    headers: Mapping[str, str] | None = None,
    labels: Mapping[str, str] | None = None,
    decimals: int = PERCENT_DECIMALS,
) -> pd.DataFrame:
    """A table as a person reads it in a notebook, for display only (the figures stay exact
    underneath): headers and labels in words (``headers`` and ``labels`` give those a reader
    would not guess from the names), the columns named in ``shares`` as percentages, counts
    with thousands separators, exact pays by final hand as a list."""
    headers, labels = headers or {}, labels or {}

    def words(value: object, share: bool = False) -> str:
        if isinstance(value, (bool, np.bool_)):
            return "yes" if value else "no"
        if value is None or (isinstance(value, float) and value != value):
            return ""
        if share:
            return f"{float(value):.{decimals}%}"  # type: ignore[arg-type]
        if isinstance(value, Integral):
            return f"{value:,}"
        if isinstance(value, float):
            return f"{value:,.0f}" if round(value, decimals).is_integer() else f"{value:,.{decimals}f}"
        if isinstance(value, dict):
            return ", ".join(f"{words(k)} {v}" for k, v in value.items())
        return labels.get(str(value), str(value).replace("_", " "))

    def title(name: object) -> str:
        text = headers.get(str(name)) or str(name).replace("_exact", " (exact)").replace("_", " ")
        return text[:1].upper() + text[1:]

    cells = {c: [words(v, c in shares) for v in frame[c]] for c in frame.columns}
    shown = pd.DataFrame(cells, index=frame.index, columns=frame.columns).rename(index=words, columns=title)
    return shown.rename_axis(index=lambda n: n and title(n), columns=lambda n: n and title(n))


def side_by_side(frame: pd.DataFrame, key: str) -> pd.DataFrame:
    """A wide table turned for reading: one row per figure (its header in words), one column
    per row of ``frame`` (named by its ``key``), every cell shown by its kind; a figure that
    no row has is left out."""
    kinds = cell_kinds(frame)
    rows = []
    for col in frame.columns.drop(key):
        cells = [cell_text(v, k) for v, k in zip(frame[col], kinds[str(col)])]
        if any(cells):
            rows.append([header(col), *cells])
    return pd.DataFrame(rows, columns=["figure", *map(str, frame[key])])


#: Excel number formats of each kind (a workbook keeps numbers as numbers).
EXCEL_FORMATS: dict[Kind, str] = {
    "count": "#,##0",
    "percent": "0." + "0" * PERCENT_DECIMALS + "%",
    "level": "0%",
    "one_in": '"1 in "#,##0',
    "pays": 'General" to 1"',
    "number": "#,##0.0000",
}


def workbook_table(frame: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, list[Kind]]]:
    """The table for a workbook: headers and labels in words, numbers left as numbers, and
    each cell's kind (for its number format), keyed by the new headers."""
    kinds = cell_kinds(frame)
    out = pd.DataFrame(
        {
            header(col): frame[col].map(_label_cell) if kinds[str(col)][:1] == ["label"] else frame[col]
            for col in frame.columns
        },
        columns=[header(col) for col in frame.columns],
    )
    return out, {header(col): kinds[str(col)] for col in frame.columns}


def _label_cell(value: object) -> object:
    return value if value is None or (isinstance(value, float) and math.isnan(value)) else label(value)


#: Each decision point in words.
#: The community cards by the order they are turned (a game without a dealer's streets).
ORDINALS = ("first", "second", "third", "fourth", "fifth")


def community_card_words(street: int) -> str:
    """The card of street ``street`` (0: the first turned) seen from the start, in words."""
    return f"the {ORDINALS[street]} community card, seen from the start"


STREET_WORDS = {"preflop": "before the flop", "flop": "at the flop", "turn": "at the turn", "river": "at the river"}
#: The dealer's result in words: a one-decision game's "noqual" (every hand alike), the
#: street engine's six results.
RESULT_WORDS = {
    "noqual": "does not qualify",
    "noqual_win": "does not qualify; player's hand is better",
    "noqual_tie": "does not qualify; tie",
    "noqual_loss": "does not qualify; dealer's hand is better",
    "win": "qualifies; player wins",
    "tie": "qualifies; tie",
    "loss": "qualifies; dealer wins",
}
