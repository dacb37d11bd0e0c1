"""The exact optimal strategy and return of a game without a dealer (Mississippi Stud, Let
It Ride): every unit in action is paid on the player's five cards, so a decision depends
only on the set of cards he holds and the units he has in action, whichever of them are
hole cards. Backward induction over card sets, from the pay of every five-card hand to the
hole cards: the value of a set is the sum over every way the streets can complete it (an
integer, in the pay table's smallest unit), so every decision compares integers exactly;
an exact tie goes to the option that risks less. Then forward, the deals that reach each
set along each line of play, which give every outcome's count.

>>> from analysis.model.game import load_game
>>> f = solve_hand_paid(load_game("mississippi-stud"))
>>> f.exact.deals, f"{float(f.exact.house_edge):.4%}"
(155937600, '4.9149%')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import combinations
from math import comb, lcm, prod

import numpy as np
import pandas as pd
from scipy import sparse

from analysis.counting.no_board import card_sets
from analysis.counting.symmetry import canonical_codes, suit_permutations
from analysis.engine.hand_bets import HandBetFigures, hand_bet_figures
from analysis.engine.result import Outcome
from analysis.engine.statistics import ExactFigures, figures_of
from analysis.engine.wagers import WagerFigures, wagers_of
from analysis.hands.evaluate import best_strength, category_of, pair_rank
from analysis.hands.rankings import RANKINGS
from analysis.model.cards import format_cards, parse_cards
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.game import GameSpec
from analysis.model.hand_paid import HandPaid
from analysis.model.outcomes import BINOM

#: The name of the hands no line of the pay table names (they lose).
OTHER = "any other hand"

Path = tuple[int, ...]  # the move taken at each decision point so far (index into its options)


@dataclass(frozen=True)
class PlayedDecision:
    """One decision of a played deal: the cards held, the units in action, each option's
    exact EV in units and the option the strategy takes."""

    held: tuple[int, ...]
    units: int
    evs: dict[str, Fraction]
    taken: str


@dataclass(frozen=True)
class PlayedDeal:
    """A deal played by the strategy: its cards (hole first, then the community cards as
    turned), its decisions, the units in action at the end, the pay line and the net."""

    cards: tuple[int, ...]
    decisions: tuple[PlayedDecision, ...]
    units: int
    folded: bool
    line: str  # the pay line of the five cards ("" after a fold)
    net: Fraction


def decision_label(seen: int) -> str:
    """A decision point in the outcomes' vocabulary: by the cards the player holds."""
    return f"{seen} cards"


