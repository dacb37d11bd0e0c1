"""State features against plain definitions: try every card that could come next and look
for a straight or a flush made of exactly 2 hole cards and 3 board cards (Omaha) or of
any 5 cards (Hold'em)."""

from itertools import combinations

import numpy as np
import pytest

from analysis.hands.evaluate import category_of, omaha_strength
from analysis.hands.features import state_features
from analysis.hands.lookup import _straight_top
from analysis.model.cards import RANKS, parse_cards
from analysis.model.categories import FLUSH, STRAIGHT
from analysis.model.rules import preset


def five_card_hands(rules, hole, board):
    """Every 5-card hand the rules allow from these hole cards and board cards."""
    if rules.omaha:
        for two in combinations(hole, 2):
            for three in combinations(board, 3):
                yield two + three
    else:
        yield from combinations(tuple(hole) + tuple(board), 5)


def is_straight(hand):
    ranks = sorted({c >> 2 for c in hand}, reverse=True)
    return len(ranks) == 5 and _straight_top(ranks) is not None


def is_flush(hand):
    return len({c & 3 for c in hand}) == 1


def plain_features(rules, hole, flop):
    unseen = [c for c in range(52) if c not in hole and c not in flop]
    outs = {x >> 2 for x in unseen if any(x in h and is_straight(h) for h in five_card_hands(rules, hole, flop + [x]))}
    flush_now = any(is_flush(h) for h in five_card_hands(rules, hole, flop))
    flush_next = any(x in h and is_flush(h) for x in unseen for h in five_card_hands(rules, hole, flop + [x]))
    backdoor = not flush_next and any(
        is_flush(h) for x, y in combinations(unseen, 2) for h in five_card_hands(rules, hole, flop + [x, y])
    )
    return {
        "straight_outs": len(outs),
        "flush_draw": flush_next and not flush_now,
        "backdoor_flush": backdoor and not flush_now,
        "overcards": sum(c >> 2 > max(f >> 2 for f in flop) for c in hole),
    }


def random_states(rules, n, seed):
    rng = np.random.default_rng(seed)
    cards = np.array([rng.permutation(52)[: rules.hole_cards + 3] for _ in range(n)])
    return cards[:, : rules.hole_cards], cards[:, rules.hole_cards :]


@pytest.mark.parametrize("game, seed", [("casino-omaha", 1), ("casino-holdem", 2)])
def test_features_match_plain_definitions(game, seed):
    rules = preset(game)
    holes, flops = random_states(rules, 60, seed)
    # states rich in draws: suited and connected flops
    extra_h, extra_f = [], []
    for text_h, text_f in [
        ("Ah 9h 2c", "Kh 8h Tc"),
        ("9c Td 2c", "Jh Qh 3c"),
        ("As Kd 7h", "Qs Jd 2c"),
        ("5c 6c 7d", "8c 9c 2h"),
        ("Ad 2d 3s", "4d 5d Kh"),
    ]:
        h, f = parse_cards(text_h), parse_cards(text_f)
        extra_h.append(h[: rules.hole_cards])
        extra_f.append(f)
    holes = np.concatenate([holes, extra_h])
    flops = np.concatenate([flops, extra_f])
    f = state_features(rules, holes, flops)
    for i, (h, fl) in enumerate(zip(holes.tolist(), flops.tolist())):
        plain = plain_features(rules, h, fl)
        made = int(f.made[i])
        assert bool(f.flush_draw[i]) == (plain["flush_draw"] and made < FLUSH), (h, fl)
        assert bool(f.backdoor_flush[i]) == (plain["backdoor_flush"] and made < FLUSH), (h, fl)
        assert int(f.straight_outs[i]) == (plain["straight_outs"] if made < STRAIGHT else 0), (h, fl)
        assert int(f.overcards[i]) == plain["overcards"]
        assert (int(f.high_rank[i]), int(f.second_rank[i])) == tuple(sorted((c >> 2 for c in h), reverse=True)[:2])


def test_made_hand_uses_exactly_two_hole_cards():
    rules = preset("casino-omaha")
    # three hearts in the hole and one on the flop are three to a flush (two hole cards count);
    # two hearts in the hole and three on the flop are a flush
    holes = [parse_cards("Ah Kh Qh"), parse_cards("Ah Kh 2c"), parse_cards("7c 7d 2s"), parse_cards("2c 3d 9h")]
    flops = [parse_cards("2h 7c 9s"), parse_cards("2h 7h 9h"), parse_cards("Ks Kd 3c"), parse_cards("Ks Kd 5c")]
    f = state_features(rules, holes, flops)
    assert f.made.tolist() == [0, FLUSH, 2, 1]
    assert f.flush_draw.tolist() == [False, False, False, False]
    assert f.backdoor_flush.tolist() == [True, False, False, False]
    assert f.board_pair_only.tolist() == [False, False, False, True]
    assert RANKS[int(f.made_rank[2])] == "K" and RANKS[int(f.made_rank[3])] == "K"
    assert category_of(omaha_strength(holes, flops)).tolist() == f.made.tolist()
