"""Side bets on small decks against an independent computation, state by state in Fractions:
every kind, settled or forfeited, both strategies, pays with huge denominators, a meter; the
file format and its errors; tuning, progressive figures and floor figures."""

from fractions import Fraction
from itertools import combinations
from math import lcm
from statistics import NormalDist

import numpy as np
import pytest

from analysis.counting.enumeration import count_flops, plan
from analysis.engine.return_engine import ReturnEngine
from analysis.hands.evaluate import best_strength
from analysis.hands.lookup import hand_key
from analysis.model.cards import parse_cards
from analysis.model.categories import CATEGORIES
from analysis.model.paytable import PayTable
from analysis.model.rules import preset
from analysis.sidebets.bet import SideBet, SideBetError
from analysis.sidebets.floor import Wager, floor_figures, side_bet_wagers
from analysis.sidebets.progressive import analyse_progressive, meter_returns
from analysis.sidebets.returns import SideBetEngine
from analysis.sidebets.tuning import solve_side_bet
from brute_force import brute_force

HUGE = Fraction(72254351620246, 47694931276919)  # the kind of pay an exact solve returns
#: Small decks where the lines below happen: royals, flushes, straights, pairs and two pairs
#: (two suits); three and four of a kind, full houses (four suits).
DECKS = {
    "omaha-2": preset("casino-omaha").small_deck("9TJQKA", "cd"),
    "omaha-4": preset("casino-omaha").small_deck("QKA", "cdhs"),
    "holdem-2": preset("casino-holdem").small_deck("TJQKA", "cd"),
    "holdem-4": preset("casino-holdem").small_deck("QKA", "cdhs"),
}
BETS = {
    "first-six": "kind,first-six\nline,pays\nroyal_flush,100\nfour_of_a_kind,40\nfull_house,30\nflush,20\n"
    "straight,7\nthree_of_a_kind,7\ntwo_pair,7\npair:A,7\npair:Q-K,push\n",
    "final": "kind,final\nline,pays\nroyal_flush,50\nfour_of_a_kind,25\nfull_house,8\nflush,5\nstraight,4\n"
    "three_of_a_kind,3\n",
    "bad-beat": "kind,bad-beat\nline,pays\nfour_of_a_kind,200\nfull_house,40\nflush,30\nstraight,20\n"
    "three_of_a_kind,10\ntwo_pair,2\n",
}


@pytest.fixture(scope="module", params=list(DECKS))
def deck(request):
    """(rules, engine, [(40 counts, first-six key, states with them)]) of a small deck."""
    rules = DECKS[request.param]
    engine = ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules)
    groups: dict = {}
    for (flop, hole), counts in brute_force(rules).items():
        key = (tuple(int(x) for x in counts), first_six_key(rules, hole, flop))
        groups[key] = groups.get(key, 0) + 1
    return rules, engine, [(np.array(c), k, n) for (c, k), n in groups.items()]


def first_six_key(rules, hole, flop):
    """(category, naming rank) of the best hand of the hole cards and the flop, by the plain
    definition of poker hand order (every choice of cards tried)."""
    choices = combinations(hole, 2) if rules.omaha else [hole]
    best = max(hand_key([c >> 2 for c in (*h, *flop)], len({c & 3 for c in (*h, *flop)}) == 1) for h in choices)
    return best[0], best[1][0]


def line_of(bet, category, rank=None):
    """The first line naming the hand (any rank when None), or None."""
    for i, line in enumerate(bet.lines):
        if line.category == category and (rank is None or rank in line.ranks):
            return i
    return None


