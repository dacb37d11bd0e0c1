"""``casino-omaha verify`` (analysis.report.verification): it passes on a correct store, and
on a store with one changed count whose checksums were signed again by hand (so only an
independent count can catch it) it fails naming the naive-count check; the exit codes; the
appendix files hold the results. Casino Hold'em: its store builds in seconds."""

import hashlib
import html
import json
import shutil
from dataclasses import replace

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from test_report import pdf_text

import analysis.report.street_verification as street_verification
from analysis.model.game import game_from_document
from analysis.model.rules import preset
from analysis.parallel.options import RunOptions
from analysis.report.appendix import Check, Verification, kept_path, kept_verification, verification_blocks
from analysis.report.build import build_report
from analysis.report.document import Document, Section
from analysis.report.render import document_html
from analysis.report.verification import CHECKS, sample_states, verify
from analysis.store.outcome_store import ROW_GROUP, OutcomeStore
from analysis.store.shards import manifest_digest
from test_streets import doc

STATES, HANDS, SEED = 3, 100_000, 2026
#: Wins that the AnteWin table pays alike (1 to 1): a deal moved between them changes no
#: figure of the return table, no total and no checksum once signed again.
PAID_ALIKE = ["win_high_card", "win_pair", "win_two_pair", "win_three_of_a_kind", "win_straight"]


