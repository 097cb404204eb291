"""Rankings: rank acceptability as an alternative to the bump chart.

The bump chart shows how the ranks move between a few chosen criteria; rank acceptability
shows how they move over every weighting of the objectives: for each entry, the share of
random weightings (uniform over the simplex, seeded) under which COPA ranks it first and in
the top three, at the p of the criterion the chart is ordered by (p = inf when that is not
a COPA criterion). The numbers are :func:`copa_dash.services.robustness.entries_acceptability`
(the same core as ``copa-dash robustness``).
"""

from __future__ import annotations

import math
from functools import partial
from urllib.parse import parse_qs

import plotly.graph_objects as go
from dash import Input, Output, dcc, html

from copa_dash.core.errors import InvalidInputError
from copa_dash.services import rankings, robustness
from copa_dash.services.catalog import open_dataset
from copa_dash.services.inputs import read_number
from copa_dash.ui.common.empty import empty_figure
from copa_dash.ui.common.settings_access import current_cache, current_settings
from copa_dash.ui.features.rankings.ids import ID
from copa_dash.ui.features.rankings.state import parse_query

CHOICE = "rankings-chart-kind"
GRAPH = "rankings-acceptability"
NOTE = "rankings-acceptability-note"
REQUEST = "rankings-acceptability-request"
# in the browser: which chart shows, and the view the acceptability chart is asked for, only
# while it is chosen. Before, one server callback on (choice, view link) answered every
# redraw of the bump chart with an empty figure: a request chained after the page's own on
# every open and every control (issue 33)
SWITCH = """function (kind) {
    const shown = kind === "acceptability";
    return [shown ? {display: "none"} : {display: "block"},
            shown ? {display: "block"} : {display: "none"}];
}"""
ASK = """function (kind, query) {
    return kind === "acceptability" ? query : window.dash_clientside.no_update;
}"""
SHOWN = 25


def chart_choice() -> dcc.RadioItems:
    """The switch between the bump chart and the acceptability chart."""
    return dcc.RadioItems(id=CHOICE, value="bump", inline=True, className="rankings-radio",
                          options=[{"label": " bump chart (ranks under each criterion)",
                                    "value": "bump"},
                                   {"label": " rank acceptability (over all weightings)",
                                    "value": "acceptability"}])


def acceptability_block() -> html.Div:
    """The acceptability chart and its note (hidden until chosen), and the store of the view
    it is asked for."""
    return html.Div(id=f"{GRAPH}-block", style={"display": "none"}, children=[
        dcc.Store(id=REQUEST),
        html.Div(id=NOTE, className="help"),
        dcc.Graph(id=GRAPH, config={"displaylogo": False}),
    ])


def p_of(by: str) -> float:
    """The p of a COPA criterion label (``copa:2`` -> 2.0), inf for other criteria."""
    kind, _, value = (by or "").partition(":")
    if kind == "copa":
        return read_number(value, math.inf)
    return math.inf


def figure(rows, p: float) -> go.Figure:
    """Horizontal bars: share first (dark, with ± one standard error) and in the top 3 (light)."""
    rows = list(rows)[:SHOWN][::-1]
    names = [r["id"] for r in rows]
    fig = go.Figure()
    fig.add_bar(y=names, x=[100 * r["top3"] for r in rows], orientation="h",
                name="in the top 3", marker_color="#aec7e8")
    fig.add_bar(y=names, x=[100 * r["rank1"] for r in rows], orientation="h", name="first",
                marker_color="#1f77b4", error_x={"type": "data", "thickness": 1,
                                                 "array": [100 * r["rank1_se"] for r in rows]})
    fig.update_layout(barmode="overlay", height=max(260, 22 * len(rows) + 110),
                      margin={"l": 10, "r": 10, "t": 30, "b": 40},
                      xaxis={"title": "share of random weightings (%)", "range": [0, 100]},
                      yaxis={"automargin": True}, legend={"orientation": "h", "y": 1.06},
                      title={"text": f"COPA at p = {'inf' if math.isinf(p) else f'{p:g}'}",
                             "font": {"size": 13}})
    return fig


def chart(query: str, *, row_filter):
    """The acceptability figure and its note for the page's view (``query``, its link;
    ``row_filter``: the page's state -> its RowFilter)."""
    try:
        given = parse_qs(query or "")
        state = parse_query(given)
        opened = open_dataset(state.dataset, current_settings())
        view = rankings.rank_view(opened.table, criteria=state.criteria,
                                  objectives=state.objectives, focus=state.focus,
                                  alpha=state.alpha, row_filter=row_filter(state),
                                  group=state.group, dataset_id=opened.cache_id,
                                  cache=current_cache())
        by = rankings.shown_under(view.criteria, state.by)
        p = p_of(by)
        rows = robustness.entries_acceptability(view.ids, view.raw, view.directions, p=p,
                                                dataset_id=opened.cache_id,
                                                cache=current_cache())
    except InvalidInputError as exc:
        return empty_figure(message=str(exc)), str(exc)
    note = (f"Share of 10,000 weightings of the {len(view.objectives)} objectives, drawn "
            "uniformly over all weightings (seed 0), under which COPA ranks an entry first "
            "(dark, ± one standard error) or in the top 3 (light); p of the criterion the "
            f"chart is ordered by ({by}; inf when it is not COPA). {len(rows)} entries are "
            f"first or in the top 3 for some weighting; the {min(SHOWN, len(rows))} most often "
            "first are shown.")
    return figure(rows, p), note


def register_callbacks(app, row_filter) -> None:
    """Switch the charts in the browser, and draw the acceptability chart when it is chosen
    (``row_filter``: the page's state -> its RowFilter, from its callbacks)."""
    app.clientside_callback(SWITCH, Output(ID.BUMP, "style"), Output(f"{GRAPH}-block", "style"),
                            Input(CHOICE, "value"))
    app.clientside_callback(ASK, Output(REQUEST, "data"), Input(CHOICE, "value"),
                            Input(ID.QUERY, "data"))
    app.callback(Output(GRAPH, "figure"), Output(NOTE, "children"), Input(REQUEST, "data"),
                 prevent_initial_call=True)(partial(chart, row_filter=row_filter))
