"""The par sheet of a game without a dealer (Mississippi Stud, Let It Ride): summary,
rules of play in words from the game file, the strategy at each decision point, the
return table, odds per wager, method and metadata; as a workbook, a page and a PDF.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.engine.hand_paid import OTHER, HandPaidFigures, PlayedDeal, decision_label
from analysis.model.cards import format_cards
from analysis.model.hand_paid import Move
from analysis.model.no_board import RANKINGS as NO_BOARD_RANKINGS
from analysis.protection.hand_paid import community_card_exposure
from analysis.report.document import NUMBERS_NOTE, Document, Paragraph, Section, Table, figures_sha256
from analysis.report.hand_bets import THREE_CARD_ORDER, hand_bet_rules, hand_bet_sections, hand_bet_table
from analysis.report.odds import odds_table
from analysis.report.regulation import RuleSection, number_words, odds_words
from analysis.report.render import Written, write_report
from analysis.report.sections import edge_notice, file_facts, file_metadata, per_wager_section, regulation_blocks
from analysis.report.tables import clauses_table
from analysis.report.wording import community_card_words, percent

#: The most rows of a strategy table the page and the PDF print (the workbook has them all).
PRINTED_ROWS = 200


def _move_words(m: Move, unit: str) -> str:
    if m.kind == "bet":
        return f"bet {number_words(m.units)} {unit}{'s' if m.units > 1 else ''} more"
    return {"fold": "fold", "ride": "let it ride", "pull": f"pull back one {unit}"}[m.kind]


def rules_of_play(f: HandPaidFigures) -> list[RuleSection]:
    """The rules of the game file in numbered clauses."""
    hp, deck = f.hand_paid, len(f.game.rules.deck)
    unit = hp.unit
    turned = (
        "one at a time"
        if set(hp.streets) == {1}
        else f"{', then '.join(number_words(n) for n in hp.streets)} at a time"
    )
    start = f"one {unit}" if hp.start == 1 else f"{number_words(hp.start)} equal {unit}s"
    dealing = (
        f"The game is dealt from one deck of {deck} cards. There is no dealer's hand: the player's hand is paid on "
        "the pay table below.",
        f"The player places {start} and receives {number_words(hp.hole)} cards face down; "
        f"{number_words(sum(hp.streets))} community cards are dealt face down and turned over {turned}.",
        "The player's hand is his own cards and the community cards, five in all, ranked as in poker.",
    )
    decisions = []
    for seen, moves in zip(hp.seen, hp.before):
        if moves:
            options = ", or ".join(_move_words(m, unit) for m in moves)
            decisions.append(
                f"Holding {number_words(seen)} cards, before the next community cards are turned, the "
                f"player may {options}."
            )
    if any(m.kind == "fold" for ms in hp.before for m in ms):
        decisions.append(f"A player who folds loses every {unit} he has in action and takes no further part.")
    if any(m.kind == "bet" for ms in hp.before for m in ms):
        decisions.append("Every bet made stays in action to the end of the hand; bets add up.")
    if any(m.kind == "pull" for ms in hp.before for m in ms):
        decisions.append(
            f"A {unit} pulled back is returned to the player; the pull backs take back the player's first "
            f"{unit}, then the second, and so on; at least one {unit} stays in action."
        )
    lines = tuple((line.words(), "push" if line.net == 0 else odds_words(line.net)) for line in hp.lines)
    pays = RuleSection(
        "Settlement",
        (
            f"After the last community card is turned, every {unit} still in action is paid on the player's final "
            "hand at these odds; a push returns it; any hand not listed loses it.",
        ),
        lines,
    )
    bets = [
        hand_bet_rules(
            b.bet,
            NO_BOARD_RANKINGS[b.ranking][1],
            f"the player's first {number_words(b.cards)} cards alone, ranked as {number_words(b.cards)}-card hands"
            f"{THREE_CARD_ORDER if b.cards == 3 else ''}, made before the deal; it is settled whatever he decides",
        )
        for b in hp.hand_bets.values()
    ]
    return [RuleSection("The cards", dealing), RuleSection("The decisions", tuple(decisions)), pays, *bets]


def summary_table(f: HandPaidFigures) -> pd.DataFrame:
    """The summary figures: the figure, as shown, exactly."""
    e, unit = f.exact, f.hand_paid.unit
    folds = Fraction(sum(n for (_, line), n in f.counts.items() if line == "fold"), e.deals)
    pushes = Fraction(sum(n for k, n in f.counts.items() if f.net(*k) == 0), e.deals)
    rows = [
        ("deals counted", f"{e.deals:,}", str(e.deals)),
        (f"house edge (per {unit})", percent(e.house_edge), str(e.house_edge)),
        ("element of risk (per unit wagered)", percent(e.element_of_risk), str(e.element_of_risk)),
        ("average total wager", f"{float(e.average_wager):.4f} {unit}s", str(e.average_wager)),
        ("hands played to the end", percent(e.call_rate), str(e.call_rate)),
        ("folds", percent(folds), str(folds)),
        ("hit frequency", percent(e.hit_frequency), str(e.hit_frequency)),
        ("push frequency", percent(pushes), str(pushes)),
        ("variance", f"{float(e.variance):.4f} {unit}s squared", str(e.variance)),
        ("standard deviation", f"{e.standard_deviation:.4f} {unit}s", f"square root of {e.variance}"),
    ]
    return pd.DataFrame(rows, columns=["figure", "shown", "exact"])


def decisions_table(f: HandPaidFigures) -> pd.DataFrame:
    """How often each option is taken at each decision point, of all deals."""
    hp = f.hand_paid
    words = {
        (decision_label(seen), str(m)): (f"holding {number_words(seen)} cards", _move_words(m, hp.unit))
        for seen, moves in zip(hp.seen, hp.before)
        for m in moves
    }
    rows = [
        {
            "decision point": words[k][0],
            "option": words[k][1],
            "deals": n,
            "share of deals": percent(Fraction(n, f.total)),
        }
        for k, n in f.decisions.items()
    ]
    return pd.DataFrame(rows)


def strategy_table(f: HandPaidFigures, point: int) -> pd.DataFrame:
    """The decision at a decision point for every class of cards held and every number of
    units that can be in action there: the option and each option's exact EV."""
    unit = f.hand_paid.unit
    words = {str(m): _move_words(m, unit) for m in f.hand_paid.options(point)}
    frames = []
    for units in f.stakes_at(point):
        s = f.strategy(point, units)
        out = pd.DataFrame({"cards held": s["cards"], f"{unit}s in action": units, "sets of cards": s["sets"]})
        out["decision"] = [words[o] for o in s["option"]]
        for m in f.hand_paid.options(point):
            out[f"expected result if {words[str(m)]} ({unit}s)"] = [str(v) for v in s[f"EV({m})"]]
        frames.append(out)
    return pd.concat(frames, ignore_index=True)


