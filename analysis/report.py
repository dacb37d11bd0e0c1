"""The full report of a game, pay table and strategy: an Excel workbook and a self-contained
HTML page with the same tables and the plots (a "par sheet" for a regulator or test lab).

Every figure is computed from the exact counts: combinations are exact integers, exact
fractions are shown beside the decimals, and the formulas of the derived figures are
stated in the report itself (:data:`FORMULAS`). Plots are drawn on matplotlib ``Figure``
objects (no pyplot state, any backend): the ``plot_*`` functions serve notebooks too.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import html
import io
import platform
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from scipy.stats import norm

from .enumeration import COLUMNS, RESULTS, StateCounts
from .exact import ensure_store
from .paytable import PayTable
from .returns import GameResult, weighted_column_sums
from .rules import Rules
from .store import ENGINE_VERSION, OutcomeStore, package_version
from .strategy import HAND_CLASSES, StrategyAnalysis, analyse_strategy, class_notes, class_profile
from .tables import CATEGORIES

#: Hands after which the house's result is given, and the confidence levels.
HORIZONS = (10**3, 10**4, 10**5, 10**6, 10**7)
LEVELS = (0.90, 0.95, 0.99)
#: Strategies a report can be made for.
REPORT_STRATEGIES = ("optimal", "simple", "always-call")

FORMULAS = {
    "house edge": "HE = -E[X], X the player's net result of a hand in antes (ante 1)",
    "element of risk": "EoR = HE / E[W], W the total wagered in the hand: 1 + call multiple x call rate",
    "house edge with ties excluded": "HE / (1 - P(tie with a qualifying dealer))",
    "standard deviation": "sigma = sqrt(E[X^2] - E[X]^2) per hand, in antes",
    "volatility index": "VI = z x sigma, z = Phi^-1((1 + c) / 2) for confidence level c",
    "house result after N hands": "N x HE +/- z x sigma x sqrt(N) antes (normal approximation, N independent hands)",
    "house result per hand after N hands": "HE +/- z x sigma / sqrt(N) antes per hand (= HE +/- VI / sqrt(N))",
    "chance the house is ahead after N hands": "Phi(HE x sqrt(N) / sigma)",
    "hit frequency": "P(X > 0)",
}


@dataclass
class Report:
    """The tables (one sheet each), the plots (PNG) and the figures of one report."""

    rules: Rules
    result: GameResult
    analysis: StrategyAnalysis
    sheets: dict[str, pd.DataFrame] = field(default_factory=dict)
    plots: dict[str, bytes] = field(default_factory=dict)

    @property
    def stem(self) -> str:
        r = self.result
        return f"{self.rules.name}-{r.paytable.name}-{r.strategy}-pays-on-{r.pays_on}"

    def write(self, out_dir: str | Path) -> tuple[Path, Path]:
        """Write ``<stem>.xlsx`` and ``<stem>.html`` into ``out_dir``; returns both paths."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        xlsx, page = out / f"{self.stem}.xlsx", out / f"{self.stem}.html"
        write_workbook(self, xlsx)
        page.write_text(render_html(self), encoding="utf-8")
        return xlsx, page


def build_report(rules: Rules, paytable=None, strategy: str = "optimal", pays_on: str = "ante",
                 store: OutcomeStore | None = None, states: StateCounts | None = None) -> Report:
    """Compute everything the report shows (the store is built first if it is missing)."""
    if strategy not in REPORT_STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of: {', '.join(REPORT_STRATEGIES)}")
    paytable = PayTable.load(paytable)
    store = store or ensure_store(rules)
    states = states if states is not None else store.load()
    analysis = analyse_strategy(states, rules, paytable, pays_on)
    result = analysis.results[strategy]
    every_deal = weighted_column_sums(states, np.ones(len(states), dtype=bool))
    report = Report(rules, result, analysis)
    report.sheets = {
        "Summary": summary_table(result, every_deal),
        "Confidence ranges": confidence_table(result),
        "Return table": return_table(result),
        "Final hands": final_hands_table(states, result, every_deal),
        "Strategy by hand": strategy_by_hand(states, analysis, result),
        "Call rate grid": analysis.grid.reset_index(),
        "Simple strategy": analysis.rule_costs,
        "Strategies compared": analysis.comparison,
        "Rules": rules_table(rules),
        "Pay table": paytable_table(paytable),
        "Metadata": metadata_table(rules, result, store),
    }
    report.plots = make_plots(report)
    return report


