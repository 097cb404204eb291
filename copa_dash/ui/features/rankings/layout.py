"""Rankings across criteria (bump chart) and benchmark views: ``/rankings?dataset=NAME&...``.

How much does a comparison's conclusion depend on how the objectives are normalised and
aggregated? The bump chart ranks the same entries under the mean of raw values, the mean of
``norm_k``, Delta and COPA with several p (paper §5.3); the benchmark tab compares the methods
of a long table task by task (paper §5.4). The URL holds the whole view.
"""

from __future__ import annotations

import dash
from dash import dash_table, dcc, html

from copa_dash.core.errors import InvalidInputError
from copa_dash.services.benchmarks import task_group_columns
from copa_dash.services.catalog import catalog
from copa_dash.services.rankings import (
    DEFAULT_CRITERIA,
    entry_names,
    set_values,
    shown_under,
)
from copa_dash.ui.common.datasets import open_or_explain
from copa_dash.ui.common.help import help_text
from copa_dash.ui.common.long_options import matching_options
from copa_dash.ui.common.page_frame import view_page
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.common.table_ids import TOOLTIP_ARGS, id_cell_styles
from copa_dash.ui.common.url_sync import share_box
from copa_dash.ui.common.working_context import read_context
from copa_dash.ui.features.rankings import acceptability
from copa_dash.ui.features.rankings.ids import ID
from copa_dash.ui.features.rankings.state import (
    RankingsState,
    apply_context,
    parse_query,
    to_query,
    with_defaults,
)
from copa_dash.ui.features.rankings.table_page import PAGE_SIZE

PATH = "/rankings"
DEFAULT_DATASET = "decodingtrust"
MAX_SET_VALUES = 80
MAX_DELTA_OPTIONS = 300
HIDDEN = {"visibility": "hidden", "height": 0, "overflow": "hidden"}

HELP_CRITERIA = ("Each column ranks the entries under one criterion: mean = average of the raw "
                 "values (the leaderboards' score), norm = average of min-max normalised values, "
                 "delta = average relative change to the best value (delta:ID: to entry ID), "
                 "copa:p = COPA on the ranks with that p, obj:COL = one objective alone. The "
                 "first criterion is the one the headline compares with the others.")
HELP_TIES = ("COPA with p = 1 or inf ties often; as in the paper's figures, ties are broken by "
             "COPA at p = 8, then the sum of u, then table order. 'Raw ties' gives tied entries "
             "the same rank (1 + the number of entries strictly better), as in Fig. B.5.")
HELP_WEIGHTS = ("No focus objective: equal weights for every criterion, as in the paper. With a "
                "focus, it gets alpha and the other objectives share 1 - alpha.")


def _options(values) -> list[dict]:
    return [{"label": str(v), "value": str(v)} for v in values]


def criteria_options(state: RankingsState, table, entries) -> list[dict]:
    """The criteria a user can add: the usual ones, one per objective, Delta per entry."""
    values = list(dict.fromkeys([*state.criteria, *DEFAULT_CRITERIA, "delta", "copa:1.5",
                                 "copa:16", *(f"obj:{o}" for o in state.objectives)]))
    if len(entries) <= MAX_DELTA_OPTIONS:
        values += [f"delta:{e}" for e in entries if f"delta:{e}" not in values]
    return _options(values)


def _set_filters(table, state: RankingsState) -> html.Div:
    chosen = dict(state.sets)
    columns = list(dict.fromkeys([*chosen, *(c for c in (table.roles.task,) if c)]))
    rows = []
    for column in columns:
        if column not in table.frame.columns:
            continue
        values = set_values(table, column)
        if not 0 < len(values) <= MAX_SET_VALUES:
            continue
        rows.append(html.Div(className="set-row", children=[
            html.Label(column),
            dcc.Dropdown(id={"type": ID.SET_FILTER, "column": column}, options=_options(values),
                         value=list(chosen.get(column, ())), multi=True, placeholder="any value"),
        ]))
    if not rows:
        return html.Div()
    return html.Div([html.H4("Rows taking part"), *rows])


