"""The full report: the workbook read back holds the API's numbers, the figures follow their
stated formulas, and the HTML page renders in a real headless browser (Debian chromium)."""

import re
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest

from analysis import STRATEGIES
from analysis.model.categories import CATEGORIES
from analysis.report.build import build_report
from analysis.report.tables import HORIZONS, LEVELS
from analysis.report.wording import column_kind, header, label
from browser import chromium

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "reports" / "screenshots"


@pytest.fixture(scope="module")
def omaha_report(omaha, tmp_path_factory):
    _, engine = omaha
    report = build_report(engine)
    xlsx, page, _ = report.write(tmp_path_factory.mktemp("report"))
    return report, xlsx, page


@pytest.mark.slow
def test_workbook_holds_the_api_numbers(omaha_report, omaha):
    report, xlsx, _ = omaha_report
    rules, _ = omaha
    result = report.result
    words = pd.read_excel(xlsx, sheet_name=None)
    # clause numbers are text ("8.10"), which read_excel would take for numbers
    words["Rules of play"] = pd.read_excel(xlsx, sheet_name="Rules of play", dtype=str)
    assert list(words) == list(report.sheets)
    book = {}
    for name, table in report.sheets.items():  # every sheet, cell by cell
        assert list(words[name].columns) == [header(c) for c in table.columns], name
        assert not [h for h in words[name].columns if "_" in str(h)], name  # headers in words
        back = words[name].rename(columns={header(c): c for c in table.columns})
        for col in [c for c in table.columns if column_kind(c, table[c]) == "label"]:
            assert back[col].fillna("").tolist() == ["" if pd.isna(v) else label(v) for v in table[col]], (name, col)
            back[col] = table[col]
        book[name] = back
        for col in table.columns:
            if pd.api.types.is_integer_dtype(table[col]):
                assert back[col].dtype == np.int64 and np.array_equal(back[col], table[col]), (name, col)
            elif pd.api.types.is_float_dtype(table[col]):
                # floats are for display (Excel keeps about 15 digits); exact values are integers or fractions
                np.testing.assert_allclose(
                    back[col].to_numpy(float), table[col].to_numpy(float), rtol=1e-15, err_msg=f"{name}.{col}"
                )
            else:  # text, or integers and floats in one column (Summary.value: exact values are in "exact")
                for got, want in zip(back[col], table[col]):
                    if isinstance(want, (int, np.integer)):
                        assert int(got) == want, (name, col)
                    elif isinstance(want, (float, np.floating)):
                        assert float(got) == pytest.approx(float(want), rel=1e-15), (name, col)
                    else:
                        assert ("" if pd.isna(got) else str(got)) == str(want), (name, col)
    returns = book["Return table"]
    assert np.array_equal(returns.combinations, result.table.combinations)
    assert int(returns.combinations.sum()) == rules.total_combinations
    assert [Fraction(p) for p in returns.probability_exact] == [
        Fraction(int(n), rules.total_combinations) for n in result.table.combinations
    ]
    hands = book["Final hands"]
    assert hands.final_hand.tolist() == list(reversed(CATEGORIES))
    assert words["Final hands"]["Player's final hand"].tolist()[:2] == ["royal flush", "straight flush"]
    assert words["Return table"]["Outcome"].tolist()[1] == "dealer does not qualify"
    assert int(hands.combinations.sum()) == rules.total_combinations
    called_cols = ["called_dealer_not_qualifying", "called_player_wins", "called_tie", "called_dealer_wins"]
    assert np.array_equal(hands[called_cols].sum(axis=1), hands.called_combinations)
    assert int(hands.called_combinations.sum()) == rules.total_combinations - int(returns.combinations[0])
    summary = book["Summary"].set_index("figure")
    for figure, key in [
        ("house edge", "house_edge"),
        ("element of risk", "element_of_risk"),
        ("call rate", "call_rate"),
        ("hit frequency", "hit_frequency"),
        ("variance", "variance"),
    ]:
        assert Fraction(summary.loc[figure, "exact"]) == getattr(result.exact, key)
    assert int(summary.loc["total combinations", "value"]) == rules.total_combinations
    meta = book["Metadata"].set_index("item")["value"]
    assert meta["store checksum (SHA-256)"] == omaha[1].source.checksum
    assert meta["game"] == "Casino Omaha Poker" and meta["strategy"] == "optimal"
    # the side bets that ship for the game, with the side-bet API's exact figures
    side = book["Side bets"].set_index("bet")
    assert list(side.index) == ["Omaha Bad Beat", "Omaha Flop Bonus", "Omaha Jackpot"]
    for bet in report.side_bets:
        assert Fraction(side.loc[bet.bet.name, "house_edge_exact"]) == bet.exact.house_edge
        lines = book["Side bet lines"]
        assert lines[lines.bet == bet.bet.name].combinations.tolist() == bet.table.combinations.tolist()
        assert int(bet.table.combinations.sum()) == rules.total_combinations


