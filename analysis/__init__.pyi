# The public API: one list, read at run time by lazy_loader (analysis/__init__.py) and by
# type checkers. Every name is imported on first use, so `import analysis` stays instant.
from .engine.field import (
    DROP_TO_HANDLE,
    Expected,
    FieldTrial,
    Recorded,
    check_tables,
    read_sessions,
    recorded,
    recorded_from_simulation,
)
from .engine.no_board_curve import NoBoardCurve
from .engine.pay_curve import CurvePoint, PayCurve
from .engine.result import GameResult
from .engine.return_engine import ReturnEngine, load_engine
from .engine.simulation import simulate_strategy, simulate_table
from .engine.solve import Solved, solve
from .engine.streets import StreetFigures, solve_streets
from .engine.variants import CALL_MULTIPLES, QUALIFIERS, Engines, rule_grid, variant_rules
from .hands.classes import HAND_CLASSES, hand_profile
from .hands.evaluate import describe, describe_omaha
from .model.cards import format_cards, parse_cards
from .model.categories import CATEGORIES
from .model.errors import AnalysisError, InputError
from .model.game import GameSpec, Option, load_game, shipped_games
from .model.outcomes import COLUMNS, StateCounts
from .model.paytable import PayTable, PayTableError
from .model.rules import PAYS_ON, PRESETS, Rules, preset
from .omaha4.distribution import final_hand_distribution, paytable_return
from .omaha4.equity import EquityResult, compute_equity
from .omaha4.evaluators import describe_high, describe_low, low_ranks, omaha_high, omaha_low
from .parallel.cluster import connect_cluster
from .parallel.options import RunOptions
from .protection.edges import exposure_result, information_table, seen_card_table
from .protection.hole_card import HoleCardExposure, hole_card_exposure, stored_hole_card
from .protection.no_board import BoardlessExposure, exposure_no_board
from .protection.runs import exposure_run, sampled_run, stored_protection
from .protection.sampling import BaseGameControl, Information, estimate_edge
from .protection.seen_card import BoardCardFigures, SeenCardFigures, solve_seen_card, stored_seen_card
from .protection.seen_card_advice import advise_seen_card
from .report.build import Report, build_report
from .report.field_plots import plot_field
from .report.plots import (
    plot_call_rates,
    plot_confidence,
    plot_contributions,
    plot_final_hands,
    plot_margin,
    plot_outcome_comparison,
    plot_outcome_distribution,
    plot_protection,
    plot_sweep,
)
from .report.sidebet_plots import plot_line_probabilities, plot_meter, plot_side_bet
from .report.streets import StreetReport, build_street_report
from .report.tables import confidence_table, final_hands_table, return_table, rules_table, summary_table
from .report.wording import in_words
from .sidebets.bet import SideBet, SideBetError
from .sidebets.curve import SideBetCurve, SideCurvePoint
from .sidebets.floor import Wager, floor_figures, side_bet_wagers
from .sidebets.progressive import Progressive, analyse_progressive, meter_returns
from .sidebets.result import SideBetResult
from .sidebets.returns import SideBetEngine
from .sidebets.simulation import simulate_side_bet
from .sidebets.tuning import solve_side_bet
from .store.outcome_store import OutcomeStore
from .store.runs import ensure_store, load_outcomes
from .store.shards import StoreError
from .strategy.advice import advise
from .strategy.by_hand import StrategyAnalysis, analyse_strategy
from .strategy.registry import STRATEGIES
from .strategy.simple import SimpleStrategy, derive_simple_strategy
from .strategy.street_advice import StreetAdvice, advise_street
from .tuning.game_panel import GamePanel
from .tuning.panel import TuningPanel, tuning_panel
from .tuning.tuner import Tuner, compare_paytables, solve_paytable
