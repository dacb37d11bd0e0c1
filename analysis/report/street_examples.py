"""Worked examples for the par sheet of a game with several decision points (Ultimate Texas
Hold'em and the like): one real deal for every way the betting ends that the optimal
strategy takes (a play bet before the flop, at the flop and at the river, a fold) and every
way a showdown is settled (the dealer does not open, a win whose blind pays and one whose
blind pushes, a tie, a dealer win), with the cards, both hands in words, each decision with
its options' exact EVs, and the rule that settles it.

The deals are the first of each case among random deals dealt with a fixed seed by the
Monte Carlo's dealer, each played by the solved optimal strategy: before the flop the
decision of the deal's class of hole cards, at the flop and the river the best option of
the deal's own cards by their exact EVs (:func:`~analysis.strategy.street_advice.advise_street`).
Each is settled by the game's showdown values (the street engine's) and by the street
simulation's own settlement written from the game's fields, which must agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from analysis.counting.streets import RESULTS6
from analysis.engine.simulation import dealt_batches
from analysis.engine.street_simulation import Settlement
from analysis.engine.streets import StreetFigures
from analysis.hands.lookup import dealer_qualifier, tables
from analysis.model.cards import format_cards
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.game import GameSpec
from analysis.report.examples import SEED, ev_texts, hand_in_words, plural_rank, signed_antes, with_article
from analysis.report.street_tables import STREET_WORDS
from analysis.strategy.street_advice import advise_street

#: Deals per batch, the most dealt and the most played (a flop decision takes a count of
#: its own: about 0.3 s in Ultimate Texas Hold'em) before a case is given up as impossible.
BATCH = 20_000
MAX_DEALS = 400_000
MAX_PLAYED = 1_000


@dataclass(frozen=True)
class StreetDecision:
    """One decision of a deal: each option's exact EV in antes (from this point on, ante
    and blind included) and the option the optimal strategy takes."""

    street: str  # "preflop", "flop" or "river"
    evs: dict[str, Fraction]
    choice: str  # e.g. "check", "bet 4", "fold"
    words: str  # e.g. "At the river: EV(fold) -2, EV(bet 1) -0.036 antes: the player bets 1 ante."


@dataclass(frozen=True)
class StreetExample:
    """One deal, played and settled; amounts are net results in antes (the ante is 1)."""

    case: str  # e.g. "The player checks, then bets 2 antes at the flop", "Tie"
    hole: tuple[int, ...]
    board: tuple[int, ...]  # five community cards, flop first
    dealer: tuple[int, ...]
    decisions: tuple[StreetDecision, ...]  # in play order, up to the bet or fold that ends the betting
    player_hand: str
    dealer_hand: str
    dealer_qualifies: bool
    ante: Fraction
    blind: Fraction  # 0 in a game without a blind
    play: Fraction  # the play bet's result (0 on a fold)
    net: Fraction
    settlement: str

    @property
    def folded(self) -> bool:
        return _ending(self.decisions) == "fold"

    @property
    def multiple(self) -> int:
        """The play bet in antes (0: none made)."""
        return _multiple(self.decisions)


def _ending(decisions: tuple[StreetDecision, ...]) -> str:
    """The option that ended the betting: a bet, a fold, or ``"check"`` to the showdown."""
    return decisions[-1].choice if decisions else "check"


def _multiple(decisions: tuple[StreetDecision, ...]) -> int:
    last = _ending(decisions)
    return int(last.split()[1]) if last.startswith("bet ") else 0


@dataclass(frozen=True)
class _Case:
    """A betting case (the street and option that end the betting) or a showdown case."""

    name: str
    street: str = ""
    option: str = ""
    showdown: str = ""  # "noqual", "blind pays", "blind pushes", "win", "tie", "loss"


@dataclass(frozen=True)
class _Deal:
    hole: tuple[int, ...]
    board: tuple[int, ...]
    dealer: tuple[int, ...]
    player_strength: int
    dealer_strength: int
    decisions: tuple[StreetDecision, ...]


def street_examples(figures: StreetFigures, seed: int = SEED) -> tuple[StreetExample, ...]:
    """One example per case the solved game's optimal strategy meets, betting cases first
    in play order, then the showdown cases. The same seed gives the same examples."""
    game, rules = figures.game, figures.game.rules
    cases = _cases(figures)
    qualifier = dealer_qualifier(rules.qualifier_rank)
    category = tables().category
    blind_paid = np.array([game.blind is not None and game.blind.pays.get(c, 0) != 0 for c in CATEGORIES])
    found: dict[int, _Deal] = {}
    used: set[tuple[int, ...]] = set()  # each example a deal of its own
    plays = 0
    for d in dealt_batches(rules, MAX_DEALS, seed, batch=BATCH):
        preflop = np.array([str(o) for o in figures.preflop_choice(d.cards["player"])])
        qualifies, cat = d.dealer >= qualifier, category[d.player]
        win, tie, loss = d.player > d.dealer, d.player == d.dealer, d.player < d.dealer
        shown = {
            "noqual": ~qualifies,
            "blind pays": qualifies & win & blind_paid[cat],
            "blind pushes": qualifies & win & ~blind_paid[cat],
            "win": qualifies & win,
            "tie": qualifies & tie,
            "loss": qualifies & loss,
        }
        played: dict[int, _Deal] = {}  # the deals of this batch played so far
        for i, case in enumerate(cases):
            if i in found:
                continue
            if case.street:  # the cards cannot tell; the decisions before it can
                before = case.option if case.street == "preflop" else "check"
                candidates = preflop == before if game.preflop else np.ones(len(d), dtype=bool)
            else:
                candidates = shown[case.showdown]
            for j in np.flatnonzero(candidates):
                if int(j) not in played:
                    if plays == MAX_PLAYED:
                        break
                    played[int(j)], plays = _play(figures, d.cards, d.player, d.dealer, int(j)), plays + 1
                deal = played[int(j)]
                if _is(case, deal) and deal.hole + deal.board + deal.dealer not in used:
                    found[i] = deal
                    used.add(deal.hole + deal.board + deal.dealer)
                    break
        if len(found) == len(cases) or plays == MAX_PLAYED:
            break
    missing = [c.name.lower() for i, c in enumerate(cases) if i not in found]
    if missing:
        raise InputError(
            f"{game.name}: no deal among {MAX_DEALS:,} dealt and {plays:,} played where {', '.join(missing)} "
            f"(seed {seed})"
        )
    return tuple(_example(game, case, found[i]) for i, case in enumerate(cases))


def _cases(figures: StreetFigures) -> list[_Case]:
    """The cases the optimal strategy meets, by the solved game's exact counts."""
    game = figures.game
    streets = list(game.streets)
    cases = []
    for (street, option), n in figures.decisions.items():
        if option == "check" or not n:
            continue
        checks = ("", "checks, then ", "checks twice, then ")[streets.index(street)]
        cases.append(_Case(f"The player {checks}{_acts(option)} {STREET_WORDS[street]}", street, option))
    shown = {result for (street, _, _, result), n in figures.counts.items() if street != "fold" and n}
    blind = game.blind
    wins = {c for (street, _, c, result), n in figures.counts.items() if street != "fold" and n and result == "win"}
    if any(r.startswith("noqual_") for r in shown):
        cases.append(_Case("The dealer does not open", showdown="noqual"))
    if blind is None:
        cases += [_Case("The player wins", showdown="win")] if wins else []
    else:
        if any(blind.pays.get(c, 0) for c in wins):
            cases.append(_Case("The player wins and the blind pays", showdown="blind pays"))
        if any(not blind.pays.get(c, 0) for c in wins):
            cases.append(_Case("The player wins and the blind pushes", showdown="blind pushes"))
    cases += [_Case("Tie", showdown="tie")] if "tie" in shown else []
    return cases + ([_Case("The dealer wins", showdown="loss")] if "loss" in shown else [])


