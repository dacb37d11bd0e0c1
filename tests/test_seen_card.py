"""One dealer card seen in a game with decisions before the flop, at the flop and at the
river: a small deck's every deal, the whole game tree played card by card by a player who
knows the card, equals the kernel's figures (edge, every street's decisions, the result by
the rank seen, and the game of a player who also saw one flop card); the full deck of
Ultimate Texas Hold'em equals its published exact edges."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations
from types import SimpleNamespace

import numpy as np
import pytest

from analysis.counting.streets import RESULTS6
from analysis.engine.streets import street_values
from analysis.hands.evaluate import best_strength
from analysis.hands.lookup import dealer_qualifier, tables
from analysis.model.cards import RANKS, format_cards
from analysis.model.errors import InputError
from analysis.model.game import game_from_document, load_game
from analysis.parallel.options import RunOptions
from analysis.protection.seen_card import solve_seen_card
from analysis.protection.seen_card_advice import advise_seen_card
from analysis.report.seen_card import seen_card_blocks
from analysis.report.streets import build_street_report
from test_streets import SMALL_GAME, STRUCTURES

FITS = [
    "ultimate (3 streets, blind, ante pushes)",
    "flop only, AnteWin, ante paid when no qualifier",
    "flop and river with a fold and two bets, pre-flop fold",
]


def game_tree_with_the_card(game):
    """The player's value (in the street values' unit), deals, decisions and value by rank
    seen, every deal played through the tree by a player who knows the dealer card d1."""
    v = street_values(game)
    deck = sorted(game.rules.deck)
    cells = [(d, p) for d in deck for p in combinations([c for c in deck if c != d], 2)]
    n = len(deck) - 3
    # positions in the cell's other cards: flop, turn and river, the dealer's unseen card
    order = np.array(
        [
            [*f, *tr, d2]
            for f in combinations(range(n), 3)
            for tr in combinations([i for i in range(n) if i not in f], 2)
            for d2 in [i for i in range(n) if i not in f and i not in tr]
        ]
    )
    nf, nr, nd = len(list(combinations(range(n), 3))), len(list(combinations(range(n - 3), 2))), n - 5
    rest = np.array([[c for c in deck if c != d and c not in p] for d, p in cells])
    dealt = rest[:, order]  # cells x deals x 6
    seen = np.array([d for d, _ in cells])[:, None, None].repeat(dealt.shape[1], axis=1)
    hole = np.array([p for _, p in cells])[:, None, :].repeat(dealt.shape[1], axis=1)
    board = dealt[:, :, :5]
    player = best_strength(np.concatenate([hole, board], axis=2).reshape(-1, 7)).astype(np.int64)
    theirs = best_strength(np.concatenate([seen, dealt[:, :, 5:], board], axis=2).reshape(-1, 7)).astype(np.int64)
    qualifies = theirs >= dealer_qualifier(game.rules.qualifier_rank)
    result = np.where(player > theirs, 0, np.where(player == theirs, 1, 2)) + 3 * qualifies
    column = (tables().category[player].astype(np.int64) * len(RESULTS6) + result).reshape(len(cells), nf, nr, nd)

    def show(m):
        return v.show[m][column]

    def pick(values):  # the first best option (they are in risk order)
        stacked = np.stack(values, axis=-1)
        return stacked.max(axis=-1), stacked.argmax(axis=-1)

    river_values = [
        np.full((len(cells), nf, nr), v.fold * nd) if o.kind == "fold" else show(o.multiple).sum(axis=3)
        for o in v.river
    ]
    river, r_choice = pick(river_values)
    flop_values = []
    for o in v.flop:
        if o.kind == "fold":
            flop_values.append(np.full((len(cells), nf), v.fold * nr * nd))
        elif o.kind == "check":
            flop_values.append(river.sum(axis=2))
        else:
            flop_values.append(show(o.multiple).sum(axis=(2, 3)))
    flop, f_choice = pick(flop_values)
    pre_values = []
    for o in v.preflop:
        if o.kind == "fold":
            pre_values.append(np.full(len(cells), v.fold * nf * nr * nd))
        elif o.kind == "check":
            pre_values.append(flop.sum(axis=1))
        else:
            pre_values.append(show(o.multiple).sum(axis=(1, 2, 3)))
    pre, p_choice = pick(pre_values)
    # a player who also saw one card f of the flop: the pre-flop options of each (cell, f),
    # the flops holding f summed
    by_flop = [
        np.full((len(cells), nf), v.fold * nr * nd)
        if o.kind == "fold"
        else (flop if o.kind == "check" else show(o.multiple).sum(axis=(2, 3)))
        for o in v.preflop
    ]
    holding = np.array([[j in f for j in range(n)] for f in combinations(range(n), 3)], dtype=np.int64)  # nf x n
    flop_card_values = [x @ holding for x in by_flop]  # per option: cells x n
    with_f, f_choice_pre = pick(flop_card_values)
    per_f = (n - 1) * (n - 2) // 2 * nr * nd  # the deals of one (cell, f)
    flop_card_preflop = {str(o): int((f_choice_pre == i).sum()) * per_f for i, o in enumerate(v.preflop)}
    # ... or one card t of the turn and river: the flop decided knowing it too, per (cell, flop, t)
    flops = list(combinations(range(n), 3))
    in_pair = np.zeros((nf, nr, n), dtype=np.int64)  # flop x its turn/river pair x position: holds t
    for fi, f in enumerate(flops):
        for r, tr in enumerate(combinations([i for i in range(n) if i not in f], 2)):
            in_pair[fi, r, list(tr)] = 1
    best_t = np.einsum("cfr,frt->cft", river, in_pair)  # the best river values of the pairs holding t
    flop_t = []
    for o in v.flop:
        if o.kind == "fold":
            flop_t.append(np.full(best_t.shape, v.fold * (n - 4) * nd))
        elif o.kind == "check":
            flop_t.append(best_t)
        else:
            flop_t.append(np.einsum("cfr,frt->cft", show(o.multiple).sum(axis=3), in_pair))
    flop_best_t, _ = pick(flop_t)
    outside = 1 - holding  # flop x t: t is not a flop card
    by_t = []
    for o in v.preflop:
        if o.kind == "fold":
            by_t.append(np.full((len(cells), n), v.fold * int(outside[:, 0].sum()) * (n - 4) * nd))
        elif o.kind == "check":
            by_t.append(np.einsum("cft,ft->ct", flop_best_t, outside))
        else:
            by_t.append(
                np.einsum("cft,ft->ct", np.einsum("cfr,frt->cft", show(o.multiple).sum(axis=3), in_pair), outside)
            )
    with_t_pre, t_choice = pick(by_t)
    per_t = int(outside[:, 0].sum()) * (n - 4) * nd  # the deals of one (cell, t)
    decisions: Counter = Counter()
    per_cell = nf * nr * nd
    for i, o in enumerate(v.preflop):
        if game.preflop:
            decisions[("preflop", str(o))] += int((p_choice == i).sum()) * per_cell
    checks = [o.kind == "check" for o in v.preflop]
    checked = np.array(checks)[p_choice]
    for j, o in enumerate(v.flop):
        if game.flop:
            decisions[("flop", str(o))] += int(((f_choice == j) & checked[:, None]).sum()) * nr * nd
    flop_checked = checked[:, None] & np.array([o.kind == "check" for o in v.flop])[f_choice]
    for j, o in enumerate(v.river):
        if game.river:
            decisions[("river", str(o))] += int(((r_choice == j) & flop_checked[:, :, None]).sum()) * nd
    rank = np.array([d >> 2 for d, _ in cells])
    by_rank = {
        RANKS[r]: Fraction(int(pre[rank == r].sum()), v.scale * int((rank == r).sum()) * per_cell)
        for r in set(rank.tolist())
    }
    return SimpleNamespace(
        expected=Fraction(int(pre.sum()), v.scale * len(cells) * per_cell),
        flop_card=Fraction(int(with_f.sum()), v.scale * len(cells) * n * per_f),
        flop_card_preflop=flop_card_preflop,
        runout_card=Fraction(int(with_t_pre.sum()), v.scale * len(cells) * n * per_t),
        runout_card_preflop={str(o): int((t_choice == i).sum()) * per_t for i, o in enumerate(v.preflop)},
        deals=len(cells) * per_cell,
        decisions=decisions,
        by_rank=by_rank,
        cells=cells,
        rest=rest,
        flops=list(combinations(range(n), 3)),
        # per option: the value summed over each cell's deals, each (cell, flop)'s, each (cell, flop, turn/river)'s
        preflop=pre_values,
        flop=flop_values,
        river=river_values,
        per=(per_cell, nr * nd, nd),
        scale=v.scale,
        # per option: the value summed over the deals of each (cell, board card position)
        flop_card_values=(flop_card_values, per_f),
        runout_card_values=(by_t, per_t),
    )


@pytest.mark.parametrize("name", FITS)
def test_every_deal_played_through_the_tree_with_the_card_equals_the_kernel(name, tmp_path):
    game = game_from_document(STRUCTURES[name], name)
    figures = solve_seen_card(game, RunOptions(root=tmp_path, threads=2), runout=True)
    tree = game_tree_with_the_card(game)
    assert figures.deals == tree.deals == 2 * game.rules.total_combinations
    assert figures.expected == tree.expected
    assert {k: n for k, n in figures.decisions.items() if n} == {k: n for k, n in tree.decisions.items() if n}
    assert figures.by_rank == tree.by_rank
    # and with one flop card seen too: the pre-flop decision of every (cell, flop card)
    assert figures.flop_card is not None and figures.flop_card.deals == 3 * tree.deals
    assert figures.flop_card.expected == tree.flop_card
    assert tree.flop_card >= tree.expected  # knowing more is never worth less
    assert figures.flop_card.preflop == tree.flop_card_preflop
    # ... or one turn or river card, the flop decided knowing it too
    assert figures.runout_card is not None and figures.runout_card.deals == 2 * tree.deals
    assert figures.runout_card.expected == tree.runout_card >= tree.expected
    assert figures.runout_card.preflop == tree.runout_card_preflop
    # the card is worth something, and never less than nothing
    assert figures.house_edge < figures.base.house_edge
    again = solve_seen_card(game, RunOptions(root=tmp_path, threads=1), runout=True)  # read back from its store
    assert again.expected == figures.expected and again.decisions == figures.decisions
    assert again.runout_card == figures.runout_card


@pytest.mark.parametrize("name", FITS)
def test_advice_with_the_card_is_the_tree_at_each_street(name, tmp_path):
    """Random states' EVs before the flop (from the solved classes), at the flop and at the
    river (each enumerated on its own) equal the tree's values of the same state."""
    game = game_from_document(STRUCTURES[name], name)
    figures = solve_seen_card(game, RunOptions(root=tmp_path, threads=2))
    tree = game_tree_with_the_card(game)
    v = street_values(game)
    rng = np.random.default_rng(7)
    for i in rng.choice(len(tree.cells), 6, replace=False):
        seen, hole = tree.cells[i]
        f = int(rng.integers(len(tree.flops)))
        flop = [int(tree.rest[i][j]) for j in tree.flops[f]]
        left = [c for c in tree.rest[i] if c not in flop]
        r = int(rng.integers(len(list(combinations(left, 2)))))
        board = flop + list(list(combinations(left, 2))[r])
        args = (game, format_cards(hole), format_cards([seen]))
        for street, cards, values, at, per in [
            ("preflop", [], tree.preflop, (i,), tree.per[0]),
            ("flop", flop, tree.flop, (i, f), tree.per[1]),
            ("river", board, tree.river, (i, f, r), tree.per[2]),
        ]:
            a = advise_seen_card(*args, format_cards(cards), figures)
            options = {"preflop": v.preflop, "flop": v.flop, "river": v.river}[street]
            want = {str(o): Fraction(int(x[at]), tree.scale * per) for o, x in zip(options, values)}
            assert (a.street, a.evs) == (street, want)


