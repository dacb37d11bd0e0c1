"""The par sheet's worked examples against a settlement written here from the rules text:
hands valued by a plain poker ranking over every allowed five of the cards (not the
package's evaluator tables), the qualifier, the comparison and the pay table applied by hand;
and each example's decision against the strategy's own decision in its state, looked up
apart from the examples (the stored state's exact EVs through ``advise``, the simple
strategy's thresholds applied to the state's hand)."""

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import combinations

import pytest

from analysis.engine.return_engine import load_engine
from analysis.hands.classes import hand_profile
from analysis.model.cards import format_cards, parse_cards
from analysis.model.categories import CATEGORIES
from analysis.model.paytable import PayTable
from analysis.model.rules import PRESETS, preset
from analysis.parallel.options import RunOptions
from analysis.report.build import REPORT_STRATEGIES
from analysis.report.examples import examples_note, worked_examples
from analysis.report.regulation import rules_of_play
from analysis.strategy.advice import advise
from analysis.strategy.by_hand import analyse_strategy

OMAHA, HOLDEM = preset("casino-omaha"), preset("casino-holdem")
ANTEWIN = PayTable.load("antewin")
# a table with a fraction (a flush pays 11 to 2) and high card paying nothing: its own level
ODD = PayTable.load("madrid").replace(flush="11/2", high_card=0)

# engine (a fixture), rule changes that keep its counts, pay table, pays on, examples
GAMES = {
    "omaha-antewin": ("omaha", {}, ANTEWIN, "ante", 10),
    "holdem-antewin": ("holdem", {}, ANTEWIN, "ante", 10),
    "omaha-pays-on-call": ("omaha", {}, ANTEWIN, "call", 10),
    "omaha-call-3x": ("omaha", {"call_multiple": 3}, ANTEWIN, "ante", 10),
    "holdem-no-qualifier-call-3x": ("holdem_no_qualifier", {"call_multiple": 3}, ANTEWIN, "ante", 9),
    # a level of high card alone cannot beat a qualifying dealer (who holds a pair at least)
    "holdem-odd-table-on-call": ("holdem", {}, ODD, "call", 11),
    "holdem-odd-table-no-qualifier": ("holdem_no_qualifier", {}, ODD, "ante", 11),
}


@pytest.fixture(scope="module")
def holdem_no_qualifier():
    """Casino Hold'em where the dealer always qualifies: its own counts (its own store)."""
    rules = replace(HOLDEM, qualifier_rank=None)
    return rules, load_engine(rules, RunOptions(progress=False))


def engine_of(request, fixture, changes=None):
    """A fixture's engine, played under rules ``changes`` that keep its counts."""
    rules, engine = request.getfixturevalue(fixture)
    return engine.with_rules(replace(rules, **changes)) if changes else engine


def examples_of(request, fixture, changes, table, pays_on, strategy="optimal", seed=None):
    engine = engine_of(request, fixture, changes)
    result = engine.decide(table, strategy, pays_on)
    return worked_examples(engine, result) if seed is None else worked_examples(engine, result, seed)


