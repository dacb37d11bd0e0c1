"""What the tuning panel shows, as HTML and PNG: the figures with their exact fractions,
the return table, the difference against the starting table, the sweep plot with the
current table marked. Plain functions of results, so tests read the same text the page shows.

Every decimal is formatted from the engine's exact value (``{:.6%}`` for rates), and the
exact value is printed beside it; the standard deviation, a square root, shows its exact
variance instead.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape

import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from analysis.engine.result import GameResult
from analysis.engine.statistics import ExactFigures
from analysis.model.categories import CATEGORIES
from analysis.model.paytable import PayTable
from analysis.report.plots import plot_sweep, png
from analysis.sidebets.bet import SideBet
from analysis.sidebets.curve import SideCurvePoint
from analysis.sidebets.result import SideBetResult

#: (key, label, unit) of the figures the panel shows, in order.
FIGURES = (
    ("house_edge", "house edge", "per ante"),
    ("element_of_risk", "element of risk", "per unit wagered"),
    ("call_rate", "call rate", "of hands"),
    ("standard_deviation", "standard deviation", "antes per hand"),
    ("hit_frequency", "hit frequency", "of hands"),
)
STYLE = (
    "<style>.tp-table{border-collapse:collapse;font-size:13px}"
    ".tp-table td,.tp-table th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}"
    ".tp-table td:first-child,.tp-table th:first-child{text-align:left}"
    ".tp-exact{color:#555;font-family:monospace;font-size:12px}.tp-up{color:#b2182b}.tp-down{color:#2166ac}</style>"
)


def decimal_text(key: str, exact: ExactFigures) -> str:
    """The decimal the panel prints for one figure (from the exact value)."""
    if key == "standard_deviation":
        return f"{exact.standard_deviation:.6f}"
    return f"{float(getattr(exact, key)):.6%}"


def exact_text(key: str, exact: ExactFigures) -> str:
    return f"sqrt({exact.variance})" if key == "standard_deviation" else str(getattr(exact, key))


def figure_table(rows: list[tuple[str, str, str, str, str]], kind: str = "", named_exact: bool = False) -> str:
    """A table of figures, a row each: (label, the value cell's class, the decimal, the unit,
    the exact value); ``named_exact``: the exact cell also has the value's class with ``-exact``."""
    cells = "".join(
        f"<tr><td>{label}</td><td class='{cls}'>{value}</td><td>{unit}</td>"
        f"<td class='tp-exact{f' {cls}-exact' if named_exact else ''}'>{escape(exact)}</td></tr>"
        for label, cls, value, unit, exact in rows
    )
    return (
        f"<table class='tp-table{' ' + kind if kind else ''}'><tr><th>figure</th><th>value</th><th></th>"
        f"<th>exact</th></tr>{cells}</table>"
    )


def figures_html(result: GameResult) -> str:
    """The figures of a one-decision game's result, under a line naming its table and rules."""
    e = result.exact
    head = (
        f"<b>{escape(result.rules.name)}</b>, pay table <b>{escape(result.paytable.name)}</b> paid on the "
        f"{result.pays_on}, {escape(result.strategy)} strategy; {escape(result.rules.qualifier_phrase)}, "
        f"call bet {result.rules.call_multiple}x the ante; {e.deals:,} deals"
    )
    return exact_figures_html(head, e)


def exact_figures_html(head: str, e: ExactFigures) -> str:
    """House edge, element of risk, call rate, SD and hit frequency, each with its exact
    value, under ``head`` (HTML); every value cell has the class ``tp-<key>`` (the browser
    test reads it)."""
    rows = [(label, f"tp-{key}", decimal_text(key, e), unit, exact_text(key, e)) for key, label, unit in FIGURES]
    return f"{STYLE}<div>{head}</div>{figure_table(rows, named_exact=True)}"


def return_table_html(result: GameResult) -> str:
    """The return table: exact deals per outcome, probability, payoff, contribution."""
    t = result.table
    rows = "".join(
        f"<tr><td>{escape(o)}</td><td>{escape(c.replace('_', ' '))}</td><td>{n:,}</td><td>{p:.8f}</td>"
        f"<td>{pay:+g}</td><td>{x:+.8f}</td></tr>"
        for o, c, n, p, pay, x in zip(t.outcome, t.category, t.combinations, t.probability, t.payoff, t.contribution)
    )
    return (
        f"{STYLE}<table class='tp-table tp-returns'><tr><th>outcome</th><th>category</th><th>deals</th>"
        f"<th>probability</th><th>payoff</th><th>contribution</th></tr>{rows}</table>"
    )