def return_rows(f: HandPaidFigures) -> pd.DataFrame:
    """The return table in words: each outcome's deals, exact probability, net and contribution."""
    unit = f.hand_paid.unit
    words = {line.name: line.words() for line in f.hand_paid.lines} | {OTHER: "any other hand"}
    rows = []
    for o in f.outcomes():
        p = Fraction(o.deals, f.total)
        rows.append(
            {
                "hand ended": "folded" if o.ended == "fold" else "shown",
                f"{unit}s in action": o.play_bet,
                "player's final hand": words[o.final_hand] if o.final_hand else "",
                "deals": o.deals,
                "probability": float(p),
                "probability (exact)": str(p),
                f"net result ({unit}s)": float(o.net),
                "net result (exact)": str(o.net),
                f"contribution ({unit}s per hand)": float(o.net * p),
            }
        )
    return pd.DataFrame(rows)


#: Random deals looked through for the worked examples (seeded: the same sheet every run).
EXAMPLE_DEALS = 4000
EXAMPLE_SEED = 2026


def worked_examples(f: HandPaidFigures) -> list[tuple[str, PlayedDeal]]:
    """Real deals of each way a hand ends, each played by the sheet's strategy: a fold at
    each decision point that has one, a loss, a push and wins on two pay lines, the first
    of each among seeded random deals."""
    hp = f.hand_paid
    deck = np.array(f.game.rules.deck)
    rng = np.random.default_rng(EXAMPLE_SEED)
    words = {x.name: x.words().lower() for x in hp.lines}
    found: dict[str, PlayedDeal] = {}
    wins = 0
    for _ in range(EXAMPLE_DEALS):
        deal = f.play(rng.permutation(deck)[:5].tolist())
        if deal.folded:
            case = f"The player folds holding {number_words(len(deal.decisions[-1].held))} cards"
        elif deal.net < 0:
            case = "The player loses every unit in action"
        elif deal.net == 0:
            case = f"A push: {words.get(deal.line, deal.line)}"
        else:
            case = f"The player wins with {words[deal.line]}"
            if case not in found and wins == 2:
                continue
            wins += case not in found
        found.setdefault(case, deal)
    return sorted(found.items(), key=lambda kv: (kv[1].folded is False, kv[1].net))