def _is(case: _Case, deal: _Deal) -> bool:
    """Whether a played deal is of the case: its betting ends as the case's, or it reaches
    the showdown (the showdown cases' cards were chosen already)."""
    if case.street:
        return bool(deal.decisions) and (deal.decisions[-1].street, deal.decisions[-1].choice) == (
            case.street,
            case.option,
        )
    return _ending(deal.decisions) != "fold"


def _play(
    figures: StreetFigures, cards: dict[str, np.ndarray], player: np.ndarray, dealer: np.ndarray, j: int
) -> _Deal:
    """Deal ``j`` played by the optimal strategy, street by street, until a bet or a fold."""
    game = figures.game
    hole, board = (tuple(int(c) for c in cards[k][j]) for k in ("player", "board"))
    decisions: list[StreetDecision] = []
    for street, seen in (("preflop", 0), ("flop", 3), ("river", 5)):
        if street not in game.streets:
            continue
        advice = advise_street(game, format_cards(hole), format_cards(board[:seen]), figures)
        texts = ev_texts(list(advice.evs.values()))
        evs = ", ".join(f"EV({o}) {t}" for o, t in zip(advice.evs, texts))
        words = f"{STREET_WORDS[street].capitalize()}: {evs} antes: the player {_acts(advice.best)}."
        decisions.append(StreetDecision(street, dict(advice.evs), advice.best, words))
        if advice.best != "check":
            break
    dealt = tuple(int(c) for c in cards["dealer"][j])
    return _Deal(hole, board, dealt, int(player[j]), int(dealer[j]), tuple(decisions))


