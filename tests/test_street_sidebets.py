"""Side bets on a multi-street game, settled on the final hands: Ultimate Texas Hold'em's
Trips against its published house edges and the closed-form counts of seven-card hands,
and a small deck's bets against every deal played out one by one."""

from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

from analysis.counting.game_tree import category_name, hand_values
from analysis.engine.streets import solve_streets
from analysis.hands.lookup import dealer_qualifier
from analysis.model.errors import InputError
from analysis.model.game import load_game
from analysis.parallel.options import RunOptions
from analysis.sidebets.bet import SideBet
from analysis.sidebets.street_bets import street_side_bet
from test_streets import SMALL_GAME

#: Seven-card hands of a 52-card deck by best five-card category (closed form, published).
SEVEN_CARD = {
    "royal_flush": 4_324,
    "straight_flush": 37_260,
    "four_of_a_kind": 224_848,
    "full_house": 3_473_184,
    "flush": 4_047_644,
    "straight": 6_180_020,
    "three_of_a_kind": 6_461_620,
    "two_pair": 31_433_400,
    "pair": 58_627_800,
    "high_card": 23_294_460,
}
TRIPS_8_7_4 = "\n".join(
    ["kind,final", "line,pays", "royal_flush,50", "straight_flush,40", "four_of_a_kind,30", "full_house,8"]
    + ["flush,7", "straight,4", "three_of_a_kind,3"]
)


def test_trips_on_ultimate_texas_holdem_equals_its_published_edges():
    figures = solve_streets(load_game("ultimate-texas-holdem"))
    by_category = {c: 0 for c in SEVEN_CARD}
    for (category, _), n in figures.every_deal.items():
        by_category[category] += n
    # each seven cards are dealt as two hole cards, a flop, turn and river and the dealer's two
    assert sum(SEVEN_CARD.values()) == comb(52, 7)
    ways = comb(7, 2) * comb(5, 3) * comb(45, 2)
    assert by_category == {c: n * ways for c, n in SEVEN_CARD.items()}
    posted = street_side_bet(figures, "trips")
    assert posted.exact.house_edge == Fraction(48987, 2572780)
    assert f"{float(posted.exact.house_edge):.4%}" == "1.9040%"  # published 1.90%
    old = street_side_bet(figures, SideBet.from_text(TRIPS_8_7_4, name="trips 8-7-4"))
    assert f"{float(old.exact.house_edge):.4%}" == "3.4979%"  # published 3.50%
    # with the game: the Trips stake adds its edge to the game's, per hand
    assert posted.combined.house_edge == figures.house_edge + posted.exact.house_edge


def test_bets_on_a_small_deck_equal_every_deal_played_out(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL_GAME)
    game = load_game(path)
    figures = solve_streets(game, RunOptions(root=tmp_path))
    deck, q = game.rules.deck, dealer_qualifier(game.rules.qualifier_rank)
    every: dict[tuple[str, bool], int] = {}
    for hole in combinations(deck, 2):
        rest = [c for c in deck if c not in hole]
        for board in combinations(rest, 5):
            dealers = list(combinations([c for c in rest if c not in board], 2))
            player = hand_values(game, [hole], board)[hole]
            dealer = hand_values(game, dealers, board)
            for d in dealers:
                key = (category_name(player), dealer[d] >= q and dealer[d] > player)
                every[key] = every.get(key, 0) + comb(5, 3)  # the board's flop and turn/river splits
    final = "kind,final\nline,pays\nflush,20\nstraight,9\nthree_of_a_kind,4\ntwo_pair,1"
    beat = "kind,bad-beat\nline,pays\nstraight,60\nthree_of_a_kind,15\ntwo_pair,5"
    pays = {"flush": 20, "straight": 9, "three_of_a_kind": 4, "two_pair": 1}
    beaten = {"straight": 60, "three_of_a_kind": 15, "two_pair": 5}
    total = sum(every.values())
    assert total == figures.total
    for text, net in (
        (final, lambda c, lost: pays.get(c, -1)),
        (beat, lambda c, lost: beaten.get(c, -1) if lost else -1),
    ):
        expected = Fraction(sum(n * net(c, lost) for (c, lost), n in every.items()), total)
        assert street_side_bet(figures, SideBet.from_text(text)).exact.ev == expected


def test_a_bet_lost_on_a_fold_counts_the_folds_and_first_six_bets_are_refused(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL_GAME)
    figures = solve_streets(load_game(path), RunOptions(root=tmp_path))
    kept = SideBet.from_text("kind,final\nline,pays\ntwo_pair,3")
    lost = SideBet.from_text("kind,final\nforfeit,yes\nline,pays\ntwo_pair,3")
    folds = sum(o.deals for o in figures.outcomes() if o.ended == "fold")
    played_two_pair = sum(o.deals for o in figures.outcomes() if o.ended != "fold" and o.final_hand == "two_pair")
    assert street_side_bet(figures, lost).exact.ev == Fraction(4 * played_two_pair - figures.total, figures.total)
    assert street_side_bet(figures, kept).exact.ev > street_side_bet(figures, lost).exact.ev
    assert folds > 0
    with pytest.raises(InputError, match="lost on a fold"):
        street_side_bet(figures, lost, strategy="joint")
    with pytest.raises(InputError, match="hole cards and the flop"):
        street_side_bet(figures, "aa-bonus")


def test_the_sidebet_command_takes_ultimate_texas_holdem(cli):
    out = cli("sidebet", "--bet", "trips", "--format", "json", "--no-progress").json()
    assert out["game"] == "ultimate-texas-holdem" and out["house_edge_exact"] == "48987/2572780"
    # the flush pay for a return of 97%: the root of the return's straight line in that pay,
    # exact, with the whole-number pays either side (6, the published table, returns 1 - the edge)
    solved = cli("sidebet", "--bet", "trips", "--target", "0.97", "--vary", "flush", "--format", "json").json()
    rows = solved["solutions"]
    exact = next(Fraction(r["pays_exact"]) for r in rows if not r["whole_number"])
    assert [Fraction(r["pays_exact"]) for r in rows] == [5, exact, 6]
    assert Fraction(rows[1]["return_exact"]) == Fraction(97, 100)
    assert Fraction(rows[2]["return_exact"]) == 1 - Fraction(48987, 2572780)
    figures = solve_streets(load_game("ultimate-texas-holdem"))  # read back from its store
    trips = SideBet.load("trips")
    at = {pay: street_side_bet(figures, trips.with_pays({"flush": pay})).exact.player_return for pay in (5, 6)}
    assert exact == 5 + (Fraction(97, 100) - at[5]) / (at[6] - at[5])  # on the line through 5 and 6
    refused = cli("sidebet", "--bet", "trips", "--target", "0.97", "--vary", "royal_flush", "--bounds", "0", "1")
    assert refused.returncode == 2 and "out of reach" in refused.stderr
