"""The tuning panel of every game the one-decision panel (:mod:`analysis.tuning.panel`) does
not take: Ultimate Texas Hold'em, Three Card Poker, Caribbean Stud, Mississippi Stud, a
designer's game file. ipywidgets, for a notebook or (``casino-omaha app``) a Voilà page.

One row per line of the table the game's tuner varies (the blind's, the play bet's, the
ante bonus, the pays of a game without a dealer: :class:`~analysis.tuning.street_tuner.StreetTuner`),
a box that takes exact numbers and fractions and a slider. Every change is priced by an
exact solve with every decision point re-optimised: a second or less for a game without a
board (its counts are made once), a count of every deal for a game with a board the first
time a table is seen (Ultimate Texas Hold'em about 20 s on 2 cores), a read of the result
store after that. The panel shows the figures with their exact fractions, the return
table, the difference against the starting table and the command that reproduces the
table; buttons draw the house edge against the pay last changed (a game without a board's
exact curve, every breakpoint; else one solve per point, stopped by a newer change), solve
that pay for a target edge, and write the par sheet of the changed game.

Changes coalesce on one worker thread (:class:`analysis.tuning.coalesce.LatestWorker`), as
in the one-decision panel; a value that is not a pay shows a message beside its box and
the last good result stays on screen.
"""

from __future__ import annotations

import shlex
import time
from dataclasses import replace
from fractions import Fraction
from html import escape
from pathlib import Path

import ipywidgets as w
import pandas as pd

from analysis.engine.hand_paid import HandPaidFigures
from analysis.engine.no_board import NoBoardFigures
from analysis.engine.streets import StreetFigures
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.game import GameSpec, load_game, shipped_games
from analysis.model.numbers import shown
from analysis.model.paytable import PayTable
from analysis.parallel.options import RunOptions
from analysis.report.game_report import write_par_sheet
from analysis.report.tables import return_table
from analysis.tuning.coalesce import LatestWorker
from analysis.tuning.inputs import file_stem
from analysis.tuning.pay_rows import PayRows
from analysis.tuning.street_tuner import StreetTuner
from analysis.tuning.view import STYLE, difference_html, error_html, exact_figures_html, sweep_png

Figures = StreetFigures | NoBoardFigures | HandPaidFigures
#: Points of the house edge drawn against one pay (each one exact solve of the game).
SWEEP_POINTS = 6


