"""The tuning page in a real browser: ``casino-omaha app`` serves the panel on 127.0.0.1,
headless Chromium (Debian chromium, as the report test) opens the printed address (its
token included) and types new flush pays, and the house edge on the page becomes the
engine's exact value for each table, taken from the flush pay's exact curve. No console errors, a screenshot under
reports/screenshots/, and the server stops at the end.

The timings (app start to the first figures, each change to its figures on screen) go to
reports/bench/panel-browser.json, which ``make bench`` (bench/bench_panel.py) reports."""

import json
import time
from fractions import Fraction
from pathlib import Path

import pytest

from analysis.model.paytable import PayTable
from analysis.tuning.view import decimal_text
from browser import chromium
from served import start_app, stop_app_process

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "reports" / "screenshots"
TIMINGS = ROOT / "reports" / "bench" / "panel-browser.json"
FLUSH_PAYS = ("3", "5/2", "1.75", "2.25", "2")
#: The house edge cell's text, read in the page (the cell is replaced on every update).
HOUSE_EDGE = "const e = document.querySelector('.tp-house_edge'); return e ? e.textContent : ''"
#: The status line's text (it says where the figures came from).
STATUS = "const e = document.querySelector('.tp-status'); return e ? e.textContent : ''"


@pytest.fixture
def app(omaha, tmp_path):
    """The page's address as printed (with its token) and when the command started; the
    server is stopped afterwards."""
    served = start_app(tmp_path)
    try:
        yield served.url, served.began
    finally:
        stop_app_process(served.process)


@pytest.mark.slow
def test_change_the_flush_pay_in_chromium(app, omaha, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    _, engine = omaha
    url, began = app
    driver = chromium(tmp_path / "profile", size="1400,1000")
    try:
        driver.get(url)
        edge = lambda: driver.execute_script(HOUSE_EDGE)  # noqa: E731
        WebDriverWait(driver, 300, 0.05).until(lambda d: edge())
        start = time.perf_counter() - began
        assert edge() == decimal_text("house_edge", engine.decide().exact)
        assert "import" not in driver.find_element(By.TAG_NAME, "body").text  # no code on the page
        plot = "const i = document.querySelector('.tp-plot'); return i && i.complete ? i.naturalWidth : 0"
        # the flush pay's exact curve, drawn after the first figures: from then on a changed
        # flush pay takes its whole result from the curve
        WebDriverWait(driver, 300, 0.2).until(lambda d: d.execute_script(plot))
        status = lambda: driver.execute_script(STATUS)  # noqa: E731
        box = driver.find_element(By.CSS_SELECTOR, ".tp-pay-flush input")
        latencies = []
        for pay in FLUSH_PAYS:
            exact = engine.decide(PayTable.load(None).replace(flush=Fraction(pay))).exact
            want = decimal_text("house_edge", exact)
            before = edge()
            box.send_keys(Keys.CONTROL, "a")
            box.send_keys(pay + Keys.ENTER)
            sent = time.perf_counter()
            WebDriverWait(driver, 120, 0.005).until(lambda d, before=before: edge() != before)
            latencies.append(time.perf_counter() - sent)
            assert edge() == want, pay
            WebDriverWait(driver, 120, 0.01).until(lambda d, e=exact: f"(exactly {e.house_edge})" in status())
            assert "from the flush pay's exact curve" in status(), status()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SCREENSHOTS / "tuning-app.png"))
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors
    finally:
        driver.quit()
    TIMINGS.parent.mkdir(parents=True, exist_ok=True)
    TIMINGS.write_text(json.dumps({"app_start_s": start, "change_to_screen_s": latencies, "pays": FLUSH_PAYS}))