@pytest.mark.slow
def test_figures_follow_their_formulas(omaha_report):
    report, _, _ = omaha_report
    e = report.result.exact
    t = report.result.table
    he = -Fraction(sum(int(n) * Fraction(p) for n, p in zip(t.combinations, t.payoff)), e.deals)
    assert he == e.house_edge
    sigma = e.standard_deviation
    summary = report.sheets["Summary"].set_index("figure")["value"]
    ranges = report.sheets["Confidence ranges"]
    assert len(ranges) == len(HORIZONS) * len(LEVELS)
    for level in LEVELS:
        z = NormalDist().inv_cdf((1 + level) / 2)
        assert summary[f"volatility index ({level:.0%})"] == pytest.approx(z * sigma, rel=1e-12)
        for n in HORIZONS:
            row = ranges[(ranges.hands == n) & (ranges.confidence == level)].iloc[0]
            assert row.house_win_low == pytest.approx(n * float(e.house_edge) - z * sigma * n**0.5, rel=1e-9)
            assert row.per_hand_high == pytest.approx(float(e.house_edge) + z * sigma / n**0.5, rel=1e-9)
            assert row.chance_house_ahead == pytest.approx(NormalDist().cdf(float(e.house_edge) * n**0.5 / sigma))
    # the simple strategy shown is the one evaluated, and it costs something against optimal
    compared = report.sheets["Strategies compared"].set_index("strategy")
    assert Fraction(compared.loc["optimal", "house_edge_exact"]) == e.house_edge
    cost = {name: Fraction(compared.loc[name, "cost_vs_optimal_exact"]) for name in ("simple", "always-call")}
    assert 0 < cost["simple"] < cost["always-call"]


def count_tables(blocks) -> int:
    from analysis.report.document import Section, Subsection, Table

    return sum(count_tables(b.blocks) if isinstance(b, (Section, Subsection)) else isinstance(b, Table) for b in blocks)


@pytest.mark.slow
def test_html_renders_in_headless_chromium(omaha_report, tmp_path):
    from selenium.webdriver.common.by import By

    report, _, page = omaha_report
    html_text = page.read_text()
    assert "http://" not in html_text and "https://" not in html_text  # self-contained
    driver = chromium(tmp_path / "profile")
    try:
        driver.get(page.as_uri())
        assert driver.title == "Casino Omaha Poker: par sheet"
        for section in report.document().sections:
            shown = driver.find_element(By.ID, section.key)
            assert shown.is_displayed()
            assert shown.find_element(By.TAG_NAME, "h2").text == section.heading
        headers = [th.text for th in driver.find_elements(By.TAG_NAME, "th")]
        assert headers and not [h for h in headers if "_" in h]  # headers in words
        images = driver.find_elements(By.TAG_NAME, "img")
        assert len(images) == len(report.images)
        for img in images:
            assert driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", img)
        tables = driver.find_elements(By.TAG_NAME, "table")
        assert len(tables) == 1 + count_tables(report.document().sections)  # the facts, then every table
        edge = driver.find_element(By.ID, "summary").text
        assert f"{float(report.result.exact.house_edge):.4%}" in edge
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        assert not errors, errors
        height = driver.execute_script("return document.body.scrollHeight")
        driver.set_window_size(1280, min(height, 16000))
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shot = SCREENSHOTS / f"{report.stem}.png"
        assert driver.save_screenshot(str(shot))
    finally:
        driver.quit()
    from PIL import Image

    with Image.open(shot) as im:
        assert im.size[1] > 3000
        assert len(im.convert("RGB").getcolors(maxcolors=1 << 20) or range(1 << 20)) > 50  # not a blank page


