"""The tables of a multi-street game's par sheet, from the street engine's exact figures:
the summary with each percentage's exact fraction, the rules as numbered sentences drawn from
the game file, the return table, the distribution of a hand's result, how often each option
is taken, the pre-flop strategy (for two hole cards a grid of pairs, suited and offsuit
hands) and what produced the sheet. Everything is in words; :mod:`analysis.report.streets`
makes the document of them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.engine.no_board import NoBoardFigures
from analysis.engine.statistics import z_score
from analysis.engine.streets import StreetFigures
from analysis.hands import written_turn
from analysis.hands.written import FLOP_RULE, RIVER_RULE
from analysis.model.cards import RANKS, SUITS, format_cards
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.game import GameSpec, Option, load_game
from analysis.report.odds import MaximumPayout, line_odds, wager_odds
from analysis.report.regulation import game_rules_of_play
from analysis.report.sections import file_sha256
from analysis.report.tables import FORMULAS, LEVELS, clauses_table, confidence_table, return_table
from analysis.report.wording import RESULT_WORDS, STREET_WORDS, ante_multiple, category_words, machine_rows, percent
from analysis.store.shards import package_version


def option_words(option: Option) -> str:
    """``"fold"``, ``"check"``, ``"bet 3 times the ante"``."""
    if option.kind == "bet":
        return f"bet {ante_multiple(option.multiple)}"
    return option.kind


def street_sheets(game: GameSpec, figures: StreetFigures, game_file: Path | None) -> dict[str, pd.DataFrame]:
    """Every table of the par sheet, keyed by sheet name."""
    sheets = {
        "Summary": summary_table(figures),
        "Rules": rules_table(game),
        "Rules of play": clauses_table(game_rules_of_play(game)),
        **({"Blind pays": pay_table(game.blind.pays, "blind")} if game.blind is not None else {}),
        **({"Ante pays": pay_table(game.ante_pays.pays, "ante")} if game.ante_pays is not None else {}),
        "Return table": return_table(figures.outcomes(), "play"),
        "Odds per pay line": street_pay_line_odds(figures),
        "Odds per wager": wager_odds(figures.outcomes(), game.settlement, play="play"),
        "Confidence ranges": confidence_table(figures),
        "Result distribution": result_distribution(figures),
        "Decisions": decisions_table(figures),
    }
    if game.preflop:
        if game.rules.hole_cards == 2:
            sheets["Pre-flop grid"] = preflop_grid(figures)
        sheets["Pre-flop strategy"] = preflop_table(figures)
    sheets["Metadata"] = street_metadata(figures, game_file)
    return sheets


# ---- the figures -----------------------------------------------------------------------


def summary_table(f: StreetFigures) -> pd.DataFrame:
    """The summary figures: value, the value as shown, its exact fraction, what it means."""
    pushes = Fraction(sum(n for k, n in f.counts.items() if f.value(k) == 0), f.total)
    losses = Fraction(sum(n for k, n in f.counts.items() if f.value(k) < 0), f.total)
    folds = Fraction(sum(n for k, n in f.counts.items() if k[0] == "fold"), f.total)
    he, eor = f.house_edge, f.element_of_risk

    def pct(name: str, value: Fraction, meaning: str) -> dict[str, object]:
        return {"figure": name, "value": float(value), "shown": percent(value), "exact": str(value), "meaning": meaning}

    def num(name: str, value: Fraction, unit: str, meaning: str, exact: str | None = None) -> dict[str, object]:
        return {
            "figure": name,
            "value": float(value),
            "shown": f"{float(value):,.4f} {unit}",
            "exact": str(value) if exact is None else exact,
            "meaning": meaning,
        }

    start = "ante and blind" if f.game.blind is not None else "ante"
    rows = [
        {
            "figure": "deals counted",
            "value": f.total,
            "shown": f"{f.total:,}",
            "exact": str(f.total),
            "meaning": "every deal of the game, each played with the optimal strategy",
        },
        pct("house edge", he, "the house's expected win per hand, as a share of the ante"),
        pct("element of risk", eor, "the house's expected win per unit wagered (house edge / average total wager)"),
        num(
            "average total wager",
            f.average_wager,
            "antes",
            f"per hand: the {start} and the average play bet",
        ),
        num("expected house win per 100 hands", 100 * he, "antes", "100 times the house edge"),
        pct("hit frequency", f.hit_frequency, "the share of hands the player ends ahead"),
        pct("push frequency", pushes, "the share of hands that end even"),
        pct("loss frequency", losses, "the share of hands the player loses money, folds included"),
        pct("folds", folds, "the share of hands the player folds"),
        num("variance", f.variance, "antes squared", "of the net result of a hand"),
        num(
            "standard deviation",
            f.variance,
            "antes",
            "of the net result of a hand: the square root of the variance",
            exact=f"square root of {f.variance}",
        )
        | {"value": f.standard_deviation, "shown": f"{f.standard_deviation:.4f} antes"},
    ]
    for level in LEVELS:
        vi = z_score(level) * f.standard_deviation
        rows.append(
            {
                "figure": f"volatility index ({level:.0%})",
                "value": vi,
                "shown": f"{vi:.4f} antes",
                "exact": f"{z_score(level):.4f} x the standard deviation",
                "meaning": "the half-width of the range of one hand's result at this confidence: "
                + FORMULAS["volatility index"],
            }
        )
    return pd.DataFrame(rows, dtype=object)


def result_distribution(f: StreetFigures | NoBoardFigures) -> pd.DataFrame:
    """The probability of each net result of a hand (any game's figures keyed by outcome)."""
    by_value: dict[Fraction, int] = {}
    for key, n in f.counts.items():
        v = f.value(key)
        by_value[v] = by_value.get(v, 0) + n
    rows = [
        {
            "net result (antes)": float(v),
            "net result (exact)": str(v),
            "deals": n,
            "probability": float(Fraction(n, f.total)),
            "probability (exact)": str(Fraction(n, f.total)),
        }
        for v, n in sorted(by_value.items())
    ]
    return pd.DataFrame(rows)


def decisions_table(f: StreetFigures) -> pd.DataFrame:
    """How often each option is taken at each decision point: over all deals, and over the
    deals whose betting reached that point."""
    reached: dict[str, int] = {}
    for (street, _), n in f.decisions.items():
        reached[street] = reached.get(street, 0) + n
    rows = []
    for street, options in f.game.streets.items():
        for o in options:
            n = f.decisions.get((street, str(o)), 0)
            rows.append(
                {
                    "decision point": STREET_WORDS[street],
                    "option": str(o),
                    "deals": n,
                    "share of all deals": float(Fraction(n, f.total)),
                    "share of all deals (exact)": str(Fraction(n, f.total)),
                    "share of the deals that reach this point": float(Fraction(n, reached[street]))
                    if reached.get(street)
                    else 0.0,
                }
            )
    return pd.DataFrame(rows)


# ---- the strategy in words -------------------------------------------------------------


def written_rules_table(game: GameSpec) -> pd.DataFrame:
    """The written strategy, a rule per decision point: the optimal pre-flop grid, then
    :mod:`analysis.hands.written` (a game that folds or bets at the river) or
    :mod:`analysis.hands.written_turn` (bets that add up, a decision at the turn)."""
    words = (
        {"flop": written_turn.FLOP_RULE, "turn": written_turn.TURN_RULE}
        if game.adds
        else {"flop": FLOP_RULE, "river": RIVER_RULE}
    )
    pre = " or ".join(option_words(o) for o in game.preflop if o.kind == "bet")
    rows = [
        {
            "decision point": STREET_WORDS["preflop"],
            "the rule": f"{pre} as the pre-flop grid says; {option_words(game.preflop[0])} the rest",
        }
    ]
    for street, rule in words.items():
        rest, bet = game.streets[street]
        rule_words = f"{option_words(bet)} with {rule}; {option_words(rest)} the rest"
        rows.append({"decision point": STREET_WORDS[street], "the rule": rule_words})
    return pd.DataFrame(rows)


def written_cost_table(optimal: StreetFigures, written: StreetFigures) -> pd.DataFrame:
    """The house edge of optimal play and of the written rules, how often each option is
    taken under each, and what the rules cost."""
    rows = [
        {
            "figure": "house edge, per ante",
            "optimal play (share)": float(optimal.house_edge),
            "the written rules (share)": float(written.house_edge),
            "optimal play (exact)": str(optimal.house_edge),
            "the written rules (exact)": str(written.house_edge),
        }
    ]
    for street, options in optimal.game.streets.items():
        for o in options:
            key = (street, str(o))
            mine, theirs = (
                Fraction(optimal.decisions.get(key, 0), optimal.total),
                Fraction(written.decisions.get(key, 0), written.total),
            )
            rows.append(
                {
                    "figure": f"{STREET_WORDS[street]}: {option_words(o)}, of all deals",
                    "optimal play (share)": float(mine),
                    "the written rules (share)": float(theirs),
                    "optimal play (exact)": str(mine),
                    "the written rules (exact)": str(theirs),
                }
            )
    return pd.DataFrame(rows)


# ---- the pre-flop strategy -------------------------------------------------------------


def _cards(f: StreetFigures, klass: int) -> list[int]:
    return [int(c) for c in f.classes.example[klass]]


def hand_words(cards: list[int]) -> str:
    """A class of hole cards in words: two cards ``"AKs"``, ``"AKo"``, ``"AA"``; three
    cards their ranks and which share a suit (``"A K 7, A and K suited"``)."""
    cards = sorted(cards, key=lambda c: (-(c // 4), c % 4))
    ranks = [RANKS[c // 4] for c in cards]
    suits = [c % 4 for c in cards]
    if len(cards) == 2:
        if ranks[0] == ranks[1]:
            return ranks[0] + ranks[1]
        return ranks[0] + ranks[1] + ("s" if suits[0] == suits[1] else "o")
    if len(set(suits)) == 1:
        pattern = "all suited"
    elif len(set(suits)) == len(suits):
        pattern = "no two suited"
    else:
        pair = [r for r, s in zip(ranks, suits) if suits.count(s) > 1]
        pattern = f"{pair[0]} and {pair[1]} suited"
    return f"{' '.join(ranks)}, {pattern}"


def preflop_table(f: StreetFigures) -> pd.DataFrame:
    """Per class of hole cards (suits interchangeable): an example, the hand in words, the
    holdings in the class, the best option and the EV of every option (antes per hand,
    ante and blind included), the best one's exact value beside it."""
    pre = f.preflop
    options = [str(o) for o in f.game.preflop]
    rows = []
    for klass, row in pre.iterrows():
        cards = _cards(f, int(str(klass)))
        best = Fraction(row[f"EV({row['option']})"])
        rows.append(
            {
                "hand": hand_words(cards),
                "hole cards (an example)": format_cards(cards),
                "holdings": int(row["holdings"]),
                "best option": str(row["option"]),
            }
            | {f"expected result if {o} (antes)": float(Fraction(row[f"EV({o})"])) for o in options}
            | {"expected result of the best option (exact)": str(best)}
        )
    out = pd.DataFrame(rows)
    return out.iloc[_strength_order(f)].reset_index(drop=True)


def _strength_order(f: StreetFigures) -> list[int]:
    """Classes by their ranks, highest first (pairs and suited hands before the rest)."""
    keys = []
    for klass in range(len(f.preflop)):
        cards = sorted(_cards(f, klass), key=lambda c: -(c // 4))
        keys.append(tuple(-(c // 4) for c in cards))
    return sorted(range(len(keys)), key=lambda k: keys[k])


def preflop_grid(f: StreetFigures) -> pd.DataFrame:
    """The two-card pre-flop strategy as a grid: one row and one column per rank of the
    deck (highest first), pairs on the diagonal, suited hands above it, offsuit below; each
    cell the option taken (empty where the deck has no such hand, e.g. one suit)."""
    if f.game.rules.hole_cards != 2:
        raise InputError("the pre-flop grid is for games of two hole cards")
    ranks = sorted(f.game.rules.ranks, reverse=True)
    at = {r: i for i, r in enumerate(ranks)}
    cells = [["" for _ in ranks] for _ in ranks]
    for klass, option in enumerate(f.preflop["option"]):
        a, b = sorted(_cards(f, klass), key=lambda c: -(c // 4))
        high, low, suited = at[a // 4], at[b // 4], a % 4 == b % 4
        row, col = (high, low) if suited else (low, high)  # suited above the diagonal, offsuit below
        cells[row][col] = str(option)
    grid = pd.DataFrame(cells, columns=[RANKS[r] for r in ranks])
    grid.insert(0, "rank", [RANKS[r] for r in ranks])
    return grid


def bet_share_grid(f: StreetFigures) -> pd.DataFrame:
    """Three hole cards: the share of holdings that bet before the flop, by the highest and
    the second highest card (NaN where no holding has them)."""
    ranks = sorted(f.game.rules.ranks, reverse=True)
    bets = np.zeros((len(ranks), len(ranks)))
    holdings = np.zeros((len(ranks), len(ranks)))
    at = {r: i for i, r in enumerate(ranks)}
    for klass, row in f.preflop.iterrows():
        a, b = sorted(_cards(f, int(str(klass))), key=lambda c: -(c // 4))[:2]
        i, j = at[a // 4], at[b // 4]
        holdings[i, j] += row["holdings"]
        bets[i, j] += row["holdings"] * str(row["option"]).startswith("bet ")
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(holdings > 0, bets / np.maximum(holdings, 1), np.nan)
    labels = [RANKS[r] for r in ranks]
    return pd.DataFrame(share, index=labels, columns=labels)


# ---- rules in words --------------------------------------------------------------------


def rules_table(game: GameSpec) -> pd.DataFrame:
    """The game's rules as numbered sentences, drawn from the game file."""
    r = game.rules
    deck = (
        "a standard deck of 52 cards"
        if len(r.deck) == 52
        else f"a deck of {len(r.deck)} cards: ranks {' '.join(RANKS[x] for x in r.ranks)} "
        f"in {len(r.suits)} suit{'s' if len(r.suits) > 1 else ''} ({' '.join(SUITS[s] for s in r.suits)})"
    )
    hand = (
        "exactly two of the hole cards and exactly three of the five community cards"
        if r.omaha
        else "the best five of the hole cards and the five community cards"
    )
    wagers = "an ante and an equal blind" if game.blind is not None else "an ante"
    lines = [
        f"The game is played with {deck}, shuffled before every hand.",
        f"The player places {wagers}. The player and the dealer each receive {r.hole_cards} hole cards; "
        "five community cards follow: three (the flop), then two more (the turn and the river).",
        f"Each hand is made of {hand}.",
        r.qualifier_phrase[0].upper() + r.qualifier_phrase[1:] + ".",
    ]
    streets = list(game.streets.items())
    for i, (street, options) in enumerate(streets):
        moment = {
            "preflop": "after looking at the hole cards, before the flop",
            "flop": "after the flop" + (", before the turn" if game.adds else ""),
            "turn": "after the turn, before the river",
            "river": "after the turn and the river",
        }[street]
        who = (
            "The player"
            if i == 0
            else "A player who has not folded"
            if game.adds
            else "A player who has checked so far"
        )
        choice = ", or ".join(option_words(o) for o in options)
        then = []
        if any(o.kind == "check" for o in options):
            then.append(
                "a check waits for the next decision"
                if i < len(streets) - 1
                else "a check goes to the showdown with no play bet"
            )
        if any(o.kind == "bet" for o in options) and game.adds:
            then.append("a bet is added to the bets in action, which all stay to the showdown")
        elif any(o.kind == "bet" for o in options):
            then.append("a bet is the play bet and ends the player's decisions")
        if any(o.kind == "fold" for o in options):
            then.append(f"a fold loses the {'ante and the blind' if game.blind is not None else 'ante'}")
        lines.append(f"{who} may, {moment}, {choice}; {'; '.join(then)}.")
    lines += _settlement(game)
    return pd.DataFrame({"rule": range(1, len(lines) + 1), "text": lines})


def _settlement(game: GameSpec) -> list[str]:
    ante = "pays even money" if game.ante_pays is None else "pays the ante pay table on the player's final hand"
    if game.ante_when_no_qualifier == "pays":
        ante_nq = "When the dealer does not qualify, the ante is paid as a win, whatever the hands."
    else:
        ante_nq = "When the dealer does not qualify, the ante pushes."
    play_nq = (
        "the play bet is settled against the dealer's hand all the same"
        if game.play_when_no_qualifier == "action"
        else "the play bet pushes"
    )
    lines = [
        f"Against a qualifying dealer, a better player hand wins: the ante {ante}; a worse hand loses it; "
        "a tie pushes. " + ante_nq,
        "The play bet pays even money when the player's hand is better and loses when it is worse; a tie "
        f"pushes. When the dealer does not qualify, {play_nq}.",
    ]
    if game.blind is not None:
        lines.append(
            "The blind is settled on the hands whether the dealer qualifies or not: when the player's hand is "
            "better it pays the blind pay table on the player's final hand (a winning hand not in the table "
            "pushes); when it is worse the blind loses; a tie pushes."
        )
    lines.append("All pays are to 1. Suits have no rank; a tie is an equal five-card hand.")
    return lines


def pay_table(pays: Mapping[str, Fraction], wager: str) -> pd.DataFrame:
    """A wager's pay table, best hand first; a category without a pay pushes (blind) or
    pays nothing extra."""
    rows = []
    for c in reversed(CATEGORIES):
        pay = pays.get(c, Fraction(0))
        rows.append(
            {
                "player's final hand": category_words(c),
                f"{wager} pays (to 1)": float(pay),
                "exact": str(pay),
                "in words": f"no less than {pay} to 1" if pay else "a win pushes",
            }
        )
    return pd.DataFrame(rows)


# ---- metadata --------------------------------------------------------------------------


def street_metadata(f: StreetFigures, game_file: Path | None) -> pd.DataFrame:
    """What produced the par sheet: versions, the game file and its SHA-256, the result
    store and its checksum, and what differs from the file (a designer's what-if)."""
    game = f.game
    on_file: GameSpec | None = None
    if game_file is not None and game_file.is_file():
        digest = file_sha256(game_file)
        try:
            on_file = load_game(game_file)
        except InputError:
            on_file = None
    else:
        digest = "not read from a file"
    changed = []
    if on_file is not None:
        if on_file.blind != game.blind:
            changed.append("blind pays")
        if on_file.rules != game.rules:
            same_cards = on_file.rules.qualifier_rank == game.rules.qualifier_rank
            changed.append("cards" if same_cards else "dealer's qualifier")
        if (on_file.preflop, on_file.flop, on_file.river) != (game.preflop, game.flop, game.river):
            changed.append("decisions")
        if (on_file.ante_pays, on_file.ante_when_no_qualifier, on_file.play_when_no_qualifier) != (
            game.ante_pays,
            game.ante_when_no_qualifier,
            game.play_when_no_qualifier,
        ):
            changed.append("settlement")
    rows = [
        ("package version", package_version()),
        ("generated (UTC)", dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")),
        ("game", game.title),
        ("game file", game_file.name if game_file is not None else "none (built in memory)"),
        ("game file SHA-256", digest),
        ("changed from the game file", ", ".join(changed) if changed else "nothing"),
        ("strategy", "optimal at every decision (exact backward induction; a tie goes to the smaller risk)"),
        ("method", "every deal counted exactly; no sampling, no rounding before display"),
        ("result store", f.store.name if f.store is not None else "none (counted in this process)"),
        ("result store checksum (SHA-256)", f.checksum or "none (counted in this process)"),
        *machine_rows(),
    ]
    return pd.DataFrame(rows, columns=["item", "value"]).astype({"value": str})


# ---- odds ------------------------------------------------------------------------------


def _line_pays(game: GameSpec, wager: str, result: str) -> bool:
    """Whether ``wager``'s pay table pays on a showdown with this dealer result: the blind on
    any better player hand, the ante on a better hand against a qualifying dealer, and also
    whenever the dealer does not qualify if the game says so."""
    if wager == "blind":
        return result in ("noqual_win", "win")
    return result == "win" or (result.startswith("noqual") and game.ante_when_no_qualifier == "pays")


def street_pay_line_odds(f: StreetFigures) -> pd.DataFrame:
    """Per line of the blind's and the ante's pay tables: the deals it pays on, their
    probability, "1 in N", true odds against, payout odds and contribution per hand."""
    tables: list[tuple[str, Mapping[str, Fraction]]] = []
    if f.game.blind is not None:
        tables.append(("blind", f.game.blind.pays))
    if f.game.ante_pays is not None:
        tables.append(("ante", f.game.ante_pays.pays))
    rows = []
    for wager, pays in tables:
        for c in reversed(CATEGORIES):
            if not pays.get(c):
                continue
            n = sum(
                k_n
                for (street, _, cat, res), k_n in f.counts.items()
                if street != "fold" and cat == c and _line_pays(f.game, wager, res)
            )
            rows.append({"wager": wager} | line_odds(c, n, f.total, pays[c], Fraction(n, f.total) * pays[c]))
    return pd.DataFrame(rows)


def street_maximum_payout(f: StreetFigures) -> MaximumPayout:
    """The largest net win of one hand over the outcomes that occur, and how often."""
    occurring = [o for o in f.outcomes() if o.deals]
    best = max(o.net for o in occurring)
    top = [o for o in occurring if o.net == best]
    words = "; or ".join(
        f"{category_words(o.final_hand)} after "
        + (
            f"bets of {ante_multiple(o.play_bet)} in all"
            if o.ended == "showdown"
            else f"a bet {STREET_WORDS[o.ended]} of {ante_multiple(o.play_bet)}"
            if o.play_bet
            else "checking to the showdown"
        )
        + f", the dealer {RESULT_WORDS[o.dealer]}"
        for o in top
    )
    n = sum(o.deals for o in top)
    return MaximumPayout(words, best, n, Fraction(n, f.total), f.total / n)