@pytest.mark.parametrize("name", FITS)
def test_advice_with_a_board_card_seen_too_is_the_tree(name, tmp_path):
    """Before the flop, a flop card or a turn or river card seen besides the dealer's: random
    states' EVs (read from the count's classes) equal the tree's values of the same state."""
    game = game_from_document(STRUCTURES[name], name)
    figures = solve_seen_card(game, RunOptions(root=tmp_path, threads=2), runout=True)
    tree = game_tree_with_the_card(game)
    v = street_values(game)
    rng = np.random.default_rng(11)
    for i in rng.choice(len(tree.cells), 8, replace=False):
        seen, hole = tree.cells[i]
        j = int(rng.integers(len(tree.rest[i])))
        card = format_cards([int(tree.rest[i][j])])
        for runout, (values, per) in ((False, tree.flop_card_values), (True, tree.runout_card_values)):
            a = advise_seen_card(game, format_cards(hole), format_cards([seen]), "", figures, card, runout)
            want = {str(o): Fraction(int(x[i, j]), tree.scale * per) for o, x in zip(v.preflop, values)}
            assert (a.street, a.evs, a.board_seen.endswith(card)) == ("preflop", want, True)


def test_a_game_of_another_shape_is_refused():
    with pytest.raises(InputError, match="one dealer card seen is counted for games of two hole cards"):
        solve_seen_card(load_game("casino-omaha-ultimate"))
    with pytest.raises(InputError, match="one dealer card seen is counted for games"):
        solve_seen_card(load_game("texas-holdem-bonus"))


