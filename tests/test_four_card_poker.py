"""Four Card Poker from its game file: five cards for the player and six for the dealer, each
the best four, one dealer card seen before the decision, a fold or a play bet of once or
three times the ante, ties to the player and an ante bonus. Checked against the four-card
categories in closed form, every state of a small deck and random states of the full deck
against every dealer hand played out, every deal of a small deck settled by the sampler's
own code, sampled deals, and the published house edge (2.79% of the ante)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest
from test_solve import check_shape

import analysis
from analysis.counting.no_board import card_sets, count_no_board, count_state
from analysis.engine.no_board import cost_of, state_evs
from analysis.engine.no_board_simulation import deal_nets, sample_no_board
from analysis.hands.evaluate import pair_rank
from analysis.hands.four_card import best_four_values, four_card_category, four_card_values
from analysis.hands.rankings import RANKINGS
from analysis.model.cards import format_cards, parse_cards
from analysis.model.categories import FOUR_CARD_CATEGORIES
from analysis.model.errors import InputError
from analysis.model.game import game_from_document, load_game
from analysis.model.settlement import Settlement
from analysis.report.no_board import written_rules_table
from analysis.report.no_board_verification import CLOSED_FORM
from analysis.strategy.four_card_rules import RULES

FOUR = RANKINGS["four-card"]


def doc(**changes: object) -> dict:
    base = {
        "name": "four",
        "cards": {"hole": 5, "board": 0, "hand": "four-card"},
        "dealer": {"hole": 6, "up": 1, "qualifier": "none", "ties": "player"},
        "betting": {"preflop": ["fold", "bet 1", "bet 3"]},
        "ante": {"pays": "even", "bonus": {"four_of_a_kind": 25, "straight_flush": 20, "three_of_a_kind": 2}},
    }
    return base | changes


def small(ranks: str, suits: str, **changes: object):
    cards = {"hole": 5, "board": 0, "hand": "four-card", "ranks": ranks, "suits": suits}
    return game_from_document(doc(cards=cards, **changes))


@pytest.fixture(scope="module")
def four():
    return analysis.solve("four-card-poker")


def test_every_four_card_set_and_the_best_four_of_five_by_category():
    """The 270,725 four-card sets: four of a kind 13, straight flushes 11 x 4, three of a
    kind 13 x 4 x 48, flushes 4 x 715 less those, straights 11 x 256 less those, two pair
    78 x 36, pairs 13 x 6 x 66 x 16, the rest high cards; and the best four of every
    five-card hand, as the verify check's closed forms derive them."""
    sets = np.array(list(combinations(range(52), 4)))
    found = np.bincount(four_card_category(four_card_values(sets)), minlength=8).tolist()
    assert found == [177_408, 82_368, 2_808, 2_772, 2_816, 2_496, 44, 13]
    assert sum(found) == comb(52, 4)
    hands = card_sets(range(52), 5)
    best = np.bincount(four_card_category(best_four_values(hands)), minlength=8).tolist()
    assert best == list(CLOSED_FORM["four-card"])
    assert best[7] == 13 * 48 and best[6] == 44 * 48 - 40 and best[4] == 4 * 715 * 39 + 4 * 1287 - best[6]
    assert best[1] == 1_098_240 - (11 * 4 * 6 * 64 + 715 * 4 * 4 * 3 - 11 * 4 * 4 * 3)


ACES_UP = {
    "four_of_a_kind": 50,
    "straight_flush": 40,
    "three_of_a_kind": 8,
    "flush": 6,
    "straight": 4,
    "two_pair": 2,
    "pair A-A": 1,
}


def _four_flush_or_straight(hand: tuple[int, ...]) -> bool:
    """Whether four of five cards make a flush or a straight (A-2-3-4 to J-Q-K-A), by hand."""
    for four in combinations(hand, 4):
        ranks = sorted({c >> 2 for c in four})
        if len({c & 3 for c in four}) == 1:
            return True
        if len(ranks) == 4 and (ranks[3] - ranks[0] == 3 or ranks == [0, 1, 2, 12]):
            return True
    return False