def side_bet_html(r: SideBetResult) -> str:
    """A side bet played with the panel's main table (a :class:`SideBetResult`): its figures
    per unit staked with their exact values, the combined house edge, its return table."""
    e, c = r.exact, r.combined
    rows = [
        ("house edge", f"{float(e.house_edge):.6%}", "per unit staked", e.house_edge),
        ("hit frequency", f"{float(e.hit_frequency):.6%}", "of hands", e.hit_frequency),
        ("main game and side bet", f"{float(c.house_edge):.6%}", "per hand, in antes", c.house_edge),
        ("call rate", f"{float(r.main.exact.call_rate):.6%}", "of hands", r.main.exact.call_rate),
    ]
    figures = figure_table(
        [(label, f"tp-side-{i}", value, unit, str(exact)) for i, (label, value, unit, exact) in enumerate(rows)],
        "tp-side",
    )
    played = f"{r.strategy} strategy" if r.bet.forfeit else "the main game's strategy"
    t = r.table
    lines = "".join(
        f"<tr><td>{escape(line.replace('_', ' '))}</td><td>{escape(pays)}</td><td>{n:,}</td>"
        f"<td>{p:.8f}</td><td>{one_in:,.1f}</td><td>{x:+.8f}</td></tr>"
        for line, pays, n, p, one_in, x in zip(t.line, t.pays, t.combinations, t.probability, t.one_in, t.contribution)
    )
    forfeit = "lost when the player folds" if r.bet.forfeit else "settled whether he calls or folds"
    return (
        f"{STYLE}<div>side bet <b>{escape(r.bet.name)}</b> ({escape(r.bet.kind)}, {forfeit}), {played}</div>"
        f"{figures}<br><table class='tp-table tp-side-lines'><tr><th>line</th><th>pays</th><th>deals</th>"
        f"<th>probability</th><th>1 in</th><th>contribution</th></tr>{lines}</table>"
    )


def side_curve_html(bet: SideBet, line: str, point: SideCurvePoint) -> str:
    """A forfeited bet's figures at one pay of ``line``, from its exact curve (joint
    strategy): the side bet's, the main game's and the two together, each exact."""
    rows = [
        ("side bet house edge", point.side_house_edge, "per unit staked"),
        ("side bet return", point.side_return, "per unit staked"),
        ("main game house edge", point.main_house_edge, "per ante"),
        ("call rate", point.call_rate, "of hands"),
        ("main game and side bet", point.combined_house_edge, "per hand, in antes"),
        ("main game and side bet", point.combined_per_unit_wagered, "per unit wagered"),
    ]
    figures = figure_table(
        [(label, f"tp-curve-{i}", f"{float(x):.6%}", unit, str(x)) for i, (label, x, unit) in enumerate(rows)],
        "tp-side-curve",
    )
    return (
        f"{STYLE}<div><b>{escape(bet.name)}</b> with {escape(line.replace('_', ' '))} paying "
        f"<b>{escape(str(point.pay))}</b>: from the bet's exact curve in that pay (joint strategy)</div>{figures}"
    )


def side_curve_png(frame: pd.DataFrame, line: str, point: SideCurvePoint) -> bytes:
    """A forfeited bet's return and the combined house edge against one line's pay (every
    breakpoint of its exact curve), the current pay marked."""
    fig = Figure(figsize=(6, 3.6))
    ax = fig.subplots()
    x = frame.columns[0]
    ax.plot(frame[x], frame["side bet return"], color="#2166ac", label="side bet return (per unit staked)")
    ax.plot(frame[x], frame["combined house edge per hand"], color="#b2182b", label="house edge, both bets (per hand)")
    ax.plot([float(point.pay)], [float(point.side_return)], marker="*", markersize=16, color="#d6604d", ls="")
    ax.annotate(
        f"now: {float(point.pay):g} -> return {float(point.side_return):.4%}",
        (float(point.pay), float(point.side_return)),
        textcoords="offset points",
        xytext=(8, -14),
        color="#d6604d",
    )
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel(f"{line.replace('_', ' ')} pays (to 1)")
    ax.legend(fontsize=8)
    ax.set_title(f"side bet against the {line.replace('_', ' ')} pay (exact curve, joint strategy)")
    return png(fig)


