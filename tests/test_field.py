"""Field-trial monitoring: the band arithmetic on hand-computed numbers, the sessions CSV's
errors, the command, and a simulated trial (a full-deck table inside the 99% band, a table
dealt without the four deuces outside it)."""

from fractions import Fraction
from math import sqrt

import pytest

from analysis.engine.field import Expected, Observed, check_tables, observed, observed_from_simulation, read_sessions
from analysis.engine.simulation import simulate_table
from analysis.model.errors import InputError

Z95, Z99 = 1.959963984540054, 2.5758293035489004


def test_bands_by_hand():
    # house edge 2% of the ante, 2 antes wagered per hand, SD 2 antes per hand:
    # theoretical hold 1%, SD of the hold over 10,000 hands 2 / (2 x 100) = 1%
    e = Expected(Fraction(1, 50), Fraction(2), 2.0)
    assert e.hold == Fraction(1, 100)
    assert e.hold_sd(10_000) == pytest.approx(0.01)
    assert e.band(10_000, 0.95) == pytest.approx((0.01 - Z95 * 0.01, 0.01 + Z95 * 0.01))
    # the house lost 1% of 20,000 wagered: 2 SDs below, outside 95%, inside 99%
    trial = check_tables(e, [Observed("A", 10_000, Fraction(20_000), Fraction(-200))])
    (t,) = trial.tables
    assert t.hold == -0.01 and t.z == pytest.approx(-2.0)
    assert t.ante == 1 and t.expected_win == 200
    assert t.flag == "outside 95%" and trial.outside(0.95) == ["A"] and trial.outside(0.99) == []
    # four times the hands halve the SD: the same hold is 4 SDs out
    t4 = check_tables(e, [observed("B", 40_000, "80000", "-800")]).tables[0]
    assert t4.z == pytest.approx(-4.0) and t4.flag == "outside 99%"
    assert check_tables(e, [observed("C", 100, 200, "2")]).tables[0].flag == "inside"
    row = trial.frame().iloc[0]
    assert row["low_99%"] == pytest.approx(0.01 - Z99 * 0.01) and row.flag == "outside 95%"


def test_observed_checks_its_numbers():
    with pytest.raises(InputError, match="hands must be a whole number"):
        observed("T", 0, 10, 1)
    with pytest.raises(InputError, match="hands must be a whole number"):
        observed("T", True, 10, 1)
    with pytest.raises(InputError, match="wagered must be a positive"):
        observed("T", 10, 0, 0)
    with pytest.raises(InputError, match="cannot exceed the total wagered"):
        observed("T", 10, 10, 11)
    with pytest.raises(InputError, match="T: wagered.*out of range"):
        observed("T", 10, "1e999999999", 1)
    with pytest.raises(InputError, match="no tables"):
        check_tables(Expected(Fraction(1, 50), Fraction(2), 2.0), [])


def write(tmp_path, text, name="s.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


HEADER = "table,day,hands,wagered,house_win\n"


def test_sessions_are_added_up_per_table(tmp_path):
    path = write(tmp_path, HEADER + "T1,mon,100,264.5,3\nT2,mon,50,130,-7/2\nT1,tue,100,264,2\n")
    t1, t2 = read_sessions(path)
    assert (t1.table, t1.hands, t1.wagered, t1.house_win, t1.sessions) == ("T1", 200, Fraction(1057, 2), 5, 2)
    assert (t2.hands, t2.house_win) == (50, Fraction(-7, 2))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("table,day,hands,wagered\nT,1,1,1\n", r"missing column\(s\) house_win"),
        (HEADER, "no sessions"),
        (HEADER + "T,1,0,10,1\n", "row 2 column hands: must be at least 1"),
        (HEADER + "T,1,1.5,10,1\n", "row 2 column hands: must be a whole number"),
        (HEADER + "T,1,-3,10,1\n", "row 2 column hands: must be a whole number"),
        (HEADER + "T,1,10,x,1\n", "row 2 column wagered: 'x' is not a number"),
        (HEADER + "T,1,10,-5,1\n", "row 2 column wagered: must be positive"),
        (HEADER + "T,1,10,10,\n", "row 2 column house_win: empty"),
        (HEADER + "T,1,10,10,11\n", "row 2 column house_win: '11' is more than the total wagered"),
        (HEADER + "T,1,10,10,1\nT,1,10,10,1\n", "row 3: table 'T' on day '1' appears twice"),
        (HEADER + ",1,10,10,1\n", "row 2 column table: empty"),
        (HEADER + "T,1,10,10,1,9\n", "row 2: more values than columns"),
        (HEADER + "T,1,10,1e999999999,1\n", "row 2 column wagered: .*out of range"),
    ],
)
def test_sessions_errors_name_file_row_and_column(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(InputError, match=message) as e:
        read_sessions(path)
    assert str(path) in str(e.value)


def test_sessions_not_text(tmp_path):
    path = tmp_path / "s.csv"
    path.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(InputError, match="not a text"):
        read_sessions(path)


def test_command_one_table_and_sessions(cli, holdem, tmp_path):
    r = cli("field", "--game", "casino-holdem", "--hands", "100000", "--wagered", "264000", "--house-win", "2000")
    assert r.returncode == 0, r.stderr
    assert "theoretical hold 0.8173%" in r.stdout and "Convention: hold = house win / total wagered" in r.stdout
    assert "inside" in r.stdout and "Outside the 99% band: none." in r.stdout
    path = write(tmp_path, HEADER + "T1,mon,40000,105600,900\nT1,tue,40000,105600,800\nT2,mon,90000,240000,-500\n")
    plot = tmp_path / "funnel.png"
    data = cli("field", "--game", "casino-holdem", "--sessions", path, "--plot", plot, "--format", "json").json()
    assert data["theoretical_hold"] == "1363917077/166870951848"  # Casino Hold'em's element of risk
    assert data["outside_99"] == ["T2"] and [t["table"] for t in data["tables"]] == ["T1", "T2"]
    t2 = data["tables"][1]
    assert t2["z"] == pytest.approx((-500 / 240000 - 1363917077 / 166870951848) / t2["hold_sd"])
    assert t2["hold_sd"] == pytest.approx(2.6128612365398953 / (42039 / 15925 * sqrt(90000)))
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hands", "10", "--wagered", "10"], "give --hands, --wagered and --house-win"),
        (["--sessions", "nope.csv", "--hands", "10"], "either --sessions FILE or --hands"),
        (["--sessions", "nope.csv"], "nope.csv: no such sessions file"),
        (["--hands", "0", "--wagered", "10", "--house-win", "1"], "hands must be from 1"),
        (["--hands", "10", "--wagered", "x", "--house-win", "1"], "'x' is not a number"),
        (["--hands", "10", "--wagered", "10", "--house-win", "20"], "cannot exceed the total wagered"),
    ],
)
def test_command_bad_input_is_one_line(cli, args, message):
    r = cli("field", "--game", "casino-holdem", *args)
    assert r.returncode == 2 and message in r.stderr and r.stderr.count("\n") == 1 and not r.stdout


