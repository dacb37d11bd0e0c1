"""The figures of a game's return, as numbers: the exact figures of a return table and the
report's tables of them (a "par sheet"), with the formulas stated beside them.

Everything here is pure numbers (Fractions, ints, DataFrames): the plots are in
:mod:`analysis.report.plots` and the workbook and HTML page in :mod:`analysis.report.render`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import pandas as pd

from analysis.engine.result import GameResult, Outcome
from analysis.engine.solve import Solved
from analysis.engine.statistics import house_result, z_score
from analysis.model.cards import format_cards
from analysis.model.categories import CATEGORIES
from analysis.model.game import game_title
from analysis.model.outcomes import RESULTS
from analysis.model.payoffs import outcome_payoffs
from analysis.model.paytable import PayTable
from analysis.model.rules import Rules
from analysis.report.document import figures_sha256
from analysis.report.examples import WorkedExample
from analysis.report.regulation import RuleSection, times_the_ante
from analysis.report.wording import RESULT_WORDS, STREET_WORDS, ante_multiple, category_words

#: Hands after which the house's result is given, and the confidence levels.
HORIZONS = (10**3, 10**4, 10**5, 10**6, 10**7)
LEVELS = (0.90, 0.95, 0.99)

FORMULAS = {
    "house edge": "HE = -E[X], X the player's net result of a hand in antes (ante 1)",
    "element of risk": "EoR = HE / E[W], W the total wagered in the hand: 1 + call multiple x call rate",
    "house edge with ties excluded": "HE / (1 - P(tie with a qualifying dealer))",
    "standard deviation": "sigma = sqrt(E[X^2] - E[X]^2) per hand, in antes",
    "volatility index": "VI = z x sigma, z = Phi^-1((1 + c) / 2) for confidence level c",
    "house result after N hands": "N x HE +/- z x sigma x sqrt(N) antes (normal approximation, N independent hands)",
    "house result per hand after N hands": "HE +/- z x sigma / sqrt(N) antes per hand (= HE +/- VI / sqrt(N))",
    "chance the house is ahead after N hands": "Phi(HE x sqrt(N) / sigma)",
    "hit frequency": "P(X > 0)",
}


def _figure(name: str, value: object, exact: object = "", unit: str = "", formula: str = "") -> dict[str, object]:
    return {"figure": name, "value": value, "exact": str(exact), "unit": unit, "formula": formula}


def summary_table(result: GameResult, every_deal: dict[tuple[str, str], int]) -> pd.DataFrame:
    """The standard figures with exact values and formulas (``every_deal``: deals of the
    whole game by (dealer result, final category))."""
    e, rules, table = result.exact, result.rules, result.table
    total = e.deals
    tie = Fraction(int(table.loc[table.outcome == "tie", "combinations"].sum()), total)
    push = Fraction(int(table.loc[table.payoff == 0, "combinations"].sum()), total)
    loss = Fraction(int(table.loc[table.payoff < 0, "combinations"].sum()), total)
    noqual = Fraction(sum(every_deal[("noqual", c)] for c in CATEGORIES), total)
    he = e.house_edge
    rows = [
        _figure("total combinations", total, total, "deals", "every deal of the game, counted exactly"),
        _figure("house edge", float(he), he, "per ante", FORMULAS["house edge"]),
        _figure(
            "element of risk",
            float(e.element_of_risk),
            e.element_of_risk,
            "per unit wagered",
            FORMULAS["element of risk"],
        ),
        _figure(
            "house edge with ties excluded",
            float(he / (1 - tie)),
            he / (1 - tie),
            "per ante",
            FORMULAS["house edge with ties excluded"],
        ),
        _figure(
            "average total wager",
            float(e.average_wager),
            e.average_wager,
            "antes per hand",
            "1 + call multiple x call rate",
        ),
        _figure("expected house win per 100 hands", float(100 * he), 100 * he, "antes", "100 x HE"),
        _figure(
            "expected house win per 1,000 units wagered",
            float(1000 * e.element_of_risk),
            1000 * e.element_of_risk,
            "units",
            "1000 x EoR",
        ),
        _figure("call rate", float(e.call_rate), e.call_rate, "of hands", "called states / all states"),
        _figure("hit frequency", float(e.hit_frequency), e.hit_frequency, "of hands", FORMULAS["hit frequency"]),
        _figure("push frequency", float(push), push, "of hands", "P(X = 0)"),
        _figure("loss frequency", float(loss), loss, "of hands", "P(X < 0), folds included"),
        _figure(
            "dealer does not qualify",
            float(noqual),
            noqual,
            "of deals",
            f"over all deals; {rules.qualifier_phrase}",
        ),
        _figure("variance", float(e.variance), e.variance, "antes squared per hand", "E[X^2] - E[X]^2"),
        _figure(
            "standard deviation",
            e.standard_deviation,
            "sqrt(variance)",
            "antes per hand",
            FORMULAS["standard deviation"],
        ),
    ]
    for level in LEVELS:
        rows.append(
            _figure(
                f"volatility index ({level:.0%})",
                z_score(level) * e.standard_deviation,
                "",
                "antes per hand",
                FORMULAS["volatility index"],
            )
        )
    return pd.DataFrame(rows, dtype=object)


def confidence_table(result: Solved) -> pd.DataFrame:
    """The house's result after N hands, for any game's result: expected value and ranges
    at each confidence level."""
    he, sigma = float(result.exact.house_edge), result.exact.standard_deviation
    rows = []
    for n in HORIZONS:
        for level in LEVELS:
            expected, low, high = house_result(he, sigma, n, level)
            rows.append(
                {
                    "hands": n,
                    "confidence": level,
                    "expected_house_win": expected,
                    "house_win_low": low,
                    "house_win_high": high,
                    "per_hand_low": low / n,
                    "per_hand_high": high / n,
                    "chance_house_ahead": NormalDist().cdf(he * np.sqrt(n) / sigma),
                }
            )
    return pd.DataFrame(rows)


def return_table(outcomes: Sequence[Outcome], play: str = "call") -> pd.DataFrame:
    """The one return table of every game, one row per outcome in words (how the betting
    ended, the play bet, the player's final hand, the dealer's result): deals, exact
    probability, net result and contribution. ``play`` names the play bet (a one-decision
    game's call)."""
    total = sum(o.deals for o in outcomes)
    rows = []
    for o in outcomes:
        probability = Fraction(o.deals, total)
        if o.ended == "fold":
            ended, bet, hand, dealer = "folded", "", "", ""
        else:
            verb = "called" if play == "call" else "bet"
            if o.ended == "showdown":  # bets that add up: every bet made, summed
                ended = "played to the showdown"
            else:
                ended = f"{verb} {STREET_WORDS[o.ended]}" if o.play_bet else "checked to the showdown"
            bet = ante_multiple(o.play_bet) if o.play_bet else "none"
            hand, dealer = category_words(o.final_hand) if o.final_hand else "any", RESULT_WORDS[o.dealer]
        rows.append(
            {
                "betting ended": ended,
                "play bet": bet,
                "player's final hand": hand,
                "dealer": dealer,
                "deals": o.deals,
                "probability": float(probability),
                "probability (exact)": str(probability),
                "net result (antes)": float(o.net),
                "net result (exact)": str(o.net),
                "contribution (antes per hand)": float(o.net * probability),
            }
        )
    return pd.DataFrame(rows)


#: Column names of the final-hands table for the called deals, by dealer result.
CALLED_COLUMNS = dict(
    zip(RESULTS, ("called_dealer_not_qualifying", "called_player_wins", "called_tie", "called_dealer_wins"))
)


def final_hands_table(
    result: GameResult, every_deal: dict[tuple[str, str], int], called: dict[tuple[str, str], int]
) -> pd.DataFrame:
    """The player's final hand over all deals (played to the end), and over the called ones
    by dealer result."""
    rules, total = result.rules, result.exact.deals
    rows = []
    for c in reversed(CATEGORIES):
        all_n = sum(every_deal[(r, c)] for r in RESULTS)
        row = {
            "final_hand": c,
            "combinations": all_n,
            "probability": all_n / total,
            "probability_exact": str(Fraction(all_n, total)),
            "called_combinations": sum(called[(r, c)] for r in RESULTS),
        }
        row |= {CALLED_COLUMNS[r]: called[(r, c)] for r in RESULTS}
        rows.append(row)
    out = pd.DataFrame(rows)
    if int(out["combinations"].sum()) != rules.total_combinations:
        raise AssertionError("final hands do not add up to the total combinations")
    return out


def rules_table(rules: Rules) -> pd.DataFrame:
    d = rules.describe()
    rows = [
        ("game", game_title(rules.name)),
        ("hole cards per hand", d["hole_cards"]),
        (
            "hand made of",
            f"exactly {d['must_use']} hole cards and 3 of the 5 board cards"
            if rules.omaha
            else "the best 5 of the hole cards and the 5 board cards",
        ),
        ("dealer qualifies with", d["qualifier"]),
        ("call bet", times_the_ante(rules.call_multiple)),
        ("deck", f"{d['deck_size']} cards"),
        ("decision states (hole cards, flop)", rules.states),
        ("completions per state (turn, river, dealer cards)", rules.completions),
        ("total combinations", rules.total_combinations),
    ]
    return pd.DataFrame(rows, columns=["rule", "value"]).astype({"value": object})


def paytable_table(paytable: PayTable) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "category": list(reversed(CATEGORIES)),
            "pays_to_1": [float(paytable.pays[c]) for c in reversed(CATEGORIES)],
            "pays_exact": [str(paytable.pays[c]) for c in reversed(CATEGORIES)],
        }
    )