def reference(rules, states, bet, stake, meter, paytable, strategy):
    """Side-bet line counts, side and combined EV and E[X^2], main EV and call rate, by
    settling every completion of every state (in integers: every amount times D)."""
    z, m, n_lines = rules.completions, rules.call_multiple, len(bet.lines)
    nets = [line.net(meter, bet.meter.stake if bet.meter else 1) for line in bet.lines] + [Fraction(-1)] * 2
    pays = [paytable.pays[c] for c in CATEGORIES]
    amounts = nets + [stake * v for v in nets] + pays + [stake]
    d = lcm(*(Fraction(v).denominator for v in amounts))
    y_int = [int(v * d) for v in nets]  # side nets: the lines, then "no line pays", then "forfeited"
    lines = [0] * (n_lines + 2)
    side = side2 = both = both2 = main = calls = 0
    for counts, key, n in states:
        cells = []  # (main net x d, side outcome, count) of every completion when called
        for c in range(10):
            main_net = (pays[c], pays[c] + m, 0, -1 - m)
            for r in range(4):
                if bet.kind == "first-six":
                    line = line_of(bet, *key)
                else:
                    line = line_of(bet, c) if bet.kind == "final" or r == 3 else None
                cells.append((int(main_net[r] * d), n_lines if line is None else line, int(counts[4 * c + r])))
        call_main = sum(x * k for x, _, k in cells)
        call_side = sum(y_int[o] * k for _, o, k in cells)
        fold_side = -z * d if bet.forfeit else call_side
        if strategy == "separate" or not bet.forfeit:
            called = call_main > -z * d
        else:
            called = call_main + stake * call_side > -z * d + stake * fold_side
        calls += n * called
        for x, o, k in cells:
            if not called:
                x, o = -d, (n_lines + 1 if bet.forfeit else o)
            y, w = y_int[o], n * k
            lines[o] += w
            side, side2 = side + w * y, side2 + w * y * y
            both, both2 = both + w * (x + stake * y), both2 + w * (x + stake * y) ** 2
            main += w * x
    total = rules.total_combinations
    return {
        "lines": lines if bet.forfeit else lines[:-1],
        "side_ev": Fraction(side, total * d),
        "side_ev2": Fraction(side2, total * d * d),
        "both_ev": Fraction(both, total * d),
        "both_ev2": both2 / (total * d * d),
        "main_ev": Fraction(main, total * d),
        "call_rate": Fraction(calls, rules.states),
    }


def check(rules, engine, states, bet, stake=1, meter=None, paytable=None, strategy="joint"):
    result = SideBetEngine(engine, paytable).evaluate(bet, stake, meter, strategy)
    want = reference(rules, states, bet, Fraction(stake), result.meter, PayTable.load(paytable), strategy)
    assert result.table["combinations"].tolist() == want["lines"]
    assert result.exact.ev == want["side_ev"]
    assert result.exact.variance == want["side_ev2"] - want["side_ev"] ** 2
    assert result.combined.house_edge == -want["both_ev"]
    assert result.combined.standard_deviation == pytest.approx(
        float(want["both_ev2"] - want["both_ev"] ** 2) ** 0.5, 1e-12
    )
    assert result.main.exact.ev == want["main_ev"] and result.main.exact.call_rate == want["call_rate"]
    return result


@pytest.mark.parametrize("kind", list(BETS))
@pytest.mark.parametrize("forfeit", ["no", "yes"])
def test_every_kind_equals_a_state_by_state_computation(deck, kind, forfeit):
    rules, engine, states = deck
    bet = SideBet.from_text(f"forfeit,{forfeit}\n" + BETS[kind])
    strategies = ("joint", "separate") if forfeit == "yes" else ("joint",)
    results = {s: check(rules, engine, states, bet, Fraction(1, 2), strategy=s) for s in strategies}
    assert sum(results["joint"].table["combinations"]) == rules.total_combinations
    if forfeit == "yes":  # the joint strategy is never worse for the player
        assert results["joint"].combined.house_edge <= results["separate"].combined.house_edge


@pytest.mark.parametrize("kind", list(BETS))
def test_huge_denominators_and_a_meter_decide_exactly(deck, kind):
    """Side pays whose denominators take the per-state term beyond 64 bits, and a meter at a
    fractional value: the engine's float path with exact near-ties equals the Fractions."""
    rules, engine, states = deck
    _, _, first, rest = BETS[kind].split("\n", 3)  # the first line pays a third of the meter
    bet = SideBet.from_text(f"kind,{kind}\nforfeit,yes\nseed,100\nline,pays\n{first.split(',')[0]},meter*1/3\n{rest}")
    huge = bet.with_pays({bet.lines[1].name: HUGE + 40})
    check(rules, engine, states, huge, Fraction(1, 3), Fraction(10**19 + 1, 10**17))