def test_aces_up_pays_a_pair_of_aces_below_the_categories_on_a_small_deck(monkeypatch):
    """Aces Up on a small deck: each line's hands are every five-card hand of that line,
    counted one by one (a pair of aces beside any other pair)."""
    game = small("89TJQKA", "cdh", hand_bets={"aces-up": {"title": "Aces Up", "pays": ACES_UP}})
    solved = analysis.solve(game)
    bet = solved.hand_bets()["aces-up"]
    hands = card_sets(game.rules.deck, 5)
    category = four_card_category(best_four_values(hands))
    aces = np.array([sorted(c >> 2 for c in h).count(12) == 2 for h in hands.tolist()])
    expected = Counter(FOUR_CARD_CATEGORIES[c] for c in category.tolist())
    expected["pair A-A"] = int((aces & (category == 1)).sum())
    expected["pair"] -= expected["pair A-A"]
    assert bet.hands == {k: expected[k] for k in bet.hands} and sum(bet.hands.values()) == comb(21, 5)
    assert list(bet.hands)[-3:] == ["pair A-A", "pair", "high_card"] and expected["pair A-A"] > 0
    won = sum(n * (ACES_UP[k] + 1) for k, n in bet.hands.items() if k in ACES_UP)
    assert bet.exact.house_edge == 1 - Fraction(won, comb(21, 5))
    # verify's check of the lines hand by hand passes, and fails when a pair is read a rank low
    from analysis.report import no_board_verification as v

    assert v._hand_bets(solved)[0]
    monkeypatch.setattr(v, "pair_rank", lambda hands: pair_rank(hands) - 1)
    assert not v._hand_bets(solved)[0]


@pytest.mark.parametrize(
    "pays, message",
    [
        ({"pair K-A": 1, "pair A-A": 2}, "two pair lines cover the same hands"),
        ({"pair A-K": 1}, "pair A-K: the lower rank first"),
        ({"pair of aces": 1}, r"unknown line 'pair of aces': a category \(high_card, .*\), 'pair R-R'"),
        ({"pair A-A": -1}, "pair A-A: a pay is between 0 and 1,000,000"),
    ],
)
def test_a_bad_line_of_a_bet_on_the_hand_is_refused(pays, message):
    bet = {"aces-up": {"title": "Aces Up", "pays": pays}}
    with pytest.raises(InputError, match=r"x\.toml: \[hand_bets\.aces-up\] pays: " + message):
        game_from_document(doc(hand_bets=bet), "x.toml")


def test_the_four_card_order_of_hands():
    def v(text: str) -> int:
        return int(best_four_values([parse_cards(text)])[0])

    assert v("9s 9d 9c 9h 2c") > v("8h 7h 6h 5h 2c") > v("2s 2d 2c Kh Qc")  # quads, straight flush, trips
    assert v("2s 2d 2c 3h 4c") > v("Ah Qh 9h 4h 2c") > v("Ah Kd Qc Js 2c")  # trips, flush, straight
    assert v("Ah Kd Qc Js 2c") > v("5h 4d 3c 2s 8c") > v("Ah 2d 3c 4s 9c")  # A-K-Q-J, 5-4-3-2, A-2-3-4
    assert v("Ah 2d 3c 4s 9c") > v("Ks Kd 3c 3s 9c")  # the lowest straight beats two pair
    assert FOUR_CARD_CATEGORIES[four_card_category(v("Qh Kd Ac 2s 7c"))] == "high_card"  # Q-K-A-2 is no straight
    assert v("Ks Kd 9c 8s 2c") > v("Ks Kh 9d 7s 6c")  # the pair's kickers, the fifth card dropped
    assert v("As Kd 9c 8s 7c") == v("Ah Kc 9d 8h 2c")  # the same best four, whatever the fifth card


def test_every_state_of_a_small_deck_against_every_dealer_hand():
    game = small("2345A", "cdh")
    deck = game.rules.deck
    counted = count_no_board(deck, 5, FOUR.values, 0, seen=1, dealer_hole=6)
    for hand, up, row in zip(counted.hands.tolist(), counted.seen[:, 0].tolist(), counted.counts):
        assert (count_state(deck, hand, [up], FOUR.values, 0, dealer_hole=6) == row).all()
    assert int(counted.weight.sum()) == comb(15, 5) * 10 and counted.dealer_hands == comb(9, 5)
    assert counted.counts[:, 4].sum() > 0  # ties happen