def _acts(option: str) -> str:
    """``"checks"``, ``"folds"``, ``"bets 4 antes"``."""
    if option.startswith("bet "):
        m = int(option.split()[1])
        return f"bets {m} ante{'' if m == 1 else 's'}"
    return f"{option}s"


def _example(game: GameSpec, case: _Case, deal: _Deal) -> StreetExample:
    """The example of one played deal: settled twice, split into its bets, in words."""
    rules = game.rules
    qualifies = deal.dealer_strength >= dealer_qualifier(rules.qualifier_rank)
    sign = int(np.sign(deal.player_strength - deal.dealer_strength))
    category = CATEGORIES[int(tables().category[deal.player_strength])]
    multiple, folded = _multiple(deal.decisions), _ending(deal.decisions) == "fold"
    result = ("" if qualifies else "noqual_") + {1: "win", 0: "tie", -1: "loss"}[sign]
    code = CATEGORIES.index(category)
    net = game.fold_value if folded else game.showdown_values(multiple)[code * len(RESULTS6) + RESULTS6.index(result)]
    own = Settlement(game)
    q, s = np.array([qualifies]), np.array([sign])
    scaled = own.fold if folded else int(own.showdown(np.array([code]), np.int64(multiple), q, s)[0])
    if Fraction(scaled, own.scale) != net:
        raise AssertionError(
            f"{case.name}: the game's values settle it at {net}, the simulation at {scaled}/{own.scale}"
        )
    bets = _bets(game, folded, qualifies, sign, multiple, category)
    ante, blind, play = bets["ante"], bets["blind"], bets["play"]
    if ante + blind + play != net:
        raise AssertionError(f"{case.name}: the bets' results {ante}, {blind}, {play} do not add up to {net}")
    player_words, player_five = hand_in_words(rules, deal.hole, deal.board, deal.player_strength)
    dealer_words, dealer_five = hand_in_words(rules, deal.dealer, deal.board, deal.dealer_strength)
    words = _settlement_words(game, folded, qualifies, sign, multiple, category, player_words, dealer_words)
    return StreetExample(
        case=case.name,
        hole=deal.hole,
        board=deal.board,
        dealer=deal.dealer,
        decisions=deal.decisions,
        player_hand=f"{player_words} ({format_cards(player_five)})",
        dealer_hand=f"{dealer_words} ({format_cards(dealer_five)})",
        dealer_qualifies=qualifies,
        ante=ante,
        blind=blind,
        play=play,
        net=net,
        settlement=f"{words}: {signed_antes(net)}.",
    )