def test_a_side_bet_that_pays_nothing_leaves_the_strategy_alone(deck):
    """A forfeited bet on a royal flush losing to the dealer never pays (two royals cannot be
    dealt): the joint strategy is the main game's, exactly."""
    rules, engine, states = deck
    bet = SideBet.from_text("kind,bad-beat\nforfeit,yes\nline,pays\nroyal_flush,1000\n")
    bets = SideBetEngine(engine)
    joint, separate = bets.evaluate(bet, 2, strategy="joint"), bets.evaluate(bet, 2, strategy="separate")
    assert np.array_equal(joint.main.calls, separate.main.calls) and np.array_equal(joint.main.calls, bets.main.calls)
    assert joint.combined == separate.combined and joint.exact.house_edge == 1


def test_the_zero_term_equals_the_main_game(deck):
    rules, engine, _ = deck
    zero = SideBetEngine(engine).term(SideBet.from_text(BETS["first-six"]).with_pays({}), Fraction(0), None)
    assert np.array_equal(engine.decide(extra=zero).calls, engine.decide().calls)
    with pytest.raises(ValueError, match="only the optimal strategy"):
        engine.decide(None, "always-call", extra=zero)


@pytest.mark.parametrize("deck", ["omaha-2", "holdem-2"], indirect=True)
def test_tuning_solves_exactly_and_brackets_with_whole_pays(deck):
    """The target is the return of two pair paying 7/2 (found again exactly, though the
    decisions move with the pay when the bet is forfeited); 3 and 4 bracket it."""
    rules, engine, states = deck
    bets = SideBetEngine(engine)
    for forfeit in ("no", "yes"):
        bet = SideBet.from_text(f"kind,final\nforfeit,{forfeit}\nline,pays\ntwo_pair,1\nflush,2\n")
        target = bets.evaluate(bet.with_pays({"two_pair": Fraction(7, 2)})).exact.player_return
        frame = solve_side_bet(bets, bet, target, "two_pair", bounds=(0, 100))
        assert frame.pays_exact.tolist() == [3, Fraction(7, 2), 4] and frame.whole_number.tolist() == [
            True,
            False,
            True,
        ]
        assert frame.return_exact.iloc[1] == target
        assert frame.return_exact.iloc[0] < target < frame.return_exact.iloc[2]
        assert frame.return_exact.iloc[0] == bets.evaluate(bet.with_pays({"two_pair": 3})).exact.player_return
    with pytest.raises(ValueError, match="out of reach"):
        solve_side_bet(bets, bet, 500, "two_pair", bounds=(0, 10))
    with pytest.raises(ValueError, match="pays from the meter"):
        solve_side_bet(bets, SideBet.load("omaha-jackpot"), 0.9, "royal_flush")


@pytest.mark.parametrize("deck", ["omaha-2", "holdem-2"], indirect=True)
def test_progressive_figures(deck):
    """The return is linear in the meter; at the break-even meter it is exactly 1; a meter
    line at a meter M returns what a fixed line paying share x M / stake does."""
    rules, engine, _ = deck
    bets = SideBetEngine(engine)
    text = "kind,final\nforfeit,{}\nseed,40\nreset,30\ncontribution,10%\nstake,2\nline,pays\n"
    for forfeit in ("no", "yes"):
        bet = SideBet.from_text(text.format(forfeit) + "two_pair,meter\npair,meter*1/4\n")
        p = analyse_progressive(bets, bet)
        assert p.result.meter == 40
        assert bets.evaluate(bet, meter=p.break_even).exact.player_return == 1
        fixed = bet.with_pays({"two_pair": Fraction(40, 2), "pair": Fraction(10, 2)})
        assert bets.evaluate(fixed).exact.player_return == p.result.exact.player_return
        if forfeit == "no":
            frame = meter_returns(bets, bet, [0, 40, 80])
            r = [Fraction(x) for x in frame.return_exact]
            assert r[0] == p.base and r[2] - r[1] == r[1] - r[0] == 40 * p.slope
            p_reset = Fraction(int(p.result.table.combinations.iloc[0]), rules.total_combinations)
            assert p.reset_probability == p_reset
            assert p.long_run_return == p.base + Fraction(1, 10) + p_reset * 30 / 2


