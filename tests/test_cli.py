"""The command line: JSON and table output equal the API's exact figures, bad input is one
clear line on stderr with exit code 2, a closed pipe ends quietly, --help imports nothing heavy.

Most checks call the entry point in this process (the ``cli`` fixture); those where the
process is the point run a fresh interpreter: a real command end to end, the exit code of
bad input, the closed pipe, what --help imports."""

import subprocess
import sys
from fractions import Fraction

import pytest

from analysis.cli import COMMANDS, command_module, main, parser


@pytest.mark.slow
def test_report_json_and_table_are_the_engines(holdem, cli):
    rules, engine = holdem
    for strategy in ("optimal", "always-call"):
        want = engine.decide(None, strategy)
        data = cli(
            "report", "--game", "casino-holdem", "--strategy", strategy, "--format", "json", "--no-progress"
        ).json()
        assert Fraction(data["house_edge_exact"]) == want.exact.house_edge
        assert Fraction(data["element_of_risk_exact"]) == want.exact.element_of_risk
        assert (
            data["call_rate"] == float(want.exact.call_rate)
            and data["standard_deviation"] == want.exact.standard_deviation
        )
        assert [r["deals"] for r in data["return_table"]] == want.table.combinations.tolist()
        assert data["store_checksum"] == engine.source.checksum
        table = cli("report", "--game", "casino-holdem", "--strategy", strategy, "--no-progress")
        assert f"(exact {want.exact.house_edge})" in table.stdout
        assert f"{want.table.combinations.iloc[-1]:,}" in table.stdout


@pytest.mark.slow
def test_tune_changes_a_pay_and_solves(holdem, cli):
    _, engine = holdem
    data = cli("tune", "--game", "casino-holdem", "--set", "flush=3", "--format", "json", "--no-progress").json()
    want = engine.decide(engine.decide().paytable.replace(flush=3))
    assert data["paytable"] == "antewin (changed)" and data["house_edge_exact"] == str(want.exact.house_edge)
    rows = cli(
        "tune",
        "--game",
        "casino-holdem",
        "--target",
        "0.02",
        "--vary",
        "flush",
        "--bounds",
        "0",
        "10",
        "--format",
        "json",
        "--no-progress",
    ).json()
    assert rows[0]["exact_house_edge"] == "1/50"
    solved = engine.decide(engine.decide().paytable.replace(flush=Fraction(rows[0]["exact_pays"]["flush"])))
    assert solved.exact.house_edge == Fraction(1, 50)