def test_every_deal_of_a_small_deck_settled_by_its_own_code():
    """Each player hand, each card the dealer shows, each of his five other cards: settled
    by the sampler's code with the solved strategy, the same EV and variance, exactly."""
    game = small("2345A", "cdh")
    solved = analysis.solve(game)
    deck = list(game.rules.deck)
    players, dealers = [], []
    for hand in combinations(deck, 5):
        for up in (c for c in deck if c not in hand):
            others = np.array(list(combinations([c for c in deck if c not in hand and c != up], 5)))
            players.append(np.repeat([hand], len(others), axis=0))
            dealers.append(np.hstack([np.full((len(others), 1), up), others]))
    player, dealer = np.concatenate(players), np.concatenate(dealers)
    nets = deal_nets(game, player, dealer, solved.play_bets(player, dealer[:, :1]))
    assert len(nets) == solved.exact.deals == comb(15, 5) * 10 * comb(9, 5)
    assert Fraction(int(nets.sum()), len(nets)) == solved.exact.ev
    assert Fraction(int((nets * nets).sum()), len(nets)) - solved.exact.ev**2 == solved.exact.variance
    assert {o for _, o in solved.decisions} == {"fold", "bet 1", "bet 3"}
    check_shape(solved)


def test_a_tie_is_the_players_win_when_the_file_says_so():
    player = Settlement(ties="player")
    assert player.net("pair", True, 0, 3) == player.net("pair", True, 1, 3) == 4
    assert Settlement().net("pair", True, 0, 3) == 0
    game = small("2345A", "cdh")
    pushed = small("2345A", "cdh", dealer={"hole": 6, "up": 1, "qualifier": "none"})
    assert analysis.solve(pushed).exact.house_edge > analysis.solve(game).exact.house_edge
    with pytest.raises(InputError, match=r"\[dealer\] ties: 'push'"):
        game_from_document(doc(dealer={"hole": 6, "up": 1, "qualifier": "none", "ties": "dealer"}), "x.toml")


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"cards": {"hole": 7, "board": 0, "hand": "four-card"}}, r"\[cards\] hole: a four-card hand is the best 4 of"),
        ({"cards": {"hole": 3, "board": 0, "hand": "four-card"}}, r"\[cards\] hole: a four-card hand is the best 4 of"),
        ({"dealer": {"hole": 2, "qualifier": "none"}}, r"\[dealer\] hole: a four-card hand is the best 4 of"),
        ({"dealer": {"hole": True, "qualifier": "none"}}, r"\[dealer\] hole: a four-card hand"),
        ({"dealer": {"hole": 6, "qualifier": "none", "seen": 1}}, r"\[dealer\] has unknown keys 'seen'"),
    ],
)
def test_a_bad_file_is_refused_naming_file_and_key(changes, message):
    with pytest.raises(InputError, match=message):
        game_from_document(doc(**changes), "x.toml")


def test_a_five_card_game_keeps_its_hand_size():
    stud = {"cards": {"hole": 5, "board": 0, "hand": "five-card"}, "dealer": {"qualifier": "ace-king", "hole": 6}}
    with pytest.raises(InputError, match=r"\[dealer\] hole: a five-card hand is 5 cards"):
        game_from_document(doc(**stud, betting={"preflop": ["fold", "bet 2"]}), "x.toml")


def test_advise_by_hand_and_up_card(cli):
    data = cli("advise", "--game", "four-card-poker", "Ac Ad 3c 4h 5h", "--up", "5c", "--format", "json").json()
    direct = state_evs(load_game("four-card-poker"), "Ac Ad 3c 4h 5h", "5c")
    assert data["best"] == "bet 3" and data["evs"]["bet 3"] == str(direct["bet 3"])
    assert direct["bet 3"] == Fraction(856624, 685377)  # every one of the 1,370,754 dealer hands played out


@pytest.mark.slow
def test_the_published_house_edge_and_the_strategy(four):
    e = four.exact
    assert e.deals == comb(52, 5) * 47 * comb(46, 5) == 167_439_136_344_480
    assert e.house_edge == Fraction(8_840_827_253, 317_119_576_410)
    assert f"{float(e.house_edge):.2%}" == "2.79%"  # Wizard of Odds, "Four Card Poker"
    assert f"{float(e.element_of_risk):.4%}" == "1.3013%"
    decided = Counter({o: n for (_, o), n in four.decisions.items()})
    assert sum(decided.values()) == e.deals and decided["bet 3"] > decided["bet 1"] > 0
    check_shape(four)
    by_category = four.strategy.groupby("category")["option"].agg(set)
    assert all(by_category[c] == {"bet 3"} for c in ("four_of_a_kind", "straight_flush", "three_of_a_kind"))
    assert "fold" in by_category["high_card"] and "bet 1" in by_category["pair"]