def _bets(
    game: GameSpec, folded: bool, qualifies: bool, sign: int, multiple: int, category: str
) -> dict[str, Fraction]:
    """Each wager's net result by the game's settlement; a fold loses the ante and the blind."""
    if folded:
        return {"ante": Fraction(-1), "blind": Fraction(-1 if game.blind is not None else 0), "play": Fraction(0)}
    return {"blind": Fraction(0)} | game.settlement.wager_nets(category, qualifies, sign, multiple)


def _settlement_words(
    game: GameSpec,
    folded: bool,
    qualifies: bool,
    sign: int,
    multiple: int,
    category: str,
    player: str,
    dealer: str,
) -> str:
    """Why the deal nets what it does, bet by bet, citing the rule."""
    if folded:
        return "The player folds and loses the ante" + (" and the blind" if game.blind is not None else "")
    rank = game.rules.qualifier_rank
    pair = "a pair" if rank == 0 else f"a pair of {plural_rank(rank or 0)}"
    if rank is None:
        opens = "The dealer always opens (the game has no qualifier)"
    elif qualifies:
        opens = f"The dealer opens ({pair} or better)"
    else:
        opens = f"The dealer does not open ({dealer}; {pair} or better is needed)"
    kickers = " on the next highest cards" if player == dealer and sign else ""
    hands = {
        1: f"the player's hand ({player}) beats the dealer's ({dealer}){kickers}",
        0: f"the two hands tie (each {player})",
        -1: f"the dealer's hand ({dealer}) beats the player's ({player}){kickers}",
    }[sign]
    outcome = {1: "wins", 0: "pushes", -1: "loses"}
    if qualifies:
        ante_pay = "pays 1 to 1" if game.ante_pays is None else f"pays {_pay(game.ante_pays.pays[category])}"
        ante = {1: ante_pay, 0: "pushes", -1: "loses"}[sign]
    else:
        ante = "is paid as a win" if game.ante_when_no_qualifier == "pays" else "pushes (the dealer did not open)"
    action = qualifies or game.play_when_no_qualifier == "action"
    bet = f"the play bet of {multiple} ante{'' if multiple == 1 else 's'}"
    play = f"{bet} {outcome[sign] if action else 'pushes'}" if multiple else "no play bet was made"
    parts = [f"the ante {ante}", play]
    if game.blind is not None:
        pay = Fraction(game.blind.pays.get(category, 0))
        won = (
            f"pays {_pay(pay)} (the blind's line for {with_article(category)})"
            if pay
            else f"pushes (the blind pays nothing on {with_article(category)})"
        )
        parts.append("the blind " + {1: won, 0: "pushes", -1: "loses"}[sign])
    return f"{opens} and {hands}: {', '.join(parts[:-1])} and {parts[-1]}"


def _pay(pay: Fraction) -> str:
    return f"{pay.numerator} to {pay.denominator}"


def street_examples_table(examples: tuple[StreetExample, ...]) -> pd.DataFrame:
    """One row per worked example: the cards, each decision, both hands and the settlement."""
    return pd.DataFrame(
        [
            {
                "case": x.case,
                "player's cards": format_cards(x.hole),
                "board": format_cards(x.board),
                "dealer's cards": format_cards(x.dealer),
                "decisions": " ".join(d.words for d in x.decisions),
                "player's hand": x.player_hand,
                "dealer's hand": x.dealer_hand,
                "dealer opens": "yes" if x.dealer_qualifies else "no",
                "ante (antes)": str(x.ante),
                "blind (antes)": str(x.blind),
                "play bet (antes)": str(x.play),
                "net (antes)": str(x.net),
                "settlement": x.settlement,
            }
            for x in examples
        ]
    )
