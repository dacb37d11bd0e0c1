"""The par sheet of a game file's exact figures, whichever engine solved them: one entry
for those who hold a solved game and a folder (the tuning panel of every game) rather than
the three builders it chooses between (with a board, without one, without a dealer)."""

from __future__ import annotations

from pathlib import Path

from analysis.engine.hand_paid import HandPaidFigures
from analysis.engine.no_board import NoBoardFigures
from analysis.engine.streets import StreetFigures
from analysis.parallel.options import RunOptions
from analysis.report.hand_paid import write_hand_paid_report
from analysis.report.no_board_sheet import write_no_board_report
from analysis.report.render import Written
from analysis.report.streets import build_street_report


def write_par_sheet(
    figures: StreetFigures | NoBoardFigures | HandPaidFigures,
    out_dir: str | Path,
    game_file: Path | None = None,
    options: RunOptions | None = None,
) -> Written:
    """``<name>-optimal-par-sheet`` (workbook, page, PDF) of ``figures`` in ``out_dir``;
    ``game_file``: the file the game was read from (its SHA-256 and what changed from it)."""
    if isinstance(figures, NoBoardFigures):
        return write_no_board_report(figures, game_file, out_dir, options)
    if isinstance(figures, HandPaidFigures):
        return write_hand_paid_report(figures, game_file, out_dir)
    return build_street_report(figures.game, options, figures=figures, game_file=game_file).write(out_dir)
