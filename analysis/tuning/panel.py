"""The tuning panel: drag a pay, see the edge. ipywidgets, for a notebook or (``make app``)
a Voilà page.

One row per pay line (a box that takes exact numbers and fractions, and a slider), the
pay convention, the game, the dealer's qualifier and the call bet, the strategy. Every
change re-plays the table on the return engine (one pass, about 0.3 s for Casino Omaha)
and shows the figures with their exact fractions, the return table, the difference
against the starting table and the house edge against the pay last changed (for the
optimal strategy its exact curve, every breakpoint drawn; the current table marked). Once
a pay's curve is drawn, dragging that pay takes the whole result from the curve (a search
and one block of rows, about 10 ms): figures, return table and difference, exactly the
engine pass's. Buttons solve the pay last changed for a target edge, save the table as CSV (what
``--paytable`` reads) and write the full report. The side-bet tab plays a shipped side bet
with the table, one of its lines at a pay to type or drag (:mod:`analysis.tuning.side_tab`).

Changes coalesce on one worker thread (:class:`analysis.tuning.coalesce.LatestWorker`):
while a table is computed only the newest change waits, and a sampled sweep (strategies
other than optimal), the slow part, stops when a newer change arrives. A value that is not
a pay shows a message beside its box and the last good result stays on screen. Another
qualifier needs its own counts: the panel computes that store with a progress bar (about a
minute for Casino Omaha) and keeps it.

The panel is an output, like the report: no domain module imports it.
"""

from __future__ import annotations

import base64
import threading
import time
from collections.abc import Iterable
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import ipywidgets as w
import pandas as pd

from analysis.engine.result import GameResult
from analysis.engine.return_engine import ReturnEngine
from analysis.engine.variants import CALL_MULTIPLES, OWN, QUALIFIERS, Engines, qualifier_label, variant_rules
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.game import GameSpec, shipped_games
from analysis.model.numbers import shown
from analysis.model.paytable import PayTable, PayTableSpec
from analysis.model.rules import PAYS_ON, PRESETS, Rules, parse_qualifier, qualifier_text
from analysis.parallel.options import RunOptions
from analysis.report.build import REPORT_STRATEGIES, build_report
from analysis.sidebets.bet import shipped_sidebets
from analysis.strategy.registry import strategy_named
from analysis.tuning.game_panel import GamePanel
from analysis.tuning.inputs import file_stem
from analysis.tuning.pay_rows import PayRows
from analysis.tuning.side_tab import SideBetTab
from analysis.tuning.sweeps import Sweeps
from analysis.tuning.tuner import Tuner
from analysis.tuning.view import difference_html, error_html, figures_html, return_table_html, sweep_png

if TYPE_CHECKING:
    from analysis.tuning.coalesce import LatestWorker

STRATEGY_CHOICES = ("optimal", "always-call", "simple")
#: Points of the sweep plot of a strategy other than optimal (each one engine pass; the
#: optimal strategy's is its exact curve).
SWEEP_POINTS = 11


def _one_of(parameter: str, value: object, allowed: Iterable[object]) -> None:
    """An InputError naming the parameter, the value (shortened) and the choices, unless allowed."""
    choices = list(allowed)
    if isinstance(value, bool) or value not in choices:  # True == 1, but not a call bet
        raise InputError(f"tuning panel: {parameter} {shown(value)} is not one of: {', '.join(map(str, choices))}")