def examples_rows(f: HandPaidFigures) -> pd.DataFrame:
    """The worked examples, one row each: the cards, every decision with its exact EVs, the
    final hand and the settlement."""
    hp = f.hand_paid
    unit = hp.unit
    words = {x.name: x.words().lower() for x in hp.lines} | {OTHER: "a hand the table does not pay"}
    moves = {str(m): _move_words(m, unit) for ms in hp.before for m in ms}
    rows = []
    for case, deal in worked_examples(f):
        steps = []
        for d in deal.decisions:
            evs = ", ".join(f"{moves[o]} {float(v):+.4f}" for o, v in d.evs.items())
            steps.append(
                f"holding {format_cards(d.held)} with {_units(d.units, unit)} in action: {evs}; "
                f"the player takes {moves[d.taken]}"
            )
        held = _units(deal.units, unit)
        if deal.folded:
            settled = f"the player folds and loses {held}"
        else:
            outcome = "win" if deal.net > 0 else "push" if deal.net == 0 else "lose"
            settled = f"{words[deal.line]}: {held} in action {outcome}{'s' if deal.units == 1 else ''}"
        rows.append(
            {
                "case": case,
                "player's cards": format_cards(deal.cards[: hp.hole]),
                "community cards, as turned": format_cards(deal.cards[hp.hole :]),
                "decisions (expected result of each option)": "; ".join(steps),
                f"{unit}s in action at the end": deal.units,
                f"net ({unit}s)": str(deal.net),
                "settlement": settled,
            }
        )
    return pd.DataFrame(rows)


def _units(n: int, unit: str) -> str:
    return f"{number_words(n)} {unit}{'s' if n != 1 else ''}"


def hand_paid_odds(f: HandPaidFigures) -> pd.DataFrame:
    """Per wager: each starting unit and each street's bet, side by side."""
    unit = f.hand_paid.unit
    words = {}
    for w in f.wagers():
        if w.wager.startswith("bet holding"):
            seen = int(w.wager.split()[2])
            name = f"the bet made holding {number_words(seen)} cards"
            words[w.wager] = (name, f"per {unit} of this bet actually made")
        else:
            word, _, k = w.wager.rpartition(" ")
            name = f"{word} {number_words(int(k))}" if k.isdigit() else w.wager
            words[w.wager] = (name, f"per {unit}: every hand places it; it is lost on a fold or pulled back")
    return odds_table(f.wagers(), words)


def hand_paid_sheets(f: HandPaidFigures, game_file: Path | None) -> dict[str, pd.DataFrame]:
    """The workbook's sheets."""
    hp = f.hand_paid
    strategies = {
        f"Strategy {decision_label(seen)}": strategy_table(f, j) for j, seen in enumerate(hp.seen) if hp.before[j]
    }
    return {
        "Summary": summary_table(f),
        "Rules": clauses_table(rules_of_play(f)),
        "Decisions": decisions_table(f),
        "Examples": examples_rows(f),
        **strategies,
        "Return table": return_rows(f),
        "Odds per wager": hand_paid_odds(f),
        **({"Bets on the hand": hand_bet_table(bets)} if (bets := f.hand_bets()) else {}),
        **({"Game protection": protection_table(f)} if set(hp.streets) == {1} else {}),
        "Metadata": file_metadata(
            f.game.title,
            game_file,
            "optimal at every decision (an exact tie goes to the option that risks less)",
            hand_paid_digest(f),
        ),
    }


def protection_table(f: HandPaidFigures) -> pd.DataFrame:
    """The game as dealt, then with each community card seen from the start (a dealer who
    flashes it), every decision taken knowing it, exactly."""
    rows = [("nothing (the game as dealt)", f.exact.house_edge)]
    rows += [(community_card_words(e.street), e.house_edge) for e in community_card_exposure(f.game, f)]
    return pd.DataFrame(
        [{"the player saw": what, "house edge": percent(edge), "house edge (exact)": str(edge)} for what, edge in rows]
    )


