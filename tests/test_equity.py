"""Exact Omaha equity against a brute force over every board (batch evaluators, no triple
tables), against pokerkit (independent hand evaluation) and against poker-equity
(an independent exact equity engine); exact bookkeeping; the CLI."""

import json
from collections import Counter
from fractions import Fraction
from itertools import combinations

import numpy as np
import poker_equity
import pokerkit
import pytest

from analysis import _omaha
from analysis.model.cards import format_cards, parse_cards
from analysis.omaha4.equity import compute_equity
from analysis.omaha4.evaluators import omaha_high, omaha_low


def random_spot(seed: int, hands: int, board: int, dead: int = 0):
    rng = np.random.default_rng(seed)
    cards = [int(c) for c in rng.permutation(52)[: 4 * hands + board + dead]]
    return (
        [cards[4 * i : 4 * i + 4] for i in range(hands)],
        cards[4 * hands : 4 * hands + board],
        cards[4 * hands + board :],
    )


def brute_force(hands, board, dead, hilo) -> Counter:
    """Every board evaluated with the batch evaluators; outcomes counted in numpy."""
    used = {c for h in hands for c in h} | set(board) | set(dead)
    rest = [c for c in range(52) if c not in used]
    k = 5 - len(board)
    draws = np.array(list(combinations(rest, k)), dtype=np.int8).reshape(-1, k) if k else np.zeros((1, 0), np.int8)
    boards = np.ascontiguousarray(np.hstack([np.tile(np.array(board, dtype=np.int8), (len(draws), 1)), draws]))
    bits = 1 << np.arange(len(hands))
    highs = np.stack([omaha_high(np.tile(np.int8(h), (len(boards), 1)), boards) for h in hands], axis=1)
    high = ((highs == highs.max(axis=1, keepdims=True)) * bits).sum(axis=1)
    low = np.zeros_like(high)
    if hilo:
        lows = np.stack([omaha_low(np.tile(np.int8(h), (len(boards), 1)), boards) for h in hands], axis=1)
        best = lows.max(axis=1, keepdims=True)
        low = np.where(best[:, 0] > 0, ((lows == best) * bits).sum(axis=1), 0)
    return Counter({(int(h), int(lo)): int(c) for (h, lo), c in Counter(zip(high, low)).items()})


def pokerkit_outcomes(hands, board, hilo) -> Counter:
    """Every board evaluated by pokerkit."""
    used = {c for h in hands for c in h} | set(board)
    rest = [c for c in range(52) if c not in used]
    text = [format_cards(h).replace(" ", "") for h in hands]
    out = Counter()
    for draw in combinations(rest, 5 - len(board)):
        b = format_cards(board + list(draw)).replace(" ", "")
        highs = [pokerkit.OmahaHoldemHand.from_game(h, b) for h in text]
        high = sum(1 << i for i, v in enumerate(highs) if v == max(highs))
        low = 0
        if hilo:
            lows = []
            for h in text:
                try:
                    lows.append(pokerkit.OmahaEightOrBetterLowHand.from_game(h, b))
                except ValueError:  # no qualifying low
                    lows.append(None)
            made = [v for v in lows if v is not None]
            if made:
                low = sum(1 << i for i, v in enumerate(lows) if v is not None and v == max(made))
        out[high, low] += 1
    return out


@pytest.mark.parametrize(
    "seed, hands, board, dead, hilo",
    [
        (1, 2, 0, 0, True),  # heads-up preflop: all 1,086,008 boards
        (2, 6, 0, 0, True),  # six hands preflop
        (3, 3, 0, 4, False),  # dead cards
        (4, 4, 3, 2, True),  # flop
        (5, 5, 4, 1, True),  # turn
        (6, 2, 5, 0, True),  # river: one board
    ],
)
def test_kernel_equals_brute_force(seed, hands, board, dead, hilo):
    h, b, d = random_spot(seed, hands, board, dead)
    result = compute_equity(h, b, d, hilo=hilo)
    assert Counter(result.outcomes) == brute_force(h, b, d, hilo)


@pytest.mark.parametrize(
    "hands, board",
    [
        (["As 2s 3d Kd", "Ah 4h 5c Qc", "7d 8d 9h Th"], "2h 3c 6s Ks"),  # lows, counterfeits, flush draws
        (["Ac 2c 3c 4c", "Ad 2d Kh Qh", "5s 6s 7s 8s"], "3s 4d 9s"),  # duplicated low ranks, straight flushes
        (["9c Tc Jc Qc", "9d Td Jd Qd", "Ks Kh 2d 2c"], "9h Th Jh Qh"),  # ties for the high
    ],
)
def test_kernel_equals_pokerkit(hands, board):
    parsed = [parse_cards(h) for h in hands]
    b = parse_cards(board)
    for hilo in (False, True):
        assert Counter(compute_equity(parsed, b, hilo=hilo).outcomes) == pokerkit_outcomes(parsed, b, hilo)


@pytest.mark.slow
def test_flop_heads_up_equals_pokerkit():
    hands, board = [parse_cards("As 2d 5h Kc"), parse_cards("Ac 3c 4s Qd")], parse_cards("2s 3h Kd")
    assert Counter(compute_equity(hands, board, hilo=True).outcomes) == pokerkit_outcomes(hands, board, True)


