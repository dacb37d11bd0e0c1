"""Field-trial monitoring: the band arithmetic on hand-computed numbers, the three records a
handle comes from (hands and average wager, a measured handle, a drop at an assumed ratio)
giving the same z for the same table, a realistic table at 20% of its drop inside the bands
and one holding far above the game outside, a sessions file's errors naming the row and
column, the command, and a simulated trial (a full-deck table inside the 99% band, a table
dealt without the four deuces outside it)."""

from fractions import Fraction
from math import sqrt

import pytest

from analysis.engine.field import (
    DROP_TO_HANDLE,
    MAX_BITS,
    Expected,
    check_tables,
    read_sessions,
    recorded,
    recorded_from_simulation,
)
from analysis.engine.simulation import simulate_table
from analysis.model.errors import InputError

Z95, Z99 = 1.959963984540054, 2.5758293035489004
# house edge 2% of the ante, 2 antes wagered per hand, variance 4 (SD 2 antes per hand):
# theoretical hold 1%, SD of the hold over 10,000 hands at one stake 2 / (2 x 100) = 1%
GAME = Expected(Fraction(1, 50), Fraction(2), Fraction(4))


def test_bands_by_hand():
    assert GAME.hold == Fraction(1, 100) and GAME.standard_deviation == 2
    assert GAME.hold_sd(10_000) == pytest.approx(0.01)
    assert GAME.band(10_000, 0.95) == pytest.approx((0.01 - Z95 * 0.01, 0.01 + Z95 * 0.01))
    # 10,000 hands at 2 a hand (an ante of 1): the house lost 1% of the 20,000 handle,
    # 2 SDs below: outside 95%, inside 99%
    trial = check_tables(GAME, [recorded("A", -200, hands=10_000, average_wager=2)])
    (t,) = trial.tables
    assert (t.handle, t.hands, t.hold, t.expected_win) == (20_000, 10_000, Fraction(-1, 100), 200)
    assert t.win_variance == 4 * 10_000 and t.win_sd == 200 and t.z == -2.0 and t.equivalent_hands == 10_000
    assert t.drop_to_handle is None and t.win_over_drop is None and trial.assumed is None
    assert t.flag == "outside 95%" and trial.outside(0.95) == ["A"] and trial.outside(0.99) == []
    # four times the hands halve the SD: the same hold is 4 SDs out
    t4 = check_tables(GAME, [recorded("B", "-800", hands=40_000, average_wager="2")]).tables[0]
    assert t4.z == -4.0 and t4.flag == "outside 99%"
    assert check_tables(GAME, [recorded("C", 2, hands=100, average_wager=2)]).tables[0].flag == "inside"
    row = trial.frame().iloc[0]
    assert row["low_99%"] == pytest.approx(0.01 - Z99 * 0.01) and row.flag == "outside 95%"
    assert row.handle_from == "hands" and row.hands == 10_000 and row.handle == 20_000


def test_the_three_records_give_one_z():
    """The same table recorded by its hands and average wager, by its drop and handle, and by
    its drop alone at the ratio that drop and handle measure: the same handle, hands and z."""
    hands, wager, win = 10_000, Fraction(5), Fraction(-1000)  # an ante of 5/2 at 2 antes a hand
    drop = wager * hands / 25
    tables = [
        recorded("hands", win, hands=hands, average_wager=wager, drop=drop),
        recorded("handle", win, drop=drop, handle=hands * wager, ante="5/2"),
        recorded("drop", win, drop=drop, ante=2.5),
    ]
    by_hands, by_handle, by_drop = check_tables(GAME, tables).tables
    for t in (by_hands, by_handle, by_drop):
        assert (t.handle, t.hands, t.win_variance, t.drop_to_handle) == (50_000, 10_000, 250_000, Fraction(1, 25))
        assert t.z == by_hands.z == -3.0 and t.win_over_drop == Fraction(-1, 2)
    assert [t.recorded.handle_from for t in (by_hands, by_handle, by_drop)] == ["hands", "handle", "drop"]


