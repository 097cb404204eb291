"""Text panels of the rankings page: the at-a-glance headline, the rank table, the Friedman
summary. User text is passed as component children, which Dash renders as text."""

from __future__ import annotations

import math

import numpy as np
from dash import html

from copa_dash.services.benchmarks import BenchmarkView
from copa_dash.services.rankings import RankingView, change_order, flattery, rank_spread
from copa_dash.ui.common.alerts import alert
from copa_dash.ui.features.rankings.figures import criterion_label

HEADLINE_ENTRIES = 5


def _entry(view: RankingView, i: int, ranks: np.ndarray) -> html.Li:
    others = np.median(ranks[i, 1:])
    text = (f": rank {ranks[i, 0]} under {criterion_label(view.criteria[0])}, "
            f"median {others:g} under the others")
    return html.Li([html.B(str(view.ids[i])), text])


def headline(view: RankingView, *, ties: str = "break") -> html.Div:
    """Which entries the first criterion flatters (ranks better than the others do) and which
    it underrates: the question "which models does the average flatter?" at a glance."""
    ranks = view.ranks(ties)
    if ranks.shape[1] < 2:
        return alert("Add a second criterion to compare rankings.", "info")
    shift = flattery(view, ties=ties)
    first = criterion_label(view.criteria[0])
    up = [int(i) for i in np.argsort(-shift, kind="stable")[:HEADLINE_ENTRIES] if shift[i] > 0]
    down = [int(i) for i in np.argsort(shift, kind="stable")[:HEADLINE_ENTRIES] if shift[i] < 0]
    agree = float(np.mean([_spearman(ranks[:, 0], ranks[:, j]) for j in range(1, ranks.shape[1])]))
    return html.Div(className="pick-card", id="rankings-glance", children=[
        html.H3(f"At a glance: what {first} flatters"),
        html.P(f"Rank correlation (Spearman) of {first} with the other criteria, on average: "
               f"{agree:.2f}. Places moved = the median rank under the other criteria minus the "
               f"rank under {first}.", className="help"),
        html.Div(className="glance-columns", children=[
            html.Div([html.H4(f"Ranked better by {first} than by the others"),
                      html.Ol([_entry(view, i, ranks) for i in up]) if up
                      else html.P("none")]),
            html.Div([html.H4(f"Ranked worse by {first} than by the others"),
                      html.Ol([_entry(view, i, ranks) for i in down]) if down
                      else html.P("none")]),
        ]),
    ])


def _spearman(a: np.ndarray, b: np.ndarray) -> float:
    a, b = a - a.mean(), b - b.mean()
    denominator = math.sqrt(float((a * a).sum() * (b * b).sum()))
    return float((a * b).sum() / denominator) if denominator > 0 else 1.0


def table_rows(view: RankingView, *, ties: str = "break") -> tuple[list[dict], list[dict]]:
    """Rows (largest rank changes first) and columns of the rank table."""
    ranks = view.ranks(ties)
    spread = rank_spread(ranks)
    shift = flattery(view, ties=ties)
    columns = [{"name": "entry", "id": "entry", "type": "text"}]
    if view.group_column and view.n_members.max() > 1:
        columns.append({"name": "rows", "id": "rows", "type": "numeric"})
    columns += [{"name": criterion_label(c), "id": f"r{j}", "type": "numeric"}
                for j, c in enumerate(view.criteria)]
    columns += [{"name": "moves (max - min rank)", "id": "moves", "type": "numeric"},
                {"name": f"places {criterion_label(view.criteria[0])} flatters",
                 "id": "flatters", "type": "numeric"}]
    columns += [{"name": f"{o} ({d})", "id": f"v{k}", "type": "numeric"}
                for k, (o, d) in enumerate(zip(view.objectives, view.directions))]
    data = []
    for i in change_order(view, ties=ties):
        row = {"entry": str(view.ids[i]), "rows": int(view.n_members[i]),
               "moves": int(spread[i]), "flatters": float(shift[i])}
        row.update({f"r{j}": int(ranks[i, j]) for j in range(ranks.shape[1])})
        row.update({f"v{k}": round(float(view.raw[i, k]), 6) for k in range(view.raw.shape[1])})
        data.append(row)
    return data, columns


def friedman_text(view: BenchmarkView) -> html.Div:
    """Friedman's test and the critical difference in words."""
    f = view.friedman
    if f is None:
        return html.Div("Friedman's test needs at least 3 methods and 2 tasks where every method "
                        "has a result.")
    verdict = ("the methods do not all perform alike" if f.pvalue < view.alpha
               else "no evidence that the methods differ")
    return html.Div([
        html.P(f"Friedman chi² = {f.statistic:.4g} with {f.n_methods - 1} df, p = {f.pvalue:.3g} "
               f"(Iman-Davenport F = {f.f_statistic:.4g}, p = {f.f_pvalue:.3g}) over "
               f"{f.n_tasks} tasks where all {f.n_methods} methods have a result: {verdict} at "
               f"alpha = {view.alpha:g}."),
        html.P(f"Nemenyi critical difference CD = {view.critical_difference:.4f}: two methods "
               "whose mean ranks differ by at least CD differ significantly; their bars of "
               "half-width CD/2 below then do not overlap. Methods joined by a vertical bar on "
               "the right are not significantly different."),
    ])