@dataclass(frozen=True)
class HandPaidFigures:
    """The exact figures of a game without a dealer under its optimal strategy: ``counts``
    maps (the moves taken, the pay line or ``"fold"``) to deals; the value arrays (per card
    set and units in action, each option's summed result) answer any state's EVs."""

    game: GameSpec
    total: int
    counts: dict[tuple[Path, str], int]
    decisions: dict[tuple[str, str], int]
    scale: int  # the pay table's smallest unit: values are in 1/scale of a unit
    completions: tuple[int, ...]  # deals that complete a set at each decision point
    values: tuple[dict[int, np.ndarray], ...] = field(repr=False)  # [point][units] -> (options, sets)
    ties: str = "less"  # an exact tie goes to the option that risks less ("less") or more ("more")

    @property
    def hand_paid(self) -> HandPaid:
        return _hand_paid(self.game)

    def hand_bets(self, pays: dict[str, dict[str, Fraction]] | None = None) -> dict[str, HandBetFigures]:
        """The exact figures of each bet on the player's first cards alone (every set of that
        many cards of the deck, valued by its ranking), with the file's pays or ``pays[name]``."""
        out: dict[str, HandBetFigures] = {}
        for name, b in self.hand_paid.hand_bets.items():
            ranking = RANKINGS[b.ranking]
            hands = card_sets(self.game.rules.deck, b.cards)
            category = ranking.category(ranking.values(hands))
            ones = np.ones(len(hands), dtype=np.int64)
            out |= hand_bet_figures({name: b.bet}, ranking.categories, hands, ones, category, pays)
        return out

    def stake(self, path: Path) -> int:
        """Units in action after the moves of ``path``."""
        return self.hand_paid.units_after(path)

    def net(self, path: Path, line: str) -> Fraction:
        """The player's net result in units of one outcome (``line`` "fold": all lost)."""
        return self.hand_paid.net(self.stake(path), "" if line == "fold" else line)

    @cached_property
    def exact(self) -> ExactFigures:
        """House edge per unit (the ante), element of risk per unit put in action, ..."""
        payoffs = {k: self.net(*k) for k in self.counts}
        shown = sum(n for (_, line), n in self.counts.items() if line != "fold")
        wager = Fraction(sum(n * self.stake(p) for (p, _), n in self.counts.items()), self.total)
        return figures_of(self.counts, payoffs, Fraction(shown, self.total), wager)

    @property
    def settlement(self) -> None:
        """A game without a dealer has no showdown settlement: its wagers are :meth:`wagers`."""
        return None

    def outcomes(self) -> list[Outcome]:
        """Every outcome in the one vocabulary: folds by the units lost, then showdowns by the
        units in action and the pay line, best first."""
        rows: dict[tuple[str, int, str], int] = {}
        for (path, line), n in self.counts.items():
            key = ("fold" if line == "fold" else "showdown", self.stake(path), "" if line == "fold" else line)
            rows[key] = rows.get(key, 0) + n
        order = [p.name for p in self.hand_paid.lines] + [OTHER, ""]
        ranked = sorted(rows.items(), key=lambda kv: (kv[0][0] != "fold", -kv[0][1], order.index(kv[0][2])))
        return [
            Outcome(ended, units, line, "", n, self.hand_paid.net(units, line)) for (ended, units, line), n in ranked
        ]

    def wagers(self) -> list[WagerFigures]:
        """Each wager on its own: each starting unit (a pull back takes back the next one)
        and each street's bet, its lines and exact figures; their expected results add up
        to the game's."""
        hp = self.hand_paid
        names = _wager_names(hp)
        tally: dict[tuple[str, str, str, Fraction, int], int] = {}
        pays = {p.name: p.net for p in hp.lines}
        for (path, line), n in self.counts.items():
            for wager, units in zip(names, _wager_units(hp, path)):
                if units == 0:
                    key = (wager, "not made", "", Fraction(0), 0)
                else:
                    each = Fraction(-1) if line == "fold" else pays.get(line, Fraction(-1))
                    result = "wins" if each > 0 else "loses" if each < 0 else "pushes"
                    key = (wager, result, line if result == "wins" else "", units * each, units)
                tally[key] = tally.get(key, 0) + n
        return wagers_of(tally, names, self.total)

    def evs(self, cards: str, moves: Sequence[str] = ()) -> dict[str, Fraction]:
        """The exact expected net result in units of each option, holding ``cards`` (text)
        after taking ``moves`` (the options' words) at the earlier decision points."""
        hp = self.hand_paid
        held = parse_cards(cards, None, "the player's cards")
        if set(held) - set(self.game.rules.deck):
            raise InputError(f"{cards[:40]!r}: a card that is not in {self.game.title}'s deck")
        if len(held) not in hp.seen:
            raise InputError(
                f"{self.game.title} decides holding {' or '.join(map(str, hp.seen))} cards, not {len(held)}"
            )
        point = hp.seen.index(len(held))
        path = _path_of(hp, list(moves), point)
        if not hp.before[point]:
            raise InputError(f"{self.game.title}: no decision holding {len(held)} cards")
        return self._evs(point, self.stake(path), held)

    def play(self, cards: Sequence[int]) -> PlayedDeal:
        """One deal (the five cards: hole first, then the community cards in the order they
        are turned) played by the strategy, each decision with every option's exact EV."""
        hp, deck = self.hand_paid, self.game.rules.deck
        if len(cards) != 5 or len(set(cards)) != 5 or set(cards) - set(deck):
            raise InputError(f"a deal is five different cards of {self.game.title}'s deck")
        units, played = hp.start, []
        for j, seen in enumerate(hp.seen):
            held = tuple(cards[:seen])
            moves = hp.options(j)
            best = int(self.choices(j, np.array([held]), np.array([units]))[0])
            if hp.before[j]:
                played.append(PlayedDecision(held, units, self._evs(j, units, held), str(moves[best])))
            if moves[best].kind == "fold":
                return PlayedDeal(tuple(cards), tuple(played), units, True, "", Fraction(-units))
            units += moves[best].change
        line_index = int(pay_lines(np.array([cards]), hp)[0])
        line = hp.lines[line_index].name if line_index < len(hp.lines) else OTHER
        return PlayedDeal(tuple(cards), tuple(played), units, False, line, hp.net(units, line))

    def _evs(self, point: int, units: int, held: Sequence[int]) -> dict[str, Fraction]:
        """Each option's exact EV in units holding ``held`` with ``units`` in action."""
        row = self.values[point][units][:, set_codes(np.array([held]), self.game.rules.deck)[0]]
        scale = self.scale * self.completions[point]
        return {str(m): Fraction(int(v), scale) for m, v in zip(self.hand_paid.options(point), row)}

    def choices(self, point: int, held: np.ndarray, units: np.ndarray) -> np.ndarray:
        """The option the strategy takes (index into the point's options) for each row of
        cards held at a decision point with ``units`` in action (one per row)."""
        codes = set_codes(np.atleast_2d(held), self.game.rules.deck)
        out = np.zeros(len(codes), dtype=np.int64)
        for u in np.unique(units).tolist():
            if u not in self.values[point]:
                raise InputError(f"{u} units cannot be in action at {decision_label(self.hand_paid.seen[point])}")
            rows = units == u
            out[rows] = best_option(self.values[point][u][:, codes[rows]], self.ties)
        return out

    def strategy(self, point: int, units: int | None = None) -> pd.DataFrame:
        """The decision at a decision point, one row per class of card sets alike up to the
        suits (with ``units`` in action, default the first that can be): the cards, how many
        sets, the option taken and each option's EV in units."""
        hp, deck = self.hand_paid, self.game.rules.deck
        units = self.stakes_at(point)[0] if units is None else units
        if units not in self.values[point]:
            raise InputError(f"{units} units cannot be in action at {decision_label(hp.seen[point])}")
        sets = np.array(deck)[subsets(len(deck), hp.seen[point])]
        classes = canonical_codes(sets, suit_permutations(self.game.rules.suits))
        first, inverse, counts = np.unique(classes, return_index=True, return_inverse=True, return_counts=True)[1:]
        del inverse
        table = self.values[point][units][:, first]
        moves = hp.before[point]
        evs = {f"EV({m})": table[i] / (self.scale * self.completions[point]) for i, m in enumerate(moves)}
        best = best_option(table, self.ties)
        frame = pd.DataFrame(
            {
                "cards": [format_cards(sorted(r.tolist(), reverse=True)) for r in sets[first]],
                "sets": counts,
                "option": [str(moves[b]) for b in best],
            }
            | evs
        )
        return frame.sort_values(f"EV({moves[-1]})", ascending=False, kind="stable").reset_index(drop=True)

    def stakes_at(self, point: int) -> list[int]:
        """The units that can be in action at a decision point."""
        return sorted(self.values[point])


