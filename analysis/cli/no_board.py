"""The printed result of a game without a board (Three Card Poker), shared by ``solve`` and
``report``: the one JSON schema of every game's result, with the weakest hand played and
the bets on the player's hand alone beside it, or the same in lines."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from analysis.cli.common import hand_bets_json, result_json

if TYPE_CHECKING:
    from analysis.engine.no_board import NoBoardFigures


def no_board_json(f: NoBoardFigures, by_hand: bool = False) -> dict[str, object]:
    """``solve``'s result: the one schema, then the weakest hand played, the bets on the
    player's hand alone and, with ``by_hand``, the decision of every class of hands."""
    from analysis.report.no_board import strategy_words

    game = f.game
    hand_bets = hand_bets_json(f.hand_bets())
    extra = {"preflop": f.strategy.drop(columns="code").to_dict("records")} if by_hand else {}
    return result_json(
        game.name,
        game.title,
        "optimal",
        f.exact,
        f.decisions,
        f.outcomes(),
        game.settlement,
        strategy_in_words=strategy_words(f),
        **threshold(f),
        hand_bets=hand_bets,
        **extra,
    )


def threshold(f: NoBoardFigures) -> dict[str, Any]:
    """``weakest_played``, where the strategy is one (Three Card Poker's "Q-6-4")."""
    from analysis.engine.no_board import weakest_played
    from analysis.model.errors import InputError

    try:
        return {"weakest_played": weakest_played(f)}
    except InputError:
        return {}


def no_board_report_json(f: NoBoardFigures) -> dict[str, object]:
    """``report``'s result: the keys of every game's report, no more."""
    game = f.game
    return result_json(
        game.name,
        game.title,
        "optimal",
        f.exact,
        f.decisions,
        f.outcomes(),
        game.settlement,
        paytable=game.ante_pays.name if game.ante_pays is not None else "even money",
        pays_on="ante",
        qualifier=game.no_board.qualifier_phrase if game.no_board is not None else "",
        store_checksum=None,  # counted afresh in a fraction of a second: no store is kept
    )


def no_board_lines(f: NoBoardFigures, by_hand: bool = False) -> list[str]:
    """The result in lines."""
    from analysis.report.no_board import strategy_words

    e, game = f.exact, f.game
    lines = [
        f"{game.title} ({game.source}), {e.deals:,} deals, optimal strategy, exact",
        f"house edge            {float(e.house_edge):.4%} of the ante  (exact {e.house_edge})",
        f"element of risk       {float(e.element_of_risk):.4%}  (exact {e.element_of_risk})",
        f"average wager         {float(e.average_wager):.4f} antes",
        f"standard deviation    {e.standard_deviation:.4f} antes",
        f"hit frequency         {float(e.hit_frequency):.4%}",
        *(f"{street:8} {option:8}      {n / e.deals:.4%} of deals" for (street, option), n in f.decisions.items()),
        f"strategy              {strategy_words(f)}",
        *(
            f"{b.bet.title:21} house edge {float(b.exact.house_edge):.4%}  (exact {b.exact.house_edge})"
            for b in f.hand_bets().values()
        ),
    ]
    if by_hand:
        lines.append(f.strategy[["hand", "hands", "category", "option"]].to_string(index=False))
    return lines
