"""The tuning panel of every game beyond the one-decision ones (GamePanel): a pay typed in a
box gives the exact figures of the game solved again with that pay, computed independently
(the game file with the line changed, or the engine on the changed game); a target solve
lands on its exact pay; the command it prints reproduces the figures; the par sheet it writes
is of the changed table; bad input leaves the last good result. And ``casino-omaha app``
serves it: Three Card Poker in Chromium, a pay typed, the page's house edge the exact one."""

from __future__ import annotations

from fractions import Fraction

import pandas as pd
import pytest

from analysis.engine.no_board import solve_no_board
from analysis.engine.streets import solve_streets
from analysis.model.errors import InputError
from analysis.model.game import game_from_document, load_game, shipped_games
from analysis.parallel.options import RunOptions
from analysis.tuning.game_panel import GamePanel
from analysis.tuning.panel import TuningPanel, tuning_panel
from analysis.tuning.view import decimal_text
from browser import chromium
from served import start_app, stop_app_process
from test_streets import SMALL_GAME, doc

TCP = shipped_games()["three-card-poker"]
#: Three Card Poker's ante bonus line as its file writes it.
BONUS = "bonus = { straight_flush = 5, three_of_a_kind = 4, straight = 1 }"


def tcp_with(tmp_path, line: str):
    """Three Card Poker from a copy of its file with the ante bonus ``line``."""
    text = TCP.read_text()
    assert BONUS in text
    path = tmp_path / "tcp.toml"
    path.write_text(text.replace(BONUS, line))
    return load_game(path)


@pytest.fixture
def tcp_panel(tmp_path):
    panel = tuning_panel("three-card-poker", out_dir=tmp_path / "out")
    assert isinstance(panel, GamePanel) and panel.wait(120)
    yield panel
    panel.close()


def test_a_typed_pay_gives_the_game_file_with_that_line(tcp_panel, tmp_path):
    p = tcp_panel
    assert p.result is not None and p.lines == (
        "straight_flush",
        "three_of_a_kind",
        "straight",
        "flush",
        "pair",
        "high_card",
    )
    assert p.result.exact.house_edge == solve_no_board(load_game("three-card-poker")).exact.house_edge
    p.boxes["straight_flush"].value = "6"
    p.boxes["flush"].value = "1/2"
    assert p.wait(120)
    want = solve_no_board(
        tcp_with(tmp_path, 'bonus = { straight_flush = 6, three_of_a_kind = 4, straight = 1, flush = "1/2" }')
    )
    assert p.result.exact == want.exact
    assert decimal_text("house_edge", want.exact) in p.figures.value
    assert str(want.exact.house_edge) in p.status.value
    # the difference against the starting table names both lines and the edge's change
    assert "<td>straight flush</td><td>5</td><td>6</td><td>+1</td>" in p.difference.value
    assert "<td>flush</td><td>0</td><td>0.5</td><td>+0.5</td>" in p.difference.value
    # the return table in words, every deal in it
    assert "folded" in p.returns.value and all(f"{o.deals:,}" in p.returns.value for o in want.outcomes())
    command = p.tune_command(p.table)
    assert command == "casino-omaha tune --game three-card-poker --set straight_flush=6 --set flush=1/2"


def test_bad_input_keeps_the_last_good_result(tcp_panel):
    p = tcp_panel
    before = p.result
    p.boxes["straight"].value = "two"
    assert p.wait(60)
    assert "not a pay" in p.notes["straight"].value and "not a number: straight" in p.status.value
    assert p.result is before
    p.boxes["straight"].value = "-1"
    assert p.wait(60) and "not a pay" in p.notes["straight"].value and p.result is before
    p.write.click()
    assert p.wait(60) and "no par sheet" in p.message.value and p.report_paths is None


def test_a_target_edge_is_solved_to_its_exact_pay_and_shown(tcp_panel):
    p = tcp_panel
    p.boxes["straight"].value = "1"  # focus the straight
    assert p.wait(60)
    p.target.value = "2%"
    p.solve.click()
    assert p.wait(120)
    assert "for a house edge of exactly 1/50" in p.message.value, p.message.value
    pay = Fraction(p.boxes["straight"].value)
    assert p.table.pays["straight"] == pay and p.result.exact.house_edge == Fraction(1, 50)
    p.target.value = "two"
    p.solve.click()
    assert p.wait(60) and "is not a number" in p.message.value