def clauses_table(sections: Sequence[RuleSection]) -> pd.DataFrame:
    """The rules of play as rows: clause number (section.clause), section, text; a pay
    table's lines after its section's clauses."""
    rows = []
    for i, s in enumerate(sections, 1):
        rows += [{"clause": f"{i}.{j}", "section": s.heading, "text": t} for j, t in enumerate(s.clauses, 1)]
        rows += [{"clause": "", "section": s.heading, "text": f"{hand}: {odds}"} for hand, odds in s.table]
    return pd.DataFrame(rows, columns=["clause", "section", "text"])


def examples_table(examples: Sequence[WorkedExample]) -> pd.DataFrame:
    """One row per worked example: the cards, the decision, both hands and the settlement."""
    return pd.DataFrame(
        [
            {
                "case": x.case,
                "player's cards": format_cards(x.hole),
                "board": format_cards(x.board),
                "dealer's cards": format_cards(x.dealer),
                "decision": x.decision,
                "why": x.decision_words,
                "player's hand": x.player_hand,
                "dealer's hand": x.dealer_hand,
                "dealer qualifies": x.dealer_qualifies,
                "ante (antes)": str(x.ante),
                "call bet (antes)": str(x.call),
                "net (antes)": str(x.net),
                "settlement": x.settlement,
            }
            for x in examples
        ]
    )


def figures_digest(result: GameResult) -> str:
    """SHA-256 of the exact figures (see :func:`analysis.report.document.figures_sha256`):
    every return-table row's deals and exact net result, and the exact summary figures."""
    payoffs = outcome_payoffs(result.paytable, result.rules, result.pays_on)
    rows = [
        f"{o},{c},{n},{payoffs[(o, c)]}"
        for o, c, n in zip(result.table.outcome, result.table.category, result.table.combinations)
    ]
    e = result.exact
    figures = [
        f"{k},{v}"
        for k, v in (
            ("house edge", e.house_edge),
            ("element of risk", e.element_of_risk),
            ("call rate", e.call_rate),
            ("variance", e.variance),
        )
    ]
    return figures_sha256([result.rules.name, result.paytable.name, result.strategy, result.pays_on, *rows, *figures])


def paytable_digest(paytable: PayTable) -> str:
    """SHA-256 of the pay table's content (category and exact pay per line)."""
    text = "".join(f"{c},{paytable.pays[c]}\n" for c in CATEGORIES)
    return hashlib.sha256(text.encode()).hexdigest()