def test_protect_counts_a_game_file_with_one_dealer_card_seen(cli, tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL_GAME)
    store = ("--store", tmp_path / "store", "--no-cluster", "--no-progress")
    data = cli("protect", "--game", path, "--exposed", "1", *store, "--format", "json").json()
    figures = solve_seen_card(load_game(path), RunOptions(root=tmp_path / "store", progress=False))
    assert Fraction(data["house_edge_exact"]) == figures.house_edge < Fraction(data["base_house_edge_exact"])
    assert data["deals"] == figures.deals
    assert data["checksum"] == figures.checksum and len(figures.checksum) == 64
    rates = {(d["street"], d["option"]): d["with_the_card"] for d in data["decisions"]}
    assert rates[("river", "fold")] == float(Fraction(figures.decisions[("river", "fold")], figures.deals))
    assert set(data["ev_by_rank_seen"]) == set("9TJQKA")
    flop_card = data["with_a_flop_card_seen"]
    assert Fraction(flop_card["house_edge_exact"]) == figures.flop_card.house_edge <= figures.house_edge
    assert flop_card["deals"] == 3 * figures.deals and sum(flop_card["preflop"].values()) == pytest.approx(1)
    text = cli("protect", "--game", path, "--exposed", "1", *store)
    assert text.returncode == 0, text.stderr
    assert f"(exact {figures.house_edge})" in text.stdout
    assert "at the river, fold" in text.stdout and "bets where the optimal player checks" in text.stdout
    assert f"checksum {figures.checksum[:16]}" in text.stdout
    assert (
        "with one card of the flop seen too" in text.stdout and f"(exact {figures.flop_card.house_edge})" in text.stdout
    )
    assert data["with_a_turn_or_river_card_seen"] is None and "the turn or the river card" not in text.stdout
    fuller = cli("protect", "--game", path, "--exposed", "1", "--runout-card", *store, "--format", "json").json()
    runout = solve_seen_card(load_game(path), RunOptions(root=tmp_path / "store", progress=False), runout=True)
    assert fuller["house_edge_exact"] == data["house_edge_exact"] and fuller["checksum"] != data["checksum"]
    assert Fraction(fuller["with_a_turn_or_river_card_seen"]["house_edge_exact"]) == runout.runout_card.house_edge


