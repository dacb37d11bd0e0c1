"""The par sheet of a multi-street game: the workbook read back holds the solver's exact
figures, every text cell is text, the pre-flop grid puts each class where it belongs (pairs
on the diagonal, suited above, offsuit below; a small deck's grid is smaller, a one-suit
deck's has neither pairs nor offsuit hands), the page is self-contained and the command
line writes it. Small decks for the fast checks; Ultimate Texas Hold'em on the full deck
(its known exact edge and pre-flop strategy) is slow."""

from __future__ import annotations

import hashlib
import re
from fractions import Fraction

import openpyxl
import pandas as pd
import pytest
from test_report import pdf_text

from analysis.engine.streets import solve_streets
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.game import game_from_document, load_game
from analysis.parallel.options import RunOptions
from analysis.report.street_tables import preflop_grid, street_maximum_payout
from analysis.report.streets import build_street_report
from analysis.report.wording import HEADERS, header
from test_streets import SMALL_GAME, doc

HOSTILE_TITLE = '=HYPERLINK("http://x","y")'


def sheet_rows(book, name):
    """A sheet's rows keyed by the tables' own column names (the workbook's headers are in words)."""
    rows = list(book[name].iter_rows(values_only=True))
    assert not [h for h in rows[0] if "_" in str(h)]
    inverse = {v: k for k, v in HEADERS.items()}
    names = [h[:1].lower() + h[1:] if header(h[:1].lower() + h[1:]) == h else inverse[h] for h in rows[0]]
    return [dict(zip(names, r)) for r in rows[1:]]


def grid_cells(book):
    rows = list(book["Pre-flop grid"].iter_rows(values_only=True))
    ranks = list(rows[0][1:])
    return {(r[0], c): v for r in rows[1:] for c, v in zip(ranks, r[1:])}


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """The small Ultimate game (nine to ace, two suits) from its file, with a title that
    looks like a formula; the par sheet written and read back."""
    folder = tmp_path_factory.mktemp("small")
    path = folder / "small.toml"
    path.write_text(SMALL_GAME.replace('title = "Ultimate on nine to ace, two suits"', f"title = '{HOSTILE_TITLE}'"))
    report = build_street_report(path, RunOptions(root=folder / "store", threads=2, progress=False))
    xlsx, page, _ = report.write(folder / "out")
    return report, path, openpyxl.load_workbook(xlsx), page


