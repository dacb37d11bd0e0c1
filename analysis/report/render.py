"""Rendering a report: the Excel workbook (one table per sheet) and the self-contained HTML
page (the same tables, with the plots embedded as PNG). Both are written atomically: an
older report of the same name survives a failed write.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from analysis.report.tables import FORMULAS
from analysis.store.atomic import atomic_path
from analysis.store.shards import package_version

if TYPE_CHECKING:
    from analysis.report.build import Report


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


def write_workbook(report: Report, path: Path) -> None:
    """One sheet per table; exact integers stay integers, exact fractions and names are text."""
    write_sheets(report.sheets, path, f"{report.rules.name} report")


def write_sheets(sheets: Mapping[str, pd.DataFrame], path: Path, title: str) -> None:
    """Any report's workbook, one table per sheet (every report writes through here, so
    every text cell of every report stays text)."""
    with atomic_path(path) as tmp, pd.ExcelWriter(tmp, engine="openpyxl") as xl:
        for name, table in sheets.items():
            table.to_excel(xl, sheet_name=name, index=False)
            sheet = xl.sheets[name]
            _text_stays_text(sheet)
            for col, header in zip(sheet.columns, table.columns):
                width = max([len(str(header))] + [len(str(v)) for v in table[header].head(50)])
                sheet.column_dimensions[col[0].column_letter].width = min(60, width + 2)
                if pd.api.types.is_integer_dtype(table[header]):
                    for cell in col[1:]:
                        cell.number_format = "#,##0"
            sheet.freeze_panes = "A2"
        xl.book.properties.title = title
        xl.book.properties.creator = f"casino-omaha-analysis {package_version()}"


SECTIONS = (
    ("summary", "Summary"),
    ("confidence", "The house's result after N hands"),
    ("return-table", "Return table"),
    ("outcomes", "Distribution of the result of a hand"),
    ("final-hands", "Final hands"),
    ("strategy", "Strategy"),
    ("simple-strategy", "A simple strategy"),
    ("side-bets", "Side bets"),
    ("protection", "Game protection"),
    ("rules", "Rules and pay table"),
    ("metadata", "Run metadata"),
)

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


def _fmt(value: object) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return f"{int(value):,}"
    if isinstance(value, (float, np.floating)):
        if np.isnan(value):
            return ""
        return f"{value:,.8g}" if abs(value) >= 1e-4 or value == 0 else f"{value:.6e}"
    return str(value)


def html_table(table: pd.DataFrame) -> str:
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in table.columns)
    body = []
    for row in table.itertuples(index=False):
        cells = []
        for v in row:
            text = html.escape(_fmt(v))
            numeric = isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
            cells.append(f"<td>{text}</td>" if numeric else f'<td class="text">{text}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'


def img_tag(png: bytes, alt: str) -> str:
    """A PNG embedded in the page (no file, no request)."""
    data = base64.b64encode(png).decode()
    return f'<img src="data:image/png;base64,{data}" alt="{html.escape(alt)}">'


def _img(report: Report, key: str, alt: str) -> str:
    return img_tag(report.plots[key], alt)


def _side_bets(report: Report) -> str:
    """The side bets' summary, then each bet's plot; the lines of every bet in one table."""
    if not report.side_bets:
        return '<p class="note">No side bets in this report.</p>'
    plots = "".join(_img(report, f"side-bet-{i}", b.bet.name) for i, b in enumerate(report.side_bets))
    return (
        '<p class="note">Per unit of side stake; "combined" is the main game and a side stake of one ante '
        "together, per hand in antes. A forfeited bet is played with the joint strategy (ante, call and side "
        "bet decided together); a progressive at its seed.</p>"
        + html_table(report.sheets["Side bets"])
        + plots
        + html_table(report.sheets["Side bet lines"])
    )


def write_html(report: Report, path: Path) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(render_html(report), encoding="utf-8")


def protection_section(report: Report) -> str:
    """What a player gains from information he should not have, and the pattern of play
    surveillance looks for (from the protection results the report found)."""
    s, p = report.sheets, report.protection
    parts = [
        '<p class="note">The player\'s edge with a flashed dealer card (exact: every state decided), '
        "and with two dealer cards, the turn seen early or partners' cards known (sampled: states drawn "
        "at random, each one's EV exact; 95% intervals). Computed by <code>casino-omaha protect</code> "
        "and included when present; a row says what has not been computed.</p>",
        _img(report, "protection", "player's edge against information"),
        html_table(s["Game protection"]),
    ]
    if p is not None and p.exposure is not None:
        a = p.exposure.advantage
        parts += [
            "<h3>One dealer card seen: by the card, and the simple advantage strategy</h3>",
            html_table(s["Protection by card seen"]),
            "<ol>" + "".join(f"<li>{html.escape(line)}</li>" for line in a.describe()) + "</ol>",
            f'<p class="note">House edge {float(a.house_edge):+.4%} (exactly {a.house_edge}); it calls '
            f"{float(a.calls_basic_folds):.2%} of all hands where the optimal basic player folds: the pattern "
            "to watch for is calls with weak hands right after a low dealer card was exposed.</p>",
        ]
    if p is not None and p.sources:
        parts.append('<p class="note">Results: ' + html.escape("; ".join(p.sources)) + "</p>")
    return "".join(parts)


def render_html(report: Report) -> str:
    """The report as one self-contained HTML page (plots embedded as PNG data)."""
    r, s = report.result, report.sheets
    e = r.exact
    title = f"{report.rules.name}: pay table {r.paytable.name}, {r.strategy} strategy"
    formulas = "".join(f"<li>{html.escape(k)}: {html.escape(v)}</li>" for k, v in FORMULAS.items())
    parts = {
        "summary": (
            f"<p>House edge <b>{float(e.house_edge):.4%}</b> per ante (exactly {e.house_edge}), "
            f"element of risk <b>{float(e.element_of_risk):.4%}</b>, call rate {float(e.call_rate):.2%}, "
            f"standard deviation {e.std_dev:.4f} antes per hand, over "
            f"{e.total_combinations:,} deals counted exactly.</p>"
            + html_table(s["Summary"])
            + f'<ul class="formulas">{formulas}</ul>'
        ),
        "confidence": (
            _img(report, "confidence", "house result after N hands")
            + '<p class="note">Normal approximation; results in antes (ante = 1).</p>'
            + html_table(s["Confidence ranges"])
        ),
        "return-table": _img(report, "return-table", "return table contributions") + html_table(s["Return table"]),
        "outcomes": _img(report, "outcomes", "distribution of a hand's result"),
        "final-hands": _img(report, "final-hands", "final hand probabilities") + html_table(s["Final hands"]),
        "strategy": (
            _img(report, "strategy", "call rate by hand")
            + html_table(s["Strategy by hand"])
            + "<h3>Optimal call rate by made hand and draw</h3>"
            + html_table(s["Call rate grid"])
            + _img(report, "margin", "EV(call) - EV(fold) distribution")
        ),
        "simple-strategy": (
            "<ol>"
            + "".join(f"<li>{html.escape(line)}</li>" for line in report.analysis.simple.describe())
            + "</ol>"
            + '<p class="note">"X-Y or better": the best hole card is above X, or is X with the '
            "second best Y or higher. Rules apply in order; thresholds are derived exactly from "
            "the counts to lose the least against optimal play.</p>"
            + html_table(s["Simple strategy"])
            + html_table(s["Strategies compared"])
        ),
        "side-bets": _side_bets(report),
        "protection": protection_section(report),
        "rules": html_table(s["Rules"]) + html_table(s["Pay table"]),
        "metadata": html_table(s["Metadata"]),
    }
    return html_page(title, [(key, name, parts[key]) for key, name in SECTIONS])


def html_page(title: str, sections: Sequence[tuple[str, str, str]]) -> str:
    """One self-contained page: a title, a navigation line and the sections (anchor, heading,
    HTML body), styled inline; every report's page is framed here."""
    nav = "".join(f'<a href="#{key}">{html.escape(name)}</a>' for key, name, _ in sections)
    body = "".join(f'<section id="{key}"><h2>{html.escape(name)}</h2>{part}</section>' for key, name, part in sections)
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{_CSS}</style></head><body><h1>{html.escape(title)}</h1><nav>{nav}</nav>{body}</body></html>"
    )