def pe_text(hand) -> str:
    return format_cards(hand).replace(" ", "")


@pytest.mark.parametrize("seed, hands, board", [(11, 2, 0), (12, 3, 0), (13, 4, 3), (14, 6, 4)])
def test_agrees_with_poker_equity(seed, hands, board):
    h, b, _ = random_spot(seed, hands, board)
    for hilo, game in ((False, "omaha"), (True, "omaha_hi_lo")):
        ours = compute_equity(h, b, hilo=hilo)
        theirs = poker_equity.exact_from_text(game, [pe_text(x) for x in h], pe_text(b), "")
        assert theirs["exact"] and theirs["samples"] == ours.boards
        counts = ours.counts()
        if hilo:
            for mine, their in (
                ("high_win", "high_win_count"),
                ("high_tie", "high_tie_count"),
                ("low_win", "low_win_count"),
                ("low_tie", "low_tie_count"),
                ("scoop", "scoop_count"),
            ):
                assert [c[mine] for c in counts] == theirs[their], mine
        else:
            assert [c["win"] for c in counts] == theirs["win_count"]
        shares = [u / ours.units_per_pot for u in ours.pot_units()]
        assert shares == pytest.approx(theirs["share_sum"], rel=1e-12, abs=1e-6)


def test_outcome_sets_decode_the_histogram_layout():
    """Entry high | low << 6 of the kernel's histogram (see equity_histogram) is the outcome
    (high, low); empty entries are left out; only a histogram of 4096 entries is accepted."""
    hist = np.zeros(4096, dtype=np.int64)
    hist[0b000011 | 0b000010 << 6] = 5  # hands 0 and 1 tie for the high, hand 1 has the low
    hist[0b100000] = 7  # hand 5 has the high, no low
    hist[0b000001 | 0b111111 << 6] = 2
    assert _omaha.outcome_sets(hist) == {(0b11, 0b10): 5, (0b100000, 0): 7, (0b1, 0b111111): 2}
    with pytest.raises(ValueError, match="4096 entries"):
        _omaha.outcome_sets(np.zeros(64, dtype=np.int64))


@pytest.mark.parametrize("seed, hands, board", [(21, 2, 0), (22, 3, 3), (23, 5, 4), (24, 6, 0)])
def test_exact_bookkeeping(seed, hands, board):
    h, b, _ = random_spot(seed, hands, board)
    for hilo in (False, True):
        r = compute_equity(h, b, hilo=hilo)
        assert sum(r.pot_units()) == r.units_per_pot * r.boards
        assert sum(r.equities()) == 1
        for c in r.counts():
            if hilo:
                assert c["scoop"] + c["high_only"] + c["low_only"] + c["split"] + c["nothing"] == r.boards
                assert c["high_win"] + c["high_tie"] <= r.boards and c["quarter"] <= r.boards - c["nothing"]
            else:
                assert c["win"] + c["tie"] + c["lose"] == r.boards
        for pot in (1, 3, 101, r.units_per_pot):
            chips = r.chips(pot)
            assert sum(chips) == pot
        # a pot every split divides leaves no odd chips: chips are exactly the pot shares
        assert [c / r.units_per_pot for c in r.chips(r.units_per_pot)] == r.equities()


def test_odd_chip_goes_to_the_high_half():
    # one river board: hand 1 wins the high, hand 2 the low
    r = compute_equity(["Ks Kh Qd Jd", "As 2h 9c 9d"], board="Kd 3c 4s 7h Tc", hilo=True)
    assert r.outcomes == {(0b01, 0b10): 1}
    assert r.equities() == [Fraction(1, 2), Fraction(1, 2)]
    assert r.chips(5) == [3, 2] and r.chips(4) == [2, 2]
    df = r.frame(pot_chips=5)
    assert list(df["odd_chip_effect"]) == [0.1, -0.1]
    effects = r.odd_chip_effects([4, 5, 7])
    assert effects.loc[4].tolist() == [0.0, 0.0] and effects.loc[7].tolist() == [
        float(Fraction(4, 7) - Fraction(1, 2)),
        float(Fraction(3, 7) - Fraction(1, 2)),
    ]


def test_threads_do_not_change_counts():
    h, b, _ = random_spot(31, 3, 0)
    assert compute_equity(h, b, hilo=True, threads=1).outcomes == compute_equity(h, b, hilo=True, threads=2).outcomes


