"""The tuning panel driven from Python as a user drives it (a value typed in a box, a slider
moved, a button pressed): every figure it shows equals the engine's exact result for that
table; bad values keep the last good result; changes coalesce; a saved CSV read back by
``casino-omaha report --paytable`` gives the figures the panel shows."""

import threading
from dataclasses import replace
from fractions import Fraction
from html import unescape

import numpy as np
import pytest

from analysis import STRATEGIES
from analysis.engine.return_engine import load_engine
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.game import shipped_games
from analysis.model.paytable import PayTable
from analysis.parallel.options import RunOptions
from analysis.sidebets.returns import SideBetEngine
from analysis.tuning.inputs import file_stem, parse_edge
from analysis.tuning.panel import TuningPanel, tuning_panel
from analysis.tuning.view import FIGURES, decimal_text, exact_text
from exact_figures import HOLDEM_OPTIMAL_EDGE
from served import time_limit

pytestmark = pytest.mark.slow  # each figure is a pass over the full Casino Omaha store


@pytest.fixture(scope="module")
def panel(omaha, tmp_path_factory):
    _, engine = omaha
    p = TuningPanel(engine=engine, out_dir=tmp_path_factory.mktemp("panel"), sweep_points=3)
    assert p.wait(300)
    yield p
    p.close()


def shown(p: TuningPanel, result) -> None:
    """Every figure on screen, decimal and exact, is the engine's; so is the return table."""
    assert p.wait(300)
    html = p.figures.value
    for key, _, _ in FIGURES:
        assert f"class='tp-{key}'>{decimal_text(key, result.exact)}<" in html, key
        assert f"tp-{key}-exact'>{exact_text(key, result.exact)}<" in html, key
    for n in result.table["combinations"]:
        assert f"<td>{n:,}</td>" in p.returns.value
    assert p.result.exact == result.exact


def figure(key: str, x, sign: str = "") -> str:
    """A figure as the difference table shows it: percent to 6 places, the SD to 6 decimals."""
    return f"{x:{sign}.6f}" if key == "standard_deviation" else f"{float(x):{sign}.6%}"


def set_box(p: TuningPanel, category: str, text: str) -> None:
    p.boxes[category].value = text
    assert p.wait(300)


def test_start_shows_the_default_table(panel, omaha):
    _, engine = omaha
    shown(panel, engine.decide())
    assert "16455068456/4844882417375" in panel.figures.value  # the README's exact house edge
    assert "equals the starting table" in panel.difference.value
    assert panel.plot.value[:4] == b"\x89PNG"


