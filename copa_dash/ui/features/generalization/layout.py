"""Validation -> test page: ``/generalization?dataset=NAME&metric=M:DIR&ref=V,V&system=S
&budget=B&seed=R&a=S1&b=S2`` (the URL holds the view).

One search (system, budget, seed) is drawn as the paper's three panels; the per-system
table and the hypervolumes against budget cover every search; two chosen systems are
compared in words by the paper's three criteria.
"""

from __future__ import annotations

from dataclasses import replace

import dash
from dash import dash_table, dcc, html

from copa_dash.core.errors import InvalidInputError
from copa_dash.services.catalog import bundled_datasets, open_dataset
from copa_dash.services.generalization import dataset_report, label_text, metric_choices
from copa_dash.ui.common.job_result import DIMS_WHILE_LOADING, MARK, loading_note
from copa_dash.ui.common.page_frame import empty_state_page, view_page
from copa_dash.ui.common.settings_access import current_cache, current_settings
from copa_dash.ui.common.table_ids import TOOLTIP_ARGS, id_cell_styles
from copa_dash.ui.common.url_sync import share_box
from copa_dash.ui.common.working_context import read_context
from copa_dash.ui.features.generalization.ids import ID
from copa_dash.ui.features.generalization.state import (
    apply_context,
    format_ref,
    parse_query,
    to_query,
    with_defaults,
)

PATH = "/generalization"
DEFAULT_DATASET = "breast-cancer-val-test"
TABLE_STYLE = {"style_table": {"overflowX": "auto"},
               "style_cell": {"fontFamily": "inherit", "fontSize": 13, "maxWidth": 260,
                              "overflow": "hidden", "textOverflow": "ellipsis"},
               "style_cell_conditional": id_cell_styles("id", "system"), **TOOLTIP_ARGS}


HELP_TWO = ("The axes zoom on the fronts; the steps run on to the reference point, so the areas "
            "are the hypervolumes. Double-click a panel to see every configuration.")
HELP_MORE = ("The validation front of this search on parallel axes, the validation and the test "
             "value of each metric side by side, the best end of every axis at the top. Colour: "
             "blue on both test fronts, green on the optimistic front only, pink on the "
             "pessimistic front only, grey on neither.")


def _dataset_options(current: str, title: str) -> list[dict]:
    options = [{"label": d.title, "value": d.name} for d in bundled_datasets()
               if d.paired_metrics or d.roles.split]
    if not any(o["value"] == current for o in options):
        options.append({"label": title or current, "value": current})
    return options


def _picker(component_id: str, values: list, value: str, *, none_label: str) -> dcc.Dropdown:
    options = [{"label": label_text(v) or none_label, "value": label_text(v)} for v in values]
    return dcc.Dropdown(id=component_id, options=options, value=value, clearable=False,
                        disabled=len(options) < 2)


def _error_page(message: str, ref: str, title: str = "", description: str = "") -> html.Div:
    """A dataset this page cannot show, in the pages' shared empty state: the dataset
    switcher, what the dataset is, the reason and a link to the shipped example."""
    return empty_state_page(
        ID.NAV, ID.QUERY, to_query(parse_query({"dataset": ref} if ref else {})),
        stores=[dcc.Store(id=ID.REF_STORE, data=ref)],
        picker=dcc.Dropdown(id=ID.DATASET, options=_dataset_options(ref, title) if ref else [],
                            value=ref or None, clearable=False),
        title=title or ref, description=description, message=message,
        links=[dcc.Link("Open the shipped example of validation and test results",
                        href=f"{PATH}?dataset={DEFAULT_DATASET}")])