class TuningPanel(PayRows):
    """The widgets and their wiring (see the module docstring). ``widget`` is what is shown;
    ``result`` the last good :class:`GameResult`; :meth:`wait` blocks until the screen shows
    the last change (tests, benches)."""

    def __init__(
        self,
        game: str = "casino-omaha",
        paytable: PayTableSpec = None,
        strategy: str = "optimal",
        pays_on: str = "ante",
        qualifier: int | None | str = OWN,  # a rank, None (no qualifier), text ("9s", "none") or OWN
        call_multiple: int | Literal["own"] = OWN,
        engine: ReturnEngine | None = None,
        options: RunOptions | None = None,
        out_dir: str | Path = "reports",
        sweep_points: int = SWEEP_POINTS,
    ) -> None:
        _one_of("game", game, PRESETS)
        _one_of("strategy", strategy, STRATEGY_CHOICES)
        _one_of("pays_on", pays_on, PAYS_ON)
        if not isinstance(qualifier, str):
            _one_of("qualifier", qualifier, QUALIFIERS)
        _one_of("call_multiple", call_multiple, (OWN, *CALL_MULTIPLES))
        if not isinstance(out_dir, (str, Path)):
            raise InputError(f"tuning panel: out_dir must be a folder (str or Path), got {shown(out_dir)}")
        if isinstance(sweep_points, bool) or not isinstance(sweep_points, int) or sweep_points < 2:
            raise InputError(f"tuning panel: sweep_points must be a whole number >= 2: {shown(sweep_points)}")
        if engine is not None and not isinstance(engine, ReturnEngine):
            raise InputError(f"tuning panel: engine must be a ReturnEngine or None, got {type(engine).__name__}")
        if options is not None and not isinstance(options, RunOptions):
            raise InputError(f"tuning panel: options must be RunOptions or None, got {type(options).__name__}")
        rank: int | None | Literal["own"] = (
            OWN if qualifier == OWN else parse_qualifier(qualifier) if isinstance(qualifier, str) else qualifier
        )
        self.engines = Engines(options or RunOptions(progress=False))
        if engine is not None:
            self.engines.add(engine)
        self.start = PayTable.load(paytable)
        self.table = self.start
        self.result: GameResult | None = None
        self.focus = "flush"  # the pay last changed: swept, and solved for
        self.sweeps = Sweeps(sweep_points)
        self.computations = 0  # results computed for the screen (coalescing is tested on it)
        self.instant: GameResult | None = None  # the last result when it came from the focused pay's curve
        self._starts: dict[tuple[Rules, str, str], GameResult] = {}
        self._shown: tuple[Any, ...] | None = None  # what the main figures on screen are of
        self.saved: Path | None = None  # the last CSV saved
        self.report_paths: tuple[Path, ...] | None = None  # the last report's files
        self._build(game, strategy, pays_on, variant_rules(game, rank, call_multiple), Path(out_dir))
        self.worker = _worker(self)
        self.refresh()

    # --- widgets ----------------------------------------------------------------------

    def _build(self, game: str, strategy: str, pays_on: str, rules: Rules, out_dir: Path) -> None:
        labels = {"style": {"description_width": "7em"}}
        self.game = w.Dropdown(options=list(PRESETS), value=game, description="game", **labels)
        self.qualifier = w.Dropdown(
            options=[(qualifier_label(q), qualifier_text(q)) for q in QUALIFIERS],
            value=qualifier_text(rules.qualifier_rank),
            description="qualifier",
            **labels,
        )
        self.call_multiple = w.ToggleButtons(
            options=[(f"{m}x", m) for m in CALL_MULTIPLES], value=rules.call_multiple, description="call bet"
        )
        self.call_multiple.style.button_width = "3.5em"
        self.pays_on = w.ToggleButtons(options=list(PAYS_ON), value=pays_on, description="pays on", **labels)
        self.pays_on.style.button_width = "4.5em"
        self.strategy = w.Dropdown(options=list(STRATEGY_CHOICES), value=strategy, description="strategy", **labels)
        self.side_bet = w.Dropdown(options=side_bet_choices(game), value="", description="side bet", **labels)
        rows = self._pay_rows(reversed(CATEGORIES))
        for control in (self.game, self.qualifier, self.call_multiple, self.pays_on, self.strategy, self.side_bet):
            control.observe(self._on_control, "value")
        self.status = w.HTML()
        self.status.add_class("tp-status")
        self.progress = w.IntProgress(description="counting", layout=w.Layout(visibility="hidden"))
        self.figures, self.returns, self.difference = w.HTML(), w.HTML(), w.HTML()
        self.side_tab = SideBetTab(self.refresh)
        self.side = self.side_tab.result  # the chosen bet's full result: figures and return table
        self.figures.add_class("tp-figures")
        self.plot = w.Image(format="png", layout=w.Layout(max_width="640px", visibility="hidden"))  # until drawn
        self.plot.add_class("tp-plot")
        self.target = w.Text(value="2%", description="target edge", **labels, layout=w.Layout(width="16em"))
        self.solve = w.Button(description="solve the flush pay", layout=w.Layout(width="16em"))
        self.name = w.Text(value=f"{self.start.name}-tuned", description="table name", **labels)
        self.csv_path = w.Text(value=str(out_dir / "paytables"), description="CSV folder", **labels)
        self.save = w.Button(description="save the table as CSV", layout=w.Layout(width="16em"))
        self.out_dir = w.Text(value=str(out_dir), description="report folder", **labels)
        self.write = w.Button(description="write the full report", layout=w.Layout(width="16em"))
        self.message = w.HTML()
        self.message.add_class("tp-message")
        self.solve.on_click(lambda _: self.worker.queue(self._solve))
        self.save.on_click(lambda _: self.worker.queue(self._save))
        self.write.on_click(lambda _: self.worker.queue(self._write))
        controls = w.VBox([self.game, self.qualifier, self.call_multiple, self.pays_on, self.strategy, self.side_bet])
        actions = w.VBox(
            [
                w.HBox([self.target, self.solve]),
                self.name,
                w.HBox([self.csv_path, self.save]),
                w.HBox([self.out_dir, self.write]),
                self.message,
            ]
        )
        tabs = w.Tab([self.returns, self.difference, self.side_tab.widget])
        tabs.set_title(0, "return table")
        tabs.set_title(1, "against the starting table")
        tabs.set_title(2, "side bet")
        left = w.VBox([controls, w.HTML("<b>pays (to 1)</b>"), *rows], layout=w.Layout(min_width="40em"))
        right = w.VBox([w.HBox([self.status, self.progress]), self.figures, self.plot])
        self.widget = w.VBox(
            [w.HTML("<h3>Pay-table tuning: drag a pay, see the edge</h3>"), w.HBox([left, right]), actions, tabs]
        )

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)

    # --- events (the widgets' thread) ----------------------------------------------------

    def _on_control(self, change: dict[str, Any]) -> None:
        if change["owner"] is self.game:  # a new game starts with its own qualifier and call bet
            own = PRESETS[change["new"]]
            with self._sync():
                self.qualifier.value = qualifier_text(own.qualifier_rank)
                self.call_multiple.value = own.call_multiple
                self.side_bet.options, self.side_bet.value = side_bet_choices(change["new"]), ""
        if change["owner"] is self.game or change["owner"] is self.side_bet:
            self.side_tab.choose(self.side_bet.value)
        if not self._sync.on:
            self.refresh()

    def _focus(self, category: str) -> None:
        self.focus = category
        self.solve.description = f"solve the {category.replace('_', ' ')} pay"

    # --- work (the worker thread) ------------------------------------------------------

    def _table_name(self) -> str:
        return file_stem(self.name.value)

    def rules(self) -> Rules:
        return variant_rules(self.game.value, parse_qualifier(self.qualifier.value), self.call_multiple.value)

    def _engine(self, rules: Rules) -> ReturnEngine:
        """The engine of the rules; a store that must be computed first shows its progress."""
        if self.engines.loaded(rules):
            return self.engines.get(rules)
        if self.engines.store(rules).complete:
            self._status(f"loading the outcome store of {rules.name} ({rules.qualifier_phrase})")
            return self.engines.get(rules)
        self._status(
            f"counting every deal of {rules.name} where {rules.qualifier_phrase}: once for this qualifier "
            "(about a minute for casino-omaha on 2 cores); the store is kept"
        )
        done, total = self.engines.shards_done(rules)
        self.progress.max, self.progress.value = total, done
        self.progress.layout.visibility = "visible"
        stop = threading.Event()
        threading.Thread(target=self._poll_progress, args=(rules, stop), daemon=True).start()
        try:
            return self.engines.get(rules)
        finally:
            stop.set()
            self.progress.layout.visibility = "hidden"

    def _poll_progress(self, rules: Rules, stop: threading.Event) -> None:
        while not stop.wait(0.5):
            self.progress.value = self.engines.shards_done(rules)[0]

    def _compute(self) -> None:
        table, problem = self.current()
        if table is None:
            self._status(error_html(f"{problem}: the figures below are for the last good table"), html=True)
            return
        rules, strategy, pays_on = self.rules(), self.strategy.value, self.pays_on.value
        engine = self._engine(rules)
        main_key = (rules, strategy, pays_on, self.focus, table.name, tuple(sorted(table.pays.items())))
        if main_key == self._shown and self.result is not None:  # as on screen (a side-bet pay changed)
            self.side_tab.show(engine, table, self.result, self.worker.superseded)
            return
        began = time.perf_counter()
        # the dragged pay's exact curve gives the whole result at once; else the engine's pass
        result = self.sweeps.result(rules, table, self.focus, pays_on) if strategy == "optimal" else None
        self.instant = result
        if result is None:
            result = engine.decide(table, strategy_named(strategy), pays_on)
        self.computations += 1
        self.figures.value = figures_html(result)
        self.table, self.result = table, result  # after the screen: a reader of result sees it shown
        took = time.perf_counter() - began
        self._status(
            f"house edge {float(result.exact.house_edge):.4%} (exactly {result.exact.house_edge}) from the "
            f"{self.focus.replace('_', ' ')} pay's exact curve in {1000 * took:.1f} ms"
            if self.instant is not None
            else f"re-optimised in {took:.2f} s"
        )
        self.returns.value = return_table_html(result)
        key = (rules, strategy, pays_on)
        if key not in self._starts:
            self._starts[key] = engine.decide(self.start, strategy_named(strategy), pays_on)
        self.difference.value = difference_html(self.start, table, self._starts[key].exact, result.exact)
        if self._draw_sweep(engine, table, result):
            self._shown = main_key
        self.side_tab.show(engine, table, result, self.worker.superseded)

    def sweep_frame(self, engine: ReturnEngine, table: PayTable, strategy: str, pays_on: str) -> pd.DataFrame | None:
        """The house edge against the focused pay (see :class:`analysis.tuning.sweeps.Sweeps`)."""
        c = self.focus
        return self.sweeps.frame(engine, table, c, self.sliders[c].max, strategy, pays_on, self.worker.superseded)

    def _draw_sweep(self, engine: ReturnEngine, table: PayTable, result: GameResult) -> bool:
        """Draw the sweep of the focused pay; False when a newer change stopped it."""
        frame = self.sweep_frame(engine, table, result.strategy, result.pays_on)
        if frame is None:
            return False
        c = self.focus
        self.plot.value = sweep_png(frame, c, table.pays[c], result.exact.house_edge, result.strategy)
        self.plot.layout.visibility = "visible"
        return True

    def _solve(self) -> None:
        asked = self._target()
        if asked is None:
            return
        table, target = asked
        c, rules = self.focus, self.rules()
        self._say(f"solving the {c.replace('_', ' ')} pay for a house edge of {float(target):.4%} ...")
        try:
            found = Tuner(self._engine(rules), self.pays_on.value).solve(
                target, vary=c, bounds=(0, self.sliders[c].max), base=table
            )
        except ValueError as e:
            self._say(error_html(str(e)))
            return
        pay = found["exact_pays"].iloc[0][c]
        self._say(
            f"{c.replace('_', ' ')} pays <b>{pay}</b> (about {float(pay):.6f}) for a house edge of exactly "
            f"{found['exact_house_edge'].iloc[0]} with optimal play"
        )
        self.boxes[c].value = str(pay)  # the box's handler re-plays the table

    def _save(self) -> None:
        table, problem = self.current()
        if table is None:
            self._say(error_html(f"not saved: {problem}"))
            return
        folder = Path(self.csv_path.value).expanduser()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{table.name}.csv"
        text = table.to_csv()
        path.write_text(text, encoding="utf-8")
        self.saved = path
        link = base64.b64encode(text.encode()).decode()
        typed = self.name.value
        renamed = "" if table.name == typed else f" (the name {shown(typed)}, made a file name)"
        self._say(
            f"saved <code>{escape(str(path.resolve()))}</code>{escape(renamed)} "
            f"(<a download='{escape(path.name)}' href='data:text/csv;base64,{link}'>download</a>); "
            f"<code>casino-omaha report --paytable {escape(str(path))}</code> reads it"
        )

    def _write(self) -> None:
        table, problem = self.current()
        if table is None:
            self._say(error_html(f"no report: {problem}"))
            return
        strategy = self.strategy.value if self.strategy.value in REPORT_STRATEGIES else "optimal"
        self._say("writing the full report (every table and plot; about 10 s) ...")
        report = build_report(self._engine(self.rules()), table, strategy, self.pays_on.value)
        written = report.write(Path(self.out_dir.value).expanduser())
        self.report_paths = tuple(written)
        self._say("report written: " + ", ".join(f"<code>{escape(str(p))}</code>" for p in written))

    def _status(self, text: str, html: bool = False) -> None:
        self.status.value = text if html else escape(text)

    def _say(self, html: str) -> None:
        self.message.value = html