def test_a_typed_fraction_and_a_moved_slider(panel, omaha):
    _, engine = omaha
    set_box(panel, "flush", "3/2")
    want = engine.decide(PayTable.load(None).replace(flush=Fraction(3, 2)))
    shown(panel, want)
    assert panel.sliders["flush"].value == 1.5 and panel.focus == "flush"
    # the difference against the starting table: the pay changed and each figure, start and now
    start = engine.decide().exact
    assert "<tr><td>flush</td><td>2</td><td>1.5</td><td>-0.5</td></tr>" in panel.difference.value
    for key, label, _ in FIGURES:
        a, b = getattr(start, key), getattr(want.exact, key)
        direction = "tp-up" if b > a else "tp-down" if b < a else ""
        row = (
            f"<tr><td>{label}</td><td>{figure(key, a)}</td><td>{figure(key, b)}</td>"
            f"<td class='{direction}'>{figure(key, b - a, '+')}</td></tr>"
        )
        assert row in panel.difference.value, row
    panel.sliders["full_house"].value = 4.5
    assert panel.wait(300)
    assert panel.boxes["full_house"].value == "4.5" and panel.focus == "full_house"
    shown(panel, engine.decide(PayTable.load(None).replace(flush=Fraction(3, 2), full_house=Fraction(9, 2))))
    # the plot is the exact curve of the pay last changed at the table's other pays: a breakpoint
    # drawn is the full pass's figure there
    frame = panel.sweep_frame(engine, panel.table, "optimal", "ante")
    row = frame.iloc[len(frame) // 3]
    point = engine.decide(panel.table.replace(full_house=Fraction(row["full_house"])))
    assert len(frame) > 1000 and row["house_edge"] == pytest.approx(float(point.exact.house_edge), abs=1e-12)
    # dragging that pay again: the whole result from the curve, the full pass's to the last count
    panel.sliders["full_house"].value = 5.25
    assert panel.wait(300)
    want = engine.decide(panel.table)
    assert panel.instant is not None and panel.instant is panel.result
    assert panel.result.paytable.pays["full_house"] == Fraction(21, 4)
    assert panel.result.exact == want.exact and panel.result.table.equals(want.table)
    assert "from the full house pay's exact curve" in unescape(panel.status.value)
    shown(panel, want)
    set_box(panel, "full_house", "3")
    set_box(panel, "flush", "2")
    shown(panel, engine.decide())


def test_a_bad_value_keeps_the_last_good_result(panel, omaha):
    _, engine = omaha
    before = panel.figures.value
    for bad in ("two", "-1", "1/0"):
        set_box(panel, "straight", bad)
        assert "is not a pay" in panel.notes["straight"].value
        assert "last good table" in panel.status.value
        assert panel.figures.value == before
    set_box(panel, "straight", "1")
    assert panel.notes["straight"].value == ""
    shown(panel, engine.decide())


def test_changes_arriving_during_a_computation_coalesce(panel, omaha):
    _, engine = omaha
    gate = threading.Event()
    panel.worker.queue(gate.wait)  # the worker is busy until the gate opens
    count = panel.computations
    for pay in ("3", "4", "5", "6"):
        panel.boxes["four_of_a_kind"].value = pay
    gate.set()
    shown(panel, engine.decide(PayTable.load(None).replace(four_of_a_kind=6)))
    assert panel.computations == count + 1  # one pass for four changes: the last one
    set_box(panel, "four_of_a_kind", "10")


def test_convention_strategy_call_bet_and_game(panel, omaha, holdem):
    rules, engine = omaha
    madrid = PayTable.load("madrid")
    for c in CATEGORIES:
        panel.boxes[c].value = str(madrid.pays[c])
    panel.pays_on.value = "call"
    panel.strategy.value = "always-call"
    shown(panel, engine.decide(madrid, "always-call", "call"))
    panel.strategy.value = "optimal"
    panel.call_multiple.value = 3
    shown(panel, engine.with_rules(replace(rules, call_multiple=3)).decide(madrid, "optimal", "call"))
    panel.game.value = "casino-holdem"  # its own qualifier and call bet come with it
    assert panel.qualifier.value == "4s" and panel.call_multiple.value == 2
    shown(panel, holdem[1].decide(madrid, "optimal", "call"))
    for c in CATEGORIES:
        panel.boxes[c].value = str(PayTable.load(None).pays[c])
    panel.pays_on.value = "ante"
    shown(panel, holdem[1].decide())
    assert f"tp-house_edge-exact'>{HOLDEM_OPTIMAL_EDGE}<" in panel.figures.value


def test_side_bets_of_the_game(panel, omaha, holdem):
    panel.game.value = "casino-holdem"
    assert panel.side_bet.options == (("none", ""), ("aa-bonus", "aa-bonus"))
    panel.side_bet.value = "aa-bonus"
    assert panel.wait(300)
    assert f"<td class='tp-exact'>{Fraction(162652, 2598960)}</td>" in panel.side.value  # the published 6.2583%
    for n in SideBetEngine(holdem[1]).evaluate("aa-bonus").table["combinations"]:
        assert f"<td>{n:,}</td>" in panel.side.value
    panel.game.value = "casino-omaha"  # its own bets; the bad beat is lost on a fold: joint strategy
    assert panel.side_bet.value == "" and "omaha-bad-beat" in dict(panel.side_bet.options)
    panel.side_bet.value = "omaha-bad-beat"
    assert panel.wait(300)
    want = SideBetEngine(omaha[1]).evaluate("omaha-bad-beat")
    assert want.strategy == "joint"
    for key in ("house_edge", "hit_frequency"):
        assert f"<td class='tp-exact'>{getattr(want.exact, key)}</td>" in panel.side.value
    assert f"<td class='tp-exact'>{want.combined.house_edge}</td>" in panel.side.value
    assert f"<td class='tp-exact'>{want.main.exact.call_rate}</td>" in panel.side.value
    panel.side_bet.value = ""
    assert panel.wait(300) and "No side bet chosen" in panel.side.value


def test_a_side_bet_pay_typed_and_dragged(panel, omaha):
    """A forfeited bet's line: its figures from the bet's exact curve equal a joint evaluation
    at that pay, and so does the full result below them; a bad pay keeps the last one."""
    panel.game.value, panel.strategy.value = "casino-omaha", "optimal"
    panel.side_bet.value = "omaha-bad-beat"
    assert panel.wait(300)
    tab = panel.side_tab
    assert tab.line.value == "four_of_a_kind" and tab.box.value == "1000"
    tab.line.value = "three_of_a_kind"
    assert tab.box.value == "17" and tab.slider.value == 17
    bets, bet = SideBetEngine(omaha[1], panel.table, panel.pays_on.value), tab.bet  # the main table as it is
    for change in (lambda: setattr(tab.box, "value", "33/2"), lambda: setattr(tab.slider, "value", 20.5)):
        change()
        assert panel.wait(300)
        pay = tab.pays["three_of_a_kind"]
        want = bets.evaluate(bet.with_pays({"three_of_a_kind": pay}), strategy="joint")
        got = tab.point
        assert (got.pay, got.side_return, got.main_house_edge, got.call_rate) == (
            pay,
            want.exact.player_return,
            want.main.exact.house_edge,
            want.main.exact.call_rate,
        )
        assert f"<td class='tp-exact'>{want.exact.house_edge}</td>" in tab.figures.value
        assert f"<td class='tp-exact'>{want.combined.house_edge}</td>" in panel.side.value
        assert tab.plot.layout.visibility == "visible"
    assert pay == Fraction(41, 2)
    tab.box.value = "lots"
    assert panel.wait(300) and "is not a pay" in tab.note.value and tab.pays["three_of_a_kind"] == pay
    panel.side_bet.value = ""
    assert panel.wait(300) and "No side bet chosen" in panel.side.value and tab.pays == {}


def test_a_qualifier_gets_its_own_counts(panel, holdem):
    rules, engine = holdem
    panel.game.value = "casino-holdem"
    panel.qualifier.value = "none"
    assert panel.wait(600)
    no_qualifier = replace(rules, qualifier_rank=None)
    assert panel.engines.store(no_qualifier).complete  # kept for the next look
    result = panel.result
    assert result.rules == no_qualifier
    assert result.table.loc[result.table.outcome == "dealer_not_qualifying", "combinations"].sum() == 0
    # the no-qualifier store's own figures (its counts are the kernel's, which
    # tests/test_enumerator.py checks against the brute force with no qualifier)
    assert result.exact == load_engine(no_qualifier, RunOptions(progress=False)).decide().exact
    assert result.exact.house_edge != engine.decide().exact.house_edge
    panel.game.value = "casino-omaha"
    assert panel.wait(300) and panel.qualifier.value == "7s"


def test_solve_save_and_read_back_with_the_cli(panel, holdem, cli, tmp_path):
    _, engine = holdem
    panel.game.value = "casino-holdem"  # a solve is some thirty passes: the smaller game
    panel.target.value = "2%"
    set_box(panel, "flush", "2.5")  # the pay last changed is the one solved for
    assert panel.solve.description == "solve the flush pay"
    panel.solve.click()
    assert panel.wait(600)
    pay = Fraction(panel.boxes["flush"].value)
    assert panel.result.exact.house_edge == Fraction(1, 50) and 2 < pay < 3
    assert engine.decide(PayTable.load(None).replace(flush=pay)).exact.house_edge == Fraction(1, 50)
    panel.csv_path.value = str(tmp_path)
    panel.save.click()
    assert panel.wait(60)
    assert panel.saved.read_text() == panel.table.to_csv()
    back = cli("report", "--game", "casino-holdem", "--paytable", panel.saved, "--format", "json").json()
    assert back["house_edge_exact"] == str(panel.result.exact.house_edge) == "1/50"
    assert back["element_of_risk_exact"] == str(panel.result.exact.element_of_risk)
    assert back["call_rate"] == float(panel.result.exact.call_rate)
    assert [r["deals"] for r in back["return_table"]] == panel.result.table["combinations"].tolist()
    panel.target.value = "50%"
    panel.solve.click()
    assert panel.wait(300)
    assert "out of reach" in panel.message.value
    set_box(panel, "flush", "2")
    panel.game.value = "casino-omaha"
    assert panel.wait(300)


def test_save_writes_a_safe_name_inside_the_folder(panel, tmp_path):
    """A name that climbs out of the folder or carries a newline is saved as a plain file
    name in the folder; the CSV has exactly its own lines."""
    folder = tmp_path / "a" / "tables"
    panel.csv_path.value = str(folder)
    for typed, stem in (("../../x", "x"), ("a\nb", "a-b"), ("=1+2\r\n# pay table evil", "1-2-pay-table-evil")):
        panel.name.value = typed
        panel.save.click()
        assert panel.wait(60)
        assert panel.saved == folder / f"{stem}.csv"
        lines = panel.saved.read_text().splitlines()
        assert lines[:2] == [f"# pay table {stem}", "category,pays"] and len(lines) == 2 + len(CATEGORIES)
        assert "made a file name" in panel.message.value and f"{stem}.csv" in panel.message.value
    panel.name.value = "antewin-tuned"
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    assert written == ["a/tables/1-2-pay-table-evil.csv", "a/tables/a-b.csv", "a/tables/x.csv"]


@pytest.mark.parametrize(
    "name, stem",
    [
        ("../../x", "x"),
        ("a\nb", "a-b"),
        ("..", "tuned"),
        ("  ", "tuned"),
        ("/etc/passwd", "etc-passwd"),
        ("C:\\x\\y.csv", "C-x-y.csv"),
        ("-=HYPERLINK()", "HYPERLINK-"),
        ("a..b...c", "a.b.c"),
        ("ok-name_1.5", "ok-name_1.5"),
        ("\x00\x1b[31mred", "31mred"),
        ("x" * 5000, "x" * 64),
    ],
)
def test_file_stem(name, stem):
    with time_limit(10):
        assert file_stem(name) == stem


#: Every game the panel takes by name (the one-decision ones get the one-decision panel).
GAMES = ", ".join(shipped_games())


@pytest.mark.parametrize(
    "arguments, message",
    [
        ({"game": None}, f"tuning panel: game None is not one of: {GAMES}, or a .toml file"),
        (
            {"game": "x" * 5000},
            f"tuning panel: game 'xxxxxxxxxxxxxxxxxxx...' (5,000 characters) is not one of: {GAMES}, or a .toml file",
        ),
        ({"strategy": "bogus"}, "tuning panel: strategy 'bogus' is not one of: optimal, always-call, simple"),
        ({"pays_on": "raise"}, "tuning panel: pays_on 'raise' is not one of: ante, call"),
        ({"call_multiple": True}, "tuning panel: call_multiple True is not one of: own, 1, 2, 3, 4"),
        ({"call_multiple": 5}, "tuning panel: call_multiple 5 is not one of: own, 1, 2, 3, 4"),
        ({"qualifier": 13}, "tuning panel: qualifier 13 is not one of: None, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12"),
        ({"sweep_points": 1}, "tuning panel: sweep_points must be a whole number >= 2: 1"),
        ({"out_dir": None}, "tuning panel: out_dir must be a folder (str or Path), got None"),
        ({"engine": "casino-omaha"}, "tuning panel: engine must be a ReturnEngine or None, got str"),
        ({"options": {}}, "tuning panel: options must be RunOptions or None, got dict"),
    ],
)
def test_arguments_are_checked_by_name(arguments, message):
    with pytest.raises(InputError) as raised, time_limit(10):
        tuning_panel(**arguments)
    assert str(raised.value) == message


def test_write_the_full_report(panel, omaha, tmp_path, monkeypatch):
    """The button hands the report builder what is on screen (engine, table, strategy, pay
    rule) and writes into the folder typed in. Building the report is tests/test_report.py's
    job (the same build_report, the full Casino Omaha report), so it is not built again here."""
    from analysis.tuning import panel as panel_module

    _, engine = omaha
    calls = []

    class Built:
        def write(self, folder):
            calls.append(("write", folder))
            return folder / "book.xlsx", folder / "page.html"

    def build_report(*args, **kwargs):
        calls.append(("build", args, kwargs))
        return Built()

    monkeypatch.setattr(panel_module, "build_report", build_report)
    set_box(panel, "royal_flush", "250")
    panel.pays_on.value = "call"
    panel.strategy.value = "simple"
    assert panel.wait(300)
    panel.out_dir.value = str(tmp_path)
    panel.write.click()
    assert panel.wait(300)
    (build, args, kwargs), write = calls
    assert build == "build" and kwargs == {} and len(args) == 4
    built_engine, table, strategy, pays_on = args
    assert built_engine is engine and (strategy, pays_on) == ("simple", "call")
    assert table.name == "antewin-tuned" and table.pays == PayTable.load(None).replace(royal_flush=250).pays
    assert engine.decide(table, STRATEGIES[strategy], pays_on).exact == panel.result.exact  # the figures shown
    assert write == ("write", tmp_path)
    assert panel.report_paths == (tmp_path / "book.xlsx", tmp_path / "page.html")
    assert "report written" in panel.message.value and "book.xlsx" in panel.message.value
    panel.strategy.value = "optimal"
    panel.pays_on.value = "ante"
    set_box(panel, "royal_flush", "100")
    shown(panel, engine.decide())


def test_parse_edge():
    assert parse_edge("2%") == parse_edge("0.02") == parse_edge("1/50") == Fraction(1, 50)
    with pytest.raises(ValueError, match="'two' is not a number: give an integer, a decimal"):
        parse_edge("two")
    assert np.isclose(float(parse_edge(" 0.5 % ")), 0.005)