def test_every_command_takes_format_json():
    sub = next(a for a in parser()._actions if a.dest == "command")
    assert list(sub.choices) == list(COMMANDS) and all(command_module(name).NAME == name for name in COMMANDS)
    for name, p in sub.choices.items():
        fmt = next(a for a in p._actions if a.dest == "format")
        assert {"table", "json"} <= set(fmt.choices), name
    with_game = [name for name, p in sub.choices.items() if any(a.dest == "game" for a in p._actions)]
    assert len(with_game) >= 11, with_game
    for name in with_game:  # every command takes every game: shipped names and game files alike
        game = next(a for a in sub.choices[name]._actions if a.dest == "game")
        assert game.choices is None and game.type("ultimate-texas-holdem") == "ultimate-texas-holdem", name
        assert game.type("casino-holdem") == "casino-holdem", name
        assert game.type("ultimate-texas-holdem") == "ultimate-texas-holdem", name


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["report", "--game", "baccarat"],
            "unknown game 'baccarat'; choose one of: caribbean-stud, casino-holdem, casino-omaha",
        ),
        (
            ["tune", "--game", "baccarat"],
            "unknown game 'baccarat'; choose one of: caribbean-stud, casino-holdem, casino-omaha",
        ),
        (["report", "--paytable", "/no/such/table.csv"], "/no/such/table.csv: cannot read the pay table"),
        (["report", "--strategy", "sometimes"], "invalid choice: 'sometimes'"),
        (["report", "--threads", "0"], "threads must be from 1 to 256, got 0"),
        (["enumerate", "--threads", "100000"], "threads must be from 1 to 256, got 100,000"),
        (["equity", "As Ah Ks Kh", "7c 8d 9c Td", "--threads", "-1"], "threads must be from 1 to 256, got -1"),
        (["simulate", "--hands", "0"], "hands must be from 1 to 1,000,000,000, got 0"),
        (["simulate", "--hands", "10000000000000000000000"], "hands must be from 1 to 1,000,000,000"),
        (["simulate", "--seed", "-1"], "the seed must be from 0 to"),
        (["tune", "--target", "0.02"], "--target needs --vary CATEGORY"),
        (["tune", "--set", "flush"], "expected CATEGORY=VALUE, got 'flush'"),
        (["tune", "--set", "flsh=2"], "unknown categories: flsh"),
        (["tune", "--sweep", "flush=0:1000000000:1"], "has 1,000,000,001 values, at most 10,000"),
        (["tune", "--target", "two"], "'two' is not a number"),
        (["equity", "As Ah Ks Kh"], "equity needs 2 to 6 hands, got 1"),
        (["equity", "As Ah Ks Kh", "As 8d 9c Td"], "card As is dealt twice"),
        (["final-hands", "--paytable", "/no/such.csv"], "/no/such.csv: cannot read the pay table"),
    ],
)
def test_bad_input_is_one_clear_line(args, message, cli):
    out = cli(*args)
    assert out.returncode == 2 and out.stdout == ""
    assert message in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_bad_pay_table_file(tmp_path, cli, cli_process):
    """In this process and as the process's exit code: 2, and one line that names the option,
    the file, the row and the problem (read with the arguments, before any work)."""
    bad = tmp_path / "bad.csv"
    bad.write_text("category,pays\nroyal_flush,-1\n")
    for run in (cli, cli_process):
        out = run("report", "--paytable", bad)
        assert (out.returncode, out.stdout) == (2, "")
        assert out.stderr == (
            f"casino-omaha report: error: argument --paytable: {bad}: row 2: pay -1 for royal_flush is negative "
            "(see casino-omaha report --help)\n"
        )
    out = cli_process("report", "--game", "baccarat")  # argparse's usage errors exit the process with 2 too
    assert out.returncode == 2 and "unknown game 'baccarat'" in out.stderr and out.stderr.count("\n") == 1


@pytest.mark.slow
def test_a_command_run_as_a_user_runs_it_prints_what_the_entry_point_prints(holdem, cli, cli_process):
    """One real run of a command in a fresh interpreter (``python -m analysis.cli``): exit
    code 0 and, byte for byte, the output of the same command in this process."""
    args = ("report", "--game", "casino-holdem", "--strategy", "simple", "--format", "json", "--no-progress")
    process, here = cli_process(*args), cli(*args)
    assert (process.returncode, process.stderr) == (0, "")
    assert process.stdout == here.stdout and process.json()["store_checksum"] == holdem[1].source.checksum