@pytest.mark.slow
def test_report_command_writes_workbook_and_page(holdem, cli, tmp_path):
    rules, engine = holdem
    out = cli("report", "--game", "casino-holdem", "--strategy", "simple", "--out", tmp_path / "r", "--no-progress")
    assert out.returncode == 0, out.stderr
    xlsx = tmp_path / "r" / "casino-holdem-antewin-simple-pays-on-ante.xlsx"
    page, pdf = xlsx.with_suffix(".html"), xlsx.with_suffix(".pdf")
    assert str(xlsx) in out.stdout and str(page) in out.stdout and str(pdf) in out.stdout
    assert pdf.read_bytes().startswith(b"%PDF") and pdf.with_name(pdf.name + ".sha256").is_file()
    assert not [p for p in (tmp_path / "r").iterdir() if p.name.startswith(".")]  # no temporary files left
    returns = pd.read_excel(xlsx, sheet_name="Return table")
    combinations = returns["Combinations"].tolist()
    assert combinations == engine.decide(None, STRATEGIES["simple"]).table.combinations.tolist()
    data = cli("report", "--game", "casino-holdem", "--strategy", "simple", "--format", "json", "--no-progress").json()
    assert [row["deals"] for row in data["return_table"]] == combinations  # JSON keeps machine names
    assert data["strategy"] == "simple"


