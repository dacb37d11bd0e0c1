"""The par sheet typeset as PDF with Typst (through its Python package, fonts included):
a title page with the hashes that pin the figures, contents, page numbers, tables in words
and the plots as vector graphics; a ``.sha256`` file beside it, as ``sha256sum`` writes it.

The document goes to Typst as data (JSON read by ``parsheet.typ``), so no name or label in
it can act as markup.
"""

from __future__ import annotations

import hashlib
import json
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


def _breakable(text: str, every: int = 12) -> str:
    """Text whose long unbroken words (an exact fraction, a hash) get places to break a
    line, so it wraps in its cell instead of running over the next one."""
    return " ".join(
        "\u200b".join(w[i : i + every] for i in range(0, len(w), every)) if len(w) > every else w
        for w in text.split(" ")
    )


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
        return {
            "type": "table",
            "header": list(shown.columns),
            "rows": [[_breakable(str(v)) for v in row] for row in shown.to_numpy().tolist()],
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