class GamePanel(PayRows):
    """The widgets and their wiring (see the module docstring). ``widget`` is what is shown;
    ``result`` the figures of the last good table; :meth:`wait` blocks until the screen
    shows the last change (tests)."""

    def __init__(
        self,
        game: str | Path | GameSpec,
        qualifier: str = "own",
        options: RunOptions | None = None,
        out_dir: str | Path = "reports",
        sweep_points: int = SWEEP_POINTS,
    ) -> None:
        if not isinstance(game, (str, Path, GameSpec)):
            raise InputError(f"tuning panel: give a game's name, its file or a GameSpec, not {type(game).__name__}")
        if not isinstance(out_dir, (str, Path)):
            raise InputError(f"tuning panel: out_dir must be a folder (str or Path), got {shown(out_dir)}")
        if isinstance(sweep_points, bool) or not isinstance(sweep_points, int) or not 2 <= sweep_points <= 50:
            raise InputError(f"tuning panel: sweep_points must be a whole number from 2 to 50: {shown(sweep_points)}")
        if not isinstance(qualifier, str):
            raise InputError(
                f"tuning panel: qualifier must be a rank's text such as '3', 'none' or 'own', got {shown(qualifier)}"
            )
        spec = game if isinstance(game, GameSpec) else load_game(game)
        if qualifier != "own":
            spec = spec.with_qualifier(qualifier)
        self.game_file = shipped_games().get(spec.name) if isinstance(game, GameSpec) else _file_of(game)
        #: how a command names the game: its shipped name or its file
        shipped = self.game_file is not None and self.game_file == shipped_games().get(spec.name)
        self.named = spec.name if shipped or self.game_file is None else str(self.game_file)
        self.qualifier = qualifier
        self.game = spec
        self.tuner = StreetTuner(spec, options or RunOptions(progress=False))
        self.start = self.tuner.table()
        self.table = self.start
        self.result: Figures | None = None
        self.started: Figures | None = None  # the starting table's figures
        self.focus = next((c for c in self.lines if self.start.pays[c]), self.lines[0])
        self.sweep_points = sweep_points
        self.computations = 0
        self.report_paths: tuple[Path, ...] | None = None
        self._build(Path(out_dir))
        self.worker = LatestWorker("game-panel", on_error=self._show_error)
        self.refresh()

    @property
    def lines(self) -> tuple[str, ...]:
        """The categories the tuned table pays, best first (a game without a board: its
        ranking's; every other game: all ten)."""
        nb = self.game.no_board
        return tuple(reversed(nb.categories if nb is not None else CATEGORIES))

    # --- widgets ----------------------------------------------------------------------

    def _build(self, out_dir: Path) -> None:
        labels = {"style": {"description_width": "7em"}}
        rows = self._pay_rows(self.lines, continuous=False)  # each change is a solve: priced when let go
        self.status = w.HTML()
        self.status.add_class("tp-status")
        self.figures, self.returns, self.difference, self.command = w.HTML(), w.HTML(), w.HTML(), w.HTML()
        self.figures.add_class("tp-figures")
        self.command.add_class("tp-command")
        self.plot = w.Image(format="png", layout=w.Layout(max_width="640px", visibility="hidden"))
        self.plot.add_class("tp-plot")
        self.draw = w.Button(description="", layout=w.Layout(width="22em"))
        self.target = w.Text(value="2%", description="target edge", **labels, layout=w.Layout(width="16em"))
        self.solve = w.Button(description="", layout=w.Layout(width="16em"))
        self.out_dir = w.Text(value=str(out_dir), description="report folder", **labels)
        self.write = w.Button(description="write the par sheet", layout=w.Layout(width="16em"))
        self.message = w.HTML()
        self.message.add_class("tp-message")
        self._focus(self.focus)
        self.draw.on_click(lambda _: self.worker.queue(self._sweep))
        self.solve.on_click(lambda _: self.worker.queue(self._solve))
        self.write.on_click(lambda _: self.worker.queue(self._write))
        actions = w.VBox(
            [w.HBox([self.target, self.solve]), w.HBox([self.out_dir, self.write]), self.draw, self.message]
        )
        tabs = w.Tab([self.returns, self.difference])
        tabs.set_title(0, "return table")
        tabs.set_title(1, "against the starting table")
        left = w.VBox(
            [w.HTML(f"<b>pays of the {escape(self.tuner.wager)} (to 1)</b>"), *rows], layout=w.Layout(min_width="40em")
        )
        right = w.VBox([self.status, self.figures, self.command, self.plot])
        title = f"<h3>{escape(self.game.title)}: drag a pay of the {escape(self.tuner.wager)}, see the edge</h3>"
        self.widget = w.VBox([w.HTML(title), w.HBox([left, right]), actions, tabs])

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)

    # --- events (the widgets' thread) ----------------------------------------------------

    def _focus(self, category: str) -> None:
        self.focus = category
        words = category.replace("_", " ")
        self.solve.description = f"solve the {words} pay"
        self.draw.description = f"draw the house edge against the {words} pay"

    # --- work (the worker thread) ------------------------------------------------------

    def _compute(self) -> None:
        table, problem = self.current()
        if table is None:
            self.status.value = error_html(f"{problem}: the figures below are for the last good table")
            return
        self.status.value = escape(f"solving {self.game.title} with every decision re-optimised ...")
        began = time.perf_counter()
        result = self.tuner.evaluate(table)
        took = time.perf_counter() - began
        if self.started is None:
            self.started = result if table == self.start else self.tuner.evaluate(self.start)
        self.computations += 1
        e = result.exact
        head = (
            f"<b>{escape(self.game.title)}</b>, the {escape(self.tuner.wager)} paid as below, optimal play at "
            f"every decision; {e.deals:,} deals"
        )
        self.figures.value = exact_figures_html(head, e)
        self.table, self.result = table, result
        self.status.value = escape(
            f"house edge {float(e.house_edge):.4%} (exactly {e.house_edge}), solved exactly in {took:.2f} s"
        )
        self.returns.value = _return_table_html(result)
        self.difference.value = difference_html(self.start, table, self.started.exact, e)
        self.command.value = (
            f"{STYLE}<div>The same figures on the command line: <code>{escape(self.tune_command(table))}</code></div>"
        )

    def tune_command(self, table: PayTable) -> str:
        """The ``tune`` command that prices ``table`` (its lines that differ from the game file's)."""
        changed = [f"{c}={table.pays[c]}" for c in self.lines if table.pays[c] != self.start.pays[c]]
        qualifier = [] if self.qualifier == "own" else ["--qualifier", self.qualifier]
        words = ["casino-omaha", "tune", "--game", self.named, *qualifier, *(x for c in changed for x in ("--set", c))]
        return shlex.join(words)

    def _sweep(self) -> None:
        """The house edge against the focused pay from 0 to its slider's end: for a game
        without a board its exact curve, every breakpoint; else one solve per point, which
        a newer change stops (the plot stays as it was)."""
        table, problem = self.current()
        if table is None:
            self._say(error_html(f"nothing drawn: {problem}"))
            return
        c, top = self.focus, self.sliders[self.focus].max
        if self.game.no_board is not None:
            self._say(f"drawing the exact curve of the {c.replace('_', ' ')} pay ...")
            curve = self.tuner.curve(c, table)
            points = curve.breakpoints(Fraction(0), max(Fraction(top), table.pays[c]))
            frame = pd.DataFrame({c: [float(p) for p, _ in points], "house_edge": [float(e) for _, e in points]})
            now = curve.house_edge(table.pays[c])
            self.plot.value = sweep_png(frame, c, table.pays[c], now, "optimal")
            self.plot.layout.visibility = "visible"
            self._say(f"drawn: the exact curve, {len(points) - 2:,} breakpoints between 0 and {float(top):g}")
            return
        pays = sorted(
            {Fraction(top * i / (self.sweep_points - 1)).limit_denominator(1000) for i in range(self.sweep_points)}
            | {table.pays[c]}
        )
        edges: dict[Fraction, Fraction] = {}
        for k, pay in enumerate(pays):
            if self.worker.superseded():
                self._say("the drawing stopped: a newer change came first")
                return
            self._say(f"drawing the {c.replace('_', ' ')} pay: point {k + 1} of {len(pays)} ...")
            edges[pay] = self.tuner.evaluate(table.with_pays({c: pay})).exact.house_edge
        frame = pd.DataFrame({c: [float(p) for p in edges], "house_edge": [float(e) for e in edges.values()]})
        played = "optimal play re-solved at each point"
        self.plot.value = sweep_png(frame, c, table.pays[c], edges[table.pays[c]], "optimal", played)
        self.plot.layout.visibility = "visible"
        self._say(f"drawn: {len(pays)} exact solves")

    def _solve(self) -> None:
        asked = self._target()
        if asked is None:
            return
        table, target = asked
        c = self.focus
        self._say(f"solving the {c.replace('_', ' ')} pay for a house edge of {float(target):.4%} (a few solves) ...")
        try:
            found = self.tuner.solve(target, vary=c, bounds=(0, self.sliders[c].max), base=table)
        except ValueError as e:
            self._say(error_html(str(e)))
            return
        pays = [row[c] for row in found["exact_pays"]]
        edges = list(found["exact_house_edge"])
        if len(pays) == 1:
            self._say(
                f"{c.replace('_', ' ')} pays <b>{pays[0]}</b> (about {float(pays[0]):.6f}) for a house edge of "
                f"exactly {edges[0]} with optimal play"
            )
        else:  # a decision turns between two pays a millionth apart: no pay hits the target
            self._say(
                f"no {c.replace('_', ' ')} pay gives exactly {target}: a decision turns between "
                + " and ".join(f"<b>{p}</b> (house edge {e})" for p, e in zip(pays, edges))
            )
        self.boxes[c].value = str(pays[0])  # the box's handler re-plays the table

    def _write(self) -> None:
        table, problem = self.current()
        if table is None or self.result is None or table != self.table:
            self._say(error_html(f"no par sheet: {problem or 'the figures on screen are not yet of this table'}"))
            return
        self._say("writing the par sheet (every table and plot, typeset) ...")
        name = self.game.name if table == self.start else file_stem(f"{self.game.name}-tuned")
        figures = replace(self.result, game=replace(self.result.game, name=name))
        written = write_par_sheet(figures, Path(self.out_dir.value).expanduser(), self.game_file)
        self.report_paths = tuple(written)
        self._say("par sheet written: " + ", ".join(f"<code>{escape(str(p))}</code>" for p in written))

    def _say(self, html: str) -> None:
        self.message.value = html

    def _show_error(self, error: BaseException) -> None:
        self._say(error_html(f"{type(error).__name__}: {error}; the last good result stays"))


def _file_of(spec: str | Path) -> Path | None:
    path = Path(spec)
    return path.resolve() if path.is_file() else shipped_games().get(str(spec))


#: The return table's columns the panel shows, and their headings.
RETURN_COLUMNS = {
    "betting ended": "betting ended",
    "play bet": "play bet",
    "player's final hand": "player's final hand",
    "dealer": "dealer",
    "deals": "deals",
    "probability (exact)": "probability",
    "net result (exact)": "net (antes)",
}


def _return_table_html(result: Figures) -> str:
    """The return table in words: how the betting ended, the play bet, the hands, the
    deals, the exact probability and net result of each outcome."""
    t = return_table(result.outcomes(), play="play")
    cells = "".join(
        "<tr>" + "".join(f"<td>{escape(f'{v:,}' if isinstance(v, int) else str(v))}</td>" for v in row) + "</tr>"
        for row in t[list(RETURN_COLUMNS)].itertuples(index=False)
    )
    head = "".join(f"<th>{escape(h)}</th>" for h in RETURN_COLUMNS.values())
    return f"{STYLE}<table class='tp-table tp-returns'><tr>{head}</tr>{cells}</table>"
