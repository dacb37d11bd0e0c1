"""Exact figures that several tests pin, each with what ties it down independently of the
code that computes it (a figure nobody checked is never pinned here)."""

from fractions import Fraction

#: Casino Hold'em, AnteWin table paid on the ante, optimal play: the house edge per ante.
#: Tied down by the published figure (Wizard of Odds: 2.16%, element of risk 0.82%, call
#: rate 82%), which tests/test_full_deck.py checks this fraction and the engine against; by
#: the 2.1576% row of the README and docs/results.md (test_readme_figures_are_the_engines);
#: and, digit for digit, by the enumerator and the return engine agreeing with the brute
#: force on every count and every figure of small decks (tests/test_enumerator.py,
#: tests/test_engine.py).
HOLDEM_OPTIMAL_EDGE = Fraction(1363917077, 63213204600)
