"""The CSV files the package reads: its shipped tables (package data, read through
:mod:`importlib.resources`) and a user's files, with errors that name the file."""

from __future__ import annotations

import csv
import io
from importlib.resources import files
from pathlib import Path


def builtin_files(package: str, folder: str) -> dict[str, str]:
    """The CSV files that ship in ``folder`` of the subpackage ``package``: name -> text."""
    root = files(package) / folder
    return {p.name[: -len(".csv")]: p.read_text(encoding="utf-8") for p in root.iterdir() if p.name.endswith(".csv")}


def read_csv_text(path: str | Path, what: str, error: type[ValueError]) -> str:
    """The text of a CSV file; ``error`` names the file and the problem (``what``: the
    kind of file, for the message)."""
    path = Path(path)
    try:
        return path.read_text(encoding="utf-8-sig")  # a byte-order mark is allowed
    except OSError as e:
        raise error(f"{path}: cannot read the {what}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise error(f"{path}: not a UTF-8 text file (byte {e.start}): save the {what} as UTF-8 CSV") from None


def csv_rows(text: str) -> list[tuple[int, list[str]]]:
    """(line number, stripped fields) of every line that is neither blank nor a ``#`` comment."""
    text = text.removeprefix("\ufeff")
    return [
        (n, [f.strip() for f in next(csv.reader(io.StringIO(line)))])
        for n, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