def best_option(values: np.ndarray, ties: str) -> np.ndarray:
    """The index of each column's best option (rows run from the least risk to the most),
    an exact tie going to the option that risks ``ties`` ("less" or "more")."""
    if ties == "less":
        return np.argmax(values, axis=0)
    return len(values) - 1 - np.argmax(values[::-1], axis=0)


def solve_hand_paid(game: GameSpec, ties: str = "less") -> HandPaidFigures:
    """The optimal decision at every set of cards and units in action, and the exact
    figures. ``ties``: an exact tie between options goes to the one that risks less (the
    package's rule) or, with "more", to the larger bet (as some published analyses do: the
    house edge is the same, the average wager and the element of risk are not)."""
    if ties not in ("less", "more"):
        raise InputError(f"ties: 'less' or 'more' (the option that risks less or more wins an exact tie), not {ties!r}")
    hp = _hand_paid(game)
    n = len(game.rules.deck)
    sizes = (*hp.seen, 5)
    points = range(len(hp.seen))
    completions = tuple(prod(comb(n - sizes[i], hp.streets[i]) for i in range(j, len(hp.streets))) for j in points)
    line_of, nets, scale = final_nets(game)
    stakes = hp.stakes
    # backward: each option's summed result, per card set, for every units in action
    later: dict[int, np.ndarray] = {s: s * nets for s in stakes[-1]}
    values: list[dict[int, np.ndarray]] = [{} for _ in points]
    for j in reversed(points):
        holds = held_sets(n, sizes[j + 1], sizes[j])
        order = sorted(later)
        summed = dict(zip(order, (holds @ np.stack([later[s] for s in order], axis=1)).T))
        moves = hp.options(j)
        for s in stakes[j]:
            values[j][s] = np.stack(
                [
                    np.full(comb(n, sizes[j]), -s * scale * completions[j], dtype=np.int64)
                    if m.kind == "fold"
                    else summed[s + m.change]
                    for m in moves
                ]
            )
        later = {s: v.max(axis=0) for s, v in values[j].items()}
    # forward: the deals that reach each set along each line of play
    lines = [p.name for p in hp.lines] + [OTHER]
    counts: dict[tuple[Path, str], int] = {}
    decisions: dict[tuple[str, str], int] = {}
    reach: dict[Path, np.ndarray] = {(): np.ones(comb(n, sizes[0]), dtype=np.int64)}
    for j in points:
        moves = hp.options(j)
        last = j == len(hp.seen) - 1
        holds = held_sets(n, sizes[j + 1], sizes[j])
        by_line = holds @ np.eye(len(lines), dtype=np.int64)[line_of] if last else None
        after: dict[Path, np.ndarray] = {}
        for path, held in reach.items():
            best = best_option(values[j][hp.units_after(path)], ties)
            for i, m in enumerate(moves):
                taken = np.where(best == i, held, 0)
                deals = int(taken.sum()) * completions[j]
                if not deals:
                    continue
                if hp.before[j]:
                    key = (decision_label(sizes[j]), str(m))
                    decisions[key] = decisions.get(key, 0) + deals
                if m.kind == "fold":
                    counts[(path + (i,), "fold")] = deals
                elif by_line is not None:
                    for line, k in zip(lines, (taken @ by_line).tolist()):
                        if k:
                            counts[(path + (i,), line)] = int(k)
                else:
                    after[path + (i,)] = np.asarray(holds.T @ taken)
        reach = after
    total = comb(n, hp.hole) * completions[0]
    if sum(counts.values()) != total:
        raise AssertionError(f"{game.name}: the outcomes add up to {sum(counts.values())} deals, not {total}")
    return HandPaidFigures(game, total, counts, decisions, scale, completions, tuple(values), ties)


