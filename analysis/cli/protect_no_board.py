"""``casino-omaha protect`` on a game without a board (Three Card Poker, Caribbean Stud, Four
Card Poker): the dealer's cards seen before the decision, solved exactly; where the dealer
shows a card, his hole card beside it counted exactly (or two of them, sampled); and what
gives the player away."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import TYPE_CHECKING

from analysis.cli.common import options_for, print_json

if TYPE_CHECKING:
    from analysis.model.game import GameSpec
    from analysis.protection.hole_card import HoleCardExposure
    from analysis.protection.no_board import BoardlessExposure


def run_no_board(args: argparse.Namespace, game: GameSpec) -> int:
    """A game without a board: the dealer's cards seen make a game of their own, solved exactly."""
    from analysis.model.errors import InputError
    from analysis.protection.no_board import exposure_no_board

    if args.exposed is None:
        raise InputError(f"{game.title} has no board and no other seats' cards in play: `--exposed N` only")
    if game.no_board is not None and game.no_board.up:  # a hole card beside the up card: exact; more: drawn
        return _hole_card(args, game) if args.exposed == 1 else _no_board_sampled(args, game)
    e = exposure_no_board(game, args.exposed)
    base, exposed = e.base.exact, e.exposed.exact
    summary = _exposure_summary(game.name, e.seen, e, exposed.deals) | {"hit_frequency": float(exposed.hit_frequency)}
    if args.format == "json":
        print_json(summary)
        return 0
    cards = "one dealer card" if e.seen == 1 else f"{e.seen} dealer cards"
    print(f"{game.title}: {cards} seen before the decision, exactly ({exposed.deals:,} deals)")
    print(f"house edge          {float(exposed.house_edge):+.4%} per ante  (exact {exposed.house_edge})")
    print(f"  without the card  {float(base.house_edge):+.4%}")
    print(f"hit frequency       {float(exposed.hit_frequency):.4%}")
    print(
        f"plays               {float(exposed.call_rate):.4%} of hands "
        f"(optimal without the card: {float(base.call_rate):.4%})"
    )
    _print_giveaway(e.plays_folded, e.folds_played, e.by_rank)
    return 0


def _hole_card(args: argparse.Namespace, game: GameSpec) -> int:
    """One hole card seen beside the up card: every state counted, a chunk at a time."""
    from analysis.protection.hole_card import hole_card_exposure

    e = hole_card_exposure(game, options_for(args))
    base = e.base.exact
    summary = _exposure_summary(game.name, 1, e, e.deals) | {"states": e.states, "store": str(e.store)}
    if args.format == "json":
        print_json(summary)
        return 0
    print(f"{game.title}: one hole card seen beside the up card, exactly ({e.deals:,} deals, {e.states:,} states)")
    print(f"house edge          {float(e.house_edge):+.4%} per ante  (exact {e.house_edge})")
    print(f"  without the card  {float(base.house_edge):+.4%}")
    print(f"plays               {float(e.call_rate):.4%} of hands (without the card: {float(base.call_rate):.4%})")
    print(f"kept in             {e.store}")
    _print_giveaway(e.plays_folded, e.folds_played, e.by_rank)
    return 0


def _exposure_summary(name: str, seen: int, e: BoardlessExposure | HoleCardExposure, deals: int) -> dict[str, object]:
    """The JSON of a game without a board with dealer cards seen, counted exactly."""
    return {
        "game": name,
        "exposed": seen,
        "house_edge": float(e.house_edge),
        "house_edge_exact": str(e.house_edge),
        "base_house_edge": float(e.base.exact.house_edge),
        "call_rate": float(e.call_rate),
        "plays_a_hand_the_optimal_player_folds": float(e.plays_folded),
        "folds_a_hand_the_optimal_player_plays": float(e.folds_played),
        "ev_by_rank_seen": {r: str(v) for r, v in e.by_rank.items()},
        "deals": deals,
    }


def _print_giveaway(plays_folded: Fraction, folds_played: Fraction, by_rank: dict[str, Fraction]) -> None:
    """What gives the player away, and what the card seen is worth to him by its rank."""
    from analysis.model.cards import RANKS
    from analysis.model.no_board import RANK_WORDS

    print(
        f"gives him away      plays {float(plays_folded):.2%} of deals the optimal player folds, "
        f"folds {float(folds_played):.2%} he plays"
    )
    for rank, ev in by_rank.items():
        word = RANK_WORDS[RANKS.index(rank)]
        card = f"{'an' if word[0] in 'ae' else 'a'} {word}:"
        print(f"  seeing {card:10} the player's expected result {float(ev):+.4f} antes a hand")


def _no_board_sampled(args: argparse.Namespace, game: GameSpec) -> int:
    """A game without a board that already shows a dealer card: random states, each exact."""
    from analysis.protection.no_board import sampled_exposure_no_board

    e = sampled_exposure_no_board(game, args.exposed, args.samples, args.seed, control=not args.plain)
    low, high = e.interval()
    summary = {
        "game": game.name,
        "exposed": e.seen,
        "samples": e.samples,
        "seed": e.seed,
        "house_edge": e.house_edge,
        "standard_error": e.standard_error,
        "interval_95": [low, high],
        "base_house_edge": float(e.base.exact.house_edge),
        "call_rate": e.call_rate,
        "method": "difference from the base game's decision in each state" if e.control else "plain mean",
    }
    if args.format == "json":
        print_json(summary)
        return 0
    cards = "one more dealer card" if e.seen == 1 else f"{e.seen} more dealer cards"
    print(f"{game.title}: {cards} seen before the decision, {e.samples:,} random states each decided exactly")
    print(f"house edge          {e.house_edge:+.4%} per ante  (standard error {e.standard_error:.4%})")
    print(f"95% interval        {low:+.4%} to {high:+.4%}")
    print(f"  without the card  {float(e.base.exact.house_edge):+.4%} (exact)")
    print(f"plays               {e.call_rate:.4%} of states")
    return 0
