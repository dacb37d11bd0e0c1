"""Headless Debian chromium for the tests that open pages (the report, the tuning page):
the same flags and console logging for both."""

import shutil

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def chromium(profile, size: str = "1280,900"):
    """A selenium driver of headless chromium with its own profile folder; the browser's
    console is logged (``driver.get_log("browser")``)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for flag in CHROMIUM_FLAGS + (f"--window-size={size}", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "chromedriver"), options=options)