@pytest.mark.parametrize("deck", ["omaha-2", "holdem-2"], indirect=True)
def test_long_run_return_of_the_meter_process(deck):
    """Play the meter hand by hand (contributions in, resets after a full-meter line) with the
    exact line probabilities: the average paid per hand converges to the long-run figure."""
    rules, engine, _ = deck
    bet = SideBet.from_text(
        "kind,final\nseed,20\nreset,15\ncontribution,5%\nstake,1\nline,pays\ntwo_pair,meter\npair,meter*1/2\n"
    )
    p = analyse_progressive(SideBetEngine(engine), bet)
    total = p.result.exact.deals
    probs = [int(n) / total for n in p.result.table.combinations[:2]]
    outcome = np.random.default_rng(5).choice(3, size=500_000, p=[probs[0], probs[1], 1 - sum(probs)])
    meter, last, paid, ends, cycle_paid = 20.0, 0, 0.0, [], []
    for i in np.flatnonzero(outcome < 2):  # between hits the meter only grows by the contributions
        meter += 0.05 * (i + 1 - last)
        last = i + 1
        win = meter if outcome[i] == 0 else meter / 2
        paid, meter = paid + win, meter - win
        if outcome[i] == 0:  # a full-meter line ends a cycle; the meter starts again at the reset
            meter = 15.0
            ends.append(i + 1)
            cycle_paid.append(paid)
    # cycles after the first start alike and are independent: a ratio estimator over them
    hands_in, cycle_paid = np.diff(ends), np.diff(cycle_paid)
    per_hand = cycle_paid.sum() / hands_in.sum()
    se = np.sqrt(((cycle_paid - per_hand * hands_in) ** 2).sum()) / hands_in.sum()
    want = float(p.long_run_return - p.base)  # what the meter pays back per hand, per unit staked
    assert len(ends) > 500 and abs(per_hand - want) < 4 * se


@pytest.mark.parametrize("deck", ["omaha-2", "holdem-2"], indirect=True)
def test_floor_figures_follow_their_formulas(deck):
    rules, engine, _ = deck
    result = SideBetEngine(engine).evaluate(SideBet.from_text(BETS["final"]), Fraction(1, 5))
    wagers = side_bet_wagers(result, 25, 5)
    frame = floor_figures(wagers, hands_per_hour=30, seats=6, hours_per_day=20)
    z = NormalDist().inv_cdf(0.975)
    for w in wagers:
        rows = frame[frame.wager == w.name].set_index("period")
        assert rows.win_per_hour_per_seat.iloc[0] == pytest.approx(30 * w.average_bet * w.house_edge)
        assert rows.win_per_hour_per_table.iloc[0] == pytest.approx(6 * 30 * w.average_bet * w.house_edge)
        n = 30 * 20 * 7
        week = rows.loc["week"]
        assert week.hands_per_seat == n
        assert week.range_high - week.expected_house_result == pytest.approx(
            z * w.standard_deviation * w.average_bet * n**0.5
        )
    assert (
        wagers[1].house_edge == float(result.exact.house_edge)
        and wagers[2].standard_deviation == result.combined.standard_deviation
    )
    with pytest.raises(ValueError, match="not 5 / 10"):
        side_bet_wagers(result, 10, 5)
    with pytest.raises(ValueError, match="hands per hour"):
        floor_figures([Wager("x", 1, 0.1, 1)], 0)


def test_lines_name_hands_by_their_naming_rank():
    t = SideBet.from_text("kind,first-six\nline,pays\npair:A,7\npair:9-K,1\nstraight:5,2\ntwo_pair:J+,3\n")
    lines = t.strength_lines()

    def line(text):
        return int(lines[best_strength([parse_cards(text)])[0]])

    assert line("As Ad 7c 5h 2d") == 0 and line("9s 9d Ac 5h 2d") == 1 and line("8s 8d Ac 5h 2d") == -1
    assert line("As 2d 3c 4h 5d") == 2 and line("6s 2d 3c 4h 5d") == -1
    assert line("Js Jd 2c 2h 5d") == 3 and line("Ts Td 9c 9h 5d") == -1