def test_the_printed_command_and_the_par_sheet_are_of_the_changed_table(tcp_panel, cli, tmp_path):
    p = tcp_panel
    p.boxes["three_of_a_kind"].value = "5"
    assert p.wait(60)
    args = p.tune_command(p.table).split()[1:]
    run = cli(*args, "--format", "json")
    assert run.returncode == 0, run.stderr
    assert Fraction(run.json()["house_edge_exact"]) == p.result.exact.house_edge
    p.draw.click()
    # the exact curve from 0 to the slider's end (16): the optimal player plays every three of
    # a kind whatever its bonus, so the curve is one straight line
    assert p.wait(120) and "drawn: the exact curve, 0 breakpoints between 0 and 16" in p.message.value, p.message.value
    assert bytes(p.plot.value).startswith(b"\x89PNG")
    p.write.click()
    assert p.wait(300) and p.report_paths is not None, p.message.value
    workbook = next(x for x in p.report_paths if x.suffix == ".xlsx")
    assert workbook.name == "three-card-poker-tuned-optimal-par-sheet.xlsx"
    sheets = pd.read_excel(workbook, sheet_name=None)
    assert str(p.result.exact.house_edge) in " ".join(sheet.to_string() for sheet in sheets.values())


def test_a_multi_street_file_is_tuned_like_the_engine_solves_it(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL_GAME)
    options = RunOptions(root=tmp_path / "store", progress=False, threads=2)
    p = GamePanel(path, options=options, out_dir=tmp_path / "out")
    try:
        assert p.wait(300) and p.tuner.wager == "blind"
        assert p.named == str(path.resolve()) and len(p.lines) == 10
        p.boxes["flush"].value = "2"
        assert p.wait(300)
        changed = load_game(path).with_blind({"flush": 2})
        assert p.result.exact == solve_streets(changed, RunOptions(root=tmp_path / "other", progress=False)).exact
        assert f"--game {path.resolve()} --set flush=2" in p.command.value
    finally:
        p.close()


def test_what_the_panel_refuses(tmp_path):
    with pytest.raises(InputError, match="a game file states its own pays"):
        tuning_panel("three-card-poker", "madrid")
    with pytest.raises(InputError, match="call_multiple is for the one-decision games"):
        tuning_panel("ultimate-texas-holdem", call_multiple=3)
    with pytest.raises(InputError, match="game 'no-such-game' is not one of: caribbean-stud, "):
        tuning_panel("no-such-game")
    with pytest.raises(InputError, match="unknown game"):
        GamePanel("no-such-game")
    with pytest.raises(InputError, match="qualifier must be a rank's text"):
        GamePanel("ultimate-texas-holdem", qualifier=3)
    with pytest.raises(InputError, match="sweep_points must be a whole number from 2 to 50"):
        GamePanel("three-card-poker", sweep_points=1000)
    plain = game_from_document(doc(blind=False), "plain")  # even-money ante, no blind: no table
    with pytest.raises(InputError, match="nothing to tune"):
        GamePanel(plain)
    assert isinstance(tuning_panel("casino-holdem", engine=None, options=RunOptions(progress=False)), TuningPanel)


def test_app_refuses_a_game_with_nothing_to_tune_in_one_line(cli, tmp_path):
    path = tmp_path / "plain.toml"  # even-money ante, no blind
    path.write_text(SMALL_GAME.split("[blind]")[0] + '[play]\ndealer_not_qualifying = "action"\n')
    run = cli("app", "--game", path, "--port", "8867")
    assert run.returncode == 2 and run.stdout == "" and len(run.stderr.splitlines()) == 1
    assert "no wager is paid by a table" in run.stderr


@pytest.mark.slow
def test_three_card_poker_served_and_tuned_in_chromium(tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    served = start_app(tmp_path, game="three-card-poker")
    driver = chromium(tmp_path / "profile", size="1400,1000")
    try:
        driver.get(served.url)
        edge = lambda: driver.execute_script(  # noqa: E731
            "const e = document.querySelector('.tp-house_edge'); return e ? e.textContent : ''"
        )
        WebDriverWait(driver, 300, 0.1).until(lambda d: edge())
        assert edge() == decimal_text("house_edge", solve_no_board(load_game("three-card-poker")).exact)
        box = driver.find_element(By.CSS_SELECTOR, ".tp-pay-straight_flush input")
        before = edge()
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys("6" + Keys.ENTER)
        WebDriverWait(driver, 120, 0.05).until(lambda d: edge() != before)
        want = solve_no_board(tcp_with(tmp_path, "bonus = { straight_flush = 6, three_of_a_kind = 4, straight = 1 }"))
        assert edge() == decimal_text("house_edge", want.exact)
        assert "import" not in driver.find_element(By.TAG_NAME, "body").text  # no code on the page
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors
    finally:
        driver.quit()
        stop_app_process(served.process)
    assert served.process.poll() is not None