@pytest.mark.parametrize(
    "game, args, message",
    [
        ("texas-holdem-bonus", ["--exposed", "1"], "`protect` counts one dealer card seen in games of two hole cards"),
        ("casino-omaha-ultimate", ["--exposed", "1"], "`protect` counts one dealer card seen in games of two hole"),
        ("ultimate-texas-holdem", ["--exposed", "2"], "two cards seen, the turn seen early and colluding seats are"),
        ("ultimate-texas-holdem", ["--turn"], "`protect` counts one dealer card seen (`--exposed 1`)"),
        ("ultimate-texas-holdem", ["--exposed", "1", "--paytable", "madrid"], "--paytable: only for casino-omaha"),
        ("casino-holdem", ["--exposed", "1", "--runout-card"], "--runout-card is counted in games with several"),
    ],
)
def test_protect_says_in_one_line_what_it_does_not_count(cli, game, args, message):
    out = cli("protect", "--game", game, *args, "--no-cluster")
    assert out.returncode == 2 and message in out.stderr, out.stderr
    assert out.stderr.count("\n") == 1


def test_advise_with_a_dealer_card_seen_at_each_street(cli, tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL_GAME)
    game = load_game(path)
    figures = solve_seen_card(game, RunOptions(root=tmp_path / "store", progress=False))
    for board in ([], ["--flop", "Tc Jd 9d"], ["--board", "Tc Jd 9d Qc Kd"]):
        data = cli("advise", "Ac Kc", "--game", path, "--exposed", "9c", *board, "--store", tmp_path / "store")
        assert data.returncode == 0, data.stderr
        a = advise_seen_card(game, "Ac Kc", "9c", board[1] if board else "", figures)
        assert "the dealer's 9c seen" in data.stdout
        for option, ev in a.evs.items():
            assert f"EV({option}) {float(ev):+.6f} antes  (exact {ev})" in data.stdout
    out = cli("advise", "Ac Kc", "--game", "texas-holdem-bonus", "--exposed", "9c", "--flop", "Tc Jd 9d")
    assert out.returncode == 2 and "--exposed: a dealer card seen is advised in games of two hole cards" in out.stderr
    twice = cli("advise", "Ac Kc", "--game", path, "--exposed", "Ac", "--flop", "Tc Jd 9d")
    assert twice.returncode == 2 and "card Ac is dealt twice" in twice.stderr
    # a board card seen too, before the flop: the count with it (the turn or river's counted on asking)
    store = ["--store", tmp_path / "store"]
    for option, runout in (("--flop-card", False), ("--runout-card", True)):
        run = cli("advise", "Ac Kc", "--game", path, "--exposed", "9c", option, "Qd", *store, "--format", "json")
        a = advise_seen_card(
            game, "Ac Kc", "9c", "", solve_seen_card(game, RunOptions(root=tmp_path / "store"), runout), "Qd", runout
        )
        assert run.json()["evs"] == {o: str(ev) for o, ev in a.evs.items()}
        assert run.json()["board_card_seen"] == ("turn or river card Qd" if runout else "flop card Qd")
    for args, message in [
        (("--flop-card", "Qd"), "go with --exposed"),
        (("--exposed", "9c", "--flop-card", "Qd", "--runout-card", "Qh"), "one board card seen"),
        (("--exposed", "9c", "--flop-card", "Qd", "--flop", "Tc Jd 9d"), "advised before the flop"),
        (("--exposed", "9c", "--flop-card", "Kc"), "card Kc is dealt twice"),
    ]:
        bad = cli("advise", "Ac Kc", "--game", path, *args, *store)
        assert bad.returncode == 2 and message in bad.stderr and len(bad.stderr.splitlines()) == 1, bad.stderr


