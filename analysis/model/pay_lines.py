"""The lines of a pay table on the player's hand: a category (``flush``) or a pair by its
rank (``"pair J-A"``: a pair of jacks to aces; ``"pair A-A"``: a pair of aces), as a game
without a dealer pays its hand and a bet on the hand alone (Four Card Poker's Aces Up) pays
"a pair of aces or better". One reading of a line's name for both, so the two word it alike.

>>> line = pay_line("pair A-A", Fraction(1))
>>> line.category, line.low, line.high, line.words(), line.pays()
('pair', 12, 12, 'Pair of aces', '1 to 1')
>>> [x.name for x in best_first([pay_line("pair 6-10", Fraction(0)), pay_line("flush", Fraction(6))])]
['flush', 'pair 6-10']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from analysis.model.cards import RANKS
from analysis.model.categories import CATEGORIES, THREE_CARD_CATEGORIES
from analysis.model.errors import InputError

#: The ranks in words, as a pair of them is named.
PLURALS = tuple("twos threes fours fives sixes sevens eights nines tens jacks queens kings aces".split())
#: A pair line's ranks ("pair J-A"): a rank letter, or 10 for T.
PAIR_LINE = re.compile(r"pair (10|[2-9TJQKA])-(10|[2-9TJQKA])")
#: The three-card straight flush of ace, king and queen, which three-card bonus bets pay above
#: the other straight flushes: a straight flush line whose top card is an ace.
MINI_ROYAL = "mini_royal"


@dataclass(frozen=True)
class PayLine:
    """One line of a pay table: a category, or within one the hands of ranks ``low``..``high``
    (0 = 2s): a pair by the rank of its pair, a straight flush by its top card (the mini
    royal); ``net`` per unit (0 a push)."""

    name: str
    category: str
    net: Fraction
    low: int = 0
    high: int = 12

    def words(self) -> str:
        """The line as a sheet prints it ("Pair of jacks to aces", "Pair of aces", "Flush")."""
        if self.name == MINI_ROYAL:
            return "Mini royal (ace, king and queen of a suit)"
        if self.category == "pair" and (self.low, self.high) != (0, 12):
            if self.low == self.high:
                return f"Pair of {PLURALS[self.low]}"
            return f"Pair of {PLURALS[self.low]} to {PLURALS[self.high]}"
        return self.category.replace("_", " ").capitalize()

    def pays(self) -> str:
        return "push" if self.net == 0 else f"{self.net} to 1"


def pay_line(name: str, net: Fraction, categories: tuple[str, ...] = CATEGORIES, where: str = "") -> PayLine:
    """The line named ``name``: one of ``categories`` or ``"pair R-R"`` (lower rank first)."""
    text = str(name)[:30]
    match = PAIR_LINE.fullmatch(text)
    if match:
        low, high = (RANKS.index(r.replace("10", "T")) for r in match.groups())
        if low > high:
            raise InputError(f"{where}: {text}: the lower rank first ('pair 6-10')")
        return PayLine(text, "pair", net, low, high)
    if text == MINI_ROYAL and categories == THREE_CARD_CATEGORIES:
        return PayLine(text, "straight_flush", net, 12, 12)
    if text in categories:
        return PayLine(text, text, net)
    also = ", 'mini_royal'" if categories == THREE_CARD_CATEGORIES else ""
    raise InputError(f"{where}: unknown line {text!r}: a category ({', '.join(categories)}), 'pair R-R'{also}")


def check_pairs(lines: Iterable[PayLine], where: str) -> None:
    """Refuse two lines of ranks that pay the same hand; a category's own line beside them
    pays the hands of the category they leave ("straight_flush" beside "mini_royal")."""
    lines = list(lines)
    for category in ("pair", "straight_flush"):
        spans = sorted((p.low, p.high) for p in lines if p.category == category and p.name != category)
        if any(a[1] >= b[0] for a, b in zip(spans, spans[1:])):
            raise InputError(f"{where}: two {category.replace('_', ' ')} lines cover the same hands")


def best_first(lines: Iterable[PayLine], categories: tuple[str, ...] = CATEGORIES) -> tuple[PayLine, ...]:
    """The lines from the best hand down (``categories`` weakest first); higher pairs first,
    a category's own line (the hands its lines of ranks leave) after them."""
    return tuple(sorted(lines, key=lambda p: (-categories.index(p.category), p.name == p.category, -p.high)))
