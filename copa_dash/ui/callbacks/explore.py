"""Thin callbacks of the explorer: read the controls, call the explorer service, render."""

from __future__ import annotations

import math

from dash import ALL, Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from ...core.errors import InvalidInputError
from ...services.catalog import open_dataset
from ...services.explorer import explore
from ...services.export import safe_csv
from .. import figures, panels
from ..ids import ExploreIds as ID
from ..settings_access import current_cache, current_settings
from ..state import P_STOPS, ExploreState, format_p, to_query
from ..view_state import preferences_and_filter, state_from_controls

CONTROLS = dict(
    objectives=Input({"type": ID.OBJECTIVES, "column": ALL}, "value"),
    directions=Input({"type": ID.DIRECTION, "column": ALL}, "value"),
    mode=Input(ID.MODE, "value"),
    focus=Input(ID.FOCUS, "value"),
    alpha=Input(ID.ALPHA, "value"),
    weights=Input({"type": ID.WEIGHT, "column": ALL}, "value"),
    p=Input(ID.P_INPUT, "value"),
    population=Input(ID.POPULATION, "value"),
    range_min=Input({"type": ID.RANGE_MIN, "column": ALL}, "value"),
    range_max=Input({"type": ID.RANGE_MAX, "column": ALL}, "value"),
    sets=Input({"type": ID.SET_FILTER, "column": ALL}, "value"),
    axes=Input(ID.AXES, "value"),
    x=Input(ID.X, "value"),
    y=Input(ID.Y, "value"),
    compare=Input(ID.COMPARE, "value"),
    dataset=State("explore-ref", "data"),
    objective_ids=State({"type": ID.OBJECTIVES, "column": ALL}, "id"),
    weight_ids=State({"type": ID.WEIGHT, "column": ALL}, "id"),
    range_ids=State({"type": ID.RANGE_MIN, "column": ALL}, "id"),
    set_ids=State({"type": ID.SET_FILTER, "column": ALL}, "id"),
)


def _message(text: str, kind: str = "info") -> html.Div:
    return html.Div(text, className=f"alert alert-{kind}")


def register_callbacks(app) -> None:
    """Attach the explorer's callbacks to ``app``."""

    @app.callback(
        output=dict(alert=Output(ID.ALERT, "children"), pick=Output(ID.PICK, "children"),
                    front=Output(ID.FRONT, "figure"), compare=Output(ID.COMPARE_TABLE, "children"),
                    table=Output(ID.TABLE, "data"), columns=Output(ID.TABLE, "columns"),
                    note=Output(ID.TABLE_NOTE, "children"), parallel=Output(ID.PARALLEL, "figure"),
                    query=Output(ID.QUERY, "data")),
        inputs=CONTROLS,
    )
    def update_view(**controls):
        state = state_from_controls(**controls)
        empty = {"data": [], "layout": {"template": "plotly_white", "height": 300}}
        try:
            opened = open_dataset(state.dataset, current_settings())
            prefs, row_filter = preferences_and_filter(state, opened.table)
            result = explore(opened, prefs, row_filter, compare=state.compare, cache=current_cache())
        except InvalidInputError as exc:
            return dict(alert=_message(str(exc), "warning"), pick=None, front=empty, compare=None,
                        table=[], columns=[], note="", parallel=empty, query=to_query(state))
        data, columns = panels.table_rows(result)
        notes = [_message(n) for n in result.notes]
        return dict(alert=notes, pick=panels.pick_card(result),
                    front=figures.front_figure(result, mode=state.axes, x=state.x, y=state.y),
                    compare=panels.compare_table(result), table=data, columns=columns,
                    note=f"{len(data)} rows pass the constraints.",
                    parallel=figures.parallel_figure(result), query=to_query(state))


    @app.callback(Output(ID.P_SLIDER, "value"), Output(ID.P_INPUT, "value"),
              Input(ID.P_SLIDER, "value"), Input(ID.P_INPUT, "value"), prevent_initial_call=True)
    def sync_p(slider_index, text):
        """The p slider's stops and the number box show the same p."""
        if ctx.triggered_id == ID.P_SLIDER:
            return no_update, format_p(P_STOPS[int(slider_index)])
        try:
            value = math.inf if str(text).strip().lower() in ("inf", "infinity") else float(text)
        except (TypeError, ValueError):
            raise PreventUpdate from None
        nearest = min(range(len(P_STOPS)), key=lambda i: abs(min(P_STOPS[i], 1e6) - min(value, 1e6)))
        return (nearest if nearest != slider_index else no_update), no_update


    @app.callback(Output(ID.ALPHA_PANEL, "style"), Output(ID.WEIGHT_PANEL, "style"), Input(ID.MODE, "value"))
    def toggle_mode(mode):
        """Show the focus/alpha controls or the per-objective weights."""
        show, hide = {"display": "block"}, {"display": "none"}
        return (hide, show) if mode == "weights" else (show, hide)


    @app.callback(Output(ID.FOCUS, "options"), Output(ID.X, "options"), Output(ID.Y, "options"),
              Input({"type": ID.OBJECTIVES, "column": ALL}, "value"))
    def objective_options(chosen_lists):
        """Focus and axis pickers offer the chosen objectives."""
        names = [v for values in chosen_lists for v in (values or [])]
        options = [{"label": n, "value": n} for n in names]
        return options, options, options


    @app.callback(Output(ID.WEIGHT_SHARES, "children"), Input({"type": ID.WEIGHT, "column": ALL}, "value"),
              State({"type": ID.WEIGHT, "column": ALL}, "id"))
    def weight_shares(values, ids):
        """The per-objective weights as normalised percentages."""
        numbers = [max(0.0, float(v)) if isinstance(v, (int, float)) else 0.0 for v in values]
        total = sum(numbers)
        if total <= 0:
            return "Give at least one objective a positive weight."
        return "Normalised: " + ", ".join(f"{i['column']} {100 * n / total:.0f}%"
                                          for i, n in zip(ids, numbers))


    @app.callback(Output(ID.NAV, "href"), Input(ID.DATASET, "value"), State("explore-ref", "data"),
              prevent_initial_call=True)
    def change_dataset(ref, current):
        """Picking another dataset opens its default view."""
        if not ref or ref == current:
            raise PreventUpdate
        return f"/explore?{to_query(ExploreState(dataset=ref)).split('&')[0]}"


    @app.callback(Output(ID.DOWNLOAD, "data"), Input(ID.DOWNLOAD_BUTTON, "n_clicks"),
              State(ID.TABLE, "data"), State(ID.TABLE, "columns"), prevent_initial_call=True)
    def download_csv(n_clicks, data, columns):
        """The ranked table as CSV, with spreadsheet formulas neutralised."""
        import pandas as pd

        if not data:
            raise PreventUpdate
        frame = pd.DataFrame(data)[[c["id"] for c in columns]]
        frame.columns = [c["name"] for c in columns]
        return dcc.send_string(safe_csv(frame), "copa-ranking.csv")


    app.clientside_callback(
        """function(query) {
            if (query === undefined || query === null) { return window.dash_clientside.no_update; }
            const url = window.location.pathname + '?' + query;
            window.history.replaceState(window.history.state, '', url);
            return window.location.origin + url;
        }""",
        Output(ID.SHARE, "value"), Input(ID.QUERY, "data"))

    app.clientside_callback(
        "function(alpha) { return (alpha === undefined || alpha === null) ? '' : Number(alpha).toFixed(2); }",
        Output("alpha-readout", "children"), Input(ID.ALPHA, "value"))