def _controls(opened, state: RankingsState, entries) -> html.Aside:
    table = opened.table
    options = [{"label": e.title, "value": e.ref} for e in catalog(current_settings())]
    if not any(o["value"] == opened.ref for o in options):
        options.append({"label": opened.title, "value": opened.ref})
    return html.Aside(className="controls", children=[
        html.H4("Dataset"),
        dcc.Dropdown(id=ID.DATASET, options=options, value=opened.ref, clearable=False),
        html.Details([html.Summary(f"About: {opened.title}"), html.P(opened.description)]),
        # on the Benchmark tab only the rows taking part apply: the rest is hidden there and
        # a line says so (a newcomer moved alpha there and saw nothing change, beside the
        # tab's own "Nemenyi alpha")
        html.P(BENCH_SIDEBAR_NOTE, id=ID.BENCH_NOTE, className="help",
               style=sidebar_styles(state.tab)[1]),
        html.Div(id=ID.RANKS_CONTROLS, style=sidebar_styles(state.tab)[0], children=[
            html.H4("Criteria (columns, in order)"),
            dcc.Dropdown(id=ID.CRITERIA, options=criteria_options(state, table, entries),
                         value=list(state.criteria), multi=True),
            help_text(HELP_CRITERIA),
            html.H4("Objectives"),
            dcc.Dropdown(id=ID.OBJECTIVES, options=_options(table.objective_names),
                         value=list(state.objectives), multi=True),
            html.Label("Focus objectives (empty: equal weights)", htmlFor=ID.FOCUS),
            dcc.Dropdown(id=ID.FOCUS, options=_options(state.objectives), value=list(state.focus),
                         multi=True),
            html.Label("alpha (weight of the focus)", htmlFor=ID.ALPHA),
            dcc.Slider(id=ID.ALPHA, min=0, max=1, step=0.05, value=state.alpha,
                       marks={0: "0", 0.5: "0.5", 1: "1"}),
            help_text(HELP_WEIGHTS),
            html.H4("Ties"),
            dcc.RadioItems(id=ID.TIES, value=state.ties, className="rankings-radio", options=[
                {"label": "untie by COPA at p = 8", "value": "break"},
                {"label": "raw ties", "value": "keep"}]),
            help_text(HELP_TIES),
            html.Div(style={} if table.roles.system else {"display": "none"}, children=[
                html.H4("Entries"),
                dcc.RadioItems(id=ID.GROUP, value=state.group, className="rankings-radio", options=[
                    {"label": f"one per {table.roles.system or 'system'} (mean over its runs)",
                     "value": "system"},
                    {"label": "one per row", "value": "rows"}]),
            ]),
        ]),
        _set_filters(table, state),
    ])


BENCH_SIDEBAR_NOTE = ("The Benchmark tab has its own controls (metric, reference method, "
                      "Nemenyi alpha) in the tab; from this column only 'Rows taking part' "
                      "applies to it, except a filter on the task column (the tab compares "
                      "the methods across the tasks).")


def sidebar_styles(tab: str) -> tuple[dict, dict]:
    """The styles of the sidebar's ranking controls and of the Benchmark tab's note: the
    controls shown on the rankings tab, the note on the Benchmark tab (the same rule as the
    clientside switch, ``callbacks.TAB_SWITCH``)."""
    hidden = {"display": "none"}
    return ({}, hidden) if tab != "benchmark" else (hidden, {})