# ---------------------------------------------------------------------------------------
# tables


def _figure(name: str, value, exact="", unit="", formula="") -> dict:
    return {"figure": name, "value": value, "exact": str(exact), "unit": unit, "formula": formula}


def summary_table(result: GameResult, every_deal: np.ndarray) -> pd.DataFrame:
    """The standard figures with exact values and formulas (``every_deal``: the 40 column
    sums over all states)."""
    e, rules = result.exact, result.rules
    table = result.table
    total = e["total_combinations"]
    tie = Fraction(int(table.loc[table.outcome == "tie", "combinations"].sum()), total)
    push = Fraction(int(table.loc[table.payoff == 0, "combinations"].sum()), total)
    loss = Fraction(int(table.loc[table.payoff < 0, "combinations"].sum()), total)
    noqual = Fraction(sum(int(every_deal[j]) for j, name in enumerate(COLUMNS) if name.startswith("noqual_")), total)
    rows = [
        _figure("total combinations", total, total, "deals", "every deal of the game, counted exactly"),
        _figure("house edge", float(e["house_edge"]), e["house_edge"], "per ante", FORMULAS["house edge"]),
        _figure("element of risk", float(e["element_of_risk"]), e["element_of_risk"], "per unit wagered",
                FORMULAS["element of risk"]),
        _figure("house edge with ties excluded", float(e["house_edge"] / (1 - tie)), e["house_edge"] / (1 - tie),
                "per ante", FORMULAS["house edge with ties excluded"]),
        _figure("average total wager", float(e["average_wager"]), e["average_wager"], "antes per hand",
                "1 + call multiple x call rate"),
        _figure("expected house win per 100 hands", float(100 * e["house_edge"]), 100 * e["house_edge"],
                "antes", "100 x HE"),
        _figure("expected house win per 1,000 units wagered", float(1000 * e["element_of_risk"]),
                1000 * e["element_of_risk"], "units", "1000 x EoR"),
        _figure("call rate", float(e["call_rate"]), e["call_rate"], "of hands", "called states / all states"),
        _figure("hit frequency", float(e["hit_frequency"]), e["hit_frequency"], "of hands", FORMULAS["hit frequency"]),
        _figure("push frequency", float(push), push, "of hands", "P(X = 0)"),
        _figure("loss frequency", float(loss), loss, "of hands", "P(X < 0), folds included"),
        _figure("dealer does not qualify", float(noqual), noqual, "of deals",
                f"over all deals; the dealer qualifies with a {rules.describe()['qualifier']}"),
        _figure("variance", float(e["variance"]), e["variance"], "antes^2 per hand", "E[X^2] - E[X]^2"),
        _figure("standard deviation", e["std_dev"], "sqrt(variance)", "antes per hand", FORMULAS["standard deviation"]),
    ]
    for level in LEVELS:
        rows.append(_figure(f"volatility index ({level:.0%})", z_score(level) * e["std_dev"], "", "antes per hand",
                            FORMULAS["volatility index"]))
    return pd.DataFrame(rows, dtype=object)


def z_score(level: float) -> float:
    """Two-sided normal quantile of a confidence level."""
    return float(norm.ppf((1 + level) / 2))


