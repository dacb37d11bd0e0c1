"""Pay tables: what the winning bet pays ("to 1") for each player final category.

A pay table is a CSV file with a header ``category,pays`` and one row per category
(the ten names of :data:`analysis.model.categories.CATEGORIES`); lines starting with ``#`` are
comments. Pays are exact decimals or fractions (``1.5``, ``3/2``) and kept as Fractions;
numbers given from Python are taken by their decimal text (``1.1`` is 11/10).

The tables that ship with the package (``analysis/model/paytables/*.csv``, read through
:mod:`importlib.resources`) are loaded by name: ``"antewin"`` (the default), ``"madrid"``.

>>> PayTable.load("madrid").pays["full_house"]
Fraction(7, 1)
>>> PayTable.load(None).replace(flush=1.1).pays["flush"]
Fraction(11, 10)
>>> t = PayTable.from_mapping({c: 1 for c in CATEGORIES}, name="even")
>>> t.pays["flush"]
Fraction(1, 1)
>>> PayTable.from_mapping({c: 1 for c in CATEGORIES if c != "pair"})
Traceback (most recent call last):
...
analysis.model.paytable.PayTableError: pay table 'custom': missing categories: pair
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.files import builtin_files, csv_rows, read_csv_text
from analysis.model.numbers import NumberLike, as_fraction, shown

if TYPE_CHECKING:  # pandas is imported where a frame is made: loading a table does not need it
    import pandas as pd

#: The name of the default pay table (AnteWin, paid on the ante).
DEFAULT_PAYTABLE = "antewin"


class PayTableError(InputError):
    """A pay table that cannot be used; the message names the file, row and problem."""


def builtin_paytables() -> dict[str, str]:
    """The pay tables that ship with the package: name -> CSV text."""
    return builtin_files("analysis.model", "paytables")


@dataclass(frozen=True)
class PayTable:
    name: str
    pays: dict[str, Fraction]  # category name -> pays "to 1"
    source: str = ""

    @classmethod
    def from_mapping(cls, pays: Mapping[str, NumberLike], name: str = "custom", source: str = "") -> PayTable:
        where = f"pay table {name!r}"
        unknown = [c for c in pays if c not in CATEGORIES]
        if unknown:
            raise PayTableError(
                f"{where}: unknown categories: {', '.join(map(str, unknown))} (known: {', '.join(CATEGORIES)})"
            )
        missing = [c for c in CATEGORIES if c not in pays]
        if missing:
            raise PayTableError(f"{where}: missing categories: {', '.join(missing)}")
        checked: dict[str, Fraction] = {}
        for c in CATEGORIES:
            try:
                value = as_fraction(pays[c])
            except InputError as e:
                raise PayTableError(f"{where}: {c}: pay {e}") from None
            if value < 0:
                raise PayTableError(f"{where}: {c}: pay {pays[c]} is negative")
            checked[c] = value
        return cls(name, checked, source)

    @classmethod
    def from_csv(cls, path: str | Path) -> PayTable:
        text = read_csv_text(path, "pay table", PayTableError)
        return cls.from_text(text, name=Path(path).stem, source=str(path))

    @classmethod
    def from_text(cls, text: str, name: str = "custom", source: str = "") -> PayTable:
        where = source or name
        rows = csv_rows(text)
        if not rows:
            raise PayTableError(f"{where}: the pay table is empty")
        header_no, header = rows[0]
        if [h.lower() for h in header] != ["category", "pays"]:
            raise PayTableError(
                f"{where}: row {header_no}: expected the header 'category,pays', got {','.join(header)!r}"
            )
        pays: dict[str, Fraction] = {}
        for n, fields in rows[1:]:
            if len(fields) != 2:
                raise PayTableError(f"{where}: row {n}: expected 2 fields (category,pays), got {len(fields)}")
            category, pay = fields
            if category not in CATEGORIES:
                raise PayTableError(f"{where}: row {n}: unknown category {category!r} (known: {', '.join(CATEGORIES)})")
            if category in pays:
                raise PayTableError(f"{where}: row {n}: category {category!r} appears twice")
            try:
                value = as_fraction(pay)
            except InputError as e:
                raise PayTableError(f"{where}: row {n}: pay for {category}: {e}") from None
            if value < 0:
                raise PayTableError(f"{where}: row {n}: pay {pay} for {category} is negative")
            pays[category] = value
        missing = [c for c in CATEGORIES if c not in pays]
        if missing:
            raise PayTableError(f"{where}: missing categories: {', '.join(missing)}")
        return cls(name, pays, source)

    @classmethod
    def load(cls, spec: PayTableSpec = None) -> PayTable:
        """A pay table from a PayTable, a CSV path, the name of a table that ships with the
        package (``"madrid"``; None for the default), a {category: pays} mapping or a DataFrame."""
        if isinstance(spec, PayTable):
            return spec
        if spec is None:
            spec = DEFAULT_PAYTABLE
        pandas = sys.modules.get("pandas")  # a DataFrame was made by an imported pandas
        if pandas is not None and isinstance(spec, pandas.DataFrame):
            return cls.from_mapping(dict(zip(spec["category"], spec["pays"])), name="dataframe")
        if isinstance(spec, Mapping):
            return cls.from_mapping(spec)
        builtin = builtin_paytables()
        if not isinstance(spec, (str, PathLike)):
            raise PayTableError(
                f"pay table {shown(spec)} ({type(spec).__name__}): give a PayTable, a CSV path, the name of a table "
                f"that ships ({', '.join(sorted(builtin))}), a {{category: pays}} mapping, a DataFrame or None"
            )
        if isinstance(spec, str) and spec in builtin and not Path(spec).exists():
            return cls.from_text(builtin[spec], name=spec, source=f"analysis/model/paytables/{spec}.csv (package)")
        return cls.from_csv(spec)

    def vector(self) -> list[Fraction]:
        """Pays in category-code order."""
        return [self.pays[c] for c in CATEGORIES]

    def replace(self, name: str | None = None, **pays: NumberLike) -> PayTable:
        """This table with some pays changed (numbers or text, taken exactly)."""
        return self.with_pays(pays, name)

    def with_pays(self, pays: Mapping[str, NumberLike], name: str | None = None) -> PayTable:
        """This table with the pays of a {category: pays} mapping changed: what :meth:`replace`
        does for categories known only at run time (a ``name`` among them is an unknown
        category, not the table's name)."""
        return PayTable.from_mapping(dict(self.pays) | dict(pays), name=name or f"{self.name}*")

    def to_csv(self) -> str:
        """The table as CSV text that :meth:`load` reads back exactly."""
        lines = [f"# pay table {self.name}", "category,pays"]
        return "\n".join(lines + [f"{c},{self.pays[c]}" for c in reversed(CATEGORIES)]) + "\n"

    def frame(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(
            {"category": list(reversed(CATEGORIES)), "pays": [float(self.pays[c]) for c in reversed(CATEGORIES)]}
        )


#: Anything :meth:`PayTable.load` takes: a table, a file, a name, a mapping, a DataFrame, None.
PayTableSpec: TypeAlias = "PayTable | str | Path | Mapping[str, NumberLike] | pd.DataFrame | None"