# The simulated trial. Casino Hold'em's exact figures (full deck, optimal): house edge
# 2.1576% of the ante, average wager 2.6398 antes, SD 2.6129 antes per hand, so the
# theoretical hold is 0.8173% and the SD of the hold over n hands is 0.9898 / sqrt(n).
# Dealt from a deck without the four deuces and played with the full-deck strategy, the
# game's exact house edge is -6562626151/528288591600 = -1.2422% of the ante at an average
# wager of 2.7022 antes (hold -0.4597%, SD 1.032 per wagered unit; computed from the store of the
# 48-card deck, test_no_deuces_exact_edge below): 1.277 points of hold below the full deck's.
# At 200,000 hands the SD of the hold is 0.9898 / 447 = 0.221 points, so the short deck's
# table is expected 5.8 SDs below the theoretical hold; it stays inside the 99% band (2.576
# SDs) only if it lands 3.1 of its own SDs (0.228 points) above its mean: about 1 in 1,000.
HANDS = 200_000


def simulated_trial(engine):
    """A full-deck table and one dealt without the deuces, HANDS each, against the game."""
    figures = engine.decide(None, "optimal").exact
    full = simulate_table(engine, None, "optimal", HANDS, seed=19)
    short = simulate_table(engine, None, "optimal", HANDS, seed=20, ranks="3456789TJQKA")
    m = engine.rules.call_multiple
    return check_tables(
        figures, [observed_from_simulation("full deck", full, m), observed_from_simulation("no deuces", short, m)]
    )


# The same trial on Casino Omaha: dealt without the deuces and played with the full-deck
# strategy, the player wins about 6.4% of the ante (simulated, 500,000 hands: house edge
# -6.41% +/- 0.42%, against +0.3396% on the full deck), so the short-deck table falls about
# 0.024 SDs of the hold per square root of a hand below the theoretical hold: it crosses the
# 99% line (2.576 SDs) after about 12,000 hands and is 10 SDs out at 200,000.
@pytest.mark.parametrize(("game", "z_range"), [("holdem", (-9, -4)), ("omaha", (-13, -7))])
def test_simulated_trial(game, z_range, request):
    _, engine = request.getfixturevalue(game)
    trial = simulated_trial(engine)
    inside, outside = trial.tables
    assert not inside.outside(0.99) and abs(inside.z) < 2.576, inside.z
    assert outside.outside(0.99) and z_range[0] < outside.z < z_range[1], outside.z
    assert trial.outside(0.99) == ["no deuces"]


@pytest.mark.slow
def test_no_deuces_exact_edge(holdem):
    """The figure the comment above uses: the no-deuces deck's exact house edge with the
    full-deck optimal decisions (each 48-card state looked up among the full deck's)."""
    from analysis.engine.return_engine import load_engine
    from analysis.engine.simulation import state_rows, stored_keys
    from analysis.parallel.options import RunOptions

    rules, engine = holdem
    calls = engine.decide(None, "optimal").calls
    short = load_engine(rules.small_deck("3456789TJQKA"), RunOptions(progress=False))
    rows = state_rows(rules, stored_keys(engine), *short.cards())
    exact = short.decide(None, lambda e, p, o: calls[rows], name="full-deck optimal").exact
    assert exact.house_edge == Fraction(-6562626151, 528288591600)
