"""Advice for one state, the optimal strategy by hand class and the simple strategy."""

import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from analysis.counting.symmetry import suit_permutations
from analysis.engine.return_engine import ReturnEngine
from analysis.engine.simulation import stored_keys
from analysis.hands.classes import HAND_CLASSES, hand_profile
from analysis.model.cards import format_cards, parse_cards
from analysis.model.outcomes import COLUMNS, STATE_KEYS
from analysis.model.payoffs import outcome_payoffs, row_of
from analysis.model.paytable import PayTable
from analysis.model.rules import preset
from analysis.parallel.options import RunOptions
from analysis.store.runs import ensure_store
from analysis.store.shards import StoreError
from analysis.strategy.advice import advise, stored_state
from analysis.strategy.by_hand import analyse_strategy
from analysis.strategy.simple import NEVER, SIMPLE_RULES, SimpleStrategy, top_two_text
from naive import naive_state_counts


def ev_from_counts(rules, counts, paytable=None):
    """EV(call) per ante from the 40 counts, settled outcome by outcome."""
    pay = outcome_payoffs(PayTable.load(paytable), rules)
    return sum(int(n) * pay[row_of(column)] for column, n in zip(COLUMNS, counts)) / Fraction(rules.completions)


def test_advise_matches_naive_enumeration_on_a_small_deck():
    rules = preset("casino-omaha").small_deck("789TJQKA", "cdh")
    hole, flop = "Ac Kd 7h", "Qc Jd 9c"
    a = advise(hole, flop, rules, enumerate_state=True)
    naive = naive_state_counts(rules, parse_cards(hole), parse_cards(flop))
    ev = ev_from_counts(rules, naive)
    assert a.ev_call == ev and a.ev_fold == -1
    assert a.decision == ("call" if ev > -1 else "fold")
    assert a.hand == "gutshot straight draw"
    madrid = advise(hole, flop, rules, "madrid", "call", enumerate_state=True)
    pays = outcome_payoffs(PayTable.load("madrid"), rules, "call")
    assert madrid.ev_call == sum(int(n) * pays[row_of(c)] for c, n in zip(COLUMNS, naive)) / Fraction(rules.completions)


@pytest.mark.slow
def test_advise_matches_naive_enumeration_full_deck():
    for hole, flop in [("As Kd 7h", "Qs Jd 2c"), ("7c 7d 2s", "Ks 9d 3c")]:
        a = advise(hole, flop, enumerate_state=True)
        naive = naive_state_counts(preset("casino-omaha"), parse_cards(hole), parse_cards(flop))
        assert a.ev_call == ev_from_counts(preset("casino-omaha"), naive)


@pytest.mark.slow
def test_advise_agrees_with_the_engine_for_random_states(omaha):
    """Random stored states, shown as real deals under a random suit relabelling and card
    order: advise (reading one shard of the store) gives the engine's EV and decision."""
    rules, engine = omaha
    rng = np.random.default_rng(4)
    paytable = PayTable.load(None)
    calls = engine.decide(paytable).calls
    coef, base, d = engine.coefficients(paytable, "ante")
    hole, flop = engine.cards()
    perms = suit_permutations(rules.suits)
    rows = rng.choice(engine.states, size=25, replace=False)
    for row, counts in zip(rows, engine.pay.unpack(rows)):
        p = perms[rng.integers(len(perms))]
        h, f = rng.permutation(p[hole[row]]), rng.permutation(p[flop[row]])
        a = advise(format_cards(h), format_cards(f))
        assert a.source.startswith("outcome store")
        margin = Fraction(sum(c * int(n) for c, n in zip(coef, counts)) + base, d * rules.completions)
        assert a.ev_call == margin - 1
        assert a.decision == ("call" if calls[row] else "fold")


