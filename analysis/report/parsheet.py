"""The par sheet of a one-decision game as a document (page and PDF): the sections a
submission needs, in the order a reviewer reads them, generated from the game's rules, its
pay table and the exact counts, so a variant's document follows its rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from analysis.model.cards import format_cards
from analysis.model.rules import Rules, qualifier_text
from analysis.protection.edges import PROTECTION_RUNS, missing_information
from analysis.report.appendix import verification_blocks
from analysis.report.document import (
    NUMBERS_NOTE,
    Block,
    Command,
    Document,
    Items,
    Paragraph,
    Plot,
    Section,
    Subsection,
    Table,
)
from analysis.report.examples import examples_note
from analysis.report.regulation import times_the_ante
from analysis.report.sections import (
    ODDS_NOTE,
    PAY_LINE_COLUMNS,
    confidence_blocks,
    edge_notice,
    maximum_payout_section,
    per_wager_section,
    regulation_blocks,
    side_bet_blocks,
)
from analysis.report.tables import FORMULAS
from analysis.report.wording import (
    paytable_name,
    paytable_origin,
    percent,
    shipped_paytable,
    signed_antes,
)

if TYPE_CHECKING:
    from analysis.report.build import Report


def _facts(report: Report) -> tuple[tuple[str, str], ...]:
    meta = dict(zip(report.sheets["Metadata"]["item"], report.sheets["Metadata"]["value"]))
    r, rules = report.result, report.rules
    return (
        ("Game", report.title_of_game),
        (
            "Rules",
            f"{rules.qualifier_phrase[0].upper()}{rules.qualifier_phrase[1:]}; the call bet is "
            f"{times_the_ante(rules.call_multiple)}; the {'ante' if r.pays_on == 'ante' else 'call bet'} "
            "pays the pay table",
        ),
        ("Pay table", f"{paytable_name(r.paytable)} pay table ({paytable_origin(r.paytable)})"),
        ("Strategy", f"{r.strategy} (house edge {percent(r.exact.house_edge)})"),
        ("Package version", meta["package version"]),
        ("Date (UTC)", meta["generated (UTC)"]),
        ("Outcome store checksum (SHA-256)", meta["store checksum (SHA-256)"]),
        ("Pay table SHA-256", meta["pay table SHA-256"]),
        ("Figures SHA-256", meta["figures SHA-256"]),
    )


def _summary(report: Report) -> tuple[Block, ...]:
    e = report.result.exact
    return (
        Paragraph(
            f"House edge {percent(e.house_edge)} per ante (exactly {e.house_edge}), element of risk "
            f"{percent(e.element_of_risk)} (exactly {e.element_of_risk}), call rate {percent(e.call_rate)}, standard "
            f"deviation {e.standard_deviation:.4f} antes per hand, over {e.deals:,} deals counted exactly."
        ),
        NUMBERS_NOTE,
        Table(report.sheets["Summary"]),
        Subsection("Formulas", (Items(tuple(f"{k}: {v}" for k, v in FORMULAS.items()), numbered=False),)),
    )


def _rules(report: Report) -> tuple[Block, ...]:
    """The rules in numbered regulation form, the pay table worded as a regulation words it."""
    game = Subsection("The game in figures", (Table(report.sheets["Rules"]),))
    return (*regulation_blocks(report.rules_of_play), game)


def _examples(report: Report) -> tuple[Block, ...]:
    """Each settlement on a real deal, settled by the same code that settles the Monte Carlo."""
    blocks: list[Block] = [Paragraph(examples_note(report.result.strategy, report.examples), note=True)]
    for x in report.examples:
        blocks.append(
            Subsection(
                x.case,
                (
                    Items(
                        (
                            f"Player's cards: {format_cards(x.hole)}",
                            f"Board: {format_cards(x.board[:3])} (flop), {format_cards(x.board[3:])} (turn and river)",
                            f"Dealer's cards: {format_cards(x.dealer)}",
                            f"Decision: {x.decision_words}",
                            f"Player's hand: {x.player_hand}",
                            f"Dealer's hand: {x.dealer_hand} "
                            f"({'qualifies' if x.dealer_qualifies else 'does not qualify'})",
                            f"Settlement: {x.settlement}",
                            f"Ante {signed_antes(x.ante)}, call bet {signed_antes(x.call)}, net {signed_antes(x.net)}.",
                        ),
                        numbered=False,
                    ),
                ),
            )
        )
    return tuple(blocks)


def _odds(report: Report) -> tuple[Block, ...]:
    s, m = report.sheets, report.maximum_payout
    maximum = () if m is None else (maximum_payout_section(m, report.result.exact.deals),)
    return (
        ODDS_NOTE,
        Subsection("Per pay line", (Table(s["Odds per pay line"][PAY_LINE_COLUMNS]),)),
        per_wager_section(s["Odds per wager"]),
        *maximum,
    )


def _strategy(report: Report) -> tuple[Block, ...]:
    rules, s, a = report.rules, report.sheets, report.analysis
    canonical = dict(zip(s["Metadata"]["item"], s["Metadata"]["value"])).get("store canonical states", "")
    simple = a.results["simple"].exact.house_edge
    optimal = a.results["optimal"].exact.house_edge
    return (
        Paragraph(
            f"Figures are given for the {report.result.strategy} strategy. The optimal strategy decides every one "
            f"of the {rules.states:,} decision states (the player's {rules.hole_cards} cards and the flop"
            + (f"; {int(canonical):,} up to the symmetry of suits" if str(canonical).isdigit() else "")
            + ") exactly: it calls when the expected result of calling, counted over the state's "
            f"{rules.completions:,} completions (turn, river and the dealer's cards) in whole numbers, is greater "
            "than that of folding (minus one ante), and folds on an exact tie. Its house edge is "
            f"{percent(optimal)} (exactly {optimal})."
        ),
        Plot("strategy", "Optimal call rate by hand"),
        Table(s["Strategy by hand"]),
        Subsection("Optimal call rate by made hand and draw", (Table(s["Call rate grid"]),)),
        Plot("margin", "EV(call) minus EV(fold) over the decision states"),
        Subsection(
            "A simple strategy",
            (
                Items(tuple(a.simple.describe())),
                Paragraph(
                    '"X-Y or better": the best hole card is above X, or is X with the second best Y or higher. '
                    "Rules apply in order; thresholds are derived exactly from the counts to lose the least against "
                    f"optimal play. House edge {percent(simple)} (exactly {simple}).",
                    note=True,
                ),
                Table(s["Simple strategy"]),
            ),
        ),
        Subsection("House edge under each strategy", (Table(s["Strategies compared"]),)),
    )


def _side_bets(report: Report) -> tuple[Block, ...]:
    return side_bet_blocks(
        report.sheets,
        len(report.side_bets),
        "A forfeited bet is played with the joint strategy (ante, call and side bet decided together); a "
        "progressive at its seed.",
    )


def _protection(report: Report) -> tuple[Block, ...]:
    """What a player gains from information he should not have, and the pattern of play
    surveillance looks for (from the protection results the report found)."""
    s, p = report.sheets, report.protection
    blocks: list[Block] = [
        Paragraph(
            "The player's edge with a flashed dealer card (exact: every state decided), and with two dealer cards, "
            "the turn seen early or partners' cards known (sampled: states drawn at random, each one's EV exact; "
            "95% intervals). Computed by the package's protection runs and included when present; a row says what "
            "has not been computed, and the commands below compute it.",
            note=True,
        ),
        Plot("protection", "The player's edge against information"),
        Table(s["Game protection"]),
    ]
    if p is not None and p.exposure is not None:
        a = p.exposure.advantage
        blocks.append(
            Subsection(
                "One dealer card seen: by the card, and the simple advantage strategy",
                (
                    Table(s["Protection by card seen"]),
                    Items(tuple(a.describe())),
                    Paragraph(
                        f"House edge {float(a.house_edge):+.4%} (exactly {a.house_edge}); it calls "
                        f"{float(a.calls_basic_folds):.2%} of all hands where the optimal basic player folds: the "
                        "pattern to watch for is calls with weak hands right after a low dealer card was exposed.",
                        note=True,
                    ),
                ),
            )
        )
    if p is not None and p.sources:
        blocks.append(Paragraph("Results: " + "; ".join(p.sources), note=True))
    missing = missing_information(p.exposure if p else None, p.sampled if p else [])
    if missing:
        game = _game_options(report.rules)
        blocks.append(Command("\n".join(f"casino-omaha protect {game} {PROTECTION_RUNS[m]}" for m in missing)))
    return tuple(blocks)


def _game_options(rules: Rules) -> str:
    """The options that name the game (and a variant's qualifier) on the command line."""
    return f"--game {rules.name}" + (f" --qualifier {qualifier_text(rules.qualifier_rank)}" if rules.variant else "")


def _method(report: Report) -> tuple[Block, ...]:
    rules, r = report.rules, report.result
    game = _game_options(rules)
    source = r.paytable.source
    table = r.paytable.name if shipped_paytable(r.paytable) else source or "PAYTABLE.csv"  # "": made in memory
    pays = f" --paytable {table}"
    pays += "" if r.pays_on == "ante" else " --pays-on call"
    return (
        Paragraph(
            f"Every deal of the game is counted: all {rules.total_combinations:,} combinations of the player's cards, "
            "the board and the dealer's cards, by exhaustive enumeration (decision states grouped by the symmetry "
            "of suits, each weighted by the number of real states it stands for). Counts are exact integers; "
            "every figure is an exact fraction of them, and nothing is rounded before it is displayed. The "
            "outcome store holding the counts is checked against its SHA-256 checksums whenever it is read."
        ),
        *verification_blocks(report.verification, f"casino-omaha verify {game}"),
        Subsection(
            "Commands that reproduce every figure",
            (
                Paragraph(
                    "With the package installed (pip install, or make setup in its source)"
                    + (
                        "; PAYTABLE.csv is this report's pay table, saved as a file (a table made in memory)"
                        if not source
                        else ""
                    )
                    + ":",
                    note=True,
                ),
                Command(
                    f"casino-omaha enumerate {game}\n"
                    f"casino-omaha report {game}{pays} --strategy {r.strategy} --out reports\n"
                    f"casino-omaha verify {game} --out reports/verification\n"
                    f"casino-omaha simulate {game}{pays} --hands 1000000"
                ),
            ),
        ),
    )


def parsheet(report: Report) -> Document:
    """The document of ``report``: every section, in a reviewer's order."""
    s = report.sheets
    r = report.result
    sections = (
        Section("summary", "Summary", (*edge_notice(r.exact.house_edge), *_summary(report))),
        Section("rules", "Rules of play", _rules(report)),
        Section("examples", "Worked examples", _examples(report)),
        Section("odds", "Odds per wager and pay line", _odds(report)),
        Section(
            "return-table",
            "Return table",
            (Plot("return-table", "Contribution of each outcome to the return"), Table(s["Return table"])),
        ),
        Section("outcomes", "Distribution of the result of a hand", (Plot("outcomes", "The net result of a hand"),)),
        Section(
            "final-hands",
            "Final hands",
            (Plot("final-hands", "Probability of each final hand"), Table(s["Final hands"])),
        ),
        Section(
            "confidence",
            "The house's result after N hands",
            (Plot("confidence", "The house's result after N hands"), *confidence_blocks(s["Confidence ranges"])),
        ),
        Section("strategy", "Strategy", _strategy(report)),
        Section("side-bets", "Side bets", _side_bets(report)),
        Section("protection", "Game protection", _protection(report)),
        Section("method", "Method and verification", _method(report)),
        Section("metadata", "Run metadata", (Table(s["Metadata"]),)),
    )
    return Document(
        title=f"{report.title_of_game}: par sheet",
        subtitle=f"{paytable_name(r.paytable)} pay table, {r.strategy} strategy: every deal counted exactly",
        facts=_facts(report),
        sections=sections,
        images=report.images,
    )
