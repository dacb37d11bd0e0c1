"""A par sheet as a document: sections of paragraphs, numbered clauses, tables and plots.

Each report builds one :class:`Document`; the page (:mod:`analysis.report.render`) and the
PDF (:mod:`analysis.report.typeset`) render the same one, so the two cannot say different
things. Tables keep machine names here and are put in words by the renderers.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeAlias

import pandas as pd
from matplotlib.figure import Figure


@dataclass(frozen=True)
class Paragraph:
    text: str
    note: bool = False  # a remark in smaller print


#: What every par sheet says of its numbers, before its first table.
NUMBERS_NOTE = Paragraph(
    "Percentages are shown with four decimals, counts in full with separators, and every exact figure as a "
    "fraction in its own column: nothing is rounded before it is shown.",
    note=True,
)


@dataclass(frozen=True)
class Items:
    """A list; numbered lists are clauses (rules, strategy rules)."""

    items: tuple[str, ...]
    numbered: bool = True


@dataclass(frozen=True)
class Command:
    """A command to type, shown as such."""

    text: str


@dataclass(frozen=True, eq=False)
class Table:
    frame: pd.DataFrame
    caption: str = ""


@dataclass(frozen=True)
class Plot:
    key: str  # in :attr:`Document.images`
    caption: str


@dataclass(frozen=True)
class Subsection:
    heading: str
    blocks: tuple[Block, ...]


Block: TypeAlias = Paragraph | Items | Command | Table | Plot | Subsection


@dataclass(frozen=True)
class Section:
    key: str  # the page's anchor
    heading: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Image:
    """One plot as PNG (the page) and SVG (the PDF: vector)."""

    png: bytes
    svg: bytes


def image(fig: Figure) -> Image:
    def saved(fmt: str) -> bytes:
        buf = io.BytesIO()
        fig.savefig(buf, format=fmt, dpi=110, bbox_inches="tight", metadata={"Date": None} if fmt == "svg" else None)
        return buf.getvalue()

    return Image(saved("png"), saved("svg"))


@dataclass
class Document:
    """Title, the facts of the title page (what was analysed and the hashes that pin it),
    the sections in order and the plots they show."""

    title: str
    subtitle: str
    facts: tuple[tuple[str, str], ...]
    sections: tuple[Section, ...]
    images: dict[str, Image] = field(default_factory=dict)


def figures_sha256(lines: Iterable[str]) -> str:
    """SHA-256 of the exact figures, one line each (integers and fractions, never floats):
    the same counts and pays give the same hash on any machine, so a reader can tell two
    documents of the same figures from a changed one."""
    return hashlib.sha256("".join(f"{line}\n" for line in lines).encode()).hexdigest()
