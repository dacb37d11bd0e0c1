"""Shared fixtures: the full-deck outcome stores are built once (data/outcomes, reused by
`make report`) and loaded once per test session."""

import pytest

from analysis.exact import load_outcomes
from analysis.rules import preset


@pytest.fixture(scope="session")
def holdem():
    rules = preset("casino-holdem")
    return rules, load_outcomes(rules, progress=False)


@pytest.fixture(scope="session")
def omaha():
    rules = preset("casino-omaha")
    return rules, load_outcomes(rules, progress=False)
