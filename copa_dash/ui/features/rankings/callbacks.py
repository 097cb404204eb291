"""Thin callbacks of the rankings page: read the controls, call the rankings or benchmark
service, hand the result to the figure builders."""

from __future__ import annotations

import functools

from dash import ALL, Input, Output, State, callback_context, dcc
from dash.exceptions import PreventUpdate

from copa_dash.core.errors import InvalidInputError
from copa_dash.services import benchmarks, rankings
from copa_dash.services.catalog import file_stem, open_dataset
from copa_dash.services.export import safe_csv
from copa_dash.services.inputs import RowFilter
from copa_dash.ui.common.alerts import alert, view_notes
from copa_dash.ui.common.empty import empty_figure
from copa_dash.ui.common.long_options import matching_options
from copa_dash.ui.common.settings_access import current_cache, current_settings
from copa_dash.ui.common.table_ids import id_tooltips
from copa_dash.ui.features.rankings import acceptability as acceptability_chart
from copa_dash.ui.features.rankings import figures as figures_rankings
from copa_dash.ui.features.rankings import figures_benchmark, table_page
from copa_dash.ui.features.rankings import panels as panels_rankings
from copa_dash.ui.features.rankings.ids import RankingsIds as ID
from copa_dash.ui.features.rankings.layout import PATH, graph_or_patch, slot
from copa_dash.ui.features.rankings.state import RankingsState, to_query

EMPTY = empty_figure(200)
STATE = {
    "dataset": State(ID.REF, "data"), "tab": Input(ID.TABS, "value"),
    "criteria": Input(ID.CRITERIA, "value"), "objectives": Input(ID.OBJECTIVES, "value"),
    "focus": Input(ID.FOCUS, "value"), "alpha": Input(ID.ALPHA, "value"), "ties": Input(ID.TIES, "value"),
    "group": Input(ID.GROUP, "value"), "top": Input(ID.TOP, "value"), "by": Input(ID.BY, "value"),
    "pins": Input(ID.PINS, "value"), "sets": Input({"type": ID.SET_FILTER, "column": ALL}, "value"),
    "set_ids": State({"type": ID.SET_FILTER, "column": ALL}, "id"),
    "metric": Input(ID.METRIC, "value"), "reference": Input(ID.REFERENCE, "value"),
    "time": Input(ID.TIME, "value"), "task_type": Input(ID.TASK_TYPE, "value"),
    "significance": Input(ID.SIGNIFICANCE, "value"),
}
# what the rank table depends on (not the chart's top, by and pins)
TABLE_STATE = {name: STATE[name] for name in ("dataset", "criteria", "objectives", "focus",
                                              "alpha", "ties", "group", "sets", "set_ids")}
import pandas as pd

FOCUS_OPTIONS = """function (objectives) {
    return (objectives || []).map(o => ({label: o, value: o}));
}"""
# the tab bar shows one panel and hides the other in the browser (no request); the styles
# are layout.panel_style's
TAB_SWITCH = """function (tab) {
    const hidden = {visibility: "hidden", height: 0, overflow: "hidden"};
    const none = {display: "none"};
    return tab === "benchmark" ? [hidden, {}, none, {}] : [{}, hidden, {}, none];
}"""

from copa_dash.ui.common.task_note import task_note
from copa_dash.ui.common.url_sync import register_url_sync, view_link, view_link_outputs


def state_from_controls(*, dataset, tab, criteria, objectives, focus, alpha, ties, group, top, by,
                        pins, sets, set_ids, metric, reference, time, task_type,
                        significance) -> RankingsState:
    """The page's state from its controls (the inverse of the layout)."""
    return RankingsState(
        dataset=dataset or "", tab=tab or "ranks", criteria=tuple(criteria or ()),
        objectives=tuple(objectives or ()), focus=tuple(focus or ()),
        alpha=float(alpha if alpha is not None else 0.5), ties=ties or "break",
        group=group or "system", top=int(top) if isinstance(top, (int, float)) and top >= 1 else 25,
        by=by or "", pins=tuple(pins or ()),
        sets=tuple((i["column"], tuple(v or ())) for i, v in zip(set_ids, sets) if v),
        metric=metric or "", reference=reference or "", time=time or "",
        task_type=task_type or "",
        significance=float(significance) if isinstance(significance, (int, float)) else 0.05)


def table_state(**controls) -> RankingsState:
    """The state from the table's controls (``TABLE_STATE``), the others at their defaults."""
    return state_from_controls(**{**dict.fromkeys(STATE), **controls})