def confidence_table(result: GameResult) -> pd.DataFrame:
    """The house's result after N hands: expected value and ranges at each confidence level."""
    he, sigma = float(result.exact["house_edge"]), result.exact["std_dev"]
    rows = []
    for n in HORIZONS:
        for level in LEVELS:
            half = z_score(level) * sigma * np.sqrt(n)
            rows.append({
                "hands": n,
                "confidence": level,
                "expected_house_win": n * he,
                "house_win_low": n * he - half,
                "house_win_high": n * he + half,
                "per_hand_low": he - half / n,
                "per_hand_high": he + half / n,
                "chance_house_ahead": float(norm.cdf(he * np.sqrt(n) / sigma)),
            })
    return pd.DataFrame(rows)


def return_table(result: GameResult) -> pd.DataFrame:
    """The return table with the exact probability of every row."""
    t = result.table.copy()
    total = result.exact["total_combinations"]
    t["probability_exact"] = [str(Fraction(int(n), total)) for n in t["combinations"]]
    return t


def final_hands_table(states: StateCounts, result: GameResult, every_deal: np.ndarray) -> pd.DataFrame:
    """The player's final hand over all deals (played to the end), and over the called ones by result."""
    rules, total = result.rules, result.exact["total_combinations"]
    called = weighted_column_sums(states, result.calls)
    rows = []
    for c in reversed(CATEGORIES):
        cols = [COLUMNS.index(f"{r}_{c}") for r in RESULTS]
        all_n = int(every_deal[cols].sum())
        row = {"final_hand": c, "combinations": all_n, "probability": all_n / total,
               "probability_exact": str(Fraction(all_n, total)), "called_combinations": int(called[cols].sum())}
        for r, j in zip(("called_dealer_not_qualifying", "called_player_wins", "called_tie", "called_dealer_wins"), cols):
            row[r] = int(called[j])
        rows.append(row)
    out = pd.DataFrame(rows)
    if int(out["combinations"].sum()) != rules.total_combinations:
        raise AssertionError("final hands do not add up to the total combinations")
    return out


def strategy_by_hand(states: StateCounts, analysis: StrategyAnalysis, result: GameResult) -> pd.DataFrame:
    """Per hand class: share, optimal and simple call rates (and the report's strategy), meaning."""
    profile = analysis.profile.copy()
    if result.strategy not in ("optimal", "simple"):
        profile[f"{result.strategy}_call_rate"] = class_profile(
            states, analysis.classes, analysis.margin, analysis.scale, result.calls)["call_rate"]
    notes = class_notes(analysis.rules)
    profile["meaning"] = [notes.get(h, "") for h in HAND_CLASSES]
    return profile


def rules_table(rules: Rules) -> pd.DataFrame:
    d = rules.describe()
    rows = [
        ("game", d["name"]),
        ("hole cards per hand", d["hole_cards"]),
        ("hand made of", f"exactly {d['must_use']} hole cards and 3 of the 5 board cards" if rules.omaha
         else "the best 5 of the hole cards and the 5 board cards"),
        ("dealer qualifies with", d["qualifier"]),
        ("call bet", f"{d['call_multiple']} x the ante"),
        ("deck", f"{d['deck_size']} cards"),
        ("decision states (hole cards, flop)", rules.states),
        ("completions per state (turn, river, dealer cards)", rules.completions),
        ("total combinations", rules.total_combinations),
    ]
    return pd.DataFrame(rows, columns=["rule", "value"]).astype({"value": object})


def paytable_table(paytable: PayTable) -> pd.DataFrame:
    return pd.DataFrame({"category": list(reversed(CATEGORIES)),
                         "pays_to_1": [float(paytable.pays[c]) for c in reversed(CATEGORIES)],
                         "pays_exact": [str(paytable.pays[c]) for c in reversed(CATEGORIES)]})


def paytable_digest(paytable: PayTable) -> str:
    """SHA-256 of the pay table's content (category and exact pay per line)."""
    text = "".join(f"{c},{paytable.pays[c]}\n" for c in CATEGORIES)
    return hashlib.sha256(text.encode()).hexdigest()