def error_html(text: str) -> str:
    """A message in red, escaped."""
    return f"<span style='color:#b2182b'>{escape(text)}</span>"


def difference_frames(
    start: PayTable, table: PayTable, before: ExactFigures, after: ExactFigures
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(pays that differ, figures before and after): the current table against the
    starting one, both played with the same game, rules and strategy."""
    pays = pd.DataFrame(
        [
            {"category": c, "start": start.pays[c], "now": table.pays[c], "change": table.pays[c] - start.pays[c]}
            for c in reversed(CATEGORIES)
            if table.pays[c] != start.pays[c]
        ],
        columns=["category", "start", "now", "change"],
    )
    figures = pd.DataFrame(
        [
            {
                "figure": label,
                "start": getattr(before, key),
                "now": getattr(after, key),
                "change": getattr(after, key) - getattr(before, key),
            }
            for key, label, _ in FIGURES
        ]
    )
    return pays, figures


def difference_html(start: PayTable, table: PayTable, before: ExactFigures, after: ExactFigures) -> str:
    pays, figures = difference_frames(start, table, before, after)
    if pays.empty:
        return f"{STYLE}<div>The table equals the starting table <b>{escape(start.name)}</b>.</div>"
    pay_rows = "".join(
        f"<tr><td>{escape(c.replace('_', ' '))}</td><td>{_num(a)}</td><td>{_num(b)}</td><td>{_num(d, True)}</td></tr>"
        for c, a, b, d in pays.itertuples(index=False)
    )
    fig_rows = "".join(
        f"<tr><td>{label}</td><td>{_fig(key, a)}</td><td>{_fig(key, b)}</td>"
        f"<td class='{'tp-up' if d > 0 else 'tp-down' if d < 0 else ''}'>{_fig(key, d, True)}</td></tr>"
        for (key, label, _), (_, a, b, d) in zip(FIGURES, figures.itertuples(index=False))
    )
    return (
        f"{STYLE}<div>Against the starting table <b>{escape(start.name)}</b> (same game, rules and strategy):</div>"
        f"<table class='tp-table tp-diff-pays'><tr><th>pay</th><th>start</th><th>now</th><th>change</th></tr>"
        f"{pay_rows}</table><br><table class='tp-table tp-diff-figures'><tr><th>figure</th><th>start</th>"
        f"<th>now</th><th>change</th></tr>{fig_rows}</table>"
    )


def _num(x: Fraction, sign: bool = False) -> str:
    text = f"{float(x):+g}" if sign else f"{float(x):g}"
    return text if Fraction(float(x)) == x else f"{text} ({x})"


def _fig(key: str, x: Fraction | float, sign: bool = False) -> str:
    if key == "standard_deviation":
        return f"{x:+.6f}" if sign else f"{x:.6f}"
    return f"{float(x):+.6%}" if sign else f"{float(x):.6%}"


def sweep_png(
    frame: pd.DataFrame, category: str, pay: Fraction, house_edge: Fraction, strategy: str, played: str = ""
) -> bytes:
    """The house edge against one pay (the others as they are), the current table marked;
    ``played`` says how the points were played when not as ``strategy`` says."""
    fig = Figure(figsize=(6, 3.6))
    ax = plot_sweep(frame, category, ax=fig.subplots())
    ax.plot([float(pay)], [float(house_edge)], marker="*", markersize=16, color="#d6604d", zorder=5, ls="")
    ax.annotate(
        f"now: {float(pay):g} -> {float(house_edge):.4%}",
        (float(pay), float(house_edge)),
        textcoords="offset points",
        xytext=(8, 8),
        color="#d6604d",
    )
    played = played or ("optimal for each table: the exact curve" if strategy == "optimal" else f"{strategy} strategy")
    ax.set_title(f"house edge against the {category.replace('_', ' ')} pay ({played})")
    return png(fig)
