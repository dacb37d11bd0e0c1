"""``make bench`` is not run by the tests (it measures, it does not check), so at least every
bench module must import: a helper that moved once broke it unnoticed."""

import importlib
from pathlib import Path

import pytest

BENCHES = sorted(p.stem for p in (Path(__file__).resolve().parents[1] / "bench").glob("*.py") if p.stem != "__init__")


@pytest.mark.parametrize("name", BENCHES)
def test_bench_module_imports(name):
    module = importlib.import_module(f"bench.{name}")
    assert callable(module.main)