@pytest.mark.slow
def test_ultimate_texas_holdem_with_one_dealer_card_seen_is_the_published_edge():
    """E. Jacobson, "Ultimate Texas Hold'em Hole-Card Play: One Dealer Card" (888casino blog;
    advancedadvantageplay.com, 2024): 5,083 classes of starting hands (two hole cards and the
    dealer card seen, up to suits), player edge 13.5922% with computer-perfect play, and a 3x
    raise never the right choice; with one flop card seen too 22.3286%, with one turn or river
    card seen too 26.1867% and a 4x raise on 36.1368% of hands (his runs: 4 days, and 8 days
    each). All three from one count, here about six minutes on two cores (the store is kept)."""
    f = solve_seen_card(load_game("ultimate-texas-holdem"), runout=True)
    assert len(f.preflop) == 5083
    assert f"{float(-f.house_edge):.4%}" == "13.5922%"
    assert f.decisions[("preflop", "bet 3")] == 0 < f.decisions[("preflop", "bet 4")]
    assert (
        f.deals
        == 2 * f.base.game.rules.total_combinations
        == sum(n for (street, _), n in f.decisions.items() if street == "preflop")
    )
    worth = list(f.by_rank.values())  # the lower the card seen, the more it is worth
    assert worth == sorted(worth, reverse=True) and worth[0] > 0 > worth[-1]
    changes = f.preflop_changes()
    assert changes["bets where the optimal player checks"] > 0 and changes["checks where he bets"] > 0
    # E. Jacobson, "Ultimate Texas Hold'em Hole-Card Play: One Dealer Card, One Flop Card"
    # (888casino blog): player edge 22.3286% from the same count, over the 3,248,700 starting
    # configurations (his 187,213 classes do not merge every suit permutation: 185,185 do)
    assert f.flop_card is not None and f.flop_card.classes == 185_185
    assert f"{float(-f.flop_card.house_edge):.4%}" == "22.3286%"
    assert f.flop_card.deals == 3 * f.deals and f.flop_card.preflop["bet 3"] == 0
    # "One Dealer Card, One Turn/River Card" (888casino blog; advancedadvantageplay.com)
    r = f.runout_card
    assert r is not None and f"{float(-r.house_edge):.4%}" == "26.1867%"
    assert f"{r.preflop['bet 4'] / r.deals:.4%}" == "36.1368%" and r.preflop["bet 3"] == 0
    assert r.deals == 2 * f.deals and r.classes == 185_185