def hand_paid_digest(f: HandPaidFigures) -> str:
    """SHA-256 of the exact figures: every outcome's deals and exact net result."""
    rows = [f"{path},{line},{n},{f.net(path, line)}" for (path, line), n in sorted(f.counts.items())]
    return figures_sha256([f.game.name, *rows, f"house edge,{f.exact.house_edge}", f"variance,{f.exact.variance}"])


def hand_paid_document(f: HandPaidFigures, sheets: dict[str, pd.DataFrame]) -> Document:
    """The par sheet as a document (the page and the PDF)."""
    e, game, unit = f.exact, f.game, f.hand_paid.unit
    summary = (
        Paragraph(
            f"House edge {percent(e.house_edge)} of one {unit} (exactly {e.house_edge}), element of risk "
            f"{percent(e.element_of_risk)} of the average total wager of {float(e.average_wager):.4f} {unit}s, "
            f"standard deviation {e.standard_deviation:.4f} {unit}s per hand, over {e.deals:,} deals counted "
            "exactly, the player taking the option of greatest expected result at every decision."
        ),
        NUMBERS_NOTE,
        Table(sheets["Summary"]),
    )
    strategy: list = [
        Paragraph(
            "How often each option is taken, of all deals. The decision at every set of cards held and every "
            f"number of {unit}s in action is in the workbook, each with every option's exact expected result; "
            "suits are interchangeable, so each row stands for all the sets of its class."
        ),
        Table(sheets["Decisions"]),
    ]
    first = next(name for name in sheets if name.startswith("Strategy"))
    if len(sheets[first]) <= PRINTED_ROWS:
        strategy += [Paragraph("The first decision, best first:"), Table(sheets[first])]
    method = (
        Paragraph(
            "Every deal is counted: the player's cards and each order in which the community cards can be turned. "
            "The player's result depends only on his five cards and on what he has in action, so a decision depends "
            "only on the set of cards he holds and the units in action. The value of every set is computed backwards "
            "from the pay of every five-card hand, as an exact sum over the ways the streets can complete it, and "
            "each decision compares those sums exactly, an exact tie going to the option that risks less; the deals "
            "that reach each set along each line of play are then counted forwards."
        ),
        Paragraph(
            "Independent checks, run by the package's test suite: on small decks, every count and every decision "
            "against a brute force that plays the whole game tree deal by deal with a hand classifier of its own; "
            "sampled deals of the full deck played by the strategy and settled by code of their own; the published "
            "house edges (Mississippi Stud 4.9149%, 3.7591% with a straight paying 5 to 1; Let It Ride 3.51%)."
        ),
    )
    sections = (
        Section("summary", "Summary", (*edge_notice(e.house_edge), *summary)),
        Section("rules", "Rules of play", regulation_blocks(rules_of_play(f))),
        Section("strategy", "Strategy", tuple(strategy)),
        Section(
            "examples",
            "Worked examples",
            (
                Paragraph(
                    "Real deals of each way a hand ends, each decision taken by the strategy of this sheet, with the "
                    f"exact expected result of every option in {unit}s; the community cards are listed as they are "
                    "turned."
                ),
                Table(sheets["Examples"]),
            ),
        ),
        Section("return-table", "Return table", (Table(sheets["Return table"]),)),
        Section("odds", "Odds per wager", (per_wager_section(sheets["Odds per wager"]),)),
        *hand_bet_sections(sheets, "Bets on the player's cards"),
        *(
            [
                Section(
                    "protection",
                    "Game protection",
                    (
                        Paragraph(
                            "The community cards are dealt face down before the first decision: a dealer who "
                            "flashes one gives the player that card from the start. The game solved exactly with "
                            "each one seen, every decision taken knowing it:"
                        ),
                        Table(sheets["Game protection"]),
                    ),
                )
            ]
            if "Game protection" in sheets
            else []
        ),
        Section("method", "Method and verification", method),
        Section("metadata", "Run metadata", (Table(sheets["Metadata"]),)),
    )
    facts = file_facts(
        game.title, sheets["Metadata"], f"optimal at every decision (house edge {percent(e.house_edge)})"
    )
    return Document(f"{game.title}: par sheet", "Optimal strategy: every deal counted exactly", facts, sections)


def write_hand_paid_report(f: HandPaidFigures, game_file: Path | None, out_dir: str | Path) -> Written:
    """``<name>-optimal-par-sheet`` as a workbook, a page and a PDF in ``out_dir``."""
    sheets = hand_paid_sheets(f, game_file)
    return write_report(hand_paid_document(f, sheets), sheets, out_dir, f"{f.game.name}-optimal-par-sheet")
