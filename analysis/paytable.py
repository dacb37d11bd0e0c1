"""Pay tables: what the winning bet pays ("to 1") for each player final category.

A pay table is a CSV file with a header ``category,pays`` and one row per category
(the ten names of :data:`analysis.tables.CATEGORIES`); lines starting with ``#`` are
comments. Pays are exact decimals or fractions (``1.5``, ``3/2``) and kept as Fractions.

>>> PayTable.load("madrid").pays["full_house"]
Fraction(7, 1)
>>> t = PayTable.from_mapping({c: 1 for c in CATEGORIES}, name="even")
>>> t.pays["flush"]
Fraction(1, 1)
>>> PayTable.from_mapping({"flush": 2})
Traceback (most recent call last):
...
analysis.paytable.PayTableError: pay table 'custom': missing categories: high_card, pair, two_pair, three_of_a_kind, straight, full_house, four_of_a_kind, straight_flush, royal_flush
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from pathlib import Path

import pandas as pd

from .tables import CATEGORIES

PAYTABLE_DIR = Path(__file__).resolve().parents[1] / "data" / "paytables"
DEFAULT_PAYTABLE = PAYTABLE_DIR / "antewin.csv"


class PayTableError(ValueError):
    """A pay table that cannot be used; the message names the file, row and problem."""


def parse_pay(text: str) -> Fraction:
    value = Fraction(text.strip())  # ValueError on non-numbers
    return value


@dataclass(frozen=True)
class PayTable:
    name: str
    pays: dict[str, Fraction]  # category name -> pays "to 1"
    source: str = ""

    @classmethod
    def from_mapping(cls, pays: dict, name: str = "custom", source: str = "") -> PayTable:
        where = f"pay table {name!r}"
        unknown = [c for c in pays if c not in CATEGORIES]
        if unknown:
            raise PayTableError(f"{where}: unknown categories: {', '.join(map(str, unknown))} "
                                f"(known: {', '.join(CATEGORIES)})")
        missing = [c for c in CATEGORIES if c not in pays]
        if missing:
            raise PayTableError(f"{where}: missing categories: {', '.join(missing)}")
        checked = {}
        for c in CATEGORIES:
            try:
                value = parse_pay(str(pays[c])) if not isinstance(pays[c], Fraction) else pays[c]
            except (ValueError, ZeroDivisionError):
                raise PayTableError(f"{where}: {c}: pay {pays[c]!r} is not a number") from None
            if value < 0:
                raise PayTableError(f"{where}: {c}: pay {pays[c]} is negative")
            checked[c] = value
        return cls(name, checked, source)

    @classmethod
    def from_csv(cls, path: str | Path) -> PayTable:
        path = Path(path)
        try:
            text = path.read_text()
        except OSError as e:
            raise PayTableError(f"{path}: cannot read the pay table: {e.strerror}") from None
        return cls.from_text(text, name=path.stem, source=str(path))

    @classmethod
    def from_text(cls, text: str, name: str = "custom", source: str = "") -> PayTable:
        where = source or name
        rows = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip() and not line.lstrip().startswith("#")]
        if not rows:
            raise PayTableError(f"{where}: the pay table is empty")
        header_no, header = rows[0]
        if [h.strip().lower() for h in next(csv.reader([header]))] != ["category", "pays"]:
            raise PayTableError(f"{where}: row {header_no}: expected the header 'category,pays', got {header.strip()!r}")
        pays: dict[str, Fraction] = {}
        for n, line in rows[1:]:
            fields = [f.strip() for f in next(csv.reader(io.StringIO(line)))]
            if len(fields) != 2:
                raise PayTableError(f"{where}: row {n}: expected 2 fields (category,pays), got {len(fields)}")
            category, pay = fields
            if category not in CATEGORIES:
                raise PayTableError(f"{where}: row {n}: unknown category {category!r} (known: {', '.join(CATEGORIES)})")
            if category in pays:
                raise PayTableError(f"{where}: row {n}: category {category!r} appears twice")
            try:
                value = parse_pay(pay)
            except (ValueError, ZeroDivisionError):
                raise PayTableError(f"{where}: row {n}: pay {pay!r} for {category} is not a number") from None
            if value < 0:
                raise PayTableError(f"{where}: row {n}: pay {pay} for {category} is negative")
            pays[category] = value
        missing = [c for c in CATEGORIES if c not in pays]
        if missing:
            raise PayTableError(f"{where}: missing categories: {', '.join(missing)}")
        return cls(name, pays, source)

    @classmethod
    def load(cls, spec) -> PayTable:
        """A pay table from a PayTable, a CSV path, the name of a table in
        data/paytables (``"madrid"``), a {category: pays} dict or a DataFrame."""
        if isinstance(spec, PayTable):
            return spec
        if spec is None:
            return cls.from_csv(DEFAULT_PAYTABLE)
        if isinstance(spec, pd.DataFrame):
            return cls.from_mapping(dict(zip(spec["category"], spec["pays"])), name="dataframe")
        if isinstance(spec, dict):
            return cls.from_mapping(spec)
        named = PAYTABLE_DIR / f"{spec}.csv"
        if isinstance(spec, str) and not Path(spec).exists() and named.exists():
            return cls.from_csv(named)
        return cls.from_csv(spec)

    def vector(self) -> list[Fraction]:
        """Pays in category-code order."""
        return [self.pays[c] for c in CATEGORIES]

    def integer_vector(self) -> tuple[list[int], int]:
        """Pays scaled to integers by their common denominator: (pays * d, d)."""
        d = lcm(*(p.denominator for p in self.vector()))
        return [int(p * d) for p in self.vector()], d

    def replace(self, name: str | None = None, **pays) -> PayTable:
        new = dict(self.pays) | {c: Fraction(v) for c, v in pays.items()}
        return PayTable.from_mapping(new, name=name or f"{self.name}*")

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame({"category": list(reversed(CATEGORIES)),
                             "pays": [float(self.pays[c]) for c in reversed(CATEGORIES)]})
