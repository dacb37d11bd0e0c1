# One command per job; each sets itself up (a .venv with the package built in place).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
GAME   ?= casino-omaha
PAYTABLE ?= antewin
REPORTS ?= reports

.PHONY: setup build browser report app test test-fast bench results notebooks lint clean

setup: $(STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# build dependencies first, then the package in place without build isolation, so a change
# to ext/ only recompiles the extensions
$(STAMP): $(BIN)/python pyproject.toml setup.py $(wildcard ext/*.pyx ext/*.pxd ext/include/*.h)
	$(BIN)/python -m pip install --quiet "setuptools>=68" wheel "cython>=3.0" "numpy>=2.0"
	$(BIN)/python -m pip install --quiet --no-build-isolation -e '.[test,bench]'
	touch $@

build: setup

# the full report (Excel workbook + self-contained HTML page) in $(REPORTS)/; prints where
report: setup
	$(BIN)/casino-omaha report --game $(GAME) --paytable $(PAYTABLE) --out $(REPORTS)

# the tuning panel as a web page (Voila) on 127.0.0.1:$(PORT); computes the store first if missing
PORT ?= 8866
app: setup
	$(BIN)/casino-omaha app --game $(GAME) --port $(PORT) --out $(REPORTS)

# Debian chromium and chromedriver, for the test that renders the HTML report (only when missing)
browser:
	@if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then \
		SUDO=$$([ "$$(id -u)" -eq 0 ] || echo sudo); \
		$$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q chromium chromium-driver; \
	fi

# ruff (lint and formatting), the import-linter contract that keeps the layers' arrows
# pointing down, and mypy over analysis/ (all configured in pyproject.toml)
lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy

# the suite on two worker processes (pytest-xdist), a test handed to whichever is free:
# the stores and result folders the tests share are written under their locks
PYTEST := $(BIN)/python -m pytest -n 2 --dist worksteal

test: setup browser lint
	$(PYTEST)

test-fast: setup
	$(PYTEST) -m "not slow"

# execute every notebook top to bottom; executed copies land in reports/notebooks/
notebooks: setup
	$(BIN)/python -m pytest -q tests/test_notebooks.py

bench: setup
	$(BIN)/python -m bench.run

# the figures of docs/results.md that need more outcome stores than the tests build: Casino Omaha's
# qualifier x call-bet table (7s, 2s, none; each qualifier but 7s counts a 2.9 GB store once)
results: setup
	$(BIN)/python -m bench.results

clean:
	rm -rf build *.egg-info ext/*.c ext/*.html analysis/*.so .pytest_cache
