"""Text panels of the explorer built from an Exploration: the pick card, the comparison of
normalisations and the ranked table's rows. User text is passed as component children, which
Dash renders as text, never as HTML."""

from __future__ import annotations

import math

import numpy as np
from dash import html

from ..services.explorer import BASELINE_LABELS, Exploration

RUNNERS_UP = 5


def _fmt(value: float) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "-"
    return f"{value:.4g}"


def pick_card(exploration: Exploration) -> html.Div:
    """The pick: id, raw values and top-x% with uncertainty, criterion, alpha range, runners-up."""
    problem = exploration.problem
    prefs = problem.preferences
    i = exploration.pick
    rows = []
    for k, name in enumerate(prefs.objectives):
        u = problem.u[i, k]
        se = exploration.u_standard_error[k]
        rows.append(html.Tr([
            html.Td(name), html.Td(prefs.directions[k]), html.Td(_fmt(problem.raw[i, k])),
            html.Td(f"top {100 * u:.1f}% ± {100 * 1.96 * se:.1f}"),
        ]))
    alpha_text = "weights set per objective (no alpha sweep)"
    if exploration.pick_alpha_range is not None:
        low, high = exploration.pick_alpha_range
        alpha_text = f"stays the pick for alpha in [{low:.3f}, {high:.3f}] (at this p)"
    elif exploration.sweep is not None:
        alpha_text = "picked only under the constraints of this view, not on the sweep grid"
    runners = [html.Li(f"{problem.ids[j]} (criterion {_fmt(exploration.scores[j])})")
               for j in exploration.runners_up[:RUNNERS_UP]]
    return html.Div(className="pick-card", children=[
        html.H3(["COPA pick: ", html.Span(str(problem.ids[i]), id="pick-id")]),
        html.P(f"criterion C = {_fmt(exploration.scores[i])} (smaller is better); {alpha_text}."),
        html.Table(className="pick-table", children=[
            html.Thead(html.Tr([html.Th("objective"), html.Th("dir."), html.Th("value"),
                                html.Th("top x% (95% CI)")])),
            html.Tbody(rows)]),
        html.P(f"u over {problem.n_population} rows; the DKW band is ±{100 * exploration.dkw:.1f} "
               "percentage points for all objectives at once (95%).", className="help"),
        html.H4("Runners-up"),
        html.Ol(runners, className="runners-up"),
    ])


def compare_table(exploration: Exploration) -> html.Div:
    """Where each normalisation picks for the same weights and how many rows it reaches."""
    if not exploration.baselines:
        return html.Div()
    problem = exploration.problem
    body = []
    for b in exploration.baselines:
        pick = str(problem.ids[b.position]) if b.position is not None else "-"
        reach = "-" if b.distinct_over_alpha is None else str(b.distinct_over_alpha)
        body.append(html.Tr([html.Td(BASELINE_LABELS[b.method]), html.Td(pick), html.Td(reach),
                             html.Td(b.message)]))
    return html.Div([
        html.H4("Compare normalisations (same weights)"),
        html.Table(className="compare-table", children=[
            html.Thead(html.Tr([html.Th("method"), html.Th("pick"),
                                html.Th("distinct picks over alpha (201 values)"), html.Th("note")])),
            html.Tbody(body)]),
    ])


def table_rows(exploration: Exploration) -> tuple[list[dict], list[dict]]:
    """Data and columns of the ranked table of the rows passing the constraints."""
    problem = exploration.problem
    names = problem.preferences.objectives
    columns = [{"name": "rank", "id": "rank", "type": "numeric"},
               {"name": "id", "id": "id", "type": "text"},
               {"name": "criterion", "id": "criterion", "type": "numeric"}]
    columns += [{"name": n, "id": f"obj{k}", "type": "numeric"} for k, n in enumerate(names)]
    columns += [{"name": f"top % {n}", "id": f"u{k}", "type": "numeric"} for k, n in enumerate(names)]
    raw = np.round(problem.raw, 6)
    pct = np.round(100 * problem.u, 2)
    data = []
    for rank, i in enumerate(exploration.ranking, start=1):
        row = {"rank": rank, "id": str(problem.ids[i]), "criterion": round(float(exploration.scores[i]), 6)}
        row.update({f"obj{k}": float(raw[i, k]) for k in range(len(names))})
        row.update({f"u{k}": float(pct[i, k]) for k in range(len(names))})
        data.append(row)
    return data, columns