def value(five):
    """(category code, tie-break ranks) of five cards, by the rules of poker."""
    ranks = sorted((c // 4 for c in five), reverse=True)
    counts = Counter(ranks)
    groups = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len({c % 4 for c in five}) == 1
    top = None
    if len(counts) == 5 and ranks[0] - ranks[4] == 4:
        top = ranks[0]
    elif ranks == [12, 3, 2, 1, 0]:
        top = 3  # A-2-3-4-5: the ace plays low
    if top is not None and flush:
        return (9 if top == 12 else 8, (top,))
    if shape == [4, 1]:
        return (7, tuple(groups))
    if shape == [3, 2]:
        return (6, tuple(groups))
    if flush:
        return (5, tuple(ranks))
    if top is not None:
        return (4, (top,))
    return ({(3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}.get(tuple(shape), 0), tuple(groups))


def fives(rules, hole, board):
    """Every five the rules allow: exactly two hole and three board cards for Omaha."""
    if rules.omaha:
        return [h + b for h in combinations(hole, 2) for b in combinations(board, 3)]
    return list(combinations(hole + board, 5))


def best(rules, hole, board):
    return max(value(f) for f in fives(rules, hole, board))


def qualifies(rules, dealer_value):
    """A pair of the qualifier's rank or better (any hand when there is no qualifier)."""
    return rules.qualifier_rank is None or dealer_value >= (1, (rules.qualifier_rank,))


def settlement(rules, table, pays_on, decision, player, dealer):
    """(ante, call) results: fold loses the ante; a dealer who does not qualify pays the
    ante (by the table if the table pays the ante, else even money) and pushes the call;
    a win pays both (the table on its bet, even money on the other); a tie pushes; a loss
    loses both."""
    m = rules.call_multiple
    pay = table.pays[CATEGORIES[player[0]]]
    if decision == "fold":
        return -1, 0
    ante_pay = pay if pays_on == "ante" else 1
    if not qualifies(rules, dealer):
        return ante_pay, 0
    if player > dealer:
        return ante_pay, m * (1 if pays_on == "ante" else pay)
    if player == dealer:
        return 0, 0
    return -1, -m


def levels(rules, table):
    """The best category of each distinct pay, best first; high card alone is left out
    when the dealer must qualify."""
    out = {}
    for code in range(9, -1, -1):
        out.setdefault(table.pays[CATEGORIES[code]], code)
    return [c for c in out.values() if not (c == 0 and rules.qualifier_rank is not None)]


def pay_words(pay):
    return f"{pay.numerator} to {pay.denominator}"


def amount_words(net):
    return ("+" if net > 0 else "") + f"{net} ante" + ("" if abs(net) == 1 else "s")


def hand_prefix(code):
    words = CATEGORIES[code].replace("_", " ")
    return {1: "pair of ", 9: "royal flush ("}.get(code, words + ", ")


def check_hand(rules, text, hole, board, expected):
    """The hand's words start with its category and its five cards are an allowed five of
    the expected value."""
    assert text.startswith(hand_prefix(expected[0])), text
    five = tuple(parse_cards(text[text.index("(") + 1 : -1]))
    assert sorted(five) in [sorted(f) for f in fives(rules, hole, board)] and value(five) == expected, text


@pytest.fixture(scope="module", params=list(GAMES))
def game(request):
    fixture, changes, table, pays_on, count = GAMES[request.param]
    engine = engine_of(request, fixture, changes)
    return engine.rules, table, pays_on, count, worked_examples(engine, engine.decide(table, "optimal", pays_on))


def test_every_case_once_in_order(game):
    rules, table, pays_on, count, examples = game
    wins = [f"The player wins with {CATEGORIES[c].replace('_', ' ')}" for c in levels(rules, table)]
    noqual = [] if rules.qualifier_rank is None else ["The dealer does not qualify"]
    expected = ["The player folds", *noqual, *wins, "Tie", "The dealer wins"]
    assert len(examples) == len(expected) == count
    for example, case in zip(examples, expected):
        assert example.case in (case, case.replace(" with ", " with a ")), (example.case, case)
        assert example.decision == ("fold" if case == "The player folds" else "call")


def test_each_example_is_settled_as_the_rules_say(game):
    rules, table, pays_on, _, examples = game
    k = rules.hole_cards
    win_levels = iter(levels(rules, table))
    for ex in examples:
        cards = ex.hole + ex.board + ex.dealer
        assert (len(ex.hole), len(ex.board), len(ex.dealer)) == (k, 5, k)
        assert len(set(cards)) == 2 * k + 5 and set(cards) <= set(rules.deck)
        player, dealer = best(rules, ex.hole, ex.board), best(rules, ex.dealer, ex.board)
        check_hand(rules, ex.player_hand, ex.hole, ex.board, player)
        check_hand(rules, ex.dealer_hand, ex.dealer, ex.board, dealer)
        assert ex.dealer_qualifies == qualifies(rules, dealer)
        if ex.case == "The dealer does not qualify":
            assert not ex.dealer_qualifies
        elif ex.case.startswith("The player wins"):
            assert ex.dealer_qualifies and player > dealer and player[0] == next(win_levels)
        elif ex.case == "Tie":
            assert ex.dealer_qualifies and player == dealer
        elif ex.case == "The dealer wins":
            assert ex.dealer_qualifies and player < dealer
        ante, call = settlement(rules, table, pays_on, ex.decision, player, dealer)
        assert (ex.ante, ex.call, ex.net) == (ante, call, ante + call)
        assert all(isinstance(x, Fraction) for x in (ex.ante, ex.call, ex.net))
        assert ex.settlement.endswith(f": {amount_words(ex.net)}."), ex.settlement
        if ex.case.startswith("The player wins") or (ex.case == "The dealer does not qualify" and pays_on == "ante"):
            assert pay_words(table.pays[CATEGORIES[player[0]]]) + " (the pay table's line" in ex.settlement
        if ex.case.startswith("The player wins"):
            assert "1 to 1" in ex.settlement and f"call bet of {rules.call_multiple} antes" in ex.settlement
    assert next(win_levels, None) is None


def test_named_settlements(request):
    """A few sentences and amounts in full, as a regulator reads them."""
    examples = {e.case: e for e in examples_of(request, "omaha", {}, ANTEWIN, "ante")}
    flush = examples["The player wins with a flush"]
    assert flush.net == 4 and flush.ante == 2 and flush.call == 2
    assert flush.settlement.startswith("The dealer qualifies (a pair of sevens or better) and the player's hand (flush")
    assert "the ante pays 2 to 1 (the pay table's line for a flush) and the call bet of 2 antes pays 1 to 1" in (
        flush.settlement
    )
    assert examples["The player wins with a royal flush"].net == 102
    loss = examples["The dealer wins"]
    assert loss.settlement.endswith("the player loses the ante and the call bet of 2 antes: -3 antes.")
    odd = {e.case: e for e in examples_of(request, "holdem", {}, ODD, "call")}
    assert odd["The player wins with a flush"].net == 1 + 2 * Fraction(11, 2)
    assert "pays 11 to 2 (the pay table's line for a flush)" in odd["The player wins with a flush"].settlement
    free = {e.case: e for e in examples_of(request, "holdem_no_qualifier", {}, ODD, "ante")}
    assert free["The player wins with high card"].net == 2  # the ante pays 0 to 1, the call bet 2 antes
    assert free["The player wins with high card"].settlement.startswith("The dealer always qualifies")


def test_same_seed_same_examples(request):
    five = examples_of(request, "holdem", {}, ANTEWIN, "ante", seed=5)
    assert five == examples_of(request, "holdem", {}, ANTEWIN, "ante", seed=5)
    assert five != examples_of(request, "holdem", {}, ANTEWIN, "ante", seed=6)


def clause_for(case: str, clauses: tuple[str, ...]) -> str:
    """The settlement clause of the rules of play that governs an example's case."""
    condition = {
        "The player folds": "folded",
        "The dealer does not qualify": "does not qualify",
        "Tie": "ties the dealer",
        "The dealer wins": "ranks higher than the player",
    }.get(case, "If the player's hand ranks higher than the dealer")
    found = [c for c in clauses if condition in c]
    assert len(found) == 1, (case, found)
    return found[0]


def read_clause(clause: str, m: int, pays: Fraction) -> tuple[Fraction, Fraction]:
    """(ante, call bet) as the clause's words settle them, for a call bet of ``m`` antes and
    a pay-table line paying ``pays``."""
    if "folded has lost the ante" in clause:
        return Fraction(-1), Fraction(0)
    if "loses the ante and the call bet" in clause:
        return Fraction(-1), Fraction(-m)
    if "the ante and the call bet are a push" in clause:
        return Fraction(0), Fraction(0)
    ante = pays if "ante shall be paid according to the pay table" in clause else None
    ante = Fraction(1) if "ante shall be paid at 1 to 1" in clause else ante
    call = Fraction(0) if "call bet is a push" in clause else None
    call = m * Fraction(1) if "call bet shall be paid at 1 to 1" in clause else call
    call = m * pays if "call bet shall be paid according to the pay table" in clause else call
    assert ante is not None and call is not None, clause
    return ante, call


def test_each_example_is_settled_as_the_rules_text_says(game):
    """The rules of play that the par sheet prints, read clause by clause, settle every
    worked example as the package's settlement code did."""
    rules, table, pays_on, _, examples = game
    sections = {s.heading: s for s in rules_of_play(rules, table, pays_on)}
    clauses = sections["Settlement"].clauses
    for ex in examples:
        player = best(rules, ex.hole, ex.board)
        ante, call = read_clause(clause_for(ex.case, clauses), rules.call_multiple, table.pays[CATEGORIES[player[0]]])
        assert (ex.ante, ex.call, ex.net) == (ante, call, ante + call), (ex.case, ex.settlement)
    lines = dict(sections["Pay table"].table)
    assert all(
        lines[c.replace("_", " ").capitalize()] == f"{table.pays[c].numerator} to {table.pays[c].denominator}"
        for c in CATEGORIES
        if table.pays[c] > 0
    )


@pytest.fixture(scope="module", params=list(PRESETS))
def shipped(request):
    """A shipped one-decision game's engine and its strategies (as the report plays them),
    for its default pay table."""
    rules, engine = request.getfixturevalue(request.param.removeprefix("casino-"))
    return rules, engine, analyse_strategy(engine)


@pytest.mark.parametrize("strategy", REPORT_STRATEGIES)
def test_each_example_is_played_as_the_strategy_plays_its_state(shipped, strategy):
    """Every example's decision is the strategy's in the deal's state, found apart from the
    examples: the optimal one from the state's exact EVs read from the outcome store, the
    simple one by its thresholds on the state's hand, always calling by its name. Its
    result is the settlement by hand of that decision."""
    rules, engine, analysis = shipped
    result = analysis.results[strategy]
    table, pays_on = result.paytable, result.pays_on
    examples = worked_examples(engine, result)
    folds = [x for x in examples if x.case == "The player folds"]
    assert len(folds) == (0 if strategy == "always-call" else 1)
    assert ("no example of a fold" in examples_note(strategy, examples)) == (not folds)
    for x in examples:
        flop = x.board[:3]
        advice = advise(format_cards(x.hole), format_cards(flop), rules, table, pays_on)
        if strategy == "optimal":
            decision = advice.decision
        elif strategy == "simple":
            decision = "call" if analysis.simple.decide(hand_profile(rules, [x.hole], [flop]))[0] else "fold"
        else:
            decision = "call"
        assert x.decision == decision == ("fold" if x.case == "The player folds" else "call"), x.case
        assert x.ev_call == advice.ev_call, x.case
        assert f"EV(call) {float(advice.ev_call):+.3f} antes against -1 for a fold" in x.decision_words
        assert ("folds" if decision == "fold" else "calls") in x.decision_words
        if strategy != "optimal":  # where another strategy and optimal play differ, the words say so
            assert ("the optimal strategy would" in x.decision_words) == (advice.decision != decision)
        player, dealer = best(rules, x.hole, x.board), best(rules, x.dealer, x.board)
        assert (x.ante, x.call) == settlement(rules, table, pays_on, decision, player, dealer), x.case
        assert x.net == x.ante + x.call
