"""Rendering a report: the Excel workbook (one table per sheet), the self-contained HTML
page of its :class:`~analysis.report.document.Document` (plots embedded as PNG) and, through
:mod:`analysis.report.typeset`, the PDF. Each is written atomically: an older report of the
same name survives a failed write.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import pandas as pd

from analysis.report.document import Block, Command, Document, Items, Paragraph, Plot, Table
from analysis.report.typeset import write_pdf
from analysis.report.wording import EXCEL_FORMATS, NUMERIC, cell_kinds, cell_text, readable, workbook_table
from analysis.store.atomic import atomic_path
from analysis.store.shards import package_version

#: What a spreadsheet reads as the start of a formula (OWASP, CSV injection), with the
#: full-width forms that an East Asian input method turns into them.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def _text_stays_text(sheet: Any) -> None:  # an openpyxl Worksheet (openpyxl has no types)
    """Every text cell is a string cell: openpyxl makes a text starting with "=" a formula
    and one like "#REF!" an error, so a side bet or pay table named by its user (a file
    ``=2+3.csv``) would be evaluated. Text that looks like a formula is also quote-prefixed
    (Excel's leading apostrophe), so editing the cell does not evaluate it either."""
    for row in sheet.iter_rows():
        for cell in row:
            if isinstance(cell.value, str):
                cell.data_type = "s"
                if cell.value.startswith(FORMULA_STARTS):
                    cell.quotePrefix = True


def write_sheets(sheets: Mapping[str, pd.DataFrame], path: Path, title: str) -> None:
    """Any report's workbook, one table per sheet (every report writes through here, so
    every text cell of every report stays text): headers and labels in words; numbers stay
    numbers, shown as percentages, counts or "1 in N" by their number format; exact fractions
    and names are text."""
    with atomic_path(path) as tmp, pd.ExcelWriter(tmp, engine="openpyxl") as xl:
        for name, machine in sheets.items():
            table, kinds = workbook_table(machine)
            table.to_excel(xl, sheet_name=name, index=False)
            sheet = xl.sheets[name]
            _text_stays_text(sheet)
            for col, header in zip(sheet.columns, table.columns):
                width = max(
                    [len(str(header))] + [len(cell_text(v, k)) for v, k in zip(table[header].head(50), kinds[header])]
                )
                sheet.column_dimensions[col[0].column_letter].width = min(60, width + 2)
                for cell, kind in zip(col[1:], kinds[header]):
                    if kind in EXCEL_FORMATS and isinstance(cell.value, (int, float)):
                        cell.number_format = EXCEL_FORMATS[kind]
            sheet.freeze_panes = "A2"
        xl.book.properties.title = title
        xl.book.properties.creator = f"casino-omaha-analysis {package_version()}"


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
margin:2em auto;max-width:1100px;color:#222;line-height:1.4}
h1{font-size:1.6em}h2{border-bottom:2px solid #2166ac;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:1em 0;font-size:.88em}th,td{border:1px solid #ccc;padding:.25em .6em}
th{background:#eef3f8;text-align:left}td{text-align:right;
font-variant-numeric:tabular-nums}
td.text{text-align:left}img{max-width:100%;display:block;margin:1em 0}
nav a{margin-right:1em}
.scroll{overflow-x:auto}.formulas li{font-family:ui-monospace,monospace;font-size:.9em}.note{color:#555}
"""


def html_table(table: pd.DataFrame) -> str:
    """The table in words (:func:`analysis.report.wording.readable`); text cells left, figures right."""
    kinds = cell_kinds(table)
    shown = readable(table, kinds)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in shown.columns)
    body = []
    for i, row in enumerate(shown.itertuples(index=False)):
        cells = []
        for col, text in zip(table.columns, row):
            cls = "" if kinds[str(col)][i] in NUMERIC else ' class="text"'
            cells.append(f"<td{cls}>{html.escape(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'


def img_tag(png: bytes, alt: str) -> str:
    """A PNG embedded in the page (no file, no request)."""
    data = base64.b64encode(png).decode()
    return f'<img src="data:image/png;base64,{data}" alt="{html.escape(alt)}">'


def _block_html(b: Block, doc: Document) -> str:
    if isinstance(b, Paragraph):
        return f'<p class="note">{html.escape(b.text)}</p>' if b.note else f"<p>{html.escape(b.text)}</p>"
    if isinstance(b, Items):
        tag = "ol" if b.numbered else "ul"
        return f"<{tag}>" + "".join(f"<li>{html.escape(i)}</li>" for i in b.items) + f"</{tag}>"
    if isinstance(b, Command):
        return f"<pre><code>{html.escape(b.text)}</code></pre>"
    if isinstance(b, Table):
        caption = f'<p class="caption">{html.escape(b.caption)}</p>' if b.caption else ""
        return caption + html_table(b.frame)
    if isinstance(b, Plot):
        return img_tag(doc.images[b.key].png, b.caption)
    return f"<h3>{html.escape(b.heading)}</h3>" + "".join(_block_html(x, doc) for x in b.blocks)


def document_html(doc: Document) -> str:
    """The document as one self-contained page: the title page's facts, then every section."""
    facts = pd.DataFrame(list(doc.facts), columns=["item", "value"])
    head = (f"<p><b>{html.escape(doc.subtitle)}</b></p>", html_table(facts))
    sections = [(s.key, s.heading, "".join(_block_html(b, doc) for b in s.blocks)) for s in doc.sections]
    return html_page(doc.title, sections, "".join(head))


class Written(NamedTuple):
    """The files of one report."""

    workbook: Path
    page: Path
    pdf: Path


def write_report(doc: Document, sheets: Mapping[str, pd.DataFrame], out_dir: str | Path, stem: str) -> Written:
    """``<stem>.xlsx`` (the sheets), ``<stem>.html`` and ``<stem>.pdf`` (the document, with
    ``<stem>.pdf.sha256``) in ``out_dir``, each written atomically."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = Written(out / f"{stem}.xlsx", out / f"{stem}.html", out / f"{stem}.pdf")
    write_sheets(sheets, written.workbook, doc.title)
    with atomic_path(written.page) as tmp:
        tmp.write_text(document_html(doc), encoding="utf-8")
    write_pdf(doc, written.pdf)
    return written


def html_page(title: str, sections: Sequence[tuple[str, str, str]], head: str = "") -> str:
    """One self-contained page: a title, ``head``, a navigation line and the sections (anchor,
    heading, HTML body), styled inline; every report's page is framed here."""
    nav = "".join(f'<a href="#{key}">{html.escape(name)}</a>' for key, name, _ in sections)
    body = "".join(f'<section id="{key}"><h2>{html.escape(name)}</h2>{part}</section>' for key, name, part in sections)
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{_CSS}</style></head><body><h1>{html.escape(title)}</h1>{head}<nav>{nav}</nav>{body}</body></html>"
    )
