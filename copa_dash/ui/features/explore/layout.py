"""The COPA explorer page: ``/explore?dataset=NAME&...`` (the URL holds the whole view)."""

from __future__ import annotations

import dash
from dash import dcc, html

from copa_dash.services.catalog import catalog
from copa_dash.ui.common.datasets import open_or_explain
from copa_dash.ui.common.html_block import HtmlBlock
from copa_dash.ui.common.page_frame import view_page
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.common.url_sync import share_box
from copa_dash.ui.common.working_context import read_context, without_context
from copa_dash.ui.features.explore import (
    choose_panel,
    panels,
    report_panel,
    robustness_panel,
    table_query,
)
from copa_dash.ui.features.explore import controls as components
from copa_dash.ui.features.explore.ids import ExploreIds as ID
from copa_dash.ui.features.explore.link_check import link_notes
from copa_dash.ui.features.explore.state import apply_context, parse_query, to_query, with_defaults

DEFAULT_DATASET = "open-llm-leaderboard-v2"
PATH = "/explore"


def layout(**query):
    """Build the page from the query string, so a copied link reproduces the view."""
    settings = current_settings()
    state = parse_query(query)
    entries = catalog(settings)
    ref = state.dataset or (DEFAULT_DATASET if any(e.ref == DEFAULT_DATASET for e in entries)
                            else (entries[0].ref if entries else ""))
    opened, why_not = open_or_explain(ref, settings, "Explore")
    if opened is None:
        return why_not
    state = with_defaults(state, opened, given=set(query))
    state, context_notes = apply_context(state, read_context(query), opened, given=set(query))
    notes = link_notes(without_context(query), state, opened.table.objective_names)
    options = [{"label": e.title, "value": e.ref} for e in entries]
    if not any(o["value"] == opened.ref for o in options):
        options.append({"label": opened.title, "value": opened.ref})
    table = opened.table
    return view_page(ID.NAV, ID.QUERY, to_query(state), context_notes=context_notes, children=[
        dcc.Store(id=ID.DRAWN),
        dcc.Store(id=ID.REF, data=opened.ref),
        dcc.Store(id=ID.FOCUS_MEMORY),
        html.Aside(className="controls", children=[
            html.H4("Dataset"),
            dcc.Dropdown(id=ID.DATASET, options=options, value=opened.ref, clearable=False),
            html.Details(id=ID.DATASET_INFO, open=False, children=[
                html.Summary(f"About: {opened.title}"),
                html.P(opened.description),
                html.P(f"Source: {opened.source}", className="help"),
                html.P(f"Licence: {opened.licence or 'none stated'}", className="help"),
            ]),
            html.H4("Objectives"),
            components.objective_controls(table, state),
            html.H4("Preferences"),
            components.preference_controls(table, state),
            html.Details(open=bool(state.ranges or state.sets), children=[
                html.Summary("Constraints (raw units)"),
                components.help_text("Rows outside a range, or with a value not in a chosen set, "
                                     "cannot be picked; they stay in the CDF population unless "
                                     "you switch it above."),
                components.constraint_controls(table, state),
            ]),
        ]),
        html.Main(className="results", children=[
            # the first screen: a flex column whose notes (info, tasks pooled) are drawn under
            # the figure, an error above it (assets/style.css); at 1024 x 768 two notes above
            # pushed the figure off the first screen
            html.Div(className="first-screen", children=[
                html.Div(id=ID.LINK_NOTES, className="alert alert-warning", hidden=not notes, children=[
                    html.Strong("Some of this link's settings could not be used:"),
                    html.Ul([html.Li(note) for note in notes]),
                ]),
                html.Div(id=ID.ALERT),
                # the answer in one line, then the figure: both on the first screen at 1400 x 1000
                # whatever the card and the panel below hold (an upload's missing scores, notes)
                html.P(id=ID.PICK_LINE, className="pick-line", hidden=True, children=[
                    html.Strong(["COPA pick: ", html.Span(id=ID.PICK_LINE_ID)]), " — ",
                    robustness_panel.verdict_line(),
                    html.Span(" Its values, runners-up and how sure: under the figure.",
                              className="help"),
                ]),
                components.axes_controls(state),
                html.P("The scatter below: one point per row at its values of the objectives chosen "
                       "as x and y; hollow points are on the front, faint ones fail a constraint; the "
                       "COPA pick, named in the line above, is ringed in red.",
                       className="visually-hidden"),
                dcc.Graph(id=ID.FRONT, config={"displaylogo": False}),
            ]),
            html.Div(id=ID.COMPARE_TABLE),
            html.Div(className="pick-row", children=[panels.pick_card_layout(ID),
                                                     robustness_panel.panel()]),
            choose_panel.panel(state.choose),
            html.Div(className="share-row", children=[
                html.Span("Share this view: "),
                *share_box(ID.SHARE, PATH, to_query(state)),
            ]),
            report_panel.report_controls(),
            html.H4("Ranked rows passing the constraints"),
            html.Div(className="table-controls", children=[
                dcc.Input(id=ID.TABLE_SEARCH, type="text", debounce=True, className="table-search",
                          placeholder="search: llama, or co2_cost < 2, ifeval > 0.6"),
                dcc.Dropdown(id=ID.TABLE_SORT, value=table_query.RANKING, clearable=False,
                             searchable=False, className="table-sort",
                             options=table_query.sort_options(list(state.objective_names))),
                html.Button("‹ previous", id=ID.TABLE_PREV, className="button", disabled=True),
                html.Span(id=ID.TABLE_PAGER, className="help"),
                html.Button("next ›", id=ID.TABLE_NEXT, className="button"),
                html.Button("Download CSV", id=ID.DOWNLOAD_BUTTON, className="button",
                            title="every page of the table, as searched and sorted"),
            ]),
            dcc.Store(id=ID.TABLE_PAGE, data=0),
            html.Div(id=ID.TABLE_NOTE, className="help"),
            dcc.Download(id=ID.DOWNLOAD),
            HtmlBlock(id=ID.TABLE, className="ranked-table"),
            html.H4("Parallel coordinates: every chosen objective in CDF space "
                    "(top = best; the pick in red)"),
            dcc.Graph(id=ID.PARALLEL, config={"displaylogo": False}),
        ]),
    ])


def register_page() -> None:
    """Register the page with Dash (app_shell registers its callbacks)."""
    dash.register_page("explore", path=PATH, name="Explore", title="copa-dash: explore",
                       layout=layout)