def test_the_par_sheet_includes_a_kept_count_and_names_the_command_when_there_is_none(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL_GAME)
    options = RunOptions(root=tmp_path / "store", threads=2, progress=False)
    before = build_street_report(path, options)
    assert before.protection is None and "Game protection" not in before.sheets
    page = before.html()
    assert (
        "Not counted yet" in page
        and f"casino-omaha protect --game {before.game.name} --exposed 1 --runout-card" in page
    )
    figures = solve_seen_card(load_game(path), options)
    report = build_street_report(path, options)
    assert report.protection is not None and report.protection.expected == figures.expected
    table = report.sheets["Game protection"]
    assert list(table["house_edge_exact"]) == [
        str(figures.base.house_edge),
        str(figures.house_edge),
        str(figures.flop_card.house_edge),
    ]
    by_card = report.sheets["Protection by card seen"]
    assert [Fraction(x) for x in by_card["house_edge_exact"]] == [-v for v in figures.by_rank.values()]
    page = report.html()
    assert f"(exactly {figures.house_edge})" in page and "Not counted yet" not in page
    assert "protection" in report.images
    fuller = solve_seen_card(load_game(path), options, runout=True)  # the fuller count is the one shown
    table = build_street_report(path, options).sheets["Game protection"]
    assert list(table["house_edge_exact"])[2:] == [str(fuller.flop_card.house_edge), str(fuller.runout_card.house_edge)]
    (words,) = seen_card_blocks(load_game("texas-holdem-bonus"), None, {})
    assert "Texas Hold'em Bonus is not yet one of them" in words.text
