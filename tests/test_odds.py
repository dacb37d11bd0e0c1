"""Odds per pay line and wager and the maximum payout agree with the return table and the
exact house edge, on the full-deck Casino Hold'em and Casino Omaha stores."""

from fractions import Fraction

import pytest

from analysis.model.categories import CATEGORIES
from analysis.model.paytable import PayTable
from analysis.report.odds import maximum_payout, pay_line_odds, wager_odds
from analysis.strategy.registry import strategy_named

ANTEWIN = PayTable.load(None)


@pytest.fixture(scope="module")
def holdem_results(holdem):
    _, engine = holdem
    return {on: engine.decide(ANTEWIN, strategy_named("optimal"), pays_on=on) for on in ("ante", "call")}


def rows(result):
    t = result.table
    return {(o, c): int(n) for o, c, n in zip(t.outcome, t.category, t.combinations)}


def check_pay_lines(result):
    """Each line's deals are the return-table rows its wager is paid on; with the rows the
    table does not pay they add up to every deal; true odds are (total - c) / c exactly."""
    lines, combos, total = pay_line_odds(result), rows(result), result.exact.deals
    paying = ("dealer_not_qualifying", "player_wins") if result.pays_on == "ante" else ("player_wins",)
    assert list(lines.category) == [c for c in reversed(CATEGORIES) if result.paytable.pays[c] > 0]
    for line in lines.itertuples():
        c = line.combinations
        assert c == sum(combos[(o, line.category)] for o in paying)
        assert Fraction(line.probability_exact) == Fraction(c, total)
        if c:
            assert Fraction(line.true_odds_exact) == Fraction(total - c, c)
            assert line.one_in == pytest.approx(total / c, rel=1e-15)
            assert line.true_odds_text == f"{(total - c) / c:,.2f} to 1"
        pays = result.paytable.pays[line.category]
        assert line.payout_odds == f"{pays.numerator} to {pays.denominator}"
        assert "_" not in line.hand
    rest = sum(n for (o, _), n in combos.items() if o not in paying)
    assert sum(Fraction(p) for p in lines.probability_exact) + Fraction(rest, total) == 1
    assert int(lines.combinations.sum()) + rest == total


def check_wagers(result):
    """The wagers' expected nets per hand add up to the game's exactly; each wager wins,
    pushes or loses; the call is made on the called hands only."""
    w = wager_odds(result.outcomes(), result.settlement).set_index("wager")
    exact = {
        (k, col): Fraction(w.loc[k, f"{col}_exact"])
        for k in w.index
        for col in (
            "made",
            "expected_net",
            "expected_net_per_ante",
            "win_probability",
            "push_probability",
            "lose_probability",
            "house_edge",
            "return_to_player",
        )
    }
    assert (
        exact[("ante", "expected_net_per_ante")] + exact[("call", "expected_net_per_ante")] == -result.exact.house_edge
    )
    for k in ("ante", "call"):
        assert exact[(k, "win_probability")] + exact[(k, "push_probability")] + exact[(k, "lose_probability")] == 1
        assert exact[(k, "house_edge")] == -exact[(k, "expected_net")] == 1 - exact[(k, "return_to_player")]
        assert float(w.loc[k, "house_edge"]) == float(exact[(k, "house_edge")])
    assert exact[("ante", "made")] == 1
    assert exact[("ante", "expected_net")] == exact[("ante", "expected_net_per_ante")]
    call_rate, m = result.exact.call_rate, result.rules.call_multiple
    assert exact[("call", "made")] == call_rate
    assert exact[("call", "expected_net")] == exact[("call", "expected_net_per_ante")] / (m * call_rate)
    return exact


def test_pay_lines_add_up_with_the_return_table(holdem_results):
    for result in holdem_results.values():
        check_pay_lines(result)
    ante = pay_line_odds(holdem_results["ante"]).set_index("category")
    call = pay_line_odds(holdem_results["call"]).set_index("category")
    # the ante is paid when the dealer does not qualify too; the call bet only on a win
    assert ante.loc["royal_flush", "combinations_dealer_not_qualifying"] > 0
    assert (call.combinations_dealer_not_qualifying == 0).all()
    assert ante.loc["royal_flush", "payout_odds"] == "100 to 1"
    # a high card never beats a qualifying dealer (a pair of 4s or better)
    assert call.loc["high_card", "combinations"] == 0 and call.loc["high_card", "true_odds_text"] == "never"


def test_line_contributions_make_the_paying_wager_s_return(holdem_results):
    """The ante's expected net per hand is what its lines pay less what it loses (folds and
    dealer wins); the call bet's is what its lines pay less the call bets lost."""
    for on, result in holdem_results.items():
        lines, combos, total = pay_line_odds(result), rows(result), result.exact.deals
        w = wager_odds(result.outcomes(), result.settlement).set_index("wager")
        paid = sum(Fraction(x) for x in lines.contribution_exact)
        lost = Fraction(combos[("dealer_wins", "")], total)
        if on == "ante":
            expected = paid - lost - Fraction(combos[("fold", "")], total)
            assert Fraction(w.loc["ante", "expected_net_per_ante_exact"]) == expected
        else:
            expected = paid - result.rules.call_multiple * lost
            assert Fraction(w.loc["call", "expected_net_per_ante_exact"]) == expected


def test_wager_contributions_add_up_to_the_house_edge(holdem_results):
    ante_table = check_wagers(holdem_results["ante"])
    check_wagers(holdem_results["call"])
    # AnteWin Casino Hold'em: the ante alone favours the player; the call bet makes up the edge
    assert ante_table[("ante", "expected_net")] > 0 > ante_table[("call", "expected_net")]
    assert float(holdem_results["ante"].exact.house_edge) == pytest.approx(0.021576, abs=1e-6)


def test_maximum_payout_of_antewin_casino_holdem(holdem_results):
    # a royal flush beating a qualifying dealer: the ante pays 100 to 1, the call bet of 2
    # antes pays 1 to 1: 100 + 2 = 102 antes
    result = holdem_results["ante"]
    top = maximum_payout(result)
    assert top.net == 102
    royal = rows(result)[("player_wins", "royal_flush")]
    assert top.combinations == royal
    assert top.probability == Fraction(royal, result.exact.deals)
    assert top.one_in == pytest.approx(result.exact.deals / royal)
    assert top.outcome == "the player's royal flush beats the dealer's qualifying hand"
    # paid on the call: the ante 1 to 1 and the call bet 2 x 100 antes
    assert maximum_payout(holdem_results["call"]).net == 201


def test_maximum_payout_shared_by_several_lines(holdem):
    """Madrid pays 20 to 1 on royal flush, straight flush and four of a kind: each of them
    beating the dealer nets 22 antes, and the maximum counts them all."""
    _, engine = holdem
    result = engine.decide(PayTable.load("madrid"), strategy_named("optimal"))
    top, combos = maximum_payout(result), rows(result)
    assert top.net == 22
    lines = ("royal_flush", "straight_flush", "four_of_a_kind")
    assert top.combinations == sum(combos[("player_wins", c)] for c in lines)
    assert top.outcome == (
        "the player's royal flush, straight flush or four of a kind beats the dealer's qualifying hand"
    )


def test_casino_omaha_odds(omaha):
    _, engine = omaha
    result = engine.decide(ANTEWIN, strategy_named("optimal"))
    check_pay_lines(result)
    check_wagers(result)
    top = maximum_payout(result)
    assert top.net == 102
    assert top.combinations == rows(result)[("player_wins", "royal_flush")]