def side_bet_choices(game: str) -> list[tuple[str, str]]:
    """The side-bet dropdown's options: none, then the bets that ship for the game."""
    return [("none", "")] + [(n, n) for n in shipped_sidebets(game)]


def _worker(panel: TuningPanel) -> LatestWorker:
    from analysis.tuning.coalesce import LatestWorker

    def show(error: BaseException) -> None:
        panel._say(error_html(f"{type(error).__name__}: {error}; the last good result stays"))

    return LatestWorker("tuning-panel", on_error=show)


def tuning_panel(
    game: str | Path | GameSpec = "casino-omaha", paytable: PayTableSpec = None, **options: Any
) -> TuningPanel | GamePanel:
    """The tuning panel of a game, shown when it is the value of a notebook cell: for the
    one-decision games of the family :class:`TuningPanel` (options: strategy, pays_on,
    qualifier, call_multiple, engine, options, out_dir), for every other game or game file
    :class:`~analysis.tuning.game_panel.GamePanel` (options: qualifier, options, out_dir,
    sweep_points; its table is the game file's)."""
    if isinstance(game, str) and game in PRESETS:
        return TuningPanel(game, paytable, **options)
    if not isinstance(game, (str, Path, GameSpec)) or (
        isinstance(game, str) and game not in shipped_games() and not game.endswith(".toml")
    ):
        games = ", ".join(shipped_games())
        raise InputError(f"tuning panel: game {shown(game)} is not one of: {games}, or a .toml file")
    if paytable is not None:
        raise InputError("tuning panel: a game file states its own pays: change them in the panel")
    if options.pop("call_multiple", OWN) != OWN:
        raise InputError("tuning panel: call_multiple is for the one-decision games; a game file states its bets")
    return GamePanel(game, **options)