def final_nets(game: GameSpec) -> tuple[np.ndarray, np.ndarray, int]:
    """Every five-card set of the deck (colex order): its pay line's index, its net result
    per unit in action in 1/``scale`` of a unit, and that scale."""
    hp = _hand_paid(game)
    deck = np.array(game.rules.deck, dtype=np.int64)
    line_of = pay_lines(deck[subsets(len(deck), 5)], hp)
    scale = lcm(*(p.net.denominator for p in hp.lines))
    return line_of, np.array([int(p.net * scale) for p in hp.lines] + [-scale], dtype=np.int64)[line_of], scale


def pay_lines(hands: np.ndarray, hp: HandPaid) -> np.ndarray:
    """The index of the pay line of each row of five cards (``len(hp.lines)``: no line)."""
    category = category_of(best_strength(hands))
    if not any(p.category == "royal_flush" for p in hp.lines):  # a royal is then paid as a straight flush
        category[category == CATEGORIES.index("royal_flush")] = CATEGORIES.index("straight_flush")
    pair = pair_rank(hands)
    out = np.full(len(hands), len(hp.lines), dtype=np.int64)
    for i, p in reversed(list(enumerate(hp.lines))):
        hit = category == CATEGORIES.index(p.category)
        if p.category == "pair":
            hit &= (pair >= p.low) & (pair <= p.high)
        out[hit] = i
    return out


