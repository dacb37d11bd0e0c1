"""The tables of a game without a board's par sheet (Three Card Poker, Caribbean Stud):
summary, rules of play in words from the game file, the strategy hand by hand (and by the
dealer's up card, with the written strategies a player can carry and their exact cost),
worked examples, the bets on the player's hand alone. :mod:`analysis.report.no_board_sheet`
puts them in the workbook, the page and the PDF.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from analysis.engine.no_board import BY_UP_CARD, NoBoardFigures, PlayedDeal, cost_of, weakest_played
from analysis.engine.statistics import z_score
from analysis.hands.rankings import RANKINGS
from analysis.model.cards import format_cards
from analysis.model.errors import InputError
from analysis.model.game import Option
from analysis.report.hand_bets import hand_bet_rules
from analysis.report.regulation import RuleSection, odds_words, times_the_ante
from analysis.report.tables import FORMULAS, LEVELS
from analysis.report.wording import category_words, percent
from analysis.strategy.caribbean_rules import RULES, WrittenRule
from analysis.strategy.four_card_rules import RULES as FOUR_CARD_RULES

#: How each ranking deals and ranks, in words.
RANKING_WORDS = {
    "three-card": (
        "All three cards make the hand; there are no community cards.",
        "Hands rank, highest first: straight flush, three of a kind, straight, flush, pair, high card. Ace, two, "
        "three is the lowest straight and queen, king, ace the highest; king, ace, two is not a straight. Within a "
        "category the higher cards win; suits do not rank.",
    ),
    "five-card": (
        "All five cards make the hand; there are no community cards and no draw.",
        "Hands rank as in five-card poker, highest first: royal flush, straight flush, four of a kind, full house, "
        "flush, straight, three of a kind, two pair, pair, high card. Ace, two, three, four, five is the lowest "
        "straight. Within a category the higher cards win; suits do not rank.",
    ),
    "four-card": (
        "Each hand is the best four of its cards; the other cards do not play; there are no community cards.",
        "Four-card hands rank, highest first: four of a kind, straight flush, three of a kind, flush, straight, two "
        "pair, pair, high card. Ace, two, three, four is the lowest straight and jack, queen, king, ace the highest; "
        "queen, king, ace, two is not a straight. Within a category the higher cards win; suits do not rank.",
    ),
}
#: What the volatility index means (the summary's words).
VOLATILITY = "the half-width of the range of one hand's result at this confidence: " + FORMULAS["volatility index"]
#: The published figures each shipped game is checked against, in words (the method section).
PUBLISHED = {
    "three-card-poker": "the published house edge (3.3730% of the ante), element of risk (2.01%), strategy (queen, "
    "six, four or better) and Pair Plus edges (7.28%, 2.32%)",
    "four-card-poker": "the published house edge (2.79% of the ante)",
    "caribbean-stud": "the published return table, line by line, to the deal (19,933,230,517,200 deals; house edge "
    "5.224%, element of risk 2.555%) and the published total loss of each written strategy below (Wizard of Odds)",
}


def _option_words(o: Option) -> str:
    return "fold" if o.kind == "fold" else f"play ({times_the_ante(o.multiple)})"


def rules_of_play(f: NoBoardFigures) -> list[RuleSection]:
    """The rules of the game file in numbered clauses."""
    game, nb = f.game, f.game.no_board
    assert nb is not None
    deck = len(game.rules.deck)
    dealing = (
        f"The game is dealt from one deck of {deck} cards. "
        + (
            f"The player and the dealer each receive {nb.hole} cards"
            if nb.dealer_cards == nb.hole
            else f"The player receives {nb.hole} cards and the dealer {nb.dealer_cards}"
        )
        + (f"; {'one' if nb.up == 1 else nb.up} of the dealer's is dealt face up." if nb.up else "."),
        *RANKING_WORDS[nb.ranking],
    )
    bets = [o for o in game.preflop if o.kind == "bet"]
    decision = (
        "The player places an ante before the deal.",
        f"After looking at his cards{' and the dealer' + chr(39) + 's up card' if nb.up else ''} the player either "
        "folds, losing the ante, or plays, placing a play bet "
        + " or ".join(times_the_ante(o.multiple) for o in bets)
        + ".",
    )
    nq_ante = "is paid even money" if game.ante_when_no_qualifier == "pays" else "pushes"
    nq_play = "pushes" if game.play_when_no_qualifier == "push" else "is settled against the dealer's hand all the same"
    wins = "higher hand wins the ante and the play bet, " + (
        "each paid even money"
        if game.play_pays is None
        else "the ante paid even money and the play bet at the odds of the player's hand below"
    )
    ties = "a tie pushes both" if nb.ties == "push" else "a tie is the player's win, both bets paid"
    settlement: tuple[str, ...] = (
        f"The dealer's hand is then shown; {nb.qualifier_phrase}.",
        f"When the dealer qualifies, the {wins}; {ties}.",
        f"When the dealer does not qualify, the ante {nq_ante} and the play bet {nq_play}.",
    )
    if nb.qualifier_ranks is None and nb.qualifier_category is None:
        settlement = ("The dealer's hand is then shown; the dealer always plays.", f"The {wins}; {ties}.")
    sections = [
        RuleSection("The cards", dealing),
        RuleSection("The decision", decision),
        RuleSection("Settlement", settlement),
    ]
    if game.play_pays is not None:
        paid = {c: p for c, p in game.play_pays.pays.items() if p}
        sections.append(
            RuleSection(
                "Play bet odds",
                ("A winning play bet against a qualifying dealer is paid at these odds of the player's hand:",),
                tuple((category_words(c).capitalize(), odds_words(p)) for c, p in _best_first(paid, f)),
            )
        )
    if nb.ante_bonus:
        sections.append(
            RuleSection(
                "Ante bonus",
                ("A player who plays is paid the ante bonus on his hand, whatever the dealer holds, at these odds:",),
                tuple((category_words(c).capitalize(), odds_words(p)) for c, p in _best_first(nb.ante_bonus, f)),
            )
        )
    on = "the player's hand alone, made before the deal; it does not depend on the dealer's hand or on the player's"
    return sections + [hand_bet_rules(bet, nb.categories, f"{on} decision") for bet in nb.hand_bets.values()]


def _best_first(pays: object, f: NoBoardFigures) -> list[tuple[str, Fraction]]:
    nb = f.game.no_board
    assert nb is not None and isinstance(pays, dict)
    return [(c, Fraction(pays[c])) for c in reversed(nb.categories) if c in pays]


def summary_table(f: NoBoardFigures) -> pd.DataFrame:
    """The summary figures: the figure, as shown, exactly."""
    e = f.exact
    values = {k: f.value(k) for k in f.counts}
    folds = Fraction(f.counts.get(("fold", 0, "", ""), 0), e.deals)
    pushes = Fraction(sum(n for k, n in f.counts.items() if values[k] == 0), e.deals)
    rows = [
        ("deals counted", f"{e.deals:,}", str(e.deals)),
        ("house edge (per ante)", percent(e.house_edge), str(e.house_edge)),
        ("element of risk (per unit wagered)", percent(e.element_of_risk), str(e.element_of_risk)),
        ("average total wager", f"{float(e.average_wager):.4f} antes", str(e.average_wager)),
        ("hands played", percent(e.call_rate), str(e.call_rate)),
        ("folds", percent(folds), str(folds)),
        ("hit frequency", percent(e.hit_frequency), str(e.hit_frequency)),
        ("push frequency", percent(pushes), str(pushes)),
        ("variance", f"{float(e.variance):.4f} antes squared", str(e.variance)),
        ("standard deviation", f"{e.standard_deviation:.4f} antes", f"square root of {e.variance}"),
        *(
            (f"volatility index ({level:.0%})", f"{z_score(level) * e.standard_deviation:.4f} antes", VOLATILITY)
            for level in LEVELS
        ),
        ("strategy", strategy_words(f), "the decision of every hand, exactly: the Strategy sheet"),
    ]
    return pd.DataFrame(rows, columns=["figure", "shown", "exact"])


def strategy_words(f: NoBoardFigures) -> str:
    """The optimal strategy in one sentence: a threshold hand, or with the dealer's up card
    the hands called against every card, those folded against every card and how many
    classes lie between."""
    nb = f.game.no_board
    assert nb is not None
    if not nb.up:
        try:
            return f"play {weakest_played(f)} or better, fold the rest"
        except InputError:  # a designer's game need not play a threshold
            return "the decision depends on the hand (the Strategy sheet)"
    option = f.strategy["option"].to_numpy()
    always, some, never = (
        np.flatnonzero(m) for m in (~np.isin(option, ["fold", BY_UP_CARD]), option == BY_UP_CARD, option == "fold")
    )
    if (
        not (len(always) and len(never))
        or not always[-1] < min(some.min(initial=never[0]), never[0])
        or (len(some) and some[-1] > never[0])
    ):
        return "the decision depends on the hand and the dealer's up card (the Strategy sheet)"

    def ranks(i: int) -> str:
        return "-".join(card[0] for card in str(f.strategy["hand"].iloc[i]).split())

    between = (
        f"; between them ({len(some):,} classes of hands) the decision depends on the dealer's card"
        if len(some)
        else ""
    )
    return f"play {ranks(always[-1])} or better whatever the dealer shows; fold {ranks(never[0])} or worse{between}"


def written_rules(f: NoBoardFigures) -> dict[str, WrittenRule]:
    """The written strategies that fit this game: Caribbean Stud's for a five-card game that
    shows one dealer card and offers a fold or one play bet; Four Card Poker's for a
    four-card game that offers a fold or a play bet of once and three times the ante."""
    nb = f.game.no_board
    options = sorted(str(o) for o in f.game.preflop)
    if (
        nb is not None
        and nb.ranking == "five-card"
        and nb.up == 1
        and [o.split()[0] for o in options] == ["bet", "fold"]
    ):
        return dict(RULES)
    if nb is not None and nb.ranking == "four-card" and options == ["bet 1", "bet 3", "fold"]:
        return dict(FOUR_CARD_RULES)
    return {}


def written_rules_table(f: NoBoardFigures) -> pd.DataFrame:
    """Each written strategy priced exactly against every deal, beside the optimal one."""
    s = f.states
    hands, up = s.hands[s.cls], s.seen[:, 0]
    e = f.exact
    rows = [
        (
            "optimal (the Strategy sheet)",
            strategy_words(f),
            -e.house_edge * e.deals,
            e.house_edge,
            e.element_of_risk,
            Fraction(0),
        )
    ]
    for name, rule in written_rules(f).items():
        c = cost_of(f, rule.plays(hands, up))
        rows.append((name, rule.words, c.net, c.house_edge, c.element_of_risk, c.cost))
    return pd.DataFrame(
        [
            {
                "strategy": name,
                "in words": words,
                "net over every deal (antes)": f"{int(net):,}" if net.denominator == 1 else str(net),
                "house edge": percent(edge),
                "house edge (exact)": str(edge),
                "element of risk": percent(risk),
                "cost against optimal play (antes per hand)": f"{float(cost):.6f}",
            }
            for name, words, net, edge, risk, cost in rows
        ]
    )


def strategy_by_category(f: NoBoardFigures) -> pd.DataFrame:
    """How often each category of player hand is played: the hands, and of the deals of each
    (hand, dealer's card), the share played."""
    s, nb = f.states, f.game.no_board
    assert nb is not None
    category = f.strategy.set_index("code")["category"].reindex(s.codes).to_numpy()[s.cls]
    played = np.array([o.kind != "fold" for o in f.game.preflop])[s.chosen]
    rows = []
    for c in reversed(nb.categories):
        at = category == c
        if not at.any():
            continue
        share = Fraction(int(s.weight[at & played].sum()), int(s.weight[at].sum()))
        rows.append(
            {
                "player's hand": category_words(c),
                "hands": int(f.strategy.loc[f.strategy["category"] == c, "hands"].sum()),
                "played (share of its deals)": percent(share),
                "played (exact)": str(share),
            }
        )
    return pd.DataFrame(rows)


def strategy_table(f: NoBoardFigures) -> pd.DataFrame:
    """Every class of player hands, best first: an example, how many hands it stands for,
    its category, the decision and each option's exact expected result."""
    s = f.strategy
    out = pd.DataFrame(
        {
            "hand": s["hand"],
            "hands": s["hands"],
            "category": [category_words(c) for c in s["category"]],
        }
    )
    words = {str(o): _option_words(o) for o in f.game.preflop}
    words[BY_UP_CARD] = "play against some of the dealer's cards"
    out["decision"] = [words[o] for o in s["option"]]
    if "up cards played against" in s:
        out["dealer's cards played against"] = s["up cards played against"]
    for o in f.game.preflop:
        out[f"expected result if {words[str(o)]} (antes)"] = [str(v) for v in s[f"EV({o})"]]
    return out


#: Random deals looked through for the worked examples (seeded: the same sheet every run).
EXAMPLE_DEALS = 20_000
EXAMPLE_SEED = 2026


def worked_examples(f: NoBoardFigures) -> list[tuple[str, PlayedDeal]]:
    """Real deals of each way a hand ends, each played by the sheet's strategy: a fold, a
    dealer who does not qualify, a tie, the dealer's win and the player's wins with each
    category the game pays beyond even money (the best three), the first of each among
    seeded random deals."""
    nb = f.game.no_board
    assert nb is not None
    deck = np.array(f.game.rules.deck)
    rng = np.random.default_rng(EXAMPLE_SEED)
    paid = {c for c in nb.ante_bonus} | {
        c for c, p in (f.game.play_pays.pays.items() if f.game.play_pays else ()) if p > 1
    }
    cards = deck[np.argsort(rng.random((EXAMPLE_DEALS, len(deck))), axis=1)[:, : nb.hole + nb.dealer_cards]]
    player, dealer = cards[:, : nb.hole], cards[:, nb.hole :]
    ranking = RANKINGS[nb.ranking]
    mine, theirs = ranking.values(player), ranking.values(dealer)
    floor = ranking.qualifying(nb.qualifier_ranks, nb.qualifier_category)
    folds = f.play_bets(player, dealer[:, : nb.up] if nb.up else None) == 0
    category = ranking.category(mine)
    found: dict[str, int] = {}
    for i in range(EXAMPLE_DEALS):  # the case of each deal, from the batch; the few kept are played below
        if folds[i]:
            case = "The player folds"
        elif theirs[i] < floor:
            case = "The dealer does not qualify"
        elif mine[i] == theirs[i]:
            case = "A tie" if nb.ties == "push" else "A tie (the player's win)"
        elif mine[i] < theirs[i]:
            case = "The dealer's hand is higher"
        elif nb.categories[category[i]] in paid:
            case = f"The player wins with {category_words(nb.categories[category[i]])}"
        else:
            case = "The player's hand is higher"
        found.setdefault(case, i)
    played = {case: f.play(player[i].tolist(), dealer[i].tolist()) for case, i in found.items()}
    wins = sorted((c for c in played if c.startswith("The player wins with")), key=lambda c: -played[c].net)[:3]
    kept = {c: d for c, d in played.items() if not c.startswith("The player wins with") or c in wins}
    return sorted(kept.items(), key=lambda kv: (kv[1].taken != "fold", kv[1].net))


def examples_rows(f: NoBoardFigures) -> pd.DataFrame:
    """The worked examples, one row each: the cards, each option's exact EV in the state the
    player saw, the decision, both hands and each wager's settlement."""
    nb = f.game.no_board
    assert nb is not None
    words = {str(o): _option_words(o) for o in f.game.preflop}
    rows = []
    for case, deal in worked_examples(f):
        seen = f", the dealer showing {format_cards(deal.dealer[: nb.up])}" if nb.up else ""
        nets = "; ".join(f"{WAGER_WORDS.get(w, w)} {_signed(v)}" for w, v in deal.nets.items())
        rows.append(
            {
                "case": case,
                "player's cards": format_cards(deal.player),
                "decision (expected result of each option, antes)": (
                    ", ".join(f"{words[o]} {float(v):+.4f}" for o, v in deal.evs.items())
                    + f"{seen}: the player takes {words[deal.taken]}"
                ),
                "dealer's cards": format_cards(deal.dealer),
                "hands": f"player {category_words(deal.category)}, dealer {category_words(deal.dealer_category)}"
                + ("" if deal.qualifies else " (does not qualify)"),
                "settlement": nets,
                "net (antes)": str(deal.net),
            }
        )
    return pd.DataFrame(rows)


#: The wagers' names in words.
WAGER_WORDS = {"ante": "ante", "play": "play bet", "ante_bonus": "ante bonus", "blind": "blind"}


def _signed(v: Fraction) -> str:
    return "pushes" if v == 0 else f"wins {v}" if v > 0 else f"loses {-v}"
