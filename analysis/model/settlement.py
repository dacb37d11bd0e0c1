"""How every wager of a game settles: the one home of the rule that turns a showdown into
antes won or lost, for every game (the game file's ``[ante]``, ``[play]`` and ``[blind]``
sections; the return engine's one-decision games and the street engine's games alike).

A hand ends in a fold (the ante and the blind are lost) or a showdown: the player's final
category, whether the dealer qualifies, the sign of player against dealer (win, tie, loss)
and the play bet in antes decide it.

- The ante wins its pays (a pay table of the player's final hand, or even money); it loses
  1 and pushes on a tie. Against a dealer who does not qualify it is paid as a win
  (``"pays"``, the Casino Hold'em rule) or pushes (``"push"``, the Ultimate rule).
- The play bet (the call) wins even money, or a table of the player's hand (the Caribbean
  convention); against a dealer who does not qualify it pushes (``"push"``) or is settled
  against the dealer's hand all the same (``"action"``).
- The blind (one ante) wins its table on a winning hand of a paid category and pushes on
  a lower win and on a tie; it loses 1 on a loss, qualifier or not.
- The ante bonus (a game without a board, Three Card Poker) pays its table on the
  player's hand whenever he plays, whatever the dealer holds.
- A tie pushes the ante, the play bet and the blind, or (``ties = "player"``, Four Card
  Poker) is settled as the player's win.

>>> from analysis.model.paytable import PayTable
>>> s = Settlement(ante=PayTable.load("antewin"))
>>> s.net("flush", qualifies=True, sign=1, multiple=2), s.net("flush", False, -1, 2), s.fold
(Fraction(4, 1), Fraction(2, 1), Fraction(-1, 1))
>>> s.return_rows(2)[("dealer_wins", "")]
Fraction(-3, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction

from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.no_board import TIES
from analysis.model.paytable import PayTable
from analysis.model.rules import PAYS_ON

#: The outcomes of a one-decision hand, in return-table order.
OUTCOMES = ("fold", "dealer_not_qualifying", "player_wins", "tie", "dealer_wins")
#: Outcomes whose return-table row is split by the player's category (the pay table pays them).
BY_CATEGORY = ("dealer_not_qualifying", "player_wins")
#: The signs of player against dealer: win, tie, loss.
SIGNS = (1, 0, -1)

RowKey = tuple[str, str]


def check_pays_on(pays_on: str) -> str:
    if pays_on not in PAYS_ON:
        raise InputError(f"pays_on must be one of {PAYS_ON}, not {pays_on!r}")
    return pays_on


def row_keys() -> list[RowKey]:
    """The rows of a one-decision return table, (outcome, category), best categories first."""
    keys = [("fold", "")]
    for outcome in BY_CATEGORY:
        keys += [(outcome, c) for c in reversed(CATEGORIES)]
    return keys + [("tie", ""), ("dealer_wins", "")]


@dataclass(frozen=True)
class Settlement:
    """The settlement of a game's wagers (see the module docstring): ``ante`` and ``play``
    are pay tables of the player's final hand (None: even money); ``blind`` the blind's
    pays by category (None: no blind; a category it does not name pushes on a win)."""

    ante: PayTable | None = None
    ante_when_no_qualifier: str = "pays"
    play: PayTable | None = None
    play_when_no_qualifier: str = "push"
    blind: Mapping[str, Fraction] | None = field(default=None)
    #: pays (to 1) on the player's hand whenever he plays, whatever the dealer holds (the
    #: Three Card Poker ante bonus); None: no such bonus
    ante_bonus: Mapping[str, Fraction] | None = field(default=None)
    #: a tie pushes ("push") or is settled as the player's win ("player")
    ties: str = "push"

    def __post_init__(self) -> None:
        if self.ties not in TIES:
            raise InputError(f"ties: {' or '.join(map(repr, TIES))}, not {self.ties!r}")
        if self.ante_when_no_qualifier not in ("pays", "push"):
            raise InputError(f"ante, dealer not qualifying: 'pays' or 'push', not {self.ante_when_no_qualifier!r}")
        if self.play_when_no_qualifier not in ("push", "action"):
            raise InputError(f"play, dealer not qualifying: 'push' or 'action', not {self.play_when_no_qualifier!r}")

    @property
    def fold(self) -> Fraction:
        """What a fold nets, in antes: the ante and the blind are lost."""
        return sum(self.fold_nets.values(), Fraction(0))

    @property
    def fold_nets(self) -> dict[str, Fraction]:
        """Net result of each wager a fold loses: the ante, and the blind where there is one."""
        return {"ante": Fraction(-1)} | ({"blind": Fraction(-1)} if self.blind is not None else {})

    @property
    def wagers(self) -> tuple[str, ...]:
        """The wagers a hand starts or ends with: ante, blind when there is one, play; and
        the ante bonus where there is one (a pay on the ante's stake, no stake of its own)."""
        bonus = ("ante_bonus",) if self.ante_bonus is not None else ()
        return (("ante", "blind", "play") if self.blind is not None else ("ante", "play")) + bonus

    def wager_nets(self, category: str, qualifies: bool, sign: int, multiple: int) -> dict[str, Fraction]:
        """Net result of each wager, in antes, of a showdown with a play bet of ``multiple``
        antes: the player's final ``category``, whether the dealer qualifies and the sign of
        the player's hand against the dealer's (1 win, 0 tie, -1 loss)."""
        if sign == 0 and self.ties == "player":
            sign = 1
        ante_win = Fraction(1) if self.ante is None else self.ante.pays[category]
        if qualifies:
            ante = {1: ante_win, 0: Fraction(0), -1: Fraction(-1)}[sign]
        else:
            ante = ante_win if self.ante_when_no_qualifier == "pays" else Fraction(0)
        play_win = multiple * (Fraction(1) if self.play is None else self.play.pays[category])
        action = qualifies or self.play_when_no_qualifier == "action"
        play = {1: play_win, 0: Fraction(0), -1: Fraction(-multiple)}[sign] if action else Fraction(0)
        out = {"ante": ante, "play": play}
        if self.blind is not None:
            out["blind"] = {1: Fraction(self.blind.get(category, 0)), 0: Fraction(0), -1: Fraction(-1)}[sign]
        if self.ante_bonus is not None:
            out["ante_bonus"] = Fraction(self.ante_bonus.get(category, 0))
        return out

    def net(self, category: str, qualifies: bool, sign: int, multiple: int) -> Fraction:
        """Net result in antes of a showdown (every wager together)."""
        return sum(self.wager_nets(category, qualifies, sign, multiple).values(), Fraction(0))

    def showdown_values(self, multiple: int) -> list[Fraction]:
        """:meth:`net` for each (player category, dealer result) in the order of the
        multi-street counts (category-major; results: not qualifying x win/tie/loss,
        qualifying x win/tie/loss)."""
        return [self.net(c, q, s, multiple) for c in CATEGORIES for q in (False, True) for s in SIGNS]

    @property
    def settles_without_dealer_rank(self) -> bool:
        """Whether a showdown against a dealer who does not qualify settles the same for
        a win, a tie and a loss: what the one-decision counts (which do not split those
        deals by the dealer's hand) can settle."""
        return all(len({self.net(c, False, s, m) for s in SIGNS}) == 1 for c in CATEGORIES for m in (1, 2))

    def return_rows(self, multiple: int) -> dict[RowKey, Fraction]:
        """Net result in antes of every row of a one-decision return table (a fold, or a
        play bet of ``multiple`` antes), in return-table order."""
        if not self.settles_without_dealer_rank:
            raise InputError(
                "this game settles a dealer who does not qualify by the dealer's hand: "
                "its figures come from the street engine"
            )
        out: dict[RowKey, Fraction] = {}
        for outcome, category in row_keys():
            if outcome == "fold":
                out[(outcome, category)] = self.fold
                continue
            qualifies, sign = {
                "dealer_not_qualifying": (False, 1),
                "player_wins": (True, 1),
                "tie": (True, 0),
                "dealer_wins": (True, -1),
            }[outcome]
            values = {self.net(c, qualifies, sign, multiple) for c in ([category] if category else CATEGORIES)}
            if len(values) != 1:  # a tie or a loss settles alike for every category (pays are on wins)
                raise AssertionError(f"{outcome} settles differently by category: {sorted(values)}")
            out[(outcome, category)] = values.pop()
        return out

    def with_table(self, paytable: PayTable, pays_on: str = "ante") -> Settlement:
        """This settlement with ``paytable`` on the ante (the other bet even money) or, with
        ``pays_on="call"``, on the play bet (the ante even money)."""
        check_pays_on(pays_on)
        return replace(self, ante=paytable, play=None) if pays_on == "ante" else replace(self, ante=None, play=paytable)


#: The settlement of the one-decision family (Casino Omaha, Casino Hold'em): the ante pays
#: its table, also when the dealer does not qualify, when the call pushes.
ONE_DECISION = Settlement(ante_when_no_qualifier="pays", play_when_no_qualifier="push")
