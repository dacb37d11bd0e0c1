"""Suit symmetry: canonical states are invariant under suit permutations."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.counting.symmetry import canonical_states, flop_classes, flop_holdings, suit_permutations
from analysis.model.outcomes import colex_codes
from analysis.model.rules import preset

SUITS = (0, 1, 2, 3)


@settings(max_examples=200)
@given(st.lists(st.integers(0, 51), min_size=6, max_size=6, unique=True), st.permutations(SUITS))
def test_canonical_state_is_the_same_for_every_suit_relabelling(cards, image):
    hole, flop = np.array([cards[:3]]), np.array([cards[3:]])
    perm = np.arange(52)
    perm[np.arange(52)] = (np.arange(52) // 4) * 4 + np.array(image)[np.arange(52) % 4]
    assert canonical_states(hole, flop, SUITS) == canonical_states(perm[hole], perm[flop], SUITS)


def test_canonical_state_is_an_image_of_the_state():
    rng = np.random.default_rng(3)
    perms = suit_permutations(SUITS)
    for _ in range(50):
        cards = rng.choice(52, 6, replace=False)
        flop_code, hole_code = canonical_states(cards[None, :3], cards[None, 3:], SUITS)
        images = {(int(colex_codes(p[cards[3:]][None])[0]), int(colex_codes(p[cards[:3]][None])[0])) for p in perms}
        assert (int(flop_code[0]), int(hole_code[0])) in images


def test_holding_orbits_cover_every_holding_once():
    rules = preset("casino-omaha")
    classes = flop_classes(rules.deck, rules.suits)
    for fc in (classes[0], classes[100], classes[-1]):
        holdings, sizes = flop_holdings(fc, rules.deck, 3)
        assert sizes.sum() == 18424 and len(fc.stabilizer) * len(holdings) >= 18424