def row_filter(state: RankingsState) -> RowFilter:
    """The set filters of the state."""
    return RowFilter(sets={c: list(v) for c, v in state.sets})


def rank_view(state: RankingsState) -> rankings.RankingView:
    """The ranking view of the state (stored in the analysis cache: the chart's callback and
    the table's, fired together, compute it once)."""
    opened = open_dataset(state.dataset, current_settings())
    return rankings.rank_view(
        opened.table, criteria=state.criteria, objectives=state.objectives, focus=state.focus,
        alpha=state.alpha, row_filter=row_filter(state), group=state.group,
        dataset_id=opened.cache_id, cache=current_cache())


def whole_table(state: RankingsState) -> tuple[list[dict], list[dict]]:
    """Every row of the rank table (largest changes first) and its columns, for the state.

    Kept for the last few views in this process: turning a page or sorting asks the server
    now, and building the 2,142 rows of Open LLM took most of such an answer."""
    return _table_of(table_state_key(state),
                     open_dataset(state.dataset, current_settings()).cache_id)


def table_state_key(state: RankingsState) -> RankingsState:
    """The state with only what the table depends on (the others at their defaults)."""
    return table_state(**{name: getattr(state, name) for name in
                          ("dataset", "criteria", "objectives", "focus", "alpha", "ties",
                           "group")},
                       sets=[list(v) for _, v in state.sets],
                       set_ids=[{"column": c} for c, _ in state.sets])


@functools.lru_cache(maxsize=8)
def _table_of(state: RankingsState, cache_id: str) -> tuple[list[dict], list[dict]]:
    # cache_id names the dataset's content: a changed table is a new key; the rows are
    # shared between answers and must not be changed
    return panels_rankings.table_rows(rank_view(state), ties=state.ties)


def table_answer(state: RankingsState, *, page, sort_by, filter_query) -> dict:
    """The rank table's shown page (``table_page.shown_page``), its columns, tooltips, pager
    and count line for the state; an empty table when the view cannot be computed (the
    chart's callback shows why)."""
    try:
        data, columns = whole_table(state)
    except InvalidInputError:
        return {"data": [], "columns": [], "tooltips": [], "page": 0, "pages": 1, "count": ""}
    shown = table_page.shown_page(data, columns, page=page, sort_by=sort_by,
                                  filter_query=filter_query)
    return {"data": shown.rows, "columns": columns, "tooltips": id_tooltips(shown.rows, "entry"),
            "page": shown.page, "pages": shown.page_count,
            "count": table_page.count_text(shown)}


def _benchmark(state: RankingsState) -> dict:
    """The benchmark tab's texts and figures for the state."""
    if state.tab != "benchmark":
        raise PreventUpdate
    try:
        opened = open_dataset(state.dataset, current_settings())
        table, cache, rows = opened.table, current_cache(), row_filter(state)
        view = benchmarks.benchmark_view(
            table, metric=state.metric or None, reference=state.reference or None,
            row_filter=rows, alpha=state.significance, dataset_id=opened.cache_id, cache=cache)
        groups = benchmarks.tradeoff_view(
            table, metric=view.metric, time_metric=state.time,
            group_column=state.task_type or None, row_filter=rows,
            dataset_id=opened.cache_id, cache=cache)
    except InvalidInputError as exc:
        return {"alert": alert(str(exc)), "boxes": EMPTY, "friedman": None, "cd": EMPTY,
                "tradeoff": EMPTY}
    return {"alert": view_notes(None, view.notes),
            "boxes": figures_benchmark.box_figure(view),
            "friedman": panels_rankings.friedman_text(view),
            "cd": figures_benchmark.cd_figure(view),
            "tradeoff": figures_benchmark.tradeoff_figure(groups, metric=view.metric,
                                                          time_metric=state.time)}


