"""The verification appendix: what one run of ``casino-omaha verify`` found (:class:`Check`
per check, :class:`Verification` for the run), as a document (page and PDF) and as JSON; each
run is kept beside the stores, and the par sheet made from the same store (same checksum)
shows it in its method section.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.model.game import game_title
from analysis.report.document import Block, Command, Document, Paragraph, Section, Subsection, Table
from analysis.report.render import document_html
from analysis.report.typeset import write_pdf
from analysis.store.atomic import atomic_write_bytes
from analysis.store.outcome_store import OutcomeStore
from analysis.store.shards import package_version


@dataclass(frozen=True)
class Check:
    """One check's result: its name, whether it passed, what it compared (in words), what
    was expected and what was found, and how long it took (seconds)."""

    name: str
    passed: bool
    detail: str
    expected: str
    found: str
    seconds: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "passed", bool(self.passed))  # numpy's bool is no JSON
        object.__setattr__(self, "seconds", float(self.seconds))

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "passed": self.passed,
            "detail": self.detail,
            "expected": self.expected,
            "found": self.found,
            "seconds": round(self.seconds, 2),
        }


@dataclass(frozen=True)
class Verification:
    """Every check of one game's figures, with what was run and on which store."""

    game: str
    store: str
    checksum: str | None
    states: int
    hands: int
    seed: int
    deck: str
    checks: tuple[Check, ...]
    version: str = field(default_factory=package_version)
    date: str = field(default_factory=lambda: dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"))

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    @property
    def failed(self) -> list[Check]:
        return [c for c in self.checks if not c.passed]

    @property
    def seconds(self) -> float:
        return sum(c.seconds for c in self.checks)

    def as_dict(self) -> dict[str, Any]:
        """The appendix as JSON-ready data (keys are plain words)."""
        return {
            "game": self.game,
            "passed": self.passed,
            "store": self.store,
            "checksum": self.checksum,
            "states": self.states,
            "hands": self.hands,
            "seed": self.seed,
            "deck": self.deck,
            "version": self.version,
            "date": self.date,
            "seconds": round(self.seconds, 2),
            "checks": [c.as_dict() for c in self.checks],
        }

    def frame(self) -> pd.DataFrame:
        """One row per check, headers in words."""
        return pd.DataFrame(
            [
                [c.name, "pass" if c.passed else "FAIL", c.expected, c.found, c.detail, f"{c.seconds:.1f} s"]
                for c in self.checks
            ],
            columns=["Check", "Result", "Expected", "Found", "What was compared", "Time"],
        )

    def document(self) -> Document:
        """The appendix as a document (page and PDF)."""
        verdict = "Every check passed." if self.passed else f"{len(self.failed)} of {len(self.checks)} checks FAILED."
        run = pd.DataFrame(
            [
                ["Game", game_title(self.game)],
                ["Outcome store", Path(self.store).name],
                ["Store checksum", self.checksum or "none"],
                ["Random states counted naively", f"{self.states:,}"],
                ["Hands simulated", f"{self.hands:,}"],
                ["Seed", str(self.seed)],
                ["Small deck", self.deck],
                ["Package version", self.version],
                ["Date (UTC)", self.date],
                ["Time taken", f"{self.seconds:.1f} s"],
            ],
            columns=["Item", "Value"],
        )
        command = (
            f"casino-omaha verify --game {self.game} --states {self.states} --hands {self.hands} --seed {self.seed}"
        )
        return Document(
            f"Verification appendix: {game_title(self.game)}",
            verdict,
            (
                ("Game", game_title(self.game)),
                ("Result", verdict),
                ("Outcome store checksum (SHA-256)", self.checksum or "none"),
                ("Package version", self.version),
                ("Date (UTC)", self.date),
            ),
            (
                Section("result", "Result", (Paragraph(verdict), Table(self.frame()))),
                Section(
                    "run",
                    "What was run",
                    (
                        Paragraph(
                            "Each headline figure recomputed along a path independent of the one that made it; every "
                            "check is reproduced by the command below."
                        ),
                        Command(command),
                        Table(run),
                    ),
                ),
            ),
        )

    def html(self) -> str:
        """The appendix as one self-contained page."""
        return document_html(self.document())

    def write(self, folder: Path) -> list[Path]:
        """``verification.json``, ``verification.html`` and ``verification.pdf`` (with its
        ``.sha256``) in ``folder``, each written atomically."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        paths = [folder / "verification.json", folder / "verification.html", folder / "verification.pdf"]
        atomic_write_bytes(paths[0], (json.dumps(self.as_dict(), indent=1) + "\n").encode())
        atomic_write_bytes(paths[1], self.html().encode())
        write_pdf(self.document(), paths[2])
        return paths


def keep(result: Verification, store: OutcomeStore) -> None:
    """Keep ``result`` beside the stores, for the par sheet of the same store."""
    path = kept_path(store)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, (json.dumps(result.as_dict(), indent=1) + "\n").encode())


def kept_path(store: OutcomeStore) -> Path:
    """Where ``verify`` keeps its last result for a store, for the par sheet to include."""
    return store.root / "verification" / f"{store.path.name}.json"


def kept_verification(store: OutcomeStore) -> Verification | None:
    """The last ``verify`` of this very store (same checksum), or None: a result of another
    store, or a file that does not read as one, is not shown."""
    path = kept_path(store)
    try:
        if not path.is_file() or path.stat().st_size > 1_000_000:
            return None
        d = json.loads(path.read_text(encoding="utf-8"))
        if d.get("checksum") != store.checksum or store.checksum is None:
            return None
        checks = tuple(
            Check(
                str(c["name"]),
                bool(c["passed"]),
                str(c["detail"]),
                str(c["expected"]),
                str(c["found"]),
                float(c["seconds"]),
            )
            for c in d["checks"]
        )
        return Verification(
            str(d["game"]),
            str(d["store"]),
            str(d["checksum"]),
            int(d["states"]),
            int(d["hands"]),
            int(d["seed"]),
            str(d["deck"]),
            checks,
            str(d["version"]),
            str(d["date"]),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def verification_blocks(v: Verification | None, command: str) -> tuple[Block, ...]:
    """The par sheet's account of the independent checks: the last ``verify`` of the store
    the figures come from, or how to run it."""
    if v is None:
        return (
            Subsection(
                "Independent checks",
                (
                    Paragraph(
                        "No verification of this outcome store has been run yet. A test lab runs it on its own "
                        "machine with the command below; the par sheet made after it includes its results.",
                    ),
                    Command(command),
                ),
            ),
        )
    verdict = "Every check passed." if v.passed else f"{len(v.failed)} of {len(v.checks)} checks FAILED."
    return (
        Subsection(
            "Independent checks",
            (
                Paragraph(
                    f"{verdict} Run on {v.date} by package version {v.version} on the store with checksum "
                    f"{v.checksum}: {v.states:,} random states counted naively, {v.hands:,} hands simulated "
                    f"(seed {v.seed}), small deck {v.deck}; {v.seconds:.0f} s in all. Each headline figure "
                    "recomputed along a path independent of the one that made it."
                ),
                Table(v.frame()),
                Command(f"{command} --states {v.states} --hands {v.hands} --seed {v.seed}"),
            ),
        ),
    )