def test_workbook_holds_the_exact_figures(small):
    report, path, book, _ = small
    f = report.figures
    summary = {r["figure"]: r for r in sheet_rows(book, "Summary")}
    assert summary["house edge"]["exact"] == str(f.house_edge)
    assert summary["house edge"]["shown"] == f"{float(f.house_edge):.4%}"
    assert summary["element of risk"]["exact"] == str(f.element_of_risk)
    assert summary["deals counted"]["value"] == f.total == f.game.rules.total_combinations
    assert summary["volatility index (95%)"]["value"] == pytest.approx(1.959964 * f.standard_deviation, rel=1e-6)
    returns = sheet_rows(book, "Return table")
    assert sum(r["deals"] for r in returns) == f.total
    assert sum(Fraction(r["probability (exact)"]) * Fraction(r["net result (exact)"]) for r in returns) == f.expected
    decisions = sheet_rows(book, "Decisions")
    taken = {("before the flop", "check"), ("before the flop", "bet 4")}
    assert {(r["decision point"], r["option"]) for r in decisions if r["deals"]} >= taken
    words = {"preflop": "before the flop", "flop": "at the flop", "river": "at the river"}
    assert {(words[s], o): n for (s, o), n in f.decisions.items()} == {
        (r["decision point"], r["option"]): r["deals"] for r in decisions if r["deals"]
    }
    meta = {r["item"]: r["value"] for r in sheet_rows(book, "Metadata")}
    assert meta["game file"] == "small.toml"
    assert meta["game file SHA-256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert f.checksum is not None and meta["result store checksum (SHA-256)"] == f.checksum
    assert meta["changed from the game file"] == "nothing"
    blind = {r["player's final hand"]: r["exact"] for r in sheet_rows(book, "Blind pays")}
    assert blind["flush"] == "3/2" and blind["pair"] == "0"


def test_text_cells_are_text_and_numbers_stay_numbers(small):
    _, _, book, _ = small
    kinds = {c.data_type for sheet in book for row in sheet.iter_rows() for c in row if c.value is not None}
    assert kinds <= {"s", "n"}  # no formula, no error value
    title = [c for row in book["Metadata"].iter_rows() for c in row if c.value == HOSTILE_TITLE]
    assert len(title) == 1 and title[0].data_type == "s" and title[0].quotePrefix
    deals = [row[4] for row in book["Return table"].iter_rows(min_row=2)]
    assert all(c.data_type == "n" and isinstance(c.value, int) for c in deals)
    headers = [c.value for sheet in book for c in sheet[1]]
    assert not [h for h in headers if h and re.search(r"_|EV\(", str(h))]  # words, not identifiers


def test_the_grid_of_a_small_deck(small):
    report, _, book, _ = small
    cells = grid_cells(book)
    ranks = "AKQJT9"
    assert len(cells) == 36 and all(cells.values())  # 6 pairs, 15 suited, 15 offsuit
    by_class = {r["hole cards (an example)"]: r["best option"] for r in sheet_rows(book, "Pre-flop strategy")}
    assert len(by_class) == 36
    for cards, option in by_class.items():
        (a, sa), (b, sb) = sorted(((c[0], c[1]) for c in cards.split()), key=lambda c: ranks.index(c[0]))
        cell = (a, b) if sa == sb else (b, a)  # row, column: suited above the diagonal, offsuit below
        assert cells[cell] == option, cards
    pre = report.figures.preflop.set_index("hole cards")["option"]
    assert cells[("A", "A")] == pre["Ac Ad"] and cells[("9", "A")] == pre["9d Ac"]


def test_a_one_suit_deck_has_only_suited_cells(tmp_path):
    game = game_from_document(doc(ranks="23456789TJQKA", suits="c"), "one suit")
    grid = preflop_grid(solve_streets(game, RunOptions(root=tmp_path, threads=2, progress=False)))
    cells = grid.set_index("rank")
    assert grid.shape == (13, 14)
    for i, row in enumerate(cells.index):
        for j, col in enumerate(cells.columns):
            assert bool(cells.loc[row, col]) == (j > i)  # suited only: above the diagonal


def test_three_hole_cards_get_a_table_by_class_and_a_chart(tmp_path):
    game = game_from_document(doc(hole=3, hand="two-hole-three-board"), "three cards")
    report = build_street_report(game, RunOptions(root=tmp_path, threads=2, progress=False))
    assert "Pre-flop grid" not in report.sheets and "preflop" in report.images
    table = report.sheets["Pre-flop strategy"]
    assert table["holdings"].sum() == 220  # C(12, 3)
    assert {"hand", "best option", "expected result if bet 4 (antes)"} <= set(table.columns)
    assert report.sheets["Metadata"].set_index("item").loc["game file", "value"] == "none (built in memory)"


def test_the_page_is_self_contained(small):
    _, _, _, page = small
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"""<(script|link)\b[^>]*\b(src|href)\s*=\s*["']?(https?:)?//""", text, re.I)
    assert not re.search(r"""\b(src|href)\s*=\s*["']?(https?:)?//""", text, re.I)
    assert text.count('src="data:image/png;base64,') >= 3
    assert HOSTILE_TITLE not in text and "=HYPERLINK(&quot;http://x&quot;" in text  # escaped, never markup
    for heading in ("Summary", "Rules of play", "Return table", "Strategy", "Run metadata"):
        assert f">{heading}</h2>" in text
    assert ">The strategy in words</h3>" in text