@pytest.mark.slow
def test_aces_up_is_the_published_figure(four):
    """Aces Up on the full deck: a pair of aces is each of the 84,480 hands holding one pair
    of aces and no other pair, less those whose best four is a flush or a straight (checked
    hand by hand); the other lines are the closed forms of the best four of five. The
    published edges of the tables in use range from 1.98% (three of a kind 9) to 6.15%
    (three of a kind 7, a flush 5, two pair 3): Wikipedia, "Four Card Poker"."""
    bet = four.hand_bets()["aces-up"]
    one_pair_of_aces = [
        (a, b, *rest)
        for a, b in combinations(range(48, 52), 2)
        for rest in combinations(range(48), 3)
        if len({c >> 2 for c in rest}) == 3
    ]
    assert len(one_pair_of_aces) == 6 * comb(12, 3) * 4**3 == 84_480
    aces = sum(not _four_flush_or_straight(h) for h in one_pair_of_aces)
    closed = dict(zip(FOUR_CARD_CATEGORIES, CLOSED_FORM["four-card"]))
    assert bet.hands == {k: closed.get(k, aces) - (aces if k == "pair" else 0) for k in bet.hands}
    assert bet.hands["pair A-A"] == aces == 81_096
    assert bet.exact.house_edge == Fraction(1376, 32487)
    assert f"{float(bet.exact.house_edge):.4%}" == "4.2355%"
    low = ACES_UP | {"three_of_a_kind": 9}
    high = ACES_UP | {"three_of_a_kind": 7, "flush": 5, "two_pair": 3}
    edges = [four.hand_bets({"aces-up": {k: Fraction(v) for k, v in t.items()}})["aces-up"] for t in (low, high)]
    assert [f"{float(b.exact.house_edge):.2%}" for b in edges] == ["1.98%", "6.15%"]


@pytest.mark.slow
def test_random_full_deck_states_against_every_dealer_hand(four):
    """12 random (hand, up card) states: the kernel's counts against the 1,370,754 dealer
    hands of each, played out, and the decision the larger of the three."""
    rng = np.random.default_rng(9)
    for _ in range(12):
        cards = rng.choice(52, size=6, replace=False)
        hand, up = format_cards(sorted(cards[:5].tolist())), format_cards([int(cards[5])])
        direct = state_evs(four.game, hand, up)
        assert four.evs(hand, up) == direct
        best = max(direct, key=lambda o: (direct[o], -["fold", "bet 1", "bet 3"].index(o)))
        bet = four.play_bets(np.array([cards[:5]]), np.array([[cards[5]]]))[0]
        assert bet == {"fold": 0, "bet 1": 1, "bet 3": 3}[best]


@pytest.mark.slow
def test_the_simple_rule_and_sampled_deals(four):
    s = four.states
    simple = cost_of(four, RULES["the simple rule"].plays(s.hands[s.cls], s.seen[:, 0]))
    assert simple.house_edge == Fraction(6_583_447_951, 193_795_296_695)  # 3.3971% of the ante
    assert simple.cost == simple.house_edge - four.exact.house_edge > 0
    optimal = cost_of(four, np.array([0, 1, 3])[s.chosen])
    assert optimal.cost == 0 and optimal.element_of_risk == four.exact.element_of_risk
    table = written_rules_table(four)
    assert table["house edge"].tolist() == ["2.7879%", "3.3971%"]
    assert sample_no_board(four.game, four.play_bets, 300_000, seed=5).within(float(four.exact.ev))
    with pytest.raises(InputError, match="to fold or to bet 1 or 3 antes"):
        cost_of(four, np.full(len(s.chosen), 2))


@pytest.mark.slow
def test_each_worked_example_is_played_as_the_strategy_plays_it(four):
    from test_three_card_poker import examples_are_played_as_the_strategy_plays_them

    cases = examples_are_played_as_the_strategy_plays_them(four)
    assert {"The player folds", "A tie (the player's win)", "The dealer's hand is higher"} <= set(cases)
    assert "The dealer does not qualify" not in cases  # he always plays


def test_a_flashed_hole_card_beside_the_up_card_is_sampled(cli, tmp_path):
    """A hole card seen with the up card: random states of a small deck, each decided against
    every hand of the dealer's four other cards (not his five: the count takes his six)."""
    from analysis.protection.no_board import sampled_exposure_no_board

    game = small("2345A", "cdh")
    sampled = sampled_exposure_no_board(game, 1, 400, seed=2)
    low, high = sampled.interval()
    base = float(analysis.solve(game).exact.house_edge)
    assert low < sampled.house_edge < high and sampled.house_edge < base  # the card is worth something
    deck = list(game.rules.deck)
    hand, seen = deck[:5], deck[5:7]
    direct = count_state(game.rules.deck, hand, seen, FOUR.values, 0, dealer_hole=6)
    assert direct.sum() == comb(15 - 7, 4)
    with pytest.raises(InputError, match="1 to 4 more dealer cards seen"):
        sampled_exposure_no_board(game, 5, 10)


