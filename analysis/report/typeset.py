"""The par sheet typeset as PDF with Typst (through its Python package, fonts included):
a title page with the hashes that pin the figures, contents, page numbers, tables in words
and the plots as vector graphics; a ``.sha256`` file beside it, as ``sha256sum`` writes it.

The document goes to Typst as data (JSON read by ``parsheet.typ``), so no name or label in
it can act as markup.
"""

from __future__ import annotations

import hashlib
import json
import re
import tempfile
from importlib.resources import files
from pathlib import Path
from typing import Any

import typst

from analysis.report.document import Block, Command, Document, Items, Paragraph, Plot, Subsection, Table
from analysis.report.wording import NUMERIC, cell_kinds, readable
from analysis.store.atomic import atomic_write_bytes
from analysis.store.shards import package_version

TEMPLATE = "parsheet.typ"


#: Where a number may be wrapped in a table cell: after the separator of a digit group
#: ("1,234,567") and after the slash of a fraction ("123/4567"), nowhere else.
_NUMBER_BREAK = re.compile(r"(?<=\d)([,/])(?=\d)")

#: A zero-width space: a place to break a line that shows nothing.
BREAK = "\u200b"


#: "1 in 2,572" is read as one figure: its spaces do not break.
_ONE_IN = re.compile(r"\b1 in (?=\d)")


def breakable(text: str) -> str:
    """``text`` with places to wrap its numbers between digit groups and at the slash of a
    fraction (the template takes them back when the table is wide enough to show every
    number whole), so no number is wrapped mid-group; "1 in N" is kept whole."""
    return _NUMBER_BREAK.sub(rf"\1{BREAK}", _ONE_IN.sub("1\u00a0in\u00a0", text))


def _widest(texts: list[str], count: int = 5) -> list[str]:
    """The few longest of ``texts``: the candidates for a column's widest, measured by the template."""
    return sorted(set(texts), key=len, reverse=True)[:count]


def _column_fit(head: str, cells: list[str]) -> dict[str, Any]:
    """What the template measures to size a column: its header and widest cells, and the
    widest pieces that cannot wrap: the header's words, the cells' words with every number
    whole ("words"), and with numbers wrapped at digit groups and slashes ("pieces")."""
    return {
        "header": head,
        "header_words": _widest(head.split(" ")),
        "cells": _widest(cells),
        "words": _widest([w for c in cells for w in c.replace(BREAK, "").split(" ")]),
        "pieces": _widest([w for c in cells for w in re.split(f"[ {BREAK}]", c)]),
    }


def _block(b: Block, images: dict[str, str]) -> dict[str, Any]:
    if isinstance(b, Paragraph):
        return {"type": "paragraph", "text": b.text, "note": b.note}
    if isinstance(b, Items):
        return {"type": "items", "items": list(b.items), "numbered": b.numbered}
    if isinstance(b, Command):
        return {"type": "command", "text": b.text}
    if isinstance(b, Table):
        kinds = cell_kinds(b.frame)
        shown = readable(b.frame, kinds)
        numeric = [bool(len(b.frame)) and kinds[str(c)][0] in NUMERIC for c in b.frame.columns]
        rows = [[breakable(str(v)) for v in row] for row in shown.to_numpy().tolist()]
        header = [str(h) for h in shown.columns]
        return {
            "type": "table",
            "header": header,
            "rows": rows,
            "fit": [_column_fit(h, [row[i] for row in rows]) for i, h in enumerate(header)],
            "numeric": numeric,
            "caption": b.caption,
        }
    if isinstance(b, Plot):
        return {"type": "plot", "file": images[b.key], "caption": b.caption}
    if isinstance(b, Subsection):
        return {"type": "subsection", "heading": b.heading, "blocks": [_block(x, images) for x in b.blocks]}
    raise TypeError(f"not a block: {b!r}")


def pdf_bytes(doc: Document) -> bytes:
    """The document typeset as PDF."""
    with tempfile.TemporaryDirectory(prefix="parsheet-") as tmp:
        folder = Path(tmp)
        names = {}
        for i, (key, img) in enumerate(doc.images.items()):
            names[key] = f"plot-{i}.svg"
            (folder / names[key]).write_bytes(img.svg)
        data = {
            "title": doc.title,
            "subtitle": doc.subtitle,
            "author": f"casino-omaha-analysis {package_version()}",
            "facts": [list(f) for f in doc.facts],
            "sections": [
                {"key": s.key, "heading": s.heading, "blocks": [_block(b, names) for b in s.blocks]}
                for s in doc.sections
            ],
        }
        (folder / "document.json").write_text(json.dumps(data), encoding="utf-8")
        source = folder / TEMPLATE
        source.write_text(files("analysis.report").joinpath(TEMPLATE).read_text(encoding="utf-8"), encoding="utf-8")
        out: bytes = typst.compile(str(source), root=str(folder))
        return out


def write_pdf(doc: Document, path: Path) -> Path:
    """``path`` (the PDF) and ``path.sha256`` beside it, each written atomically; returns the PDF's path."""
    pdf = pdf_bytes(doc)
    atomic_write_bytes(path, pdf)
    digest = hashlib.sha256(pdf).hexdigest()
    atomic_write_bytes(path.with_name(path.name + ".sha256"), f"{digest}  {path.name}\n".encode())
    return path