@pytest.mark.slow
def test_the_page_renders_in_headless_chromium(small, tmp_path):
    from selenium.webdriver.common.by import By

    from browser import chromium

    report, _, _, page = small
    driver = chromium(tmp_path / "profile")
    try:
        driver.get(page.as_uri())
        assert driver.title.startswith(HOSTILE_TITLE)  # text, never markup or a formula
        for key in ("summary", "rules", "return-table", "distribution", "decisions", "strategy", "metadata"):
            assert driver.find_element(By.ID, key).is_displayed()
        images = driver.find_elements(By.TAG_NAME, "img")
        assert len(images) == len(report.images)
        for img in images:
            assert driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", img)
        assert f"{float(report.figures.house_edge):.4%}" in driver.find_element(By.ID, "summary").text
        assert not [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    finally:
        driver.quit()


def test_a_what_if_says_what_changed(small, tmp_path):
    report, path, _, _ = small
    game = load_game(path).with_blind({"straight": 2})
    what_if = build_street_report(game, RunOptions(root=tmp_path, threads=2, progress=False))
    meta = what_if.sheets["Metadata"].set_index("item")["value"]
    assert meta["changed from the game file"] == "blind pays" and meta["game file"] == "small.toml"
    assert what_if.figures.house_edge != report.figures.house_edge
    assert what_if.stem == "small-ultimate_-optimal-par-sheet"


def test_report_command_writes_the_par_sheet(small, cli, tmp_path):
    report, path, _, _ = small
    store = tmp_path / "store"
    out = cli("report", "--game", path, "--store", store, "--no-progress", "--out", tmp_path / "out")
    assert out.returncode == 0, out.stderr
    assert f"house edge {float(report.figures.house_edge):.4%}" in out.stdout
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    stem = "small-ultimate-optimal-par-sheet"
    assert written == [f"{stem}.html", f"{stem}.pdf", f"{stem}.pdf.sha256", f"{stem}.xlsx"]
    pdf = tmp_path / "out" / f"{stem}.pdf"
    pages = [" ".join(p.split()) for p in pdf_text(pdf)]
    # the title as written (data, never markup, for the typesetter), and the hashes that pin the figures
    assert pages[0].startswith(f"{HOSTILE_TITLE}: par sheet") and "Figures SHA-256" in pages[0]
    assert all(f"Page {i} of {len(pages)}" in p for i, p in enumerate(pages, 1))
    data = cli("report", "--game", path, "--store", store, "--format", "json").json()
    assert Fraction(data["house_edge_exact"]) == report.figures.house_edge
    assert sum(r["deals"] for r in data["return_table"]) == report.figures.total
    text = cli("report", "--game", path, "--store", store)
    assert f"(exact {report.figures.house_edge})" in text.stdout
    # another qualifier (on this deck every dealer hand is two pair or a straight at worst: same figures)
    changed = cli("report", "--game", path, "--store", store, "--qualifier", "K", "--out", tmp_path / "q")
    assert changed.returncode == 0, changed.stderr
    book = openpyxl.load_workbook(tmp_path / "q" / "small-ultimate_-optimal-par-sheet.xlsx")
    meta = {r["item"]: r["value"] for r in sheet_rows(book, "Metadata")}
    assert meta["changed from the game file"] == "dealer's qualifier"
    assert "The dealer qualifies with a pair of Ks or better." in [r["text"] for r in sheet_rows(book, "Rules")]


def test_report_command_refuses_what_it_cannot_do(cli, tmp_path):
    bad = cli("report", "--game", "baccarat")
    assert bad.returncode == 2 and "unknown game 'baccarat'; choose one of:" in bad.stderr
    assert "ultimate-texas-holdem or a game file (.toml)" in bad.stderr
    missing = cli("report", "--game", tmp_path / "missing.toml")
    assert missing.returncode == 2 and "unknown game" in missing.stderr
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "x"\n[cards]\nhole = 4\n')
    wrong = cli("report", "--game", broken)
    assert wrong.returncode == 2 and "[cards] hole must be 2 or 3" in wrong.stderr
    pays = cli("report", "--game", "ultimate-texas-holdem", "--paytable", "madrid", "--strategy", "simple")
    assert pays.returncode == 2 and "--paytable, --strategy: only for casino-omaha and casino-holdem" in pays.stderr
    other = cli("protect", "--game", "ultimate-texas-holdem", "--exposed", "2")  # not yet: says why in one line
    assert other.returncode == 2 and "two cards seen, the turn seen early and colluding seats" in other.stderr


# ---- the full deck ------------------------------------------------------------------------


def test_every_wager_its_odds_the_house_result_and_the_method(small):
    report, _, book, page = small
    f = report.figures
    wagers = {r["wager"]: r for r in report.sheets["Odds per wager"].to_dict(orient="records")}
    assert list(wagers) == ["ante", "blind", "play"]
    assert sum(Fraction(w["expected_net_per_ante_exact"]) for w in wagers.values()) == -f.house_edge
    folds = Fraction(f.counts.get(("fold", 0, "", ""), 0), f.total)
    assert Fraction(wagers["play"]["made_exact"]) == 1 - folds and wagers["ante"]["made_exact"] == "1"
    first = report.sheets["Confidence ranges"].iloc[0]
    assert first["expected_house_win"] == pytest.approx(first["hands"] * float(f.house_edge))
    text = page.read_text()
    assert "Per wager" in text and "Commands that reproduce every figure" in text
    assert "casino-omaha report --game small.toml --out reports" in text
    # on nine to ace in two suits the player has the edge, and the sheet says so first
    assert f.house_edge < 0 and "cannot be offered as it stands" in text.split('id="rules"')[0]


def test_a_game_that_pays_the_player_says_so_first(tmp_path):
    rich = doc(blind=False, ante={"pays": {c: 5 for c in CATEGORIES}, "dealer_not_qualifying": "pays"})
    report = build_street_report(game_from_document(rich, "rich"), RunOptions(root=tmp_path, progress=False))
    assert report.figures.house_edge < 0
    summary = report.html().split('id="rules"')[0]
    assert "This game cannot be offered as it stands: the house edge is negative." in summary
    assert f"exactly {-report.figures.house_edge})" in summary


@pytest.fixture(scope="module")
def uth_book(tmp_path_factory):
    report = build_street_report("ultimate-texas-holdem")  # the solve is kept in the default store
    xlsx, page, _ = report.write(tmp_path_factory.mktemp("uth"))
    return report, openpyxl.load_workbook(xlsx)


@pytest.mark.slow
def test_ultimate_texas_holdem_par_sheet(uth_book):
    report, book = uth_book
    summary = {r["figure"]: r for r in sheet_rows(book, "Summary")}
    assert summary["house edge"]["exact"] == "50643648973/2317817502000"
    assert summary["house edge"]["shown"] == "2.1850%"
    assert sum(r["deals"] for r in sheet_rows(book, "Return table")) == 27813810024000
    meta = {r["item"]: r["value"] for r in sheet_rows(book, "Metadata")}
    assert meta["game file"] == "ultimate-texas-holdem.toml" and len(meta["game file SHA-256"]) == 64
    assert meta["result store checksum (SHA-256)"] == report.figures.checksum
    assert "cannot be offered as it stands" not in report.html()  # the house has its edge
    wagers = report.sheets["Odds per wager"].set_index("wager")
    assert sum(Fraction(x) for x in wagers["expected_net_per_ante_exact"]) == -report.figures.house_edge
    # its side bet, Trips, with its lines and plot
    (trips,) = report.sheets["Side bets"].to_dict("records")
    assert trips["bet"] == "Trips" and trips["house_edge_exact"] == "48987/2572780"
    assert "Side bets" in book.sheetnames and "Side bet lines" in book.sheetnames
    assert report.sheets["Side bet lines"]["combinations"].sum() == 27813810024000
    assert "side-bet-0" in report.images and "Side bets" in report.html()


@pytest.mark.slow
def test_ultimate_texas_holdem_preflop_grid(uth_book):
    _, book = uth_book
    cells = grid_cells(book)
    assert len(cells) == 169 and all(cells.values())
    assert cells[("2", "2")] == "check" and cells[("3", "3")] == "bet 4"  # 2c 2d, 3c 3d
    assert cells[("2", "A")] == "bet 4" and cells[("4", "K")] == "check"  # A2 offsuit, K4 offsuit
    assert cells[("K", "2")] == "bet 4" and cells[("5", "K")] == "bet 4"  # K2 suited, K5 offsuit
    assert cells[("Q", "6")] == "bet 4" and cells[("Q", "5")] == "check"  # Q6 suited, Q5 suited
    assert cells[("T", "J")] == "bet 4" and cells[("9", "J")] == "check"  # JT offsuit, J9 offsuit
    by_class = {r["hole cards (an example)"]: r["best option"] for r in sheet_rows(book, "Pre-flop strategy")}
    assert by_class["2c 2d"] == "check" and by_class["3c 3d"] == "bet 4"
    assert by_class["2d Ac"] == "bet 4" and by_class["4d Kc"] == "check"
    assert "bet 3" not in set(cells.values())


@pytest.mark.slow
def test_ultimate_texas_holdem_odds_per_blind_line_and_maximum_payout(uth_book):
    """The blind's lines are paid on a better player hand whether the dealer qualifies or
    not; the largest win is a royal flush after the 4x bet against a qualifying dealer:
    ante 1 + play 4 + blind 500 = 505 antes."""
    report, book = uth_book
    returns = sheet_rows(book, "Return table")
    lines = {r["hand"]: r for r in sheet_rows(book, "Odds per pay line")}
    assert [r["wager"] for r in lines.values()] == ["blind"] * 6
    better = ("does not qualify; player's hand is better", "qualifies; player wins")
    for hand, line in lines.items():
        n = sum(r["deals"] for r in returns if r["player's final hand"] == hand and r["dealer"] in better)
        assert line["combinations"] == n and Fraction(line["true odds (exact)"]) == Fraction(27813810024000 - n, n)
    assert lines["royal flush"]["payout odds"] == "500 to 1" and lines["flush"]["payout odds"] == "3 to 2"
    m = street_maximum_payout(report.figures)
    top = [r for r in returns if r["net result (exact)"] == "505"]
    assert m.net == 505 and len(top) == 1 and m.combinations == top[0]["deals"]
    assert top[0]["player's final hand"] == "royal flush" and top[0]["dealer"] == "qualifies; player wins"


def test_the_sheets_alone_are_the_par_sheets_and_cannot_be_written(small, tmp_path):
    """What the command line prints (text, JSON, CSV) is built without the examples and
    plots only the document shows: the same sheets otherwise, and no document from it."""
    report, path, _, _ = small
    bare = build_street_report(report.game, figures=report.figures, game_file=path, document=False)
    assert bare.images == {} and bare.examples == ()
    assert set(report.sheets) - set(bare.sheets) == {"Worked examples", "Strategy in words", "Written rules' cost"}
    for name in set(bare.sheets) - {"Metadata"}:  # the metadata has the time it was made
        pd.testing.assert_frame_equal(bare.sheets[name], report.sheets[name])
    with pytest.raises(InputError, match="built without its document"):
        bare.write(tmp_path)
