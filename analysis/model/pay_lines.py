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
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError

#: The ranks in words, as a pair of them is named.
PLURALS = tuple("twos threes fours fives sixes sevens eights nines tens jacks queens kings aces".split())
#: A pair line's ranks ("pair J-A"): a rank letter, or 10 for T.
PAIR_LINE = re.compile(r"pair (10|[2-9TJQKA])-(10|[2-9TJQKA])")


@dataclass(frozen=True)
class PayLine:
    """One line of a pay table: a category, or a pair of ranks ``low``..``high`` (0 = 2s);
    ``net`` per unit (0 a push)."""

    name: str
    category: str
    net: Fraction
    low: int = 0
    high: int = 12

    def words(self) -> str:
        """The line as a sheet prints it ("Pair of jacks to aces", "Pair of aces", "Flush")."""
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
    if text in categories:
        return PayLine(text, text, net)
    raise InputError(f"{where}: unknown line {text!r}: a category ({', '.join(categories)}) or 'pair R-R'")


def check_pairs(lines: Iterable[PayLine], where: str) -> None:
    """Refuse two lines that pay the same pair (``"pair"`` beside a ``"pair R-R"`` too)."""
    pairs = sorted((p.low, p.high) for p in lines if p.category == "pair")
    if any(a[1] >= b[0] for a, b in zip(pairs, pairs[1:])):
        raise InputError(f"{where}: two pair lines cover the same rank")


def best_first(lines: Iterable[PayLine], categories: tuple[str, ...] = CATEGORIES) -> tuple[PayLine, ...]:
    """The lines from the best hand down (``categories`` weakest first); higher pairs first."""
    return tuple(sorted(lines, key=lambda p: (-categories.index(p.category), -p.high)))
