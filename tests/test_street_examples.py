"""The worked examples of a multi-street par sheet, each played again by the solved optimal
strategy looked up apart from the examples (the pre-flop decision of the hole cards' class,
the flop decision the solve kept for the state, the river decision of the street
simulation's own exact decider) and settled again by hand: hands valued by a plain poker
ranking, the dealer's opening, the ante, the blind and the play bet as the game file says.
Small-deck games of every betting structure, and Ultimate Texas Hold'em on the full deck."""

from functools import cache

import numpy as np
import pytest
from test_examples import best

from analysis.engine.simulation import final_strengths
from analysis.engine.street_simulation import RiverDecider, Settlement
from analysis.engine.streets import StreetFigures, solve_streets
from analysis.model.categories import CATEGORIES
from analysis.model.game import GameSpec, game_from_document, load_game
from analysis.parallel.options import RunOptions
from analysis.report.street_examples import street_examples
from test_streets import STRUCTURES

UTH = "ultimate-texas-holdem"
GAMES = [*STRUCTURES, pytest.param(UTH, marks=pytest.mark.slow)]


@cache
def solved(name: str) -> StreetFigures:
    """A game solved with every flop decision kept (counted in this process)."""
    game = load_game(name) if name == UTH else game_from_document(STRUCTURES[name], name)
    return solve_streets(game, RunOptions(threads=2), keep_states=True)


def strategy_path(figures: StreetFigures, hole, board) -> list[tuple[str, str]]:
    """(street, option) of each decision the optimal strategy takes on this deal, up to the
    bet or fold that ends the betting, found without the examples' code."""
    game = figures.game
    h, b = np.array([hole], dtype=np.int8), np.array([board], dtype=np.int8)
    path = []
    for street in game.streets:
        if street == "preflop":
            option = str(figures.preflop_choice(h)[0])
        elif street == "flop":
            option = str(game.flop[int(figures.flop_choice(h, b[:, :3])[0])])
        else:
            player = final_strengths(game.rules, h, b)
            decider = RiverDecider(game, Settlement(game))
            option = str(game.river[int(decider.decide(h.astype(np.int64), b.astype(np.int64), player)[0])])
        path.append((street, option))
        if option != "check":
            break
    return path


def acts(option: str) -> str:
    """The option in the words of the decision: "checks", "folds", "bets 1 ante", "bets 4 antes"."""
    if option.startswith("bet "):
        return f"bets {option[4:]} ante{'' if option == 'bet 1' else 's'}"
    return option + "s"


def opens(game: GameSpec, dealer) -> bool:
    rank = game.rules.qualifier_rank
    return rank is None or dealer >= (1, (rank,))


def by_hand(game: GameSpec, path, player, dealer):
    """(ante, blind, play bet) as the game file's rules settle them: a fold loses the ante
    and the blind; a showdown pays the ante even money or by its table when the dealer
    opens (else pushes it, or pays it as a win), the play bet at even money (a push when the
    dealer does not open and the file says so), the blind by its table on a win."""
    has_blind = game.blind is not None
    last = path[-1][1] if path else "check"
    if last == "fold":
        return -1, -1 if has_blind else 0, 0
    multiple = int(last.split()[1]) if last.startswith("bet ") else 0
    category = CATEGORIES[player[0]]
    sign = (player > dealer) - (player < dealer)
    ante_win = 1 if game.ante_pays is None else game.ante_pays.pays[category]
    if opens(game, dealer):
        ante, play = {1: ante_win, 0: 0, -1: -1}[sign], sign * multiple
    else:
        ante = ante_win if game.ante_when_no_qualifier == "pays" else 0
        play = sign * multiple if game.play_when_no_qualifier == "action" else 0
    blind = {1: game.blind.pays.get(category, 0), 0: 0, -1: -1}[sign] if has_blind else 0
    return ante, blind, play


@pytest.mark.parametrize("name", GAMES)
def test_each_example_is_played_as_the_optimal_strategy_plays_it(name):
    figures = solved(name)
    game, rules = figures.game, figures.game.rules
    examples = street_examples(figures)
    # a case for every way the betting ends that the strategy takes, then the showdowns
    endings = [(s, o) for (s, o), n in figures.decisions.items() if o != "check" and n]
    assert [(x.decisions[-1].street, x.decisions[-1].choice) for x in examples[: len(endings)]] == endings
    assert len({x.hole + x.board + x.dealer for x in examples}) == len(examples)  # a deal each
    for x in examples:
        assert len(set(x.hole + x.board + x.dealer)) == 2 * rules.hole_cards + 5
        assert set(x.hole + x.board + x.dealer) <= set(rules.deck)
        path = strategy_path(figures, x.hole, x.board)
        assert [(d.street, d.choice) for d in x.decisions] == path, x.case
        for d in x.decisions:  # the option taken is the best by the EVs shown (a tie: the first)
            assert d.choice == max(d.evs, key=lambda o: d.evs[o]), x.case
            assert d.words.endswith(f"the player {acts(d.choice)}."), d.words
        player, dealer = best(rules, x.hole, x.board), best(rules, x.dealer, x.board)
        assert x.dealer_qualifies == opens(game, dealer)
        assert (x.ante, x.blind, x.play) == by_hand(game, path, player, dealer), x.case
        assert x.net == x.ante + x.blind + x.play
        showdown = path[-1][1] != "fold" if path else True
        if x.case == "The dealer does not open":
            assert showdown and not x.dealer_qualifies
        elif x.case.startswith("The player wins"):
            assert showdown and x.dealer_qualifies and player > dealer
            if game.blind is None:
                assert x.case == "The player wins"
            else:
                paid = game.blind.pays.get(CATEGORIES[player[0]], 0) != 0
                assert x.case == f"The player wins and the blind {'pays' if paid else 'pushes'}"
        elif x.case == "Tie":
            assert showdown and x.dealer_qualifies and player == dealer
        elif x.case == "The dealer wins":
            assert showdown and x.dealer_qualifies and player < dealer
        assert x.settlement.endswith(f"{'+' if x.net > 0 else ''}{x.net} ante{'' if abs(x.net) == 1 else 's'}.")


@pytest.mark.slow
def test_ultimate_texas_holdem_examples_in_full():
    """The cases of Ultimate Texas Hold'em's sheet, by name, and one settlement in words."""
    examples = {x.case: x for x in street_examples(solved(UTH))}
    assert list(examples) == [
        "The player bets 4 antes before the flop",
        "The player checks, then bets 2 antes at the flop",
        "The player checks twice, then folds at the river",
        "The player checks twice, then bets 1 ante at the river",
        "The dealer does not open",
        "The player wins and the blind pays",
        "The player wins and the blind pushes",
        "Tie",
        "The dealer wins",
    ]
    fold = examples["The player checks twice, then folds at the river"]
    assert fold.net == -2 and fold.settlement == "The player folds and loses the ante and the blind: -2 antes."
    assert fold.decisions[-1].words.startswith("At the river: EV(fold) -2, EV(bet 1) -")
    paid, game = examples["The player wins and the blind pays"], solved(UTH).game
    category = CATEGORIES[best(game.rules, paid.hole, paid.board)[0]]
    assert paid.blind == game.blind.pays[category] > 0
    pay = f"{paid.blind.numerator} to {paid.blind.denominator}"
    assert f"the blind pays {pay} (the blind's line for " in paid.settlement
