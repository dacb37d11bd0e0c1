"""What both tuning panels share: a row per pay line (a box that takes exact numbers and
fractions, and a slider, kept in step), the pay last changed, the worker the changes go to,
and the table the boxes describe. :class:`~analysis.tuning.panel.TuningPanel` (the
one-decision games) and :class:`~analysis.tuning.game_panel.GamePanel` (every other game)
add what they show and what their buttons do."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from fractions import Fraction

import ipywidgets as w

from analysis.model.numbers import as_fraction
from analysis.model.paytable import PayTable, PayTableError
from analysis.tuning.coalesce import LatestWorker
from analysis.tuning.inputs import Quiet, parse_edge, slider_range, slider_text, typed_pay
from analysis.tuning.view import error_html


class PayRows(ABC):
    """The pay rows of a panel; a subclass builds them with :meth:`_pay_rows`, starts
    ``worker`` and says what a change computes (:meth:`_compute`) and what the pay last
    changed retitles (:meth:`_focus`)."""

    start: PayTable  # the table the panel opened with
    focus: str  # the pay last changed: swept, and solved for
    worker: LatestWorker
    widget: w.Widget
    target: w.Text  # the house edge a solve aims at

    def _pay_rows(self, lines: Iterable[str], continuous: bool = True) -> list[w.HBox]:
        """A row per pay line of ``lines``: its name, a box, a slider and a note for errors;
        ``continuous``: a dragged slider asks for figures as it moves (else when let go)."""
        self._sync = Quiet()  # widgets set by the panel itself (a box from its slider...) trigger nothing
        self.boxes: dict[str, w.Text] = {}
        self.sliders: dict[str, w.FloatSlider] = {}
        self.notes: dict[str, w.HTML] = {}
        rows = []
        for c in lines:
            pay = self.start.pays[c]
            top, step = slider_range(pay)
            box = w.Text(value=str(pay), continuous_update=False, layout=w.Layout(width="11em"))
            box.add_class(f"tp-pay-{c}")
            slider = w.FloatSlider(
                value=float(pay), min=0, max=top, step=step, readout=False, continuous_update=continuous
            )
            note = w.HTML()
            box.observe(lambda ch, c=c: self._on_box(c, ch["new"]), "value")
            slider.observe(lambda ch, c=c: self._on_slider(c, ch["new"]), "value")
            self.boxes[c], self.sliders[c], self.notes[c] = box, slider, note
            label = w.Label(c.replace("_", " "), layout=w.Layout(width="9em", min_width="9em"))
            rows.append(w.HBox([label, box, slider, note]))
        return rows

    @abstractmethod
    def _compute(self) -> None:
        """The figures of the boxes' table, on screen (the worker's thread)."""

    @abstractmethod
    def _focus(self, category: str) -> None:
        """``category`` is the pay last changed: the buttons that act on it say so."""

    @abstractmethod
    def _say(self, html: str) -> None:
        """Show ``html`` in the panel's message line."""

    def _table_name(self) -> str | None:
        """The name of the table the boxes describe (None: the starting table's)."""
        return None

    # --- events (the widgets' thread) ----------------------------------------------------

    def _on_box(self, category: str, text: str) -> None:
        if self._sync.on:
            return
        try:
            pay = typed_pay(text)
        except ValueError as e:
            self.notes[category].value = error_html(str(e))
            self.refresh()  # shows the message; the last good result stays
            return
        self.notes[category].value = ""
        slider = self.sliders[category]
        with self._sync():
            slider.max = max(slider.max, float(pay))
            slider.value = float(pay)
        self._focus(category)
        self.refresh()

    def _on_slider(self, category: str, value: float) -> None:
        if self._sync.on:
            return
        with self._sync():
            self.boxes[category].value = slider_text(value)
        self.notes[category].value = ""
        self._focus(category)
        self.refresh()

    # --- requests ------------------------------------------------------------------------

    def refresh(self) -> None:
        """Recompute for the widgets' current values (coalesced: the last request wins)."""
        self.worker.submit(self._compute)

    def wait(self, timeout: float | None = 600) -> bool:
        """Block until every change and action so far is on screen; False on timeout."""
        return self.worker.wait(timeout)

    def close(self) -> None:
        self.worker.close()
        self.widget.close()

    def current(self) -> tuple[PayTable | None, str]:
        """The table the boxes describe, or None and what is wrong with it."""
        pays: dict[str, Fraction] = {}
        wrong: list[str] = []
        for c, box in self.boxes.items():
            try:
                pays[c] = as_fraction(box.value)
            except (ValueError, ZeroDivisionError):
                wrong.append(c.replace("_", " "))
        if wrong:
            return None, f"not a number: {', '.join(wrong)}"
        try:
            return self.start.with_pays(pays, name=self._table_name()), ""
        except PayTableError as e:
            return None, str(e).split(": ", 1)[-1]

    def _target(self) -> tuple[PayTable, Fraction] | None:
        """The table and the target house edge of a solve, or None once what is wrong with
        them is on screen."""
        table, problem = self.current()
        if table is None:
            self._say(error_html(f"cannot solve: {problem}"))
            return None
        try:
            return table, parse_edge(self.target.value)
        except (ValueError, ZeroDivisionError):
            self._say(error_html(f"target edge {self.target.value!r} is not a number (e.g. 2%, 0.02 or 1/50)"))
            return None