def register_callbacks(app) -> None:
    """Attach the rankings page's callbacks to ``app``."""
    acceptability_chart.register_callbacks(app, row_filter)

    @app.callback(
        output={"alert": Output(ID.ALERT, "children"),
                "headline": Output(ID.HEADLINE, "children"),
                "note": Output(ID.CHART_NOTE, "children"), "bump": Output(ID.BUMP, "figure"),
                "by_options": Output(ID.BY, "options"),
                "query": view_link_outputs(ID.QUERY, ID.SHARE)},
        inputs=STATE)
    def update_rankings(**controls):
        state = state_from_controls(**controls)
        options = [{"label": figures_rankings.criterion_label(c), "value": c}
                   for c in state.criteria]
        try:
            view = rank_view(state)
            by = rankings.shown_under(view.criteria, state.by)
            rows = rankings.chart_rows(view, ties=state.ties, top=state.top, by=by,
                                       pinned=state.pins)
        except InvalidInputError as exc:
            return {"alert": alert(str(exc)), "headline": None, "note": "", "bump": EMPTY,
                    "by_options": options, "query": view_link(PATH, to_query(state))}
        tasks = task_note(view.task_span, view.task_what, state)
        return {"alert": view_notes(tasks or None, view.notes),
                "headline": panels_rankings.headline(view, ties=state.ties), "note": rows.note,
                "bump": figures_rankings.bump_figure(view, rows, ties=state.ties),
                "by_options": options,
                "query": view_link(PATH, to_query(state))}

    @app.callback(
        output={"alert": Output(ID.BENCH_ALERT, "children"),
                "boxes": Output(slot(ID.BOXES), "children"),
                "friedman": Output(ID.FRIEDMAN, "children"),
                "cd": Output(slot(ID.CD), "children"),
                "tradeoff": Output(slot(ID.TRADEOFF), "children")},
        inputs={**STATE, "drawn": {name: State(slot(graph), "children") for name, graph in
                                   (("boxes", ID.BOXES), ("cd", ID.CD),
                                    ("tradeoff", ID.TRADEOFF))}})
    def update_benchmark(drawn, **controls):
        answer = _benchmark(state_from_controls(**controls))
        return {**answer, **{name: graph_or_patch(drawn[name], graph, answer[name])
                             for name, graph in (("boxes", ID.BOXES), ("cd", ID.CD),
                                                 ("tradeoff", ID.TRADEOFF))}}

    app.clientside_callback(TAB_SWITCH, Output(ID.RANKS_PANEL, "style"),
                            Output(ID.BENCH_PANEL, "style"), Output(ID.RANKS_CONTROLS, "style"),
                            Output(ID.BENCH_NOTE, "style"), Input(ID.TABS, "value"))

    # the focus picker offers the chosen objectives (in the browser: one request fewer on
    # every open and every objective change)
    app.clientside_callback(FOCUS_OPTIONS, Output(ID.FOCUS, "options"),
                            Input(ID.OBJECTIVES, "value"))

    @app.callback(Output(ID.PINS, "options"), Input(ID.GROUP, "value"),
                  Input(ID.PINS, "search_value"), State(ID.PINS, "value"), State(ID.REF, "data"),
                  prevent_initial_call=True)
    def pin_options(group, search, pinned, ref):
        """Entries to pin (systems or rows, as the chart draws them) matching what is typed."""
        table = open_dataset(ref, current_settings()).table
        return matching_options(rankings.entry_names(table, group=group), search, pinned)

    register_url_sync(app, path=PATH, nav=ID.NAV, dataset=ID.DATASET, ref=ID.REF)

    @app.callback(
        output={"data": Output(ID.TABLE, "data"), "columns": Output(ID.TABLE, "columns"),
                "tooltips": Output(ID.TABLE, "tooltip_data"),
                "page": Output(ID.TABLE, "page_current"), "pages": Output(ID.TABLE, "page_count"),
                "count": Output(ID.TABLE_COUNT, "children")},
        inputs={**TABLE_STATE, "page": Input(ID.TABLE, "page_current"),
                "sort_by": Input(ID.TABLE, "sort_by"),
                "filter_query": Input(ID.TABLE, "filter_query")})
    def update_table(page, sort_by, filter_query, **controls):
        """The table's shown page: a new view, sort or filter starts again at page 1."""
        paged = f"{ID.TABLE}.page_current" in callback_context.triggered_prop_ids
        return table_answer(table_state(**controls), page=page if paged else 0,
                            sort_by=sort_by, filter_query=filter_query)

    @app.callback(Output(ID.DOWNLOAD, "data"), Input(ID.DOWNLOAD_BUTTON, "n_clicks"),
                  {name: State(i.component_id, i.component_property)
                   for name, i in TABLE_STATE.items()},
                  prevent_initial_call=True)
    def download_csv(n_clicks, controls):
        """The whole rank table (not the page shown, unfiltered, unsorted: as before the
        table was paged on the server) as CSV, with spreadsheet formulas neutralised."""
        state = table_state(**controls)
        try:
            data, columns = whole_table(state)
        except InvalidInputError:
            raise PreventUpdate from None
        if not data:
            raise PreventUpdate
        frame = pd.DataFrame(data)[[c["id"] for c in columns]]
        frame.columns = [c["name"] for c in columns]
        stem = file_stem("copa-rankings", state.dataset, current_settings())
        return dcc.send_string(safe_csv(frame), f"{stem}.csv")