def layout(**query):
    """Build the page from the query string, so a copied link reproduces the view."""
    settings = current_settings()
    state = parse_query(query)
    ref = state.dataset or DEFAULT_DATASET
    opened, why_not = open_or_explain(ref, settings, "Rankings")
    if opened is None:
        return why_not
    state, context_notes = apply_context(with_defaults(state, opened), read_context(query), opened)
    entries = entry_names(opened.table, group=state.group)
    long_table = bool(opened.table.roles.system and opened.table.roles.task)
    return view_page(ID.NAV, ID.QUERY, to_query(state), context_notes=context_notes, children=[
        dcc.Store(id=ID.REF, data=opened.ref),
        _controls(opened, state, entries),
        html.Main(className="results", children=[
            # a radio group drawn as tabs (assets/rankings.css), each panel shown or hidden by
            # a clientside callback: dcc.Tab (dash 4.4) writes data-dash-is-loading="false"
            # on every tab for good, so the page never read as settled to a check for the
            # attribute (issue 33); a hidden panel stays laid out, its figures keep their size
            dcc.RadioItems(id=ID.TABS, value=state.tab, className="page-tabs", inline=True,
                           options=[{"label": "Rankings across criteria", "value": "ranks"},
                                    {"label": "Benchmark (method x task)", "value": "benchmark",
                                     "disabled": not long_table}]),
            html.Div(id=ID.RANKS_PANEL, className="tab-panel",
                     style=panel_style(state.tab == "ranks"),
                     children=_ranks_panel(state, entries)),
            html.Div(id=ID.BENCH_PANEL, className="tab-panel",
                     style=panel_style(state.tab == "benchmark"),
                     children=_benchmark_panel(opened.table, state)),
            html.Div(className="share-row", children=[
                html.Span("Share this view: "),
                *share_box(ID.SHARE, PATH, to_query(state)),
            ]),
        ]),
    ])


def panel_style(shown: bool) -> dict:
    """A tab panel's style: shown, or hidden but laid out at the page's width (not display:
    none), so a figure drawn in it gets its real width, not Plotly's default 700 px (the same
    rule as the clientside switch, ``callbacks.TAB_SWITCH``)."""
    return {} if shown else dict(HIDDEN)


def _ranks_panel(state: RankingsState, entries) -> html.Div:
    return html.Div([
        html.Div(id=ID.ALERT),
        html.Div(className="axes-row", children=[
            html.Label("Show the top", htmlFor=ID.TOP),
            dcc.Input(id=ID.TOP, type="number", min=1, max=200, step=1, value=state.top,
                      debounce=True, style={"width": "70px"}),
            html.Label("under", htmlFor=ID.BY),
            dcc.Dropdown(id=ID.BY, options=_options(state.criteria),
                         value=shown_under(state.criteria, state.by), clearable=False,
                         className="axis-pick"),
            html.Label("pin", htmlFor=ID.PINS),
            # options found on the server as the user types (ui/common/long_options)
            dcc.Dropdown(id=ID.PINS, options=matching_options(entries, "", state.pins),
                         value=list(state.pins), multi=True,
                         placeholder="entries to follow (type to search)",
                         style={"minWidth": "260px", "flex": 1}),
        ]),
        html.Div(id=ID.CHART_NOTE, className="help"),
        acceptability.chart_choice(),
        dcc.Graph(id=ID.BUMP, config={"displaylogo": False}),
        acceptability.acceptability_block(),
        # the at-a-glance text under the figure, so the bump chart (the page's main figure)
        # is on the first screen at 1024 x 768 too (tests/e2e/test_layout_widths.py)
        html.Div(id=ID.HEADLINE),
        html.H4("Ranks, largest changes first"),
        html.Button("Download CSV", id=ID.DOWNLOAD_BUTTON, className="button"),
        dcc.Download(id=ID.DOWNLOAD),
        # paged, sorted and filtered on the server: the browser gets the 15 rows it shows,
        # not the whole table (2,142 entries on Open LLM; ui/features/rankings/table_page)
        dash_table.DataTable(id=ID.TABLE, page_size=PAGE_SIZE, page_current=0,
                             page_action="custom", sort_action="custom", sort_mode="single",
                             filter_action="custom", filter_query="",
                             style_table={"overflowX": "auto"},
                             style_cell={"fontFamily": "inherit", "fontSize": 13, "maxWidth": 320,
                                         "overflow": "hidden", "textOverflow": "ellipsis"},
                             style_cell_conditional=id_cell_styles("entry"), **TOOLTIP_ARGS),
        html.P(id=ID.TABLE_COUNT, className="help", **{"aria-live": "polite"}),
    ])