def test_frame_columns():
    hands, board = ["As Ah Ks Kh", "7c 8d 9c Td"], "Tc 9d 2c 3h"
    result = compute_equity(hands, board=board, hilo=True)
    # the 40 rivers, each evaluated by the brute force: the aces scoop 6 and take the high of
    # one more, whose low goes to the other hand; the other hand scoops the other 33 (20 with
    # no low made, 13 with its own low)
    want = {(0b01, 0): 6, (0b10, 0): 20, (0b01, 0b10): 1, (0b10, 0b10): 13}
    assert Counter(result.outcomes) == brute_force([parse_cards(h) for h in hands], parse_cards(board), [], True)
    assert result.outcomes == want
    df = result.frame(pot_chips=7)
    assert list(df["hand"]) == hands
    assert result.boards == 40 and result.units_per_pot == 4
    assert df["equity_exact"].tolist() == [Fraction(13, 80), Fraction(67, 80)]  # (6 + 1/2) / 40, (20 + 13 + 1/2) / 40
    assert df["equity"].tolist() == [13 / 80, 67 / 80] and df["pot_units"].tolist() == [26, 134]
    counts = {"scoop": [6, 33], "high_only": [1, 0], "low_only": [0, 1], "split": [0, 0], "nothing": [33, 6]}
    counts |= {"quarter": [0, 0], "high_win": [7, 33], "high_tie": [0, 0], "low_win": [0, 14], "low_tie": [0, 0]}
    for column, values in counts.items():
        assert df[column].tolist() == values, column
    # 7 chips: a scoop takes 7; a split pot 4 (the odd chip to the high half) and 3
    chips = [Fraction(6 * 7 + 4, 40), Fraction(20 * 7 + 13 * 7 + 3, 40)]
    assert df["chips"].tolist() == [float(c) for c in chips]
    assert df["odd_chip_effect"].tolist() == [float(c / 7 - e) for c, e in zip(chips, df["equity_exact"])]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(hands=["As Ah Ks Kh"]), "2 to 6 hands, got 1"),
        (dict(hands=["As Ah Ks Kh"] * 2), "card As is dealt twice"),
        (dict(hands=[f"{r}c {r}d {r}h {r}s" for r in "2345678"]), "2 to 6 hands, got 7"),
        (dict(hands=["As Ah Ks Kh", "7c 8d 9c"]), "hand 2 '7c 8d 9c': expected 4 cards, got 3"),
        (dict(hands=["As Ah Ks Kh", "7c 8d 9c Zd"]), "bad card 'Zd'"),
        (dict(hands=["As Ah Ks Kh", "7c 8d 9c Td"], board="2c 3c"), "expected 0, 3, 4 or 5 cards, got 2"),
        (dict(hands=["As Ah Ks Kh", "7c 8d 9c Td"], board="2c 3c 7c"), "card 7c is dealt twice"),
        (dict(hands=["As Ah Ks Kh", "7c 8d 9c Td"], dead="Td"), "card Td is dealt twice"),
        (dict(hands=[[51, 50, 49, 48], [0, 1, 2, 60]]), "outside 0..51"),
    ],
)
def test_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        compute_equity(**kwargs)


def test_not_enough_cards():
    hands = [" ".join(f"{r}{s}" for s in "cdhs") for r in "23456"]
    dead = " ".join(f"{r}{s}" for r in "789TJQ" for s in "cdhs") + " Kc Kd Kh Ks"
    with pytest.raises(ValueError, match="only 4 cards left to deal 5"):
        compute_equity(hands, dead=dead)


def test_cli_json_holds_exact_counts(cli):
    out = cli(
        "equity", "As 2h Ks 3h", "7c 8d 9c Td", "--board", "3c 8h Kd", "--hilo", "--format", "json", "--pot-chips", "3"
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    r = compute_equity(["As 2h Ks 3h", "7c 8d 9c Td"], board="3c 8h Kd", hilo=True)
    assert data["boards"] == r.boards == 820 and data["units_per_pot"] == 4
    assert [h["cards"] for h in data["hands"]] == ["As 2h Ks 3h", "7c 8d 9c Td"]
    assert [h["pot_units"] for h in data["hands"]] == r.pot_units()
    assert [Fraction(h["equity_fraction"]) for h in data["hands"]] == r.equities()
    assert [h["counts"] for h in data["hands"]] == r.counts()
    assert [h["equity"] for h in data["hands"]] == [float(e) for e in r.equities()]
    assert sum(Fraction(h["chips"]) for h in data["hands"]) == 3


def test_cli_table(cli):
    out = cli("equity", "As Ah Ks Kh", "7c 8d 9c Td", "--board", "Tc 9d 2c 3h")
    assert out.returncode == 0, out.stderr
    assert "40 boards enumerated" in out.stdout and "17.500000%" in out.stdout and "7/40" in out.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["equity", "As Ah Ks Kh", "As 8d 9c Td"], "card As is dealt twice"),
        (["equity", "As Ah Ks Kh", "7c 8d 9c Td", "--board", "2c"], "expected 0, 3, 4 or 5 cards"),
        (["equity", "As Ah Ks Kh", "7c 8d 9c 1d"], "bad card '1d'"),
        (["equity", "As Ah Ks Kh", "7c 8d 9c Td", "--threads", "0"], "threads must be from 1 to 256, got 0"),
        (["equity", "As Ah Ks Kh", "7c 8d 9c Td", "--pot-chips", "0"], "pot chips must be from 1 to"),
    ],
)
def test_cli_errors_are_one_line(args, message, cli):
    out = cli(*args)
    assert out.returncode == 2
    assert message in out.stderr and "Traceback" not in out.stderr and len(out.stderr.splitlines()) == 1
