"""The rule knobs on the command line (``--qualifier``, ``--call-multiple``) give the engine's
exact figures for those rules; Casino Hold'em with its own qualifier still gives the
published 2.16%; a qualifier's store is kept for the next look; bad values are one line."""

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from analysis.engine.variants import Engines, rule_grid, variant_rules
from analysis.hands.lookup import dealer_qualifier, qualifier_strength
from analysis.model.rules import Rules, parse_qualifier, preset
from bench.results import table_row
from exact_figures import HOLDEM_OPTIMAL_EDGE

RESULTS = (Path(__file__).resolve().parents[1] / "docs" / "results.md").read_text()


def test_parse_qualifier():
    assert [parse_qualifier(t) for t in ("2", "7s", "10", "T", "js", "A", "none", " NONE ")] == [
        0,
        5,
        8,
        8,
        9,
        12,
        None,
        None,
    ]
    for bad in ("1", "B", "77", "", "pair"):
        with pytest.raises(ValueError, match="give a rank"):
            parse_qualifier(bad)


def test_rules_check_the_knobs():
    omaha = preset("casino-omaha")
    for bad, message in (
        ({"qualifier_rank": 13}, "qualifier rank must be 0..12"),
        ({"qualifier_rank": True}, "qualifier rank must be 0..12"),
        ({"call_multiple": 0}, "the call bet is a whole number of antes .at least 1., not 0"),
        ({"call_multiple": 1.5}, "the call bet is a whole number of antes .at least 1., not 1.5"),
    ):
        with pytest.raises(ValueError, match=message):
            replace(omaha, **bad)
    assert replace(omaha, call_multiple=3).fingerprint() == omaha.fingerprint()  # the same counts
    assert replace(omaha, qualifier_rank=None).fingerprint() != omaha.fingerprint()
    assert dealer_qualifier(replace(omaha, qualifier_rank=None).qualifier_rank) == 0
    assert dealer_qualifier(omaha.qualifier_rank) == qualifier_strength(5)
    assert variant_rules("casino-omaha", None, 4) == Rules("casino-omaha", 3, 2, None, 4)


def test_holdem_knobs_on_the_command_line(cli, holdem):
    rules, engine = holdem
    own = cli("report", "--game", "casino-holdem", "--format", "json").json()
    same = cli("report", "--game", "casino-holdem", "--qualifier", "4s", "--call-multiple", "2", "--format", "json")
    assert same.json()["house_edge_exact"] == own["house_edge_exact"] == str(engine.decide().exact.house_edge)
    assert Fraction(own["house_edge_exact"]) == HOLDEM_OPTIMAL_EDGE and own["house_edge"] == float(HOLDEM_OPTIMAL_EDGE)
    three = cli(
        "tune", "--game", "casino-holdem", "--call-multiple", "3", "--set", "flush=3", "--format", "json"
    ).json()
    want = engine.with_rules(replace(rules, call_multiple=3)).decide(engine.decide().paytable.replace(flush=3))
    assert three["house_edge_exact"] == str(want.exact.house_edge)
    text = cli("report", "--game", "casino-holdem", "--qualifier", "none", "--call-multiple", "1")
    assert text.returncode == 0 and "the dealer always qualifies; the call bet is 1x the ante" in text.stdout


@pytest.mark.slow
def test_a_qualifier_store_is_kept_and_matches_the_grid(holdem):
    rules, _ = holdem
    engines = Engines()
    grid = rule_grid("casino-holdem", [None, 2, 12, 0], [1, 2, 4], engines=engines)
    for q in (None, 0, 12):
        assert engines.store(replace(rules, qualifier_rank=q)).complete
    own = grid[(grid.qualifier == "4s") & (grid.call_multiple == 2)].iloc[0]
    assert own.house_edge_exact == holdem[1].decide().exact.house_edge
    assert len(grid) == 4 * 3 and grid.house_edge_exact.nunique() == len(grid)


@pytest.mark.slow
def test_the_results_grid_row_of_the_games_own_qualifier(omaha):
    """docs/results.md's Casino Omaha qualifier x call bet table, as ``make results``
    (bench/results.py) writes it: the row of the game's own qualifier (its store is the
    suite's; the 2s and none rows need a store each, so only ``make results`` computes them)."""
    engines = Engines()
    engines.add(omaha[1])
    grid = rule_grid("casino-omaha", [omaha[0].qualifier_rank], engines=engines)
    assert table_row("casino-omaha", grid, first=True) in RESULTS
    three = grid[grid.call_multiple == 3].iloc[0].house_edge_exact
    assert f"{float(three):.4%}, exactly {three})" in RESULTS
    assert grid[grid.call_multiple == 2].iloc[0].house_edge_exact == omaha[1].decide().exact.house_edge


@pytest.mark.parametrize(
    "args, message",
    [
        (["--qualifier", "1"], "give a rank"),
        (["--call-multiple", "5"], "the call bet must be from 1 to 4"),
        (["--call-multiple", "x"], "is not a whole number"),
    ],
)
def test_bad_knobs_are_one_line(cli, args, message):
    out = cli("report", *args)
    assert out.returncode == 2 and message in out.stderr and len(out.stderr.strip().splitlines()) == 1