def test_files_round_trip_and_ship_by_name():
    for name in ("aa-bonus", "omaha-flop-bonus", "omaha-bad-beat", "omaha-jackpot"):
        bet = SideBet.load(name)
        assert SideBet.from_text(bet.to_csv(), source=bet.source) == bet
    j = SideBet.load("omaha-jackpot")
    assert j.meter.seed == j.meter.reset == 2500 and j.meter.contribution == Fraction(15, 100)
    assert [line.pays_text for line in j.lines[:2]] == ["meter", "meter*10%"] and j.forfeit


@pytest.mark.parametrize(
    "text, message",
    [
        ("line,pays\npair,1\n", "missing the setting 'kind'"),
        ("kind,first-six\npair,1\n", "no 'line,pays' header"),
        ("kind,poker\nline,pays\npair,1\n", "row 1: kind 'poker' is not one of"),
        ("kind,final\ncolour,red\nline,pays\npair,1\n", "row 2: unknown setting 'colour'"),
        ("kind,final\nkind,final\nline,pays\npair,1\n", "row 2: setting 'kind' appears twice"),
        ("kind,final\nforfeit,maybe\nline,pays\npair,1\n", "row 2: forfeit is 'yes' or 'no'"),
        ("kind,final\ngame,blackjack\nline,pays\npair,1\n", "row 2: unknown game 'blackjack'"),
        ("kind,final\nline,pays\n", "has no pay lines"),
        ("kind,final\nline,pays\npairs,1\n", "row 3: unknown category 'pairs'"),
        ("kind,first-six\nline,pays\npair:Z,1\n", "row 3: line 'pair:Z': bad ranks 'Z'"),
        ("kind,first-six\nline,pays\nroyal_flush:K,1\n", "row 3: line 'royal_flush:K' names no hand"),
        ("kind,final\nline,pays\npair:A,1\n", "row 3: line 'pair:A': final-hand lines pay whole categories"),
        ("kind,first-six\nline,pays\npair,1\npair:A,5\n", "row 4: line 'pair:A' is never paid"),
        ("kind,final\nline,pays\npair,-1\n", "row 3: pay -1 for pair is negative"),
        ("kind,final\nline,pays\npair,lots\n", "row 3: pay for pair: 'lots' is not a number"),
        ("kind,final\nline,pays\npair,1,2\n", "row 3: expected 2 fields"),
        ("kind,final\nline,pays\npair,meter\n", "a progressive needs both 'meter' lines and a 'seed'"),
        ("kind,final\nseed,10\nline,pays\npair,1\n", "meter settings but no line pays from the meter"),
        ("kind,final\nseed,10\nline,pays\npair,meter*2\n", "a meter line pays 'meter' or 'meter\\*SHARE'"),
        ("kind,final\nstake,10\nline,pays\npair,meter\n", "needs a 'seed' setting"),
        ("kind,final\nseed,10\ncontribution,100%\nline,pays\npair,meter\n", "row 3: contribution 1 is out of range"),
    ],
)
def test_bad_files_name_the_row_and_the_problem(tmp_path, text, message):
    path = tmp_path / "bet.csv"
    path.write_text(text)
    with pytest.raises(SideBetError, match=f"^{path}: .*{message}"):
        SideBet.load(str(path))


def test_unknown_names_and_unreadable_files(tmp_path):
    with pytest.raises(
        SideBetError, match="no side bet of that name ships .*aa-bonus, caribbean-jackpot, omaha-bad-beat"
    ):
        SideBet.load("aa-bonsu")
    bad = tmp_path / "latin1.csv"
    bad.write_bytes("kind,final\nline,pays\npair,1 \xe9\n".encode("latin-1"))
    with pytest.raises(SideBetError, match="not a UTF-8 text file"):
        SideBet.load(str(bad))
    with pytest.raises(SideBetError, match="unknown lines flushes"):
        SideBet.load("aa-bonus").with_pays({"flushes": 3})