def brute_hole_card(game):
    """Every deal of ``game`` with a hole card seen beside the up card, played out by the
    sampler's own settlement: in each state (the hand, the two cards seen) every option
    settled against every dealer hand, the best taken (a tie to the one that risks less);
    the player's EV, the share played, and the shares played where the base strategy folds
    and folded where it plays."""
    base = analysis.solve(game)
    deck = list(game.rules.deck)
    sizes = sorted(0 if o.kind == "fold" else o.multiple for o in game.preflop)  # by risk
    players, dealers, bet_of = [], [], []
    for hand in combinations(deck, 5):
        rest = [c for c in deck if c not in hand]
        pairs = list(combinations(rest, 2))
        others = [list(combinations([c for c in rest if c not in p], game.no_board.dealer_cards - 2)) for p in pairs]
        dealer = np.array([list(p) + list(o) for p, os in zip(pairs, others) for o in os])
        player = np.tile(hand, (len(dealer), 1))
        sums = [
            deal_nets(game, player, dealer, np.full(len(dealer), b)).reshape(len(pairs), -1).sum(axis=1) for b in sizes
        ]
        best = np.zeros(len(pairs), dtype=np.int64)
        for i in range(1, len(sizes)):  # integer nets: the sums are exact; only a strictly better one replaces
            best = np.where(sums[i] > np.choose(best, sums), i, best)
        bet = np.repeat(np.array(sizes)[best], len(others[0]))
        for swap in (False, True):  # each seen card as the up card, the other as the flashed one
            dealers.append(dealer[:, [1, 0, *range(2, dealer.shape[1])]] if swap else dealer)
            players.append(player)
            bet_of.append(bet)
    player, dealer, bet = np.concatenate(players), np.concatenate(dealers), np.concatenate(bet_of)
    nets = deal_nets(game, player, dealer, bet)
    base_bet = base.play_bets(player, dealer[:, :1])
    deals = len(nets)
    return (
        Fraction(int(nets.sum()), deals),
        deals,
        Fraction(int((bet > 0).sum()), deals),
        Fraction(int(((bet > 0) & (base_bet == 0)).sum()), deals),
        Fraction(int(((bet == 0) & (base_bet > 0)).sum()), deals),
    )


@pytest.mark.parametrize("name, ranks, suits", [("four-card-poker", "2345", "cdh"), ("caribbean-stud", "JQKA", "cdh")])
def test_a_hole_card_beside_the_up_card_counted_exactly_equals_every_deal_played_out(
    name, ranks, suits, tmp_path, monkeypatch
):
    from dataclasses import replace

    import analysis.protection.hole_card as hole_card
    from analysis.parallel.options import RunOptions

    game = load_game(name)
    game = replace(game, rules=game.rules.small_deck(ranks, suits))
    options = RunOptions(root=tmp_path, progress=False)
    e = hole_card.hole_card_exposure(game, options, chunk=700)  # several chunks of whole classes
    ev, deals, played, plays_folded, folds_played = brute_hole_card(game)
    assert (e.house_edge, e.deals, e.call_rate, e.plays_folded, e.folds_played) == (
        -ev,
        deals,
        played,
        plays_folded,
        folds_played,
    )
    assert e.house_edge < e.base.exact.house_edge
    # a run interrupted after some chunks resumes at the others; a counted game is read back
    shards = sorted(e.store.glob("shard-*.json"))
    assert len(shards) > 2
    shards[1].unlink()
    counted = []

    def chunks(*args, only, **kwargs):
        counted.append(list(only))
        return no_board_chunks(*args, only=only, **kwargs)

    no_board_chunks = hole_card.no_board_chunks
    monkeypatch.setattr(hole_card, "no_board_chunks", chunks)
    assert hole_card.hole_card_exposure(game, options, chunk=700, base=e.base) == e and counted == [[1]]
    assert hole_card.hole_card_exposure(game, options, chunk=700, base=e.base) == e and counted == [[1]]
    assert hole_card.stored_hole_card(game, e.base, options) is None  # the default chunks: not counted yet
    whole = hole_card.hole_card_exposure(game, options, base=e.base)
    assert hole_card.stored_hole_card(game, e.base, options) == whole and whole.house_edge == e.house_edge
    with pytest.raises(InputError, match="whose dealer shows one card"):
        hole_card.hole_card_exposure(load_game("three-card-poker"))
