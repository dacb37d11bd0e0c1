"""The tuning panel's side-bet tab: the chosen bet played with the panel's main table, and one
of its lines with a pay to type or drag.

For a bet lost on a fold, played jointly with an optimal main game, a changed pay takes its
figures from the bet's exact curve in that line (:class:`analysis.sidebets.curve.SideBetCurve`:
built on the first change of a line, one pass and one sort; a search after that), and the
curve is drawn with every breakpoint. The bet's return table by line follows from a full
evaluation, skipped while newer changes wait. Other bets are evaluated at once (a sum over
counts already made).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from html import escape
from typing import Any

import ipywidgets as w

from analysis.engine.result import GameResult
from analysis.engine.return_engine import ReturnEngine
from analysis.model.errors import InputError
from analysis.model.numbers import as_fraction
from analysis.model.paytable import PayTable
from analysis.sidebets.bet import SideBet
from analysis.sidebets.curve import SideBetCurve, SideCurvePoint
from analysis.sidebets.returns import SideBetEngine
from analysis.tuning.inputs import Quiet, bounded_put, slider_range, slider_text, typed_pay
from analysis.tuning.view import error_html, side_bet_html, side_curve_html, side_curve_png

#: Side-bet curves kept (each key: rules, main table, convention, bet, line, its other pays).
CURVE_CACHE = 8


class SideBetTab:
    """The tab's widgets (``widget``); ``on_change()`` is called when a pay changes.
    ``point`` holds the last figures taken from a curve (None when they came from a full
    evaluation); ``result`` shows the full evaluation (figures and return table)."""

    def __init__(self, on_change: Callable[[], None]) -> None:
        self.line = w.Dropdown(options=[], description="line", style={"description_width": "4em"})
        self.box = w.Text(value="", continuous_update=False, layout=w.Layout(width="11em"))
        self.box.add_class("tp-side-pay")
        self.slider = w.FloatSlider(value=0, min=0, max=10, step=0.05, readout=False)
        self.note, self.figures, self.result = w.HTML(), w.HTML(), w.HTML()
        self.plot = w.Image(format="png", layout=w.Layout(max_width="640px", visibility="hidden"))
        self.widget = w.VBox(
            [
                w.HBox([self.line, w.Label("pays"), self.box, self.slider, self.note]),
                self.figures,
                self.plot,
                self.result,
            ]
        )
        self.bet: SideBet | None = None
        self.pays: dict[str, Fraction] = {}  # the lines' pays as changed here
        self.point: SideCurvePoint | None = None
        self._curves: dict[tuple[Any, ...], SideBetCurve | None] = {}  # None: refused (too wide)
        self._sync, self._on_change = Quiet(), on_change
        self.line.observe(lambda _: self._show_pay(), "value")
        self.box.observe(lambda ch: self._on_box(ch["new"]), "value")
        self.slider.observe(lambda ch: self._on_slider(ch["new"]), "value")

    def choose(self, name: str) -> None:
        """A newly chosen bet ("" for none): its fixed-pay lines, the first one selected."""
        self.bet, self.pays = (SideBet.load(name) if name else None), {}
        lines = [x.name for x in self.bet.lines if x.share is None] if self.bet is not None else []
        with self._sync():
            self.line.options = lines
            self.line.value = lines[0] if lines else None
        self._show_pay()

    def _show_pay(self) -> None:
        """The box and slider at the selected line's pay."""
        if self.bet is None or self.line.value is None:
            return
        pay = self.pays.get(self.line.value, self.bet.line(self.line.value).pays)
        top, step = slider_range(pay)
        with self._sync():
            self.slider.max, self.slider.step = top, step
            self.box.value, self.slider.value = str(pay), float(pay)
        self.note.value = ""

    def _on_box(self, text: str) -> None:
        if self._sync.on or self.line.value is None:
            return
        try:
            pay = typed_pay(text)
        except ValueError as e:
            self.note.value = error_html(str(e))
            return
        self.pays[self.line.value] = pay
        self._show_pay()
        self._on_change()

    def _on_slider(self, value: float) -> None:
        if self._sync.on or self.line.value is None:
            return
        text = slider_text(value)
        self.pays[self.line.value] = as_fraction(text)
        with self._sync():
            self.box.value = text
        self.note.value = ""
        self._on_change()

    def show(self, engine: ReturnEngine, table: PayTable, main: GameResult, superseded: Callable[[], bool]) -> None:
        """The bet played with the main table and result (the panel's worker thread)."""
        self.point = None
        chosen, pays, line = self.bet, dict(self.pays), self.line.value  # as they are now: widgets move on
        if chosen is None:
            self.figures.value = ""
            self.result.value = (
                f"<div>No side bet chosen: pick one of those that ship for {escape(engine.rules.name)}.</div>"
            )
            self.plot.layout.visibility = "hidden"
            return
        bet = chosen.with_pays(pays, name=f"{chosen.name} (tuned)") if pays else chosen
        bets = SideBetEngine(engine, table, main.pays_on, main=main)
        # a forfeited bet re-optimises the main game with it (joint) only when the main game plays optimally
        joint = main.strategy == "optimal"
        curve: SideBetCurve | None = None
        if bet.forfeit and joint and line in pays:  # a changed pay: from the line's exact curve
            others = {k: v for k, v in pays.items() if k != line}
            key = (
                engine.rules,
                tuple(sorted(table.pays.items())),
                main.pays_on,
                chosen.name,
                line,
                tuple(sorted(others.items())),
            )
            if key not in self._curves:
                try:
                    made: SideBetCurve | None = SideBetCurve(bets, chosen.with_pays(others), line)
                except InputError:  # pays beyond the curve's 64-bit sums: the full evaluation below only
                    made = None
                bounded_put(self._curves, key, made, CURVE_CACHE)
            curve = self._curves[key]
        if curve is not None:
            point = curve.at(pays[line])
            self.figures.value = side_curve_html(bet, line, point)
            self.point = point  # after the screen: a reader of point sees it shown
            self.plot.value = side_curve_png(curve.breakpoints(0.0, self.slider.max), line, point)
            self.plot.layout.visibility = "visible"
        else:
            self.figures.value = ""
            self.plot.layout.visibility = "hidden"
        if not superseded():
            self.result.value = side_bet_html(bets.evaluate(bet, strategy="joint" if joint else "separate"))