def test_a_ratio_scales_the_handle_and_hands():
    # the same drop at a ratio of 1/10 instead of 1/25: 2/5 of the handle and of the hands
    t25 = check_tables(GAME, [recorded("T", 100, drop=1000, ante=1)]).tables[0]
    t10 = check_tables(GAME, [recorded("T", 100, drop=1000, ante=1)], "1/10").tables[0]
    assert (t25.handle, t25.hands, t25.drop_to_handle) == (25_000, 12_500, DROP_TO_HANDLE)
    assert (t10.handle, t10.hands, t10.drop_to_handle) == (10_000, 5_000, Fraction(1, 10))
    # hold 0.4% (z = -0.6 x sqrt(12,500) / 100 = -0.671) and 1% (z = 0)
    assert t25.z == pytest.approx(-0.006 / (2 / (2 * sqrt(12_500)))) and t10.z == 0


def test_sessions_at_different_stakes_add_their_variances():
    # 5,000 hands at an ante of 1 and 5,000 at an ante of 3 (2 and 6 a hand): handle 40,000,
    # variance of the win 4 x (5,000 x 1 + 5,000 x 9) = 200,000; at one stake the same SD of
    # the hold, 447.2 / 40,000, takes 4 x 40,000^2 / (4 x 200,000) = 8,000 hands
    day, night = recorded("T", 400, drop=400, ante=1), recorded("T", -100, drop=1200, ante=3)
    t = check_tables(GAME, [day + night]).tables[0]
    assert (t.handle, t.hands, t.win_variance, t.equivalent_hands) == (40_000, 10_000, 200_000, 8_000)
    assert t.z == pytest.approx((300 - 400) / sqrt(200_000)) and t.recorded.sessions == 2


def test_records_check_their_numbers():
    with pytest.raises(InputError, match="hands: must be a whole number of hands from 1"):
        recorded("T", 1, hands=0, average_wager=2)
    with pytest.raises(InputError, match="hands: must be a whole number"):
        recorded("T", 1, hands=True, average_wager=2)
    with pytest.raises(InputError, match="T: average wager: must be positive"):
        recorded("T", 1, hands=10, average_wager=0)
    with pytest.raises(InputError, match=r"T: win: 21 is more than the handle \(20.00\)"):
        recorded("T", 21, hands=10, average_wager=2)
    with pytest.raises(InputError, match="T: drop: .*out of range"):
        recorded("T", 1, drop="1e999999999", ante=1)
    with pytest.raises(InputError, match="T: missing ante; give the hands and the average wager"):
        recorded("T", 1, drop=10, handle=100)
    with pytest.raises(InputError, match="T: handle does not go with the rest"):
        recorded("T", 1, hands=10, average_wager=2, handle=20)
    with pytest.raises(InputError, match="no tables"):
        check_tables(GAME, [])
    table = recorded("T", 1, drop=100, ante=1)
    with pytest.raises(InputError, match="must be above 0 and at most 1, got 2"):
        check_tables(GAME, [table], 2)
    with pytest.raises(InputError, match="assumed only for tables recorded by their drop alone"):
        check_tables(GAME, [recorded("T", 1, hands=10, average_wager=2)], "1/25")
    # the win cannot exceed the handle the assumed ratio gives (100 / (1/25) = 2,500)
    with pytest.raises(InputError, match="T: the win .* more than the handle the drop gives at .* 1/25"):
        check_tables(GAME, [recorded("T", 2600, drop=100, ante=1)])
    # a drop of 0.05 at an ante of 1 is 1.25 / 2 of a hand
    with pytest.raises(InputError, match="T: 0.6 hands .*a table needs from 1"):
        check_tables(GAME, [recorded("T", 0, drop="0.05", ante=1)])