def test_advise_reads_one_row_of_the_derived_arrays_as_the_shard_gives_it(tmp_path):
    """With the engine's arrays and the hand profile kept (and the state keys, made by the
    first question), a state's counts and hand class come from its row of each: the same as
    its shard and its cards give. A flipped byte there is refused with the command that
    mends the store."""
    rules = preset("casino-omaha").small_deck("89TJQKA", "cd")
    store = ensure_store(rules, RunOptions(root=tmp_path, progress=False))
    engine = ReturnEngine.from_store(store)
    hole, flop = engine.cards()
    assert stored_state(store, hole[0].tolist(), flop[0].tolist()) is None  # no hand profile yet
    assert store.open_derived(STATE_KEYS) is None  # and nothing made for it
    engine.hand_profile()
    assert stored_state(store, hole[0].tolist(), flop[0].tolist())[0].tolist() == engine.state_counts([0])[0].tolist()
    assert store.open_derived(STATE_KEYS)["keys"].whole().tolist() == stored_keys(engine).tolist()
    rng = np.random.default_rng(7)
    perms = suit_permutations(rules.suits)
    for row in rng.choice(engine.states, size=30, replace=False):
        p = perms[rng.integers(len(perms))]
        h, f = rng.permutation(p[hole[row]]).tolist(), rng.permutation(p[flop[row]]).tolist()
        counts, hand = stored_state(store, h, f)
        assert counts.tolist() == store.read_state(h, f).tolist() == engine.state_counts([row])[0].tolist()
        assert hand == int(hand_profile(rules, [h], [f]).hand_class[0])
    a = advise(format_cards(h), format_cards(f), rules, store_root=tmp_path)
    b = advise(format_cards(h), format_cards(f), rules, enumerate_state=True)
    assert (a.ev_call, a.hand, a.source) == (b.ev_call, b.hand, f"outcome store {store.checksum[:16]}")
    pay = store.path / "derived" / "engine" / "pay.npy"
    data = bytearray(pay.read_bytes())
    data[store.open_derived("engine")["pay"].start + int(row) * engine.pay.ncols * engine.pay.width + 1] ^= 0x10
    pay.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="do not match their SHA-256; run `analysis.ensure_store"):
        advise(format_cards(h), format_cards(f), rules, store_root=tmp_path)