def slot(graph_id: str) -> str:
    """The id of the box a benchmark figure is drawn into on first use."""
    return f"{graph_id}-slot"


def graph_or_patch(current, graph_id: str, figure):
    """A benchmark figure for its slot: the dcc.Graph itself the first time, then a Patch of
    its figure (so later updates redraw with Plotly.react and keep the zoom).

    The benchmark figures are not laid out with the page: the tab panels are both mounted
    (the Rankings tab bar), and three empty Plotly graphs drawn on every open of the other
    tab cost the browser what the tab bar saved (issue 33).
    """
    if not current:
        return dcc.Graph(id=graph_id, figure=figure, config={"displaylogo": False})
    patch = dash.Patch()
    patch["props"]["figure"] = figure
    return patch


def _benchmark_panel(table, state: RankingsState) -> html.Div:
    names = list(table.objective_names)
    methods = (list(dict.fromkeys(table.frame[table.roles.system].astype(str)))
               if table.roles.system else [])
    return html.Div([
        html.Div(id=ID.BENCH_ALERT),
        html.Div(className="axes-row", children=[
            html.Label("metric", htmlFor=ID.METRIC),
            dcc.Dropdown(id=ID.METRIC, options=_options(names), value=state.metric,
                         clearable=False, className="axis-pick"),
            html.Label("reference method", htmlFor=ID.REFERENCE),
            dcc.Dropdown(id=ID.REFERENCE, options=_options(methods), value=state.reference or None,
                         placeholder="random forest if any", className="axis-pick"),
            html.Label("Nemenyi alpha", htmlFor=ID.SIGNIFICANCE),
            dcc.Input(id=ID.SIGNIFICANCE, type="number", min=0.001, max=0.5, step="any",
                      value=state.significance, debounce=True, style={"width": "70px"}),
        ]),
        help_text("Left: scaled performance per task (reference method = 0, best on the task = "
                  "1; AMLB's view, unbounded below, [n] = off-view outliers). Right: CCDF 1 - u, "
                  "the share of methods on the task that are not better (1 = best; paper Fig. 8)."),
        html.Div(id=slot(ID.BOXES)),
        html.H4("Friedman test and critical difference (Nemenyi)"),
        html.Div(id=ID.FRIEDMAN, className="help"),
        html.Div(id=slot(ID.CD)),
        html.H4("Performance vs time per task type (tasks aggregated with COPA, p = 2)"),
        html.Div(className="axes-row", children=[
            html.Label("time", htmlFor=ID.TIME),
            dcc.Dropdown(id=ID.TIME, options=_options(n for n in names if n != state.metric),
                         value=state.time or None, className="axis-pick"),
            html.Label("task type", htmlFor=ID.TASK_TYPE),
            dcc.Dropdown(id=ID.TASK_TYPE, options=_options(_group_columns(table)),
                         value=state.task_type or None, placeholder="all tasks together",
                         className="axis-pick"),
        ]),
        help_text("y: 1 - the p = 2 power mean over tasks of each method's u (COPA with equal "
                  "weights on the tasks, rescaled to u's scale; a failed task counts as worst); "
                  "x: median time over tasks. Ringed points are Pareto-optimal (paper Fig. B.9)."),
        html.Div(id=slot(ID.TRADEOFF)),
    ])


def _group_columns(table) -> list[str]:
    try:
        return task_group_columns(table)
    except InvalidInputError:
        return []


def register_page() -> None:
    """Register the page with Dash (app_shell registers its callbacks)."""
    dash.register_page("rankings", path=PATH, name="Rankings", title="copa-dash: rankings",
                       layout=layout, nav=True)
