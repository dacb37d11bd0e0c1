"""The exact curve of a forfeited side bet in one line's pay: at any pay (random lines and
values, fractions, pays exactly at a state's root, where the tie folds) its figures equal the
side-bet engine's joint evaluation with that pay, on small decks of both games and on Casino
Hold'em's full deck; the drawn breakpoints are its values; the pay for a target return is
exact, and a target inside a jump of the return is refused."""

import random
from fractions import Fraction

import numpy as np
import pytest

from analysis.counting.enumeration import count_flops, plan
from analysis.engine.return_engine import ReturnEngine
from analysis.model.errors import InputError, SolveError
from analysis.model.paytable import PayTable
from analysis.model.rules import preset
from analysis.sidebets.bet import SideBet
from analysis.sidebets.curve import SideBetCurve
from analysis.sidebets.returns import SideBetEngine

BETS = {
    "final": "kind,final\nforfeit,yes\nline,pays\nroyal_flush,50\nfull_house,8\nflush,5\nstraight,4\n"
    "three_of_a_kind,3\ntwo_pair,1\n",
    "bad-beat": "kind,bad-beat\nforfeit,yes\nline,pays\nfour_of_a_kind,200\nfull_house,40\nflush,30\nstraight,20\n"
    "three_of_a_kind,10\ntwo_pair,2\n",
    "first-six": "kind,first-six\nforfeit,yes\nline,pays\nroyal_flush,100\nflush,20\nstraight,7\n"
    "three_of_a_kind,7\ntwo_pair,7\npair:A,7\npair:Q-K,push\n",
}


def check(bets, bet, vary, pays, stake=1):
    curve = SideBetCurve(bets, bet, vary, stake)
    for p in pays:
        got = curve.at(p)
        want = bets.evaluate(bet.with_pays({vary: p}), stake, None, "joint")
        assert got.side_return == want.exact.player_return, (vary, p)
        assert (got.main_house_edge, got.call_rate) == (want.main.exact.house_edge, want.main.exact.call_rate)
        assert (got.combined_house_edge, got.combined_per_unit_wagered) == (
            want.combined.house_edge,
            want.combined.per_unit_wagered,
        )
    return curve


def exact_roots(curve, n, rng):
    """Pays exactly at some states' roots, where the state ties and folds."""
    picks = rng.sample(range(len(curve)), min(n, len(curve)))
    s = curve.states
    return [Fraction(-int(s.alpha[i]), int(s.beta[i])) for i in picks if s.alpha[i] < 0]


@pytest.mark.parametrize("game,ranks,suits", [("casino-omaha", "9TJQKA", "cd"), ("casino-holdem", "TJQKA", "cd")])
@pytest.mark.parametrize("kind", list(BETS))
def test_small_decks_every_kind(game, ranks, suits, kind):
    rules = preset(game).small_deck(ranks, suits)
    engine = ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules)
    bets, rng = SideBetEngine(engine, PayTable.load("madrid")), random.Random(11)
    bet = SideBet.from_text(BETS[kind])
    for line in rng.sample([x.name for x in bet.lines if x.name != "pair:Q-K"], 3):
        curve = SideBetCurve(bets, bet, line, Fraction(1, 2))
        pays = [0, 1, Fraction(7, 3), 60, Fraction(rng.randint(0, 900), rng.randint(1, 9))]
        check(bets, bet, line, pays + exact_roots(curve, 3, rng), Fraction(1, 2))


def test_casino_holdem_full_deck_and_breakpoints(holdem):
    _, engine = holdem
    bets, rng = SideBetEngine(engine), random.Random(2026)
    bet = SideBet.from_text(BETS["bad-beat"])
    curve = check(bets, bet, "three_of_a_kind", [0, Fraction(17, 2), 40])
    check(bets, bet, "three_of_a_kind", exact_roots(curve, 2, rng))
    frame = curve.breakpoints(0.0, 50.0)
    pays, values = frame["three_of_a_kind pays"].to_numpy(), frame["side bet return"].to_numpy()
    assert pays[0] == 0 and pays[-1] == 50 and np.all(np.diff(pays[::2]) > 0) and len(pays) > 200
    assert np.array_equal(pays[::2], pays[1::2])  # two rows a breakpoint: at it, then just above
    for end, pay in ((0, 0), (-1, 50)):
        assert values[end] == pytest.approx(float(curve.at(pay).side_return), abs=1e-12)
    for i in np.linspace(0, len(pays) // 2 - 2, 7).astype(int):
        # straight from a breakpoint's value just above it to the next one's value at it
        start, end = 2 * i + 1, 2 * i + 2
        mid = Fraction((pays[start] + pays[end]) / 2)
        drawn = (values[start] + values[end]) / 2
        assert drawn == pytest.approx(float(curve.at(mid).side_return), abs=1e-12)
    # the return rises with the pay, and jumps up where a state starts calling
    assert np.all(np.diff(values) >= -1e-15) and np.any(values[1::2] - values[0::2] > 1e-12)
    target = curve.at(Fraction(33, 4)).side_return
    assert curve.pay_for(target) == Fraction(33, 4)
    s = curve.states  # a root above 0: the state there brings its side bet into play, the return jumps
    i = int(np.flatnonzero(s.alpha < 0)[0])
    root = Fraction(-int(s.alpha[i]), int(s.beta[i]))
    below, above = curve.at(root).side_return, curve.at(root + Fraction(1, 10**12)).side_return
    assert above > below
    with pytest.raises(SolveError, match="jumps past it"):
        curve.pay_for((below + above) / 2)


def test_pay_for_a_target():
    rules = preset("casino-holdem").small_deck("TJQKA", "cd")
    engine = ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules)
    bets = SideBetEngine(engine)
    bet = SideBet.from_text(BETS["final"])
    curve = SideBetCurve(bets, bet, "two_pair")
    for p in (Fraction(7, 2), Fraction(1234, 97)):
        target = curve.at(p).side_return
        found = curve.pay_for(target)
        assert curve.at(found).side_return == target
        assert bets.evaluate(bet.with_pays({"two_pair": found}), 1, None, "joint").exact.player_return == target


def test_bad_input():
    rules = preset("casino-holdem").small_deck("TJQKA", "cd")
    engine = ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules)
    bets = SideBetEngine(engine)
    with pytest.raises(InputError, match="not forfeited"):
        SideBetCurve(bets, SideBet.from_text(BETS["final"].replace("forfeit,yes", "forfeit,no")), "flush")
    with pytest.raises(InputError, match="pays from the meter"):
        SideBetCurve(bets, SideBet.load("omaha-jackpot"), "royal_flush")
    with pytest.raises(InputError, match="at least 0"):
        SideBetCurve(bets, SideBet.from_text(BETS["final"]), "flush").at(-1)
    with pytest.raises(InputError, match="positive"):
        SideBetCurve(bets, SideBet.from_text(BETS["final"]), "flush", stake=0)