@lru_cache(maxsize=16)
def subsets(n: int, k: int) -> np.ndarray:
    """Every k-subset of positions 0..n-1 as sorted rows in colex order: row i is the
    subset whose colex code is i (the subsets of 0..t-1 come first, whatever n)."""
    rows = np.zeros((1, 0), dtype=np.int64)
    for size in range(1, k + 1):
        rows = np.concatenate(
            [
                np.column_stack([rows[: comb(top, size - 1)], np.full(comb(top, size - 1), top, dtype=np.int64)])
                for top in range(size - 1, n)
            ]
        )
    return rows


def _colex(rows: np.ndarray) -> np.ndarray:
    return np.asarray(np.sum([BINOM[rows[:, i], i + 1] for i in range(rows.shape[1])], axis=0, dtype=np.int64))


def set_codes(sets: np.ndarray, deck: Sequence[int]) -> np.ndarray:
    """The colex codes of sets of cards, by their positions in the deck."""
    at = np.full(52, -1, dtype=np.int64)
    at[list(deck)] = np.arange(len(deck))
    return _colex(np.sort(at[sets], axis=1))


@lru_cache(maxsize=4)
def held_sets(n: int, big: int, small: int) -> sparse.csc_array:
    """Which small sets each big set holds: a 0/1 matrix (small sets x big sets) in colex
    order, so one product sums over the sets that hold a set, its transpose over held ones."""
    rows = subsets(n, big)
    codes = np.stack([_colex(rows[:, keep]) for keep in combinations(range(big), small)], axis=1)
    each = codes.shape[1]
    return sparse.csc_array(
        (np.ones(codes.size, dtype=np.int64), codes.ravel(), np.arange(0, codes.size + 1, each)),
        shape=(comb(n, small), len(rows)),
    )


def _wager_names(hp: HandPaid) -> list[str]:
    starting = [hp.unit] if hp.start == 1 else [f"{hp.unit} {i + 1}" for i in range(hp.start)]
    bets = [f"bet holding {s} cards" for s, ms in zip(hp.seen, hp.before) if any(m.kind == "bet" for m in ms)]
    return starting + bets


def _wager_units(hp: HandPaid, path: Path) -> list[int]:
    """The units on each wager (of :func:`_wager_names`) after the moves of ``path``."""
    pulled = sum(hp.options(j)[m].kind == "pull" for j, m in enumerate(path))
    starting = [1 if i >= pulled else 0 for i in range(hp.start)]
    bets = [
        hp.before[j][path[j]].units if j < len(path) and hp.before[j][path[j]].kind == "bet" else 0
        for j, ms in enumerate(hp.before)
        if any(m.kind == "bet" for m in ms)
    ]
    return starting + bets


def _path_of(hp: HandPaid, moves: list[str], point: int) -> Path:
    asked = [j for j in range(point) if hp.before[j]]
    if len(moves) != len(asked):
        raise InputError(f"give the {len(asked)} earlier decision(s) taken, not {len(moves)}")
    path = [0] * point
    for j, text in zip(asked, moves):
        words = [str(m) for m in hp.before[j]]
        if text not in words or text == "fold":
            raise InputError(f"holding {hp.seen[j]} cards: {text[:20]!r} is not one of {', '.join(words[1:])}")
        path[j] = words.index(text)
    return tuple(path)


def _hand_paid(game: GameSpec) -> HandPaid:
    if game.hand_paid is None:
        raise InputError(f"{game.title} has a dealer: its figures come from the street engine")
    return game.hand_paid