def test_advise_from_the_derived_arrays_imports_nothing_heavy(tmp_path):
    """The command's path to one state's advice, in a fresh process: no pandas, no pyarrow
    (the shard is not read), no plotting, no cluster."""
    rules = preset("casino-omaha").small_deck("89TJQKA", "cd")
    store = ensure_store(rules, RunOptions(root=tmp_path, progress=False))
    ReturnEngine.from_store(store).hand_profile()
    advise("Ac Kd 9c", "Qc Jd 8d", rules, store_root=tmp_path)  # the first question makes the state keys
    code = (
        "import sys\nfrom analysis.cli import parser\nfrom analysis.model.rules import preset\n"
        "from analysis.strategy.advice import advise\n"
        "rules = preset('casino-omaha').small_deck('89TJQKA', 'cd')\n"
        f"a = advise('Ac Kd 9c', 'Qc Jd 8d', rules, store_root={str(tmp_path)!r})\n"
        "print(a.source, a.hand, a.ev_call)\n"
        "print(sorted(m for m in ('pandas', 'pyarrow', 'matplotlib', 'scipy', 'dask', 'tqdm') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    want = advise("Ac Kd 9c", "Qc Jd 8d", rules, enumerate_state=True)
    answer = f"outcome store {store.checksum[:16]} {want.hand} {want.ev_call}"
    assert out.stdout.splitlines() == [answer, "[]"], out.stderr


@pytest.mark.slow
def test_advise_command_prints_the_decision(holdem, cli):
    out = cli("advise", "As Kd", "--flop", "Qs Jd 2c", "--game", "casino-holdem")
    assert out.returncode == 0, out.stderr
    a = advise("As Kd", "Qs Jd 2c", "casino-holdem", enumerate_state=True)
    assert f"exact {a.ev_call}" in out.stdout
    assert a.decision.upper() in out.stdout
    data = cli("advise", "As Kd", "--flop", "Qs Jd 2c", "--game", "casino-holdem", "--format", "json").json()
    assert Fraction(data["ev_call_exact"]) == a.ev_call and data["hand"] == a.hand


@pytest.mark.parametrize(
    "args, message",
    [
        (["As Kd 1h", "--flop", "Qs Jd 2c"], "bad card '1h': unknown rank '1'"),
        (["As Kd 7x", "--flop", "Qs Jd 2c"], "bad card '7x': unknown suit 'x'"),
        (["As Kd", "--flop", "Qs Jd 2c"], "hole cards 'As Kd': expected 3 cards, got 2"),
        (["As Kd 7h", "--flop", "Qs Jd"], "flop 'Qs Jd': expected 3 cards, got 2"),
        (["As As 7h", "--flop", "Qs Jd 2c"], "duplicate card 'As' in 'As As 7h'"),
        (["As Kd 7h", "--flop", "Qs Jd As"], "card As is dealt twice"),
        (
            ["As Kd 7h", "--flop", "Qs Jd 2c", "--game", "casino-holdem"],
            "hole cards 'As Kd 7h': expected 2 cards, got 3",
        ),
    ],
)
def test_bad_cards_give_one_clear_line(args, message, cli):
    out = cli("advise", *args)
    assert out.returncode == 2
    assert message in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_missing_flop_is_a_usage_error(cli):
    out = cli("advise", "As Kd 7h")
    assert out.returncode == 2 and "--flop" in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_simple_strategy_rules_in_words_and_decisions():
    rules = preset("casino-omaha")
    s = SimpleStrategy(
        {
            "made": (0, 0),
            "strong draw": (0, 0),
            "gutshot": (13 * 8 + 5, 13 * 5 + 3),
            "flop pair": (NEVER, NEVER),
            "rest": (13 * 12 + 10, 13 * 11 + 7),
        }
    )
    lines = s.describe()
    assert len(lines) == len(SIMPLE_RULES)
    assert lines[2] == (
        "A gutshot straight draw: call with 7-5 or better when holding three to a flush, "
        "otherwise with T-7 or better; fold the rest."
    )
    assert lines[3] == "Only the flop's pair: fold."
    holes = [parse_cards(h) for h in ("Ac Qd 3h", "Ac Jd 3h", "Kc 9c 3h", "Kc 9d 3h", "As Kd 7h", "Ts 7d 2c")]
    flops = [parse_cards(f) for f in ("9s 6d 2c", "9s 6d 2c", "8c 6d 2h", "8c 6d 2h", "Qs Jd 3c", "8s 9d 3h")]
    profile = hand_profile(rules, holes, flops)
    assert [HAND_CLASSES[c] for c in profile.hand_class] == [
        "two or more overcards",
        "two or more overcards",
        "three to a flush",
        "two or more overcards",
        "gutshot straight draw",
        "open-ended straight draw",
    ]
    assert s.decide(profile).tolist() == [True, False, True, False, True, True]
    assert top_two_text(0) == "any cards" and top_two_text(NEVER) == "no cards"


def test_simple_strategy_on_a_small_deck_is_locally_best():
    """Moving any threshold of the derived simple strategy to a neighbouring key never
    lowers its exact house edge (each evaluated through a full return table)."""
    from analysis.counting.enumeration import count_flops, plan

    rules = preset("casino-omaha").small_deck("789TJQKA", "cdh")
    engine = ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules)
    a = analyse_strategy(engine)
    simple = a.results["simple"].exact.house_edge
    assert a.results["optimal"].exact.house_edge <= simple
    profile = engine.hand_profile()
    keys = sorted({int(k) for k in profile.top_two} | {0, NEVER})
    for rule in SIMPLE_RULES:
        for side in (0, 1):
            t = a.simple.thresholds[rule.name][side]
            for other in keys:
                if rule.by_cards or other in (0, NEVER):
                    pair = list(a.simple.thresholds[rule.name])
                    pair[side] = other
                    if not rule.by_cards:
                        pair = [other, other]
                    moved = SimpleStrategy(a.simple.thresholds | {rule.name: tuple(pair)})
                    edge = engine.decide(None, lambda e, *_, s=moved: s.decide(e.hand_profile())).exact.house_edge
                    assert edge >= simple, (rule.name, side, t, other)


@pytest.mark.slow
def test_simple_strategy_cost_adds_up_exactly(omaha):
    """The per-rule costs equal the difference of the house edges of the two return tables,
    and the per-class profile counts every state once."""
    rules, engine = omaha
    a = analyse_strategy(engine)
    opt, simple = a.results["optimal"].exact, a.results["simple"].exact
    cost = simple.house_edge - opt.house_edge
    assert sum(Fraction(c) for c in a.rule_costs.cost_vs_optimal_exact) == cost
    assert Fraction(a.comparison.set_index("strategy").loc["simple", "cost_vs_optimal_exact"]) == cost
    assert 0 < cost < a.results["always-call"].exact.house_edge - opt.house_edge
    assert int(a.profile.states.sum()) == rules.states
    called = (a.profile.optimal_call_rate * a.profile.states).sum()
    assert called == pytest.approx(float(opt.call_rate) * rules.states, rel=1e-12)
    # the README's figures: simple 1.1666%, optimal 0.3396%
    assert simple.house_edge == Fraction(5426070351277, 465108712068000)
    assert a.simple.thresholds["made"] == (0, 0) and a.simple.thresholds["strong draw"] == (0, 0)
    assert a.profile.set_index("hand").loc["four to a flush", "optimal_call_rate"] == 1
