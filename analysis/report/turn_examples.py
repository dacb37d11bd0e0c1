"""Worked examples for the par sheet of a game whose bets add up (Texas Hold'em Bonus): one
real deal for each way the betting goes (a fold before the flop; a check or a bet at the
flop, then a check or a bet at the turn) and each way a showdown is settled (a win whose
ante is paid, a win whose ante pushes, a tie, a dealer win), with the cards, both hands in
words, each decision with its options' exact EVs and the rule that settles it.

The deals are the first of each case among random deals dealt with a fixed seed. Before the
flop a deal takes its class of hole cards' decision (the solve's); at the flop and at the
turn each option's EV is counted here from the deal's own cards, every card and dealer hand
still to come enumerated (about two million hands at the flop), the turn played at its best
(:func:`analysis.strategy.street_advice.flop_evs`, what `advise` gives).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np

from analysis.engine.streets import StreetFigures
from analysis.hands.evaluate import best_strength, category_of
from analysis.model.categories import CATEGORIES
from analysis.model.game import Option
from analysis.report.examples import SEED, ev_texts, hand_in_words, signed_antes
from analysis.report.street_examples import StreetDecision, StreetExample
from analysis.strategy.street_advice import flop_evs, turn_evs

#: The most deals played (each past the pre-flop decision takes about a third of a second)
#: and dealt before a case is given up.
MAX_PLAYED = 60
MAX_DEALS = 20_000


def turn_examples(figures: StreetFigures, seed: int = SEED) -> tuple[StreetExample, ...]:
    """One example per case the solved game's strategy meets, the betting cases first."""
    game = figures.game
    deck = np.array(game.rules.deck)
    rng = np.random.default_rng(seed)
    flop_opts = game.flop or (Option("check"),)
    turn_opts = game.turn or (Option("check"),)
    wanted = ["fold"] + [f"{a}/{b}" for a in map(str, flop_opts) for b in map(str, turn_opts)]
    wanted += ["ante paid", "ante pushes", "tie", "loss"]
    found: dict[str, StreetExample] = {}
    betting = [c for c in wanted if "/" in c]
    played = dealt = 0
    while played < MAX_PLAYED and dealt < MAX_DEALS and len(found) < len(wanted):
        cards = tuple(int(c) for c in rng.permutation(deck)[:9])
        dealt += 1
        if all(c in found for c in betting) and _showdown_case(figures, cards) in found:
            continue  # nothing this deal can show that is still missing: not worth its count
        example, cases = _play(figures, cards)
        played += not example.folded
        case = next((c for c in cases if c in wanted and c not in found), None)
        if case is not None:
            found[case] = replace(example, case=_case_words(case))
    return tuple(found[c] for c in wanted if c in found)


def _case_words(case: str) -> str:
    if case == "fold":
        return "The player folds before the flop"
    if "/" in case:
        flop, turn = (_acts(o) for o in case.split("/"))
        return f"The player {flop} at the flop and {turn} at the turn"
    return {
        "ante paid": "The player wins and the ante is paid",
        "ante pushes": "The player wins and the ante pushes",
        "tie": "Tie",
        "loss": "The dealer wins",
    }[case]


def _acts(option: str) -> str:
    return "checks" if option == "check" else f"bets {option.split()[1]} ante{'s' if option != 'bet 1' else ''}"


def _play(figures: StreetFigures, cards: tuple[int, ...]) -> tuple[StreetExample, list[str]]:
    """One deal (hole 2, flop 3, turn, river, dealer 2) played and settled; the cases it shows."""
    game = figures.game
    hole, flop, turn, river, dealer = cards[:2], cards[2:5], cards[5], cards[6], cards[7:9]
    board = (*flop, turn, river)
    row = figures.preflop.iloc[int(figures.classes.of(np.array([hole]), game.rules)[0])]
    evs = {str(o): Fraction(row[f"EV({o})"]) for o in game.preflop}
    choice = str(row["option"])
    decisions = [StreetDecision("preflop", evs, choice, _words("Before the flop", evs, choice))]
    mine = int(best_strength([[*hole, *board]])[0])
    theirs = int(best_strength([[*dealer, *board]])[0])
    player_words = hand_in_words(game.rules, hole, board, mine)[0]
    dealer_words = hand_in_words(game.rules, dealer, board, theirs)[0]
    if choice == "fold":
        return (
            StreetExample(
                "",
                hole,
                board,
                dealer,
                tuple(decisions),
                player_words,
                dealer_words,
                True,
                game.fold_value,
                Fraction(0),
                Fraction(0),
                game.fold_value,
                f"The player folds and loses the ante ({signed_antes(game.fold_value)}).",
            ),
            ["fold"],
        )
    bets = int(choice.split()[1])
    at_flop, turn_margins = flop_evs(game, hole, flop, bets)
    flop_choice = max(at_flop, key=lambda o: at_flop[o])
    decisions.append(StreetDecision("flop", at_flop, flop_choice, _words("At the flop", at_flop, flop_choice)))
    bets += _size(flop_choice)
    at_turn = turn_evs(game, turn_margins[turn], bets)
    turn_choice = max(at_turn, key=lambda o: at_turn[o])
    if game.turn:
        decisions.append(StreetDecision("turn", at_turn, turn_choice, _words("At the turn", at_turn, turn_choice)))
    bets += _size(turn_choice)
    sign = (mine > theirs) - (mine < theirs)
    category = CATEGORIES[int(category_of([mine])[0])]
    nets = game.settlement.wager_nets(category, True, sign, bets)
    net = game.settlement.net(category, True, sign, bets)
    ante, play = nets["ante"], nets["play"]
    outcome = {1: "wins", 0: "ties", -1: "loses"}[sign]
    settled = (
        f"The player's {player_words} {outcome} against the dealer's {dealer_words}: the ante "
        f"{signed_antes(ante)}, the bets of {bets} antes in all {signed_antes(play)}."
    )
    case = ("ante paid" if ante > 0 else "ante pushes") if sign > 0 else "tie" if sign == 0 else "loss"
    example = StreetExample(
        "",
        hole,
        board,
        dealer,
        tuple(decisions),
        player_words,
        dealer_words,
        True,
        ante,
        Fraction(0),
        play,
        net,
        settled,
    )
    return example, [f"{flop_choice}/{turn_choice}", case]


def _showdown_case(figures: StreetFigures, cards: tuple[int, ...]) -> str:
    """The way a deal ends whatever is bet after the flop: a fold, or how the showdown settles."""
    game = figures.game
    hole, board, dealer = cards[:2], cards[2:7], cards[7:9]
    if figures.preflop.iloc[int(figures.classes.of(np.array([hole]), game.rules)[0])]["option"] == "fold":
        return "fold"
    mine, theirs = (int(v) for v in best_strength([[*hole, *board], [*dealer, *board]]))
    if mine != theirs:
        category = CATEGORIES[int(category_of([mine])[0])]
        paid = game.settlement.wager_nets(category, True, 1, 0)["ante"] > 0
        return ("ante paid" if paid else "ante pushes") if mine > theirs else "loss"
    return "tie"


def _size(option: str) -> int:
    return int(option.split()[1]) if option.startswith("bet ") else 0


def _words(moment: str, evs: dict[str, Fraction], choice: str) -> str:
    texts = ev_texts(list(evs.values()))
    listed = ", ".join(f"EV({o}) {t}" for o, t in zip(evs, texts))
    return f"{moment}: {listed} antes: the player {_acts(choice) if choice != 'fold' else 'folds'}."