def metadata_table(rules: Rules, result: GameResult, store: OutcomeStore) -> pd.DataFrame:
    m = store.manifest
    rows = [
        ("package version", package_version()),
        ("engine version", ENGINE_VERSION),
        ("generated (UTC)", dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")),
        ("game", rules.name),
        ("strategy", result.strategy),
        ("pay table", result.paytable.name),
        ("pay table source", result.paytable.source or "in memory"),
        ("pay table SHA-256", paytable_digest(result.paytable)),
        ("pays on", result.pays_on),
        ("store checksum (SHA-256)", store.checksum),
        ("store fingerprint", m.get("fingerprint")),
        ("store canonical states", m.get("rows")),
        ("store created", m.get("created")),
        ("python", sys.version.split()[0]),
        ("numpy / pandas", f"{np.__version__} / {pd.__version__}"),
        ("platform", platform.platform()),
    ]
    return pd.DataFrame(rows, columns=["item", "value"]).astype({"value": str})


# ---------------------------------------------------------------------------------------
# plots


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return buf.getvalue()


def plot_contributions(result: GameResult) -> Figure:
    """Each return-table row's contribution to the player's return."""
    t = result.table
    labels = [f"{o} {c}".strip().replace("_", " ") for o, c in zip(t.outcome, t.category)]
    fig = Figure(figsize=(8, 5.5))
    ax = fig.subplots()
    ax.barh(labels[::-1], t.contribution[::-1], color=np.where(t.contribution[::-1] < 0, "#b2182b", "#2166ac"))
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("contribution to the player's return (antes per hand)")
    ax.set_title(f"{result.rules.name}: contributions to the return ({result.strategy} strategy)")
    return fig


def plot_outcome_distribution(result: GameResult) -> Figure:
    """Probability of each net result of a hand."""
    by_payoff = result.table.groupby("payoff")["probability"].sum()
    fig = Figure(figsize=(8, 4))
    ax = fig.subplots()
    ax.bar([f"{p:+g}" for p in by_payoff.index], by_payoff.values, color="#4d4d4d")
    ax.set_yscale("log")
    ax.set_xlabel("player's net result of a hand (antes)")
    ax.set_ylabel("probability (log scale)")
    ax.set_title(f"{result.rules.name}: distribution of the result of a hand ({result.strategy})")
    return fig


def plot_outcome_comparison(results: list[GameResult]) -> Figure:
    """Probability of each net result of a hand, games (or strategies) side by side."""
    tables = [r.table.groupby("payoff")["probability"].sum() for r in results]
    payoffs = sorted(set().union(*(t.index for t in tables)))
    x = np.arange(len(payoffs))
    width = 0.8 / len(results)
    fig = Figure(figsize=(9, 4))
    ax = fig.subplots()
    for i, (r, t) in enumerate(zip(results, tables)):
        ax.bar(x + (i - (len(results) - 1) / 2) * width, t.reindex(payoffs, fill_value=0).values, width,
               label=f"{r.rules.name} ({r.strategy})")
    ax.set_xticks(x, [f"{p:+g}" for p in payoffs])
    ax.set_yscale("log")
    ax.set_xlabel("player's net result of a hand (antes)")
    ax.set_ylabel("probability (log scale)")
    ax.set_title("Distribution of the result of a hand")
    ax.legend()
    return fig


def plot_final_hands(final_hands: pd.DataFrame) -> Figure:
    fig = Figure(figsize=(8, 4))
    ax = fig.subplots()
    ax.barh(final_hands.final_hand[::-1].str.replace("_", " "), final_hands.probability[::-1], color="#35978f")
    ax.set_xscale("log")
    ax.set_xlabel("probability over all deals (log scale)")
    ax.set_title("Player's final hand")
    return fig


def plot_confidence(confidence: pd.DataFrame, house_edge: float) -> Figure:
    """The house's win per hand after N hands, with its confidence ranges."""
    fig = Figure(figsize=(8, 4.5))
    ax = fig.subplots()
    for level, shade in zip(LEVELS, ("#2171b5", "#6baed6", "#c6dbef")):
        c = confidence[confidence.confidence == level]
        ax.fill_between(c.hands, 100 * c.per_hand_low, 100 * c.per_hand_high, color=shade, alpha=0.45,
                        label=f"{level:.0%} range")
    ax.axhline(100 * house_edge, color="black", lw=1, label="house edge")
    ax.axhline(0, color="grey", lw=0.6, ls=":")
    ax.set_xscale("log")
    ax.set_xlabel("hands played")
    ax.set_ylabel("house win per hand (% of the ante)")
    ax.set_title("The house's result after N hands")
    ax.legend()
    return fig


def plot_call_rates(profile: pd.DataFrame) -> Figure:
    """Optimal and simple call rates by hand class."""
    fig = Figure(figsize=(8, 5))
    ax = fig.subplots()
    y = np.arange(len(profile))
    ax.barh(y - 0.2, profile.optimal_call_rate, height=0.4, label="optimal", color="#2166ac")
    ax.barh(y + 0.2, profile.simple_call_rate, height=0.4, label="simple", color="#f4a582")
    ax.set_yticks(y, profile.hand)
    ax.invert_yaxis()
    ax.set_xlabel("call rate")
    ax.set_title("Call rate by hand at the flop")
    ax.legend(loc="lower right")
    return fig


def plot_margin(analysis: StrategyAnalysis) -> Figure:
    """Distribution over all states of EV(call) - EV(fold); the rare big values (made
    straight flushes and better) are gathered in the last bin."""
    margin, share = analysis.margin_antes(), analysis.weight / analysis.rules.states
    order = np.argsort(margin)
    top = margin[order][np.searchsorted(np.cumsum(share[order]), 0.999)]
    fig = Figure(figsize=(8, 4))
    ax = fig.subplots()
    ax.hist(np.minimum(margin, top), bins=120, weights=share, color="#762a83")
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel(f"EV(call) - EV(fold), antes (values above {top:.2f} in the last bin)")
    ax.set_ylabel("share of states")
    ax.set_title(f"{analysis.rules.name}: value of calling over folding, per state")
    return fig


def make_plots(report: Report) -> dict[str, bytes]:
    """Every plot of the report as PNG bytes, keyed by name."""
    r, s = report.result, report.sheets
    return {
        "return-table": _png(plot_contributions(r)),
        "outcomes": _png(plot_outcome_distribution(r)),
        "final-hands": _png(plot_final_hands(s["Final hands"])),
        "confidence": _png(plot_confidence(s["Confidence ranges"], float(r.exact["house_edge"]))),
        "strategy": _png(plot_call_rates(s["Strategy by hand"])),
        "margin": _png(plot_margin(report.analysis)),
    }


# ---------------------------------------------------------------------------------------
# workbook and HTML


def write_workbook(report: Report, path: Path) -> None:
    """One sheet per table; exact integers stay integers, exact fractions are text."""
    with pd.ExcelWriter(path, engine="openpyxl") as xl:
        for name, table in report.sheets.items():
            table.to_excel(xl, sheet_name=name, index=False)
            sheet = xl.sheets[name]
            for col, header in zip(sheet.columns, table.columns):
                width = max([len(str(header))] + [len(str(v)) for v in table[header].head(50)])
                sheet.column_dimensions[col[0].column_letter].width = min(60, width + 2)
                if pd.api.types.is_integer_dtype(table[header]):
                    for cell in col[1:]:
                        cell.number_format = "#,##0"
            sheet.freeze_panes = "A2"
        xl.book.properties.title = f"{report.rules.name} report"
        xl.book.properties.creator = f"casino-omaha-analysis {package_version()}"


SECTIONS = (
    ("summary", "Summary"),
    ("confidence", "The house's result after N hands"),
    ("return-table", "Return table"),
    ("outcomes", "Distribution of the result of a hand"),
    ("final-hands", "Final hands"),
    ("strategy", "Strategy"),
    ("simple-strategy", "A simple strategy"),
    ("rules", "Rules and pay table"),
    ("metadata", "Run metadata"),
)

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2em auto;max-width:1100px;color:#222;line-height:1.4}
h1{font-size:1.6em}h2{border-bottom:2px solid #2166ac;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:1em 0;font-size:.88em}th,td{border:1px solid #ccc;padding:.25em .6em}
th{background:#eef3f8;text-align:left}td{text-align:right;font-variant-numeric:tabular-nums}
td.text{text-align:left}img{max-width:100%;display:block;margin:1em 0}nav a{margin-right:1em}
.scroll{overflow-x:auto}.formulas li{font-family:ui-monospace,monospace;font-size:.9em}.note{color:#555}
"""


def _fmt(value) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return f"{int(value):,}"
    if isinstance(value, (float, np.floating)):
        if np.isnan(value):
            return ""
        return f"{value:,.8g}" if abs(value) >= 1e-4 or value == 0 else f"{value:.6e}"
    return str(value)


def html_table(table: pd.DataFrame) -> str:
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in table.columns)
    body = []
    for row in table.itertuples(index=False):
        cells = []
        for v in row:
            text = html.escape(_fmt(v))
            numeric = isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
            cells.append(f"<td>{text}</td>" if numeric else f'<td class="text">{text}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'


def _img(report: Report, key: str, alt: str) -> str:
    data = base64.b64encode(report.plots[key]).decode()
    return f'<img src="data:image/png;base64,{data}" alt="{html.escape(alt)}">'


def render_html(report: Report) -> str:
    """The report as one self-contained HTML page (plots embedded as PNG data)."""
    r, s = report.result, report.sheets
    e = r.exact
    title = f"{report.rules.name}: pay table {r.paytable.name}, {r.strategy} strategy"
    nav = "".join(f'<a href="#{key}">{html.escape(name)}</a>' for key, name in SECTIONS)
    formulas = "".join(f"<li>{html.escape(k)}: {html.escape(v)}</li>" for k, v in FORMULAS.items())
    parts = {
        "summary": (f"<p>House edge <b>{float(e['house_edge']):.4%}</b> per ante (exactly {e['house_edge']}), "
                    f"element of risk <b>{float(e['element_of_risk']):.4%}</b>, call rate {float(e['call_rate']):.2%}, "
                    f"standard deviation {e['std_dev']:.4f} antes per hand, over "
                    f"{e['total_combinations']:,} deals counted exactly.</p>"
                    + html_table(s["Summary"]) + f'<ul class="formulas">{formulas}</ul>'),
        "confidence": (_img(report, "confidence", "house result after N hands")
                       + '<p class="note">Normal approximation; results in antes (ante = 1).</p>'
                       + html_table(s["Confidence ranges"])),
        "return-table": _img(report, "return-table", "return table contributions") + html_table(s["Return table"]),
        "outcomes": _img(report, "outcomes", "distribution of a hand's result"),
        "final-hands": _img(report, "final-hands", "final hand probabilities") + html_table(s["Final hands"]),
        "strategy": (_img(report, "strategy", "call rate by hand") + html_table(s["Strategy by hand"])
                     + "<h3>Optimal call rate by made hand and draw</h3>" + html_table(s["Call rate grid"])
                     + _img(report, "margin", "EV(call) - EV(fold) distribution")),
        "simple-strategy": ("<ol>" + "".join(f"<li>{html.escape(line)}</li>" for line in report.analysis.simple.describe())
                            + "</ol>"
                            + '<p class="note">"X-Y or better": the best hole card is above X, or is X with the '
                              "second best Y or higher. Rules apply in order; thresholds are derived exactly from "
                              "the counts to lose the least against optimal play.</p>"
                            + html_table(s["Simple strategy"]) + html_table(s["Strategies compared"])),
        "rules": html_table(s["Rules"]) + html_table(s["Pay table"]),
        "metadata": html_table(s["Metadata"]),
    }
    sections = "".join(f'<section id="{key}"><h2>{html.escape(name)}</h2>{parts[key]}</section>' for key, name in SECTIONS)
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"<style>{_CSS}</style></head><body><h1>{html.escape(title)}</h1><nav>{nav}</nav>{sections}</body></html>")