def write(tmp_path, text, name="s.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


DROP_HEADER = "table,session,win,drop,ante\n"
HANDS_HEADER = "table,session,win,hands,average_wager\n"


def test_sessions_are_added_up_per_table(tmp_path):
    path = write(
        tmp_path, "Table, Session ,WIN,drop,ante,notes\nT,day,400,400,1,x\nU,day,3,100,1,\nT,night,-100,1200,3,\n"
    )
    t, u = read_sessions(path)
    assert (t.table, t.sessions, t.win, t.drop, t.money, t.handle_from) == ("T", 2, 300, 1600, 1600, "drop")
    assert (u.table, u.sessions, u.win) == ("U", 1, 3)
    checked = check_tables(GAME, [t]).tables[0]
    assert (checked.handle, checked.hands, checked.win_variance) == (40_000, 10_000, 200_000)
    assert str(path) in t.where and "'T'" in t.where
    (h,) = read_sessions(write(tmp_path, HANDS_HEADER + "T,1,10,100,2.5\nT,2,-7/2,50,5\n"))
    assert (h.handle_from, h.per_stake, h.money, h.win, h.drop) == ("hands", 150, 500, Fraction(13, 2), None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("table,session,drop,ante\nT,1,1,1\n", r"missing column\(s\) win"),
        ("table,session,win\nT,1,1\n", "columns: missing drop, ante; give the hands"),
        ("table,session,win,hands,drop\nT,1,1,1,1\n", "columns: missing average_wager"),
        ("table,session,win,hands,average_wager,ante\nT,1,1,1,1,1\n", "columns: ante does not go with"),
        ("table,session,win,drop,drop,ante\nT,1,1,1,1,1\n", r"column\(s\) drop appear twice"),
        (DROP_HEADER, "no sessions"),
        (DROP_HEADER + "T,1,5,x,10\n", "row 2 column drop: 'x' is not a number"),
        (DROP_HEADER + "T,1,5,-5,10\n", "row 2 column drop: must be zero or more, got '-5'"),
        (DROP_HEADER + "T,1,5,100,0\n", "row 2 column ante: must be positive"),
        (DROP_HEADER + "T,1,,100,10\n", "row 2 column win: empty"),
        (DROP_HEADER + "T,1,5,100,10\nT,1,5,100,10\n", "row 3: table 'T' session '1' appears twice"),
        (DROP_HEADER + ",1,5,100,10\n", "row 2 column table: empty"),
        (DROP_HEADER + "T,1,5,100,10,9\n", "row 2: more values than columns"),
        (DROP_HEADER + "T,1,5,1e999999999,10\n", "row 2 column drop: .*out of range"),
        (DROP_HEADER + 'T,1,5,"12,500",10\n', "row 2 column drop: '12,500' is not a number"),
        (HANDS_HEADER + "T,1,5,1.5,10\n", "row 2 column hands: must be a whole number"),
        (HANDS_HEADER + "T,1,5,0,10\n", "row 2 column hands: must be a whole number of hands from 1"),
        (HANDS_HEADER + "T,1,500,10,10\n", r"row 2 column win: '500' is more than the handle \(100.00\)"),
        (HANDS_HEADER + "T,1,5,600000000,1\nT,2,5,600000000,1\n", "row 3: table 'T' has more than 1,000,000,000 hands"),
    ],
)
def test_sessions_errors_name_file_row_and_column(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(InputError, match=message) as e:
        read_sessions(path)
    assert str(path) in str(e.value) and "\n" not in str(e.value)


def test_sessions_exact_sums_are_bounded(tmp_path):
    # wins of 1/(10^39 + k): their exact sum's denominator grows about 130 bits a row
    rows = "".join(f"T,{k},1/{10**39 + k},100,1\n" for k in range(1, 60))
    with pytest.raises(InputError, match=f"table 'T': its exact sums outgrow {MAX_BITS} bits"):
        read_sessions(write(tmp_path, DROP_HEADER + rows))


def test_sessions_not_text(tmp_path):
    path = tmp_path / "s.csv"
    path.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(InputError, match="not a text"):
        read_sessions(path)


# Casino Hold'em's exact figures (full deck, optimal): element of risk 1363917077/166870951848
# (0.8173%), average wager 42039/15925 antes, SD 2.6128612365398953 antes per hand.
HOLD, WAGER, SD = Fraction(1363917077, 166870951848), Fraction(42039, 15925), 2.6128612365398953


def z_by_hand(win, handle, ante):
    """z = (win - theoretical hold x handle) / (SD x ante x sqrt(hands)), hands = handle / (ante x wager)."""
    return float(win - HOLD * handle) / (SD * ante * sqrt(handle / (ante * WAGER)))


def test_command_realistic_and_high_tables(cli, holdem, tmp_path):
    """A year of a $10 table: 100,000 hands, a handle of about 2.64 million, a drop of 105,600
    at the default 1/25; holding 20% of its drop it holds 0.8% of the handle (inside; read as
    win / handle, 20% was 61 SDs out). A table holding 60% of the same drop holds 2.4%: outside."""
    text = DROP_HEADER + "normal,jan,10560,52800,10\nnormal,feb,10560,52800,10\nhigh,jan,63360,105600,10\n"
    path, plot = write(tmp_path, text), tmp_path / "funnel.png"
    r = cli("field", "--game", "casino-holdem", "--sessions", path, "--plot", plot)
    assert r.returncode == 0, r.stderr
    assert "theoretical hold 0.8173% of the handle" in r.stdout
    assert "Handle: the drop / an assumed drop-to-handle ratio of 1/25 (4.00% of the handle, the default" in r.stdout
    assert "hands: the handle / (ante x 2.6398 antes, the game's exact average wager per hand)" in r.stdout
    normal, high = (line for line in r.stdout.splitlines() if line.startswith(("normal", "high")))
    assert "~100,007" in normal and "20.0%" in normal and "0.800%" in normal and normal.endswith("inside")
    assert "60.0%" in high and "2.400%" in high and high.endswith("outside 99%")
    assert "Outside the 99% band: high." in r.stdout and plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = cli("field", "--game", "casino-holdem", "--sessions", path, "--format", "json").json()
    assert data["theoretical_hold"] == str(HOLD) and data["assumed_drop_to_handle"] == "1/25"
    assert data["handle_from"] == ["drop"] and data["outside_99"] == ["high"]
    normal, high = data["tables"]
    assert normal["z"] == pytest.approx(z_by_hand(21120, 2_640_000, 10)) and abs(normal["z"]) < 0.1
    assert high["z"] == pytest.approx(z_by_hand(63360, 2_640_000, 10)) and high["z"] > 4.5
    assert normal["drop_to_handle"] == 0.04 and normal["win_over_drop"] == 0.2 and normal["sessions"] == 2
    # the drop read as the handle (what the command did before): 61 SDs out
    assert z_by_hand(21120, 105_600, Fraction(105_600, 100_000) / WAGER) > 61


def test_command_hands_and_drop_give_one_z(cli, holdem):
    """A table recorded by its hands and average wager (26.4 a hand), and by the drop that is
    1/25 of that handle at the ante that average wager is at the game's average wager."""
    common = ("field", "--game", "casino-holdem", "--win", "25000", "--format", "json")
    by_hands = cli(*common, "--hands", "100000", "--average-wager", "26.4").json()
    ante = Fraction("26.4") / WAGER
    by_drop = cli(*common, "--drop", "105600", "--ante", str(ante)).json()
    by_handle = cli(*common, "--drop", "105600", "--handle", "2640000", "--ante", str(ante)).json()
    z = by_hands["tables"][0]["z"]
    assert (
        by_drop["tables"][0]["z"]
        == by_handle["tables"][0]["z"]
        == z
        == pytest.approx(z_by_hand(25000, 2_640_000, ante))
    )
    assert by_hands["conversion"] == "Handle: hands played x average wager per hand, both recorded"
    assert by_handle["conversion"].startswith("Handle: as recorded, the drop-to-handle ratio measured")
    assert by_handle["assumed_drop_to_handle"] is None and by_handle["tables"][0]["drop_to_handle"] == 0.04
    assert by_drop["tables"][0]["hands"] == by_hands["tables"][0]["hands"] == 100_000


def test_help_states_the_default_ratio(cli):
    r = cli("field", "--help")
    assert r.returncode == 0 and f"default {DROP_TO_HANDLE})" in " ".join(r.stdout.split())


def test_the_funnel_plot_names_every_table_legibly():
    """30 tables crowded into a decade of hands: every name is drawn, inside the axes, and no
    two names overlap (their boxes as drawn)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    from analysis.report.field_plots import plot_field

    tables = [
        recorded(f"table {k} {'(main floor)' if k % 3 else ''}".strip(), 40 + 7 * (k % 5), drop=300 + 37 * k, ante=1)
        for k in range(30)
    ]
    trial = check_tables(GAME, tables)
    fig = plot_field(trial)
    FigureCanvasAgg(fig).draw()
    (ax,) = fig.axes
    names = {t.table: t for t in trial.tables}
    drawn = [text for text in ax.texts if text.get_text() in names]
    assert sorted(text.get_text() for text in drawn) == sorted(names)
    boxes = [Text.get_window_extent(text) for text in drawn]  # the name's own box, not its leader line
    inside = ax.get_window_extent()
    assert all(
        inside.x0 - 1 <= b.x0 and b.x1 <= inside.x1 + 1 and inside.y0 - 1 <= b.y0 <= b.y1 <= inside.y1 + 1
        for b in boxes
    )
    overlaps = [
        (drawn[i].get_text(), drawn[j].get_text())
        for i in range(len(boxes))
        for j in range(i)
        if min(boxes[i].x1, boxes[j].x1) - max(boxes[i].x0, boxes[j].x0) > 1
        and min(boxes[i].y1, boxes[j].y1) - max(boxes[i].y0, boxes[j].y0) > 1
    ]
    assert not overlaps
    assert any("assumed drop-to-handle ratio of 1/25" in text.get_text() for text in ax.texts)
    assert not any("left off" in text.get_text() for text in ax.texts)
    # 100 tables on one spot, one of them far above: it is named first, and the names with no
    # room nearby are left off, and counted, rather than drawn over one another
    same = [recorded(f"T{k}", 40, drop=1000, ante=1) for k in range(99)] + [recorded("high", 900, drop=1000, ante=1)]
    fig = plot_field(check_tables(GAME, same))
    FigureCanvasAgg(fig).draw()
    texts = [text.get_text() for text in fig.axes[0].texts]
    (note,) = [text for text in texts if "Handle:" in text]
    named = [text for text in texts if text != note]
    assert "high" in named and 10 < len(named) < 100
    assert f"Names left off for want of room: {100 - len(named)} of 100 tables" in " ".join(note.split())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--drop", "10"], "give one table's --win"),
        (["--win", "10"], "table: missing drop, ante"),
        (["--sessions", "nope.csv", "--win", "10"], "either --sessions FILE or one table's"),
        (["--sessions", "nope.csv"], "nope.csv: no such sessions file"),
        (["--win", "1", "--hands", "0", "--average-wager", "2"], "hands must be from 1"),
        (["--win", "x", "--drop", "10", "--ante", "1"], "'x' is not a number"),
        (["--win", "30", "--hands", "10", "--average-wager", "2"], "table: win: 30 is more than the handle (20.00)"),
        (["--win", "1", "--hands", "10", "--ante", "2"], "table: missing average wager"),
        (["--win", "1", "--drop", "10", "--ante", "1", "--drop-to-handle", "0"], "must be above 0 and at most 1"),
        (["--win", "1", "--hands", "10", "--average-wager", "2", "--drop-to-handle", "0.1"], "drop alone"),
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
        figures, [recorded_from_simulation("full deck", full, m), recorded_from_simulation("no deuces", short, m)]
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


@pytest.mark.slow
def test_a_multi_street_game_is_checked_against_its_own_exact_figures(cli):
    """Ultimate Texas Hold'em (ante and blind, the play bet by street): its theoretical hold
    is its exact element of risk, and a table's z uses its exact variance per hand."""
    from analysis.engine.streets import solve_streets
    from analysis.model.game import load_game

    exact = solve_streets(load_game("ultimate-texas-holdem")).exact
    wager = exact.average_wager * 10  # a $10 ante
    data = cli(
        "field",
        "--game",
        "ultimate-texas-holdem",
        "--win",
        "3000",
        "--hands",
        "20000",
        "--average-wager",
        str(wager),
        "--format",
        "json",
    ).json()
    assert Fraction(data["theoretical_hold"]) == exact.element_of_risk
    assert Fraction(data["variance"]) == exact.variance and data["game"] == "ultimate-texas-holdem"
    sd_hold = float(exact.variance) ** 0.5 / (float(exact.average_wager) * 20000**0.5)
    hold = 3000 / (20000 * float(wager))
    assert data["tables"][0]["z"] == pytest.approx((hold - float(exact.element_of_risk)) / sd_hold, rel=1e-9)
    refused = cli(
        "field",
        "--game",
        "ultimate-texas-holdem",
        "--win",
        "1",
        "--hands",
        "9",
        "--average-wager",
        "3",
        "--strategy",
        "simple",
    )
    assert refused.returncode == 2 and "--strategy: only for casino-omaha and casino-holdem" in refused.stderr


@pytest.mark.parametrize("name", ["three-card-poker", "mississippi-stud"])
def test_games_without_a_board_or_a_dealer_are_checked_against_their_exact_figures(cli, name):
    """Any game file: the theoretical hold is its exact element of risk, the z its exact variance."""
    import analysis

    exact = analysis.solve(name).exact
    data = cli(
        "field", "--game", name, "--win", "3000", "--hands", "20000", "--average-wager", "20", "--format", "json"
    )
    data = data.json()
    assert Fraction(data["theoretical_hold"]) == exact.element_of_risk
    assert Fraction(data["variance"]) == exact.variance and data["game"] == name
    sd_hold = float(exact.variance) ** 0.5 / (float(exact.average_wager) * 20000**0.5)
    hold = 3000 / (20000 * 20)
    assert data["tables"][0]["z"] == pytest.approx((hold - float(exact.element_of_risk)) / sd_hold, rel=1e-9)