def test_a_closed_pipe_ends_quietly(tmp_path):
    """Output into a pipe whose reader is gone (``| head``): exit 0, nothing on stderr."""
    code = (
        "import os, sys\nr, w = os.pipe()\nos.close(r)\nos.dup2(w, 1)\nfrom analysis.cli import main\n"
        "sys.exit(main(['equity', 'As Ah Ks Kh', '7c 8d 9c Td', '--board', 'Tc 9d 2c 3h', '--format', 'json']))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert (out.returncode, out.stderr) == (0, "")


def test_help_imports_nothing_heavy(tmp_path):
    code = (
        "import sys\nfrom analysis.cli import parser\nparser().format_help()\n"
        "print(sorted(m for m in ('numpy', 'pandas', 'pyarrow', 'matplotlib', 'scipy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert out.stdout.strip() == "[]", out.stderr
    assert (
        "report"
        in subprocess.run(
            [sys.executable, "-m", "analysis.cli", "--help"], capture_output=True, text=True, cwd=tmp_path
        ).stdout
    )


def test_a_command_imports_its_own_module_only(tmp_path):
    code = (
        "import sys\nfrom analysis.cli import COMMANDS, main\nmain(['games'])\n"
        "print(sorted(n for n, m in COMMANDS.items() if f'analysis.cli.{m}' in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0 and out.stdout.splitlines()[-1] == "['games']", out.stderr


def test_a_bug_is_not_reported_as_a_user_error(monkeypatch, capsys):
    """An exception that is not an AnalysisError (here a KeyError from a command's code) is a
    bug: it propagates with its traceback (exit code 1 from the console script), after a line
    that says so; an AnalysisError of the same command is one line and exit code 2."""
    from analysis.cli import equity
    from analysis.model.errors import InputError

    def broken(args):
        raise KeyError("royal_flush")

    monkeypatch.setattr(equity, "run", broken)
    with pytest.raises(KeyError, match="royal_flush"):
        main(["equity", "As Ah Ks Kh", "7c 8d 9c Td"])
    assert "internal error (a bug" in capsys.readouterr().err

    def refused(args):
        raise InputError("equity needs 2 to 6 hands, got 1")

    monkeypatch.setattr(equity, "run", refused)
    assert main(["equity", "As Ah Ks Kh", "7c 8d 9c Td"]) == 2
    assert capsys.readouterr().err == "casino-omaha: error: equity needs 2 to 6 hands, got 1\n"


#: Published or pinned exact house edges of the shipped games (README, tests/exact_figures.py).
SHIPPED_EDGES = {
    "casino-omaha": Fraction(16455068456, 4844882417375),
    "casino-holdem": Fraction(1363917077, 63213204600),
    "ultimate-texas-holdem": Fraction(50643648973, 2317817502000),
}


@pytest.mark.slow
def test_every_shipped_game_reports_in_one_json_schema(cli, omaha, holdem, tmp_path):
    """One result schema whichever engine solves the game: the same keys, the house edge
    a number with its exact fraction beside it, return-table rows that add up. Casino Omaha
    with Ultimate betting is read from its own file on a deck of 9 to ace in two suits: its
    full deck takes minutes (tests/test_street_simulation.py checks it), its keys do not;
    Caribbean Stud likewise on 9 to ace in four suits."""
    from analysis.model.game import shipped_games

    schemas = {}
    for name, path in shipped_games().items():
        args = ["--game", name]
        if name == "casino-omaha-ultimate":
            small = tmp_path / path.name
            small.write_text(path.read_text().replace("[cards]\n", '[cards]\nranks = "9TJQKA"\nsuits = "cd"\n'))
            args = ["--game", small, "--store", tmp_path / "store"]
        if name in ("caribbean-stud", "four-card-poker"):  # 11 s and 35 s on the full deck (their own tests)
            small = tmp_path / path.name
            small.write_text(path.read_text().replace("[cards]\n", '[cards]\nranks = "9TJQKA"\n'))
            args = ["--game", small]
        data = cli("report", *args, "--format", "json", "--no-progress").json()
        schemas[name] = list(data)
        assert {tuple(row) for row in data["return_table"]} == {
            (
                "ended",
                "play_bet",
                "final_hand",
                "dealer",
                "deals",
                "probability",
                "probability_exact",
                "net",
                "net_exact",
                "contribution",
            )
        }
        edge = Fraction(data["house_edge_exact"])
        assert data["house_edge"] == float(edge) and data["game"] == name
        if name in SHIPPED_EDGES:
            assert edge == SHIPPED_EDGES[name]
        rows, first_point = data["return_table"], next(iter(data["decisions"])).split(":")[0]
        taken = sum(n for k, n in data["decisions"].items() if k.startswith(f"{first_point}:"))
        assert sum(r["deals"] for r in rows) == data["deals"] == taken  # every deal decides at the first point
        assert -sum(Fraction(r["net_exact"]) * r["deals"] for r in rows) / data["deals"] == edge
        wagers = {w["wager"]: w for w in data["wagers"]}
        assert list(wagers) == {
            "three-card-poker": ["ante", "play", "ante_bonus"],  # the bonus is paid on the ante's stake
            "four-card-poker": ["ante", "play", "ante_bonus"],
            "mississippi-stud": ["ante", "bet holding 2 cards", "bet holding 3 cards", "bet holding 4 cards"],
            "let-it-ride": ["bet 1", "bet 2", "bet 3"],
        }.get(name, ["ante", "blind", "play"] if "ultimate" in name else ["ante", "play"])
        assert sum(Fraction(w["expected_exact"]) for w in wagers.values()) == -edge  # the wagers split the edge
        assert all(sum(x["deals"] for x in w["lines"]) == data["deals"] for w in wagers.values())
        played = sum(r["deals"] for r in rows if r["ended"] != "fold")
        assert Fraction(data["call_rate_exact"]) == Fraction(played, data["deals"])
    first = next(iter(schemas.values()))
    assert all(keys == first for keys in schemas.values()), schemas


@pytest.mark.parametrize(
    ("command", "instead"),
    [
        (["enumerate"], "`solve --game ultimate-texas-holdem` counts it"),
    ],
)
def test_every_command_takes_every_game_or_says_why_not_in_one_line(cli, command, instead):
    # once argparse's "invalid choice": now the game is read, and the line says what to do
    out = cli(command[0], "--game", "ultimate-texas-holdem", *command[1:])
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1, out.stderr
    assert (
        "Ultimate Texas Hold'em decides before the flop, at the flop and at the river: "
        f"`{command[0]}` takes the one-decision games so far (casino-omaha, casino-holdem)" in out.stderr
    )
    assert instead in out.stderr


def test_the_return_table_as_csv_has_one_shape_for_every_game(cli, holdem, tmp_path):
    import csv
    import io

    from test_streets import SMALL_GAME

    path = tmp_path / "small.toml"
    path.write_text(SMALL_GAME)
    one = cli("report", "--game", "casino-holdem", "--format", "csv", "--no-progress")
    many = cli("report", "--game", path, "--store", tmp_path / "store", "--format", "csv", "--no-progress")
    rows = {name: list(csv.DictReader(io.StringIO(out.stdout))) for name, out in (("one", one), ("many", many))}
    assert (
        list(rows["one"][0])
        == list(rows["many"][0])
        == [
            "betting ended",
            "play bet",
            "player's final hand",
            "dealer",
            "deals",
            "probability",
            "probability (exact)",
            "net result (antes)",
            "net result (exact)",
            "contribution (antes per hand)",
        ]
    )
    assert [int(r["deals"]) for r in rows["one"]] == holdem[1].decide().table.combinations.tolist()
    assert rows["one"][1]["betting ended"] == "called at the flop" and rows["one"][1]["dealer"] == "does not qualify"


def test_a_one_decision_game_file_is_solved_by_report_and_named_by_the_others(cli, tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(
        'name = "mine"\ntitle = "My Hold\'em"\n[cards]\nhole = 2\nhand = "best-five"\nranks = "9TJQKA"\n'
        'suits = "cd"\n[dealer]\nqualifier = "9"\n[betting]\nflop = ["fold", "bet 2"]\n'
        '[ante]\npays = "antewin"\ndealer_not_qualifying = "pays"\n'
    )
    tune = cli("tune", "--game", path, "--set", "flush=3")
    assert tune.returncode == 2 and tune.stderr.count("\n") == 1
    assert "My Hold'em is a one-decision game from a file: `tune` takes the shipped ones so far" in tune.stderr
    assert f"`report --game {path}` solves it exactly" in tune.stderr
    report = cli("report", "--game", path, "--store", tmp_path / "store", "--format", "json", "--no-progress").json()
    assert report["decisions"].keys() == {"flop: fold", "flop: bet 2"} and report["title"] == "My Hold'em"