def layout(**query):
    """Build the page from the query string, so a copied link reproduces the view."""
    settings = current_settings()
    state = parse_query(query)
    ref = state.dataset or DEFAULT_DATASET
    try:
        opened = open_dataset(ref, settings)
    except InvalidInputError as exc:
        return _error_page(str(exc), ref)
    choices = metric_choices(opened)
    state, context_notes = apply_context(state, read_context(query), choices)
    try:
        report = dataset_report(opened, metrics=state.metrics or None, ref=state.ref or None,
                                cache=current_cache())
    except InvalidInputError as exc:
        return _error_page(str(exc), opened.ref, opened.title, opened.description)
    state = with_defaults(replace(state, dataset=opened.ref), report)
    directions = dict(choices) | dict(state.metrics)
    chosen = [m for m, _ in state.metrics]
    return view_page(ID.NAV, ID.QUERY, to_query(state), context_notes=context_notes, children=[
        dcc.Store(id=ID.REF_STORE, data=opened.ref),
        dcc.Store(id=ID.DIRECTIONS, data=directions),
        html.Aside(className="controls", children=[
            html.H4("Dataset"),
            dcc.Dropdown(id=ID.DATASET, options=_dataset_options(opened.ref, opened.title),
                         value=opened.ref, clearable=False),
            html.Details(open=False, children=[html.Summary(f"About: {opened.title}"),
                                               html.P(opened.description)]),
            html.H4("Metrics (validation and test)"),
            dcc.Checklist(id=ID.METRICS, value=chosen, className="objective-check",
                          options=[{"label": f" {m} ({directions[m]})", "value": m}
                                   for m in dict.fromkeys([*directions])]),
            html.Label("Reference point (one number per metric)"),
            dcc.Input(id=ID.REF, value=format_ref(state.ref) if state.ref else "", debounce=True,
                      type="text", placeholder=f"default {format_ref(report.ref)}"),
            html.P("Default: the worst value of each metric over every validation and test value, "
                   "10% of the range further. One point serves every search, so all hypervolumes "
                   "compare.", className="help"),
            html.H4("The search drawn"),
            html.Label("System"), _picker(ID.SYSTEM, report.systems, state.system, none_label="all rows"),
            html.Label("Budget"), _picker(ID.BUDGET, report.budgets, state.budget, none_label="no budget column"),
            html.Label("Seed"), _picker(ID.SEED, report.seeds, state.seed, none_label="no seed column"),
            html.H4("Compare two systems"),
            html.Label("A"), _picker(ID.A, report.systems, state.a, none_label="all rows"),
            html.Label("B"), _picker(ID.B, report.systems, state.b, none_label="all rows"),
            html.P("At the budget and seed of the search drawn.", className="help"),
        ]),
        html.Main(className=f"results {DIMS_WHILE_LOADING}", children=[
            loading_note(),
            html.Div(id=ID.ALERT),
            html.H3(id=ID.SEARCH_TITLE, className=MARK),
            dcc.Graph(id=ID.PANELS, config={"displaylogo": False}),
            html.P(id=ID.PANELS_HELP, className="help"),
            html.H4("The validation front of this search on test"),
            dash_table.DataTable(id=ID.FRONT_TABLE, page_size=10, sort_action="native", **TABLE_STYLE),
            html.H4("Verdicts between the two systems"),
            html.Div(id=ID.VERDICTS),
            dcc.Graph(id=ID.SYSTEMS, config={"displaylogo": False}),
            html.H4("Hypervolumes and gap per system and budget (mean ± sd over seeds)"),
            dash_table.DataTable(id=ID.SUMMARY, page_size=20, sort_action="native", **TABLE_STYLE),
            dcc.Graph(id=ID.BUDGET_CHART, config={"displaylogo": False},
                      style={} if any(isinstance(v, (int, float)) for v in report.budgets)
                      else {"display": "none"}),
            html.Div(className="share-row", children=[
                html.Span("Share this view: "),
                *share_box(ID.SHARE, PATH, to_query(state)),
            ]),
        ]),
    ])


def register_page() -> None:
    """Register the page with Dash (app_shell registers its callbacks)."""
    dash.register_page("generalization", path=PATH, name="Val → test",
                       title="copa-dash: validation → test", layout=layout, nav=True)