def test_a_failed_write_keeps_the_old_report_and_no_temporary_file(tmp_path, monkeypatch):
    """A full disk while a report is written: the older report of the same name is kept
    whole and no temporary file is left."""
    import errno

    from analysis.counting.enumeration import count_flops, plan
    from analysis.engine.return_engine import ReturnEngine
    from analysis.model.rules import preset
    from analysis.store import atomic

    rules = preset("casino-holdem").small_deck("9TJQKA", "cd")
    report = build_report(ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules))
    written = report.write(tmp_path)
    before = {p: p.read_bytes() for p in written}

    def no_space(*args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", no_space)
    with pytest.raises(OSError, match="No space left"):
        report.write(tmp_path)
    assert {p: p.read_bytes() for p in written} == before
    pdf = written.pdf.with_name(written.pdf.name + ".sha256")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([p.name for p in written] + [pdf.name])


def pdf_text(path: Path) -> list[str]:
    """The text of every page (the breaks Typst may put in long numbers removed)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(path)
    try:
        return [page.get_textpage().get_text_range().replace("\u200b", "") for page in doc]
    finally:
        doc.close()


#: A number as a table shows it: a count with separators, a decimal, a fraction.
NUMBER = re.compile(r"(?<![\w.,/])-?\d[\d,]*(?:\.\d+)?(?:/\d+)?(?![\w,/])")


def table_cells(blocks) -> list[str]:
    """Every cell of every table of the document's ``blocks``, as the page and the PDF show it."""
    from analysis.report.document import Subsection, Table
    from analysis.report.wording import readable

    cells: list[str] = []
    for b in blocks:
        if isinstance(b, Subsection):
            cells += table_cells(b.blocks)
        elif isinstance(b, Table):
            cells += [str(c) for row in readable(b.frame).itertuples(index=False) for c in row]
    return cells


def chars_across_rules(pdf: Path) -> tuple[int, list[str]]:
    """The vertical rules of the PDF's tables, and every character whose box one of them
    crosses: text that runs out of its cell into the next."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    rules, crossed = 0, []
    doc = pdfium.PdfDocument(pdf)
    try:
        for n, page in enumerate(doc, 1):
            paths = [o.get_bounds() for o in page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH], max_depth=5)]
            lines = np.array([b for b in paths if b[2] - b[0] <= 1.5 and b[3] - b[1] > 4]).reshape(-1, 4)
            text = page.get_textpage()
            shown = [(i, text.get_text_range(i, 1)) for i in range(text.count_chars())]
            shown = [(i, c) for i, c in shown if c.strip() and c != "\u200b"]
            boxes = np.array([text.get_charbox(i) for i, _ in shown]).reshape(-1, 4)  # left, bottom, right, top
            x, middle = (lines[:, 0] + lines[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
            hit = (
                (boxes[:, [0]] + 0.2 < x)
                & (x < boxes[:, [2]] - 0.2)
                & (lines[:, 1] < middle[:, None])
                & (middle[:, None] < lines[:, 3])
            )
            rules += len(lines)
            crossed += [f"page {n}: {shown[i][1]!r}" for i in np.nonzero(hit.any(axis=1))[0]]
    finally:
        doc.close()
    return rules, crossed


@pytest.mark.slow
def test_the_pdf_shows_every_number_whole_inside_its_cell(omaha_report):
    """No number of a table is wrapped mid-group (each appears whole on one line of the
    PDF's text) and no text runs over its cell's rule into the next column."""
    report, xlsx, _ = omaha_report
    pdf = xlsx.with_suffix(".pdf")
    doc = report.document()
    cells = [c for section in doc.sections for c in table_cells(section.blocks)]
    numbers = {m.group() for c in cells for m in NUMBER.finditer(c) if len(m.group()) >= 5}
    assert len(numbers) > 300 and any("/" in n and len(n) > 30 for n in numbers)  # the variance's fraction
    shown = {m.group() for page in pdf_text(pdf) for line in page.splitlines() for m in NUMBER.finditer(line)}
    assert sorted(numbers - shown) == []
    rules, crossed = chars_across_rules(pdf)
    assert rules > 200 and crossed == []


def test_a_table_too_wide_for_whole_numbers_wraps_them_only_at_slashes_and_groups(tmp_path):
    """Seven columns of exact fractions cannot fit the page whole even in small type: they
    wrap at the slash, never inside a run of digits, and nothing crosses a column's rule."""
    from analysis.report.document import Document, Section, Table
    from analysis.report.typeset import pdf_bytes

    fractions = [[f"{10**17 + 7919 * (i + 3 * j)}/{10**17 + 104729 * (j + 5 * i)}" for j in range(6)] for i in range(4)]
    frame = pd.DataFrame(
        {"combinations": [10**18 + 12345 * i for i in range(4)]}
        | {f"share_{j}_exact": [row[j] for row in fractions] for j in range(6)}
    )
    pdf = tmp_path / "wide.pdf"
    pdf.write_bytes(pdf_bytes(Document("Wide", "", (), (Section("wide", "Wide", (Table(frame),)),))))
    lines = [line for page in pdf_text(pdf) for line in page.splitlines()]
    cells = table_cells((Table(frame),))
    assert {run for c in cells for run in re.findall(r"\d+", c)} <= {
        run for line in lines for run in re.findall(r"\d+", line)
    }
    assert not any(f in line for f in fractions[0] for line in lines)  # wrapped at the slash: whole cannot fit
    rules, crossed = chars_across_rules(pdf)
    assert rules >= 8 and crossed == []  # a rule each side of every column


#: What a document in words never shows outside a command to type: code quotes, options,
#: snake_case names, the package's folders, absolute paths and file names.
LEAKS = {
    "backtick": re.compile(r"`"),
    "option": re.compile(r"(?<![\w-])--\w"),
    "snake_case": re.compile(r"[A-Za-z0-9]_[A-Za-z0-9]"),
    "package folder": re.compile(r"analysis/"),
    "absolute path": re.compile(r"(?<![\w.])/(?:home|tmp|work|root|usr|var|Users|data)/|\b[A-Za-z]:\\"),
    "file name": re.compile(r"\w\.(?:csv|npy|json|toml|py|sha256)\b"),
    "game's code name": re.compile(r"\b(?:casino-omaha|casino-holdem)\b"),
}


def leaks(lines: list[str]) -> list[str]:
    return [f"{kind}: {line}" for line in lines for kind, pattern in LEAKS.items() if pattern.search(line)]


class PageText(HTMLParser):
    """The text of a page outside its commands (``<pre>``) and style."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.skip += tag in ("pre", "style")

    def handle_endtag(self, tag: str) -> None:
        self.skip -= tag in ("pre", "style")

    def handle_data(self, data: str) -> None:
        if not self.skip and data.strip():
            self.lines.append(data.strip())


@pytest.mark.slow
def test_no_code_in_the_documents(omaha_report):
    """The PDF and the page are in words: outside the commands to type, no code quote,
    option, snake_case name, package folder, path, file name or code name of a game."""
    from analysis.report.document import Command, Subsection

    report, xlsx, page = omaha_report
    doc = report.document()

    def commands(blocks) -> set[str]:
        out: set[str] = set()
        for b in blocks:
            if isinstance(b, Subsection):
                out |= commands(b.blocks)
            elif isinstance(b, Command):
                out |= set(b.text.splitlines())
        return out

    typed = {" ".join(c.split()) for s in doc.sections for c in commands(s.blocks)}
    assert any(c.startswith("casino-omaha report --game casino-omaha") for c in typed)
    pdf = [" ".join(line.split()) for p in pdf_text(xlsx.with_suffix(".pdf")) for line in p.splitlines()]
    assert len(pdf) > 500 and leaks(line for line in pdf if line not in typed) == []
    parser = PageText()
    parser.feed(page.read_text(encoding="utf-8"))
    assert len(parser.lines) > 500 and leaks(parser.lines) == []
    text = " ".join(pdf)
    for words in ("AnteWin pay table", "the call bet is twice the ante", "Casino Omaha Poker"):
        assert words in text, words
    assert "+1 ante," in text and "+1 antes" not in text and "1 times" not in text
    # the plots' titles name the game as the documents do (their text is drawn, not extractable)
    from analysis.report.plots import plot_contributions

    assert plot_contributions(report.result).axes[0].get_title().startswith("Casino Omaha Poker: ")


@pytest.mark.slow
def test_the_pdf_is_a_document_a_regulator_files(omaha_report, tmp_path):
    """Typeset par sheet: title page with the hashes, contents, page numbers, every section,
    the figures equal to the engine's; pages render to PNG; the .sha256 beside it matches."""
    import hashlib

    import pypdfium2 as pdfium

    report, xlsx, _ = omaha_report
    pdf = xlsx.with_suffix(".pdf")
    digest = pdf.with_name(pdf.name + ".sha256").read_text()
    assert digest == f"{hashlib.sha256(pdf.read_bytes()).hexdigest()}  {pdf.name}\n"
    pages = pdf_text(pdf)
    assert len(pages) >= 15
    flat = [" ".join(p.split()) for p in pages]
    meta = dict(zip(report.sheets["Metadata"]["item"], report.sheets["Metadata"]["value"]))
    title = flat[0]
    assert title.startswith("Casino Omaha Poker: par sheet")
    for fact in ("store checksum (SHA-256)", "pay table SHA-256", "figures SHA-256", "package version"):
        assert meta[fact] in title.replace(" ", ""), fact
    assert "Contents" in flat[1] and "Worked examples" in flat[1] and "Method and verification" in flat[1]
    assert all(f"Page {i} of {len(pages)}" in p for i, p in enumerate(flat, 1))
    text = " ".join(flat)
    squeezed = text.replace(" ", "")
    e, t = report.result.exact, report.result.table
    for words in (
        "Rules of play",
        "no less than those in the pay table",
        "Worked examples",
        "True odds",
        "Maximum payout",
    ):
        assert words in text, words
    assert str(e.house_edge) in squeezed and f"{float(e.house_edge):.4%}" in text
    assert all(f"{int(n):,}" in squeezed for n in t.combinations)  # every row of the return table
    # the commands that reproduce the figures name the game, the pay table and the strategy
    assert "casino-omaha report --game casino-omaha --paytable antewin --strategy optimal --out reports" in text
    assert "casino-omaha verify --game casino-omaha" in text
    m = report.maximum_payout
    assert m is not None and f"The largest net win of one hand is {m.net} antes" in text
    for x in report.examples:  # every worked example, its cards and its settlement
        assert x.case in text and " ".join(x.settlement.split()) in text
    # no header a person reads is a code identifier
    doc = report.document()
    from analysis.report.typeset import _block

    def headers(blocks):
        for b in blocks:
            d = _block(b, {k: "" for k in doc.images})
            yield from d.get("header", [])
            if d["type"] == "subsection":
                yield from headers(b.blocks)

    shown = [h for s in doc.sections for h in headers(s.blocks)]
    assert len(shown) > 50 and not [h for h in shown if "_" in h]
    assert all(" ".join(h.split()) in text or len(h) > 30 for h in shown[:20])
    # the pages render: the title page and a page of plots are not blank
    pdfdoc = pdfium.PdfDocument(pdf)
    try:
        for i in (0, len(pages) // 2):
            image = pdfdoc[i].render(scale=1).to_pil()
            image.save(tmp_path / f"page-{i}.png")
            assert image.size[0] > 500 and len(image.convert("L").getcolors(1 << 16) or range(1 << 16)) > 8
    finally:
        pdfdoc.close()