@pytest.fixture(scope="module")
def tampered(tmp_path_factory):
    """A copy of Casino Hold'em's store (shards and manifest; the derived arrays are made
    again from it) in which one deal of a state the naive check counts was moved from one
    win to another that pays the same, its shard's checksums, the store checksum and the
    manifest's own signed again by hand. Returns (root, what was changed)."""
    rules = preset("casino-holdem")
    source = OutcomeStore.for_rules(rules)
    if not source.complete:
        from analysis.store.runs import ensure_store

        source = ensure_store(rules, RunOptions(progress=False))
    root = tmp_path_factory.mktemp("tampered")
    path = OutcomeStore.path_for(rules, root)
    path.mkdir(parents=True)
    for f in [*source.path.glob("shard-*.parquet"), source.manifest_path]:
        shutil.copy(f, path / f.name)
    manifest = json.loads(source.manifest_path.read_text())

    row = int(sample_states(source.rows, STATES, SEED)[0][1])
    shard, at = 0, row
    while at >= manifest["shards"][str(shard)]["rows"]:
        at -= manifest["shards"][str(shard)]["rows"]
        shard += 1
    file = path / f"shard-{shard:05d}.parquet"
    table = pq.read_table(file)
    have = [c for c in PAID_ALIKE if table.column(c)[at].as_py() > 0]
    take, give = have[0], next(c for c in PAID_ALIKE if c != have[0])
    for name, step in ((take, -1), (give, +1)):
        values = table.column(name).to_numpy().copy()
        values[at] = int(values[at]) + step
        table = table.set_column(table.schema.get_field_index(name), name, pa.array(values))
    pq.write_table(
        table, file, compression="zstd", compression_level=1, write_page_checksum=True, row_group_size=ROW_GROUP
    )

    def sign(manifest):
        manifest["manifest_sha256"] = manifest_digest(manifest)
        (path / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")

    manifest["shards"][str(shard)]["file_sha256"] = hashlib.sha256(file.read_bytes()).hexdigest()
    sign(manifest)
    from analysis.store.outcome_store import content_digest

    manifest["shards"][str(shard)]["sha256"] = content_digest(OutcomeStore(path, rules).read_shard(shard))
    shards = "".join(manifest["shards"][str(i)]["sha256"] for i in range(manifest["n_shards"]))
    manifest["checksum"] = hashlib.sha256(shards.encode()).hexdigest()
    sign(manifest)
    assert OutcomeStore(path, rules).verify() == []  # the store's own checks find nothing
    return root, (row, take, give)


def test_verify_passes_on_a_correct_store(holdem):
    seen = []
    result = verify("casino-holdem", RunOptions(progress=False), STATES, HANDS, SEED, on_check=seen.append)
    assert [c.name for c in result.checks] == list(CHECKS) and seen == list(result.checks)
    assert result.passed, [(c.name, c.detail) for c in result.failed]
    assert result.checksum == holdem[1].source.checksum
    # kept beside the store, and the par sheet of the same store shows it
    kept = kept_verification(holdem[1].source)
    assert kept is not None and kept.checksum == result.checksum and kept.seed == SEED
    assert [(c.name, c.passed, c.found) for c in kept.checks] == [(c.name, c.passed, c.found) for c in result.checks]
    report = build_report(holdem[1], sidebets=())
    method = next(s for s in report.document().sections if s.key == "method")
    text = document_html(replace(report.document(), sections=(method,)))
    assert "Every check passed." in text and f"--states {STATES} --hands {HANDS} --seed {SEED}" in text
    assert all(html.escape(name) in text for name in CHECKS)


def test_a_kept_verification_of_another_store_is_not_shown(holdem, tmp_path):
    store = holdem[1].source
    path = kept_path(store)
    saved = path.read_bytes() if path.exists() else None
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        path.write_text(json.dumps({"checksum": "0" * 64, "checks": []}))
        assert kept_verification(store) is None
        path.write_text("not json")
        assert kept_verification(store) is None
    finally:
        if saved is None:
            path.unlink()
        else:
            path.write_bytes(saved)


def test_the_appendix_names_the_store_without_its_folder_and_times_in_seconds(tmp_path):
    """A lab's machine's folders are nobody's business: the appendix and the par sheet's
    account of it name the store by its folder's name and checksum; times read "0.7 s"."""
    store = tmp_path / "outcomes" / "casino-holdem-4459be5381"
    checks = (
        Check("store checksums", True, "every shard", "3 shards sound", "3 shards sound", 0.7),
        Check("Monte Carlo, optimal", True, "random hands", "2.16% (exact)", "2.16% ± 0.1%", 12.34),
    )
    v = Verification("casino-holdem", str(store), "ab" * 32, 3, 1000, 7, "9TJQKA in suits cd", checks)
    page = v.html()
    assert str(tmp_path) not in page and "casino-holdem-4459be5381" in page and "ab" * 32 in page
    assert "Verification appendix: Casino Hold&#x27;em" in page
    assert [c for c in v.frame()["Time"]] == ["0.7 s", "12.3 s"] and "0.7000" not in page
    (account,) = verification_blocks(v, "casino-omaha verify --game casino-holdem")
    shown = document_html(Document("par sheet", "", (), (Section("method", "Method", (account,)),)))
    assert str(tmp_path) not in shown and "12.3 s" in shown and "13 s in all" in shown


def test_verify_fails_naming_the_naive_count_check_on_a_re_signed_store(tampered):
    root, (row, take, give) = tampered
    result = verify("casino-holdem", RunOptions(root=root, progress=False), STATES, HANDS, SEED)
    assert [c.name for c in result.failed] == ["naive state counts"]
    naive = result.failed[0]
    words = [take.replace("_", " "), give.replace("_", " ")]
    assert f"row {row:,}" in naive.detail and all(w in naive.detail for w in words)
    assert f"{STATES - 1} states equal" == naive.found


def test_cli_exit_codes_and_the_appendix(cli, tampered, tmp_path):
    args = ("verify", "--game", "casino-holdem", "--states", STATES, "--hands", HANDS, "--seed", SEED)
    ok = cli(*args, "--out", tmp_path / "ok", "--no-progress")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    lines = ok.stdout.splitlines()
    assert [line.split()[0] for line in lines[: len(CHECKS)]] == ["PASS"] * len(CHECKS)
    assert all(name in ok.stdout for name in CHECKS) and "all checks passed" in lines[-1]
    data = json.loads((tmp_path / "ok" / "verification.json").read_text())
    assert data["passed"] is True and [c["name"] for c in data["checks"]] == list(CHECKS)
    assert all(c["passed"] and c["expected"] and c["found"] for c in data["checks"])
    page = (tmp_path / "ok" / "verification.html").read_text()
    headers = [h.split("</th>")[0] for h in page.split("<th>")[1:]]
    assert "Check" in headers and "Result" in headers and not any("_" in h for h in headers)
    assert all(name.replace("'", "&#x27;") in page for name in CHECKS)
    pdf = " ".join(" ".join(p.split()) for p in pdf_text(tmp_path / "ok" / "verification.pdf"))
    assert "Every check passed." in pdf and all(name in pdf for name in CHECKS)

    root, _ = tampered
    bad = cli(*args, "--store", root, "--no-progress", "--format", "json")
    assert bad.returncode == 1
    data = json.loads(bad.stdout)
    assert data["passed"] is False and [c["name"] for c in data["checks"] if not c["passed"]] == ["naive state counts"]
    table = cli(*args, "--store", root, "--no-progress")
    assert table.returncode == 1 and "FAIL  naive state counts" in table.stdout
    assert "FAILED: naive state counts" in table.stdout.splitlines()[-1]

    for wrong in (("--states", "0"), ("--hands", "many"), ("--game", "baccarat"), ("--seed", "-1")):
        run = cli("verify", *wrong)
        assert run.returncode == 2 and run.stderr.count("\n") == 1, (wrong, run.stderr)
    assert "a result, not a usage error" in cli("verify", "--help").stdout


def test_a_damaged_shard_fails_the_checksum_check(holdem, tmp_path):
    """A shard whose bytes changed (not signed again) fails the store checksums, named; the
    run goes on and reports every check."""
    rules, engine = holdem
    path = OutcomeStore.path_for(rules, tmp_path)
    shutil.copytree(engine.source.path, path, ignore=shutil.ignore_patterns(".lock"))
    shard = path / "shard-00003.parquet"
    data = bytearray(shard.read_bytes())
    data[len(data) // 2] ^= 1
    shard.write_bytes(bytes(data))
    result = verify(rules, RunOptions(root=tmp_path, progress=False), 1, 10_000, SEED)
    assert [c.name for c in result.checks] == list(CHECKS)
    assert "store checksums" in [c.name for c in result.failed]
    assert "shard-00003.parquet" in result.checks[0].detail


# ---- a game with several decision points ---------------------------------------------------


@pytest.mark.slow
def test_a_multi_street_game_is_verified_along_its_own_paths(tmp_path, monkeypatch):
    game = game_from_document(doc(), "small")
    options = RunOptions(progress=False)  # the default root: Ultimate Texas Hold'em's kept solve is shared
    seen = []
    result = street_verification.verify_streets(game, options, hands=20_000, seed=5, on_check=seen.append)
    assert [c.name for c in result.checks] == list(street_verification.CHECKS) == [c.name for c in seen]
    assert result.passed, [(c.name, c.found, c.detail) for c in result.failed]
    by_name = {c.name: c for c in result.checks}
    assert by_name["closed-form total"].found == f"{66 * 120 * 21 * 10:,}"  # C(12,2) C(10,3) C(7,2) C(5,2)
    assert by_name["published Ultimate Texas Hold'em edge"].found.endswith("exactly 50643648973/2317817502000")
    assert result.states is None and "--states" not in result.options
    # a game tree that disagrees fails its check, and only it
    real = street_verification.game_tree

    def off_by_one(g):
        counts, decisions = real(g)
        first = next(iter(counts))
        return counts | {first: counts[first] + 1}, decisions

    monkeypatch.setattr(street_verification, "game_tree", off_by_one)
    broken = street_verification.verify_streets(game, options, hands=2_000, seed=5)
    assert [c.name for c in broken.failed] == ["small-deck game tree"]


@pytest.mark.slow
def test_verify_command_takes_ultimate_texas_holdem(cli, tmp_path):
    out = cli("verify", "--game", "ultimate-texas-holdem", "--hands", "20000", "--out", tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = [line for line in out.stdout.splitlines() if line.startswith(("PASS", "FAIL"))]
    assert len(lines) == 5 and all(line.startswith("PASS") for line in lines), out.stdout
    assert "ultimate-texas-holdem: all checks passed (5 checks" in out.stdout
    assert (tmp_path / "verification.json").is_file()
