"""Compare whole systems: ``/systems?dataset=NAME&...`` (the URL holds the view).

The indicators tab tabulates every system's HV, ONVG, ONVG^, ONVGR, UD_bar, OS and radar
area (papers/utility-fairness-moo-evaluation.txt, Section III), overlays the chosen systems
on a radar chart and draws their rows and fronts. The significance tab tests whether a
candidate side's front beats a baseline side's beyond seed noise
(papers/pareto-improvement-significance.md) as a background job with progress and cancel,
and estimates the power of a design.
"""

from __future__ import annotations

import math

import dash
from dash import dash_table, dcc, html

from copa_dash.services.catalog import bundled_datasets, catalog
from copa_dash.services.significance_verdict import SIGNIFICANCE_LEVEL, verdict
from copa_dash.services.systems import (
    NO_SYSTEM_COLUMN,
    SYSTEMS_EXAMPLE,
    significance_blocker,
    system_names,
)
from copa_dash.services.views.links import dataset_link
from copa_dash.ui.common.alerts import alert
from copa_dash.ui.common.datasets import open_or_explain
from copa_dash.ui.common.glossary import indicator_terms
from copa_dash.ui.common.help import help_text
from copa_dash.ui.common.job_result import result_class
from copa_dash.ui.common.page_frame import empty_state_page, view_page
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.common.table_ids import id_cell_styles
from copa_dash.ui.common.url_sync import share_box
from copa_dash.ui.common.working_context import read_context
from copa_dash.ui.features.systems import report_panel
from copa_dash.ui.features.systems.ids import ID
from copa_dash.ui.features.systems.state import apply_context, parse_query, to_query, with_defaults

PATH = "/systems"
DEFAULT_DATASET = "fairness-adult-sex"

HELP_INDICATORS = (
    "Objectives are scaled over all systems' rows (min-max: best 0, worst 1; or COPA's u) "
    "with reference point r = 1. HV: hypervolume of the system's own front; ONVG: its size; "
    "ONVG^: size / the largest; ONVGR: size / the system's rows; UD_bar = 1 - 1/(1 + s.d. of "
    "niche counts within sigma), needs 2 front points; OS: the front's extent / the extent "
    "of the front of all systems, per objective multiplied. Radar area: the polygon over the "
    "regular pentagon (1 = radius 1 on every axis), undefined values as 0 - this page divides "
    "by the pentagon, not by the systems' range as the paper does, so one system's area does "
    "not depend on the others.")
HELP_TEST = (
    "A run is a (system, seed) pair. Delta = HV(candidate front) - HV(baseline front) with "
    "the reference point frozen from both sides' rows; the null relabels whole runs between "
    "the sides (keeping their sizes) and recomputes Delta. p = (1 + #|Delta_b| >= |Delta|) / "
    "(B + 1). With a config column each side's front is the front of its per-config means. "
    "The same inputs and seed give the same p-value. The verdict in words calls a difference "
    f"significant when p <= {SIGNIFICANCE_LEVEL:g} (the {SIGNIFICANCE_LEVEL:.0%} level of the "
    "power estimate below and of the paper; the method itself fixes no level).")
# The tab's first words: the question it answers, before the controls; the formula follows
# in "How the test works" (a newcomer met the p-value formula before the system pickers)
TEST_QUESTION = (
    "Is the candidate systems' front better than the baseline's by more than the luck of the "
    "seeds? Choose the two sides, then run the test: it says how often reshuffling the runs "
    "between the sides gives a difference at least as large (the p-value).")
HELP_POWER = (
    "Simulated runs: each run has the given points on a convex front in [0, 1] units plus "
    "Gaussian seed noise; the candidate is moved by the effect in every objective. Power = "
    "share of 200 simulated tests (200 permutations each) with p <= 0.05. 'From the sides' "
    "reads runs per side, points per run, the seed noise and the observed mean improvement "
    "off the chosen systems (min-max units).")


def _options(values) -> list[dict]:
    return [{"label": str(v), "value": str(v)} for v in values]


def dataset_options(settings, current) -> list[dict]:
    """Bundled tables with a system column, shared uploads, and the open one."""
    with_system = {d.name for d in bundled_datasets() if d.roles.system}
    options = [{"label": e.title, "value": e.ref} for e in catalog(settings)
               if e.kind != "bundled" or e.ref in with_system]
    if not any(o["value"] == current.ref for o in options):
        options.append({"label": current.title, "value": current.ref})
    return options


def _number_input(id_, value, **kwargs) -> dcc.Input:
    return dcc.Input(id=id_, type="number", value=value, debounce=True,
                     style={"width": "90px"}, **kwargs)


def _controls(opened, state, systems) -> html.Aside:
    table = opened.table
    return html.Aside(className="controls", children=[
        html.H4("Dataset"),
        dcc.Dropdown(id=ID.DATASET, options=dataset_options(current_settings(), opened),
                     value=opened.ref, clearable=False),
        html.Details([html.Summary(f"About: {opened.title}"), html.P(opened.description),
                      html.P(f"systems: {table.roles.system or 'none'}; seeds: "
                             f"{table.roles.seed or 'none'}", className="help")]),
        html.H4("Objectives (at least 2)"),
        dcc.Dropdown(id=ID.OBJECTIVES, options=_options(table.objective_names),
                     value=list(state.objectives), multi=True),
        html.H4("Normalisation"),
        dcc.RadioItems(id=ID.NORMALIZE, value=state.normalize, className="rankings-radio",
                       options=[{"label": "min-max (best 0, worst 1)", "value": "minmax"},
                                {"label": "COPA's u (share strictly better)", "value": "cdf"}]),
        html.Label("niche radius sigma (UD)", htmlFor=ID.SIGMA),
        _number_input(ID.SIGMA, state.sigma, min=0.0001, max=10, step="any"),
        html.H4("Systems on the radar and fronts"),
        dcc.Dropdown(id=ID.SHOWN, options=_options(systems), value=list(state.shown),
                     multi=True, placeholder="choose systems"),
    ])


def layout(**query):
    """Build the page from the query string, so a copied link reproduces the view."""
    settings = current_settings()
    state = parse_query(query)
    opened, why_not = open_or_explain(state.dataset or DEFAULT_DATASET, settings, "Systems")
    if opened is None:
        return why_not
    systems = system_names(opened.table)
    state, context_notes = apply_context(state, read_context(query), opened)
    state = with_defaults(state, opened, systems)
    if not systems:
        return _no_systems_page(opened, state)
    return view_page(ID.NAV, ID.QUERY, to_query(state), context_notes=context_notes, children=[
        dcc.Store(id=ID.REF, data=opened.ref),
        _controls(opened, state, systems),
        html.Main(className="results", children=[
            html.Div(id=ID.ALERT),
            # shown from the start and while the indicators are recomputed (callbacks), so a
            # slow first view (kernels compiling, many objectives) is never a blank panel
            html.P(working_words(len(systems)), id=ID.WORKING,
                   role="status", className="help"),
            dcc.Tabs(id=ID.TABS, value=state.tab, children=[
                dcc.Tab(label="Indicators and radar", value="indicators",
                        children=_indicators_panel(state)),
                dcc.Tab(label="Significance of an improvement", value="significance",
                        children=_significance_panel(opened.table, state, systems)),
            ]),
            html.Div(className="share-row", children=[
                html.Span("Share this view: "),
                *share_box(ID.SHARE, PATH, to_query(state)),
            ]),
            report_panel.report_controls(),
        ]),
    ])


def _no_systems_page(opened, state) -> html.Div:
    """A table without systems: the dataset switcher and the message that says what a system
    column is and how to give one (the shared empty state of ui/common/page_frame)."""
    return empty_state_page(
        ID.NAV, ID.QUERY, to_query(state), stores=[dcc.Store(id=ID.REF, data=opened.ref)],
        picker=dcc.Dropdown(id=ID.DATASET, options=dataset_options(current_settings(), opened),
                            value=opened.ref, clearable=False),
        title=opened.title, description=opened.description,
        message=_linked(NO_SYSTEM_COLUMN[0].upper() + NO_SYSTEM_COLUMN[1:] + "."),
        message_id=ID.ALERT)


def _linked(message: str) -> list:
    """The no-systems message with the example dataset and the upload page as links."""
    before, _, rest = message.partition(SYSTEMS_EXAMPLE)
    middle, _, after = rest.partition("upload page")
    return [before, dcc.Link(SYSTEMS_EXAMPLE, href=dataset_link("systems", SYSTEMS_EXAMPLE),
                             id=ID.EXAMPLE_LINK),
            middle, dcc.Link("upload page", href="/upload"), after]


def _indicators_panel(state) -> html.Div:
    objectives = _options(state.objectives)
    return html.Div([
        # the radar first: the figure a newcomer looks at, on the first screen (issue 19)
        html.H4("Radar of the chosen systems"),
        dcc.Graph(id=ID.RADAR, config={"displaylogo": False}),
        html.Div(id=ID.NOTES),   # what the radar and the table leave out or pool
        help_text(HELP_INDICATORS),
        indicator_terms(),
        html.Div(id=ID.HV_NOTE),  # right above the HV column it explains
        dash_table.DataTable(
            id=ID.TABLE, page_size=25, sort_action="native", style_table={"overflowX": "auto"},
            tooltip_delay=200, tooltip_duration=None,
            style_cell={"fontFamily": "inherit", "fontSize": 13, "maxWidth": 360,
                        "whiteSpace": "normal", "height": "auto"},
            style_cell_conditional=[{"if": {"column_id": "why"}, "textAlign": "left"},
                                    *id_cell_styles("system")],
            style_data_conditional=[{"if": {"filter_query": f"{{{c}}} = 'undefined'",
                                            "column_id": c},
                                     "color": "#9a6700", "fontStyle": "italic"}
                                    for c in ("hv", "onvg", "onvg_hat", "onvgr", "ud_bar", "os",
                                              "area")]),
        html.H4("Rows and fronts of the chosen systems"),
        html.Div(className="axes-row", children=[
            html.Label("x", htmlFor=ID.X), dcc.Dropdown(id=ID.X, options=objectives, value=state.x,
                                         clearable=False, className="axis-pick"),
            html.Label("y", htmlFor=ID.Y), dcc.Dropdown(id=ID.Y, options=objectives, value=state.y,
                                         clearable=False, className="axis-pick"),
            dcc.Checklist(id=ID.THREE_D, options=[{"label": "3-D with z", "value": "on"}],
                          value=["on"] if state.three_d else [], inline=True),
            html.Label("z", htmlFor=ID.Z, className="visually-hidden"),
            dcc.Dropdown(id=ID.Z, options=objectives, value=state.z or None,
                         className="axis-pick"),
        ]),
        dcc.Graph(id=ID.FRONT, config={"displaylogo": False}),
    ])


def working_words(n_systems: int) -> str:
    """The status line while the indicators are computed."""
    return (f"Working: computing the indicators of {n_systems} systems on the chosen "
            "objectives (hypervolume, spread, ...). The first view of a table can take some "
            "seconds more while the computing kernels are prepared; later views are quicker.")


SIDE_LABELS = {"baseline": "Baseline systems (one or more)",
               "candidate": "Candidate systems (one or more)"}


def _significance_panel(table, state, systems) -> html.Div:
    options = _options(systems)
    blocked = significance_blocker(table)
    return html.Div([
        html.P(TEST_QUESTION, className="tab-lead"),
        # several systems per side: the labels say so, as the controls allow it; each label
        # sits above its picker, so that neither squeezes the other
        html.Div(className="axes-row", style={"alignItems": "flex-start"}, children=[
            html.Div(style={"flex": 1, "minWidth": "260px"}, children=[
                html.Label(SIDE_LABELS[side], id=f"{picker}-label", htmlFor=picker,
                           style={"display": "block", "fontWeight": 600}),
                dcc.Dropdown(id=picker, options=options, value=list(values), multi=True,
                             placeholder="choose one or more systems"),
            ]) for side, picker, values in (("baseline", ID.BASELINE, state.baseline),
                                            ("candidate", ID.CANDIDATE, state.candidate))
        ]),
        help_text("Each side pools the runs of the systems chosen for it."),
        html.Details(className="help", children=[html.Summary("How the test works"),
                                                 html.P(HELP_TEST)]),
        html.Div(className="axes-row", children=[
            html.Label("permutations", htmlFor=ID.PERMUTATIONS),
            _number_input(ID.PERMUTATIONS, state.permutations, min=1, max=1_000_000, step=1),
            html.Label("random seed", htmlFor=ID.SEED),
            _number_input(ID.SEED, state.seed, min=0, step=1),
            html.Label("reference point", htmlFor=ID.REF_RULE),
            dcc.RadioItems(id=ID.REF_RULE, value=state.ref_rule, inline=True, options=[
                {"label": "nadir + 10% of the range", "value": "range"},
                {"label": "1.1 x the worst value (paper)", "value": "worst-multiple"}]),
        ]),
        # a table without runs cannot be tested: say so up front instead of offering Run
        html.Div(id=ID.TEST_BLOCKED, children=alert(blocked, "info") if blocked else None),
        html.Div(className="axes-row", style={"display": "none"} if blocked else None, children=[
            html.Button("Run the test", id=ID.RUN, className="button", disabled=bool(blocked)),
            html.Button("Cancel", id=ID.CANCEL, className="button", disabled=True),
            html.Div(id=ID.PROGRESS_ROW, style={"display": "none"}, children=[
                html.Progress(id=ID.PROGRESS, value="0", max="100",
                              style={"width": "260px"}),
                html.Span(id=ID.PROGRESS_TEXT, className="help", style={"marginLeft": "8px"}),
            ]),
        ]),
        html.Div(id=ID.TEST_ALERT),
        html.Div(id=ID.RESULT, className=result_class()),
        html.H4("Power of a design: how many seeds does a claim need?"),
        help_text(HELP_POWER),
        html.Div(className="axes-row", children=[
            html.Label("seeds per side", htmlFor=ID.POWER_SEEDS),
            _number_input(ID.POWER_SEEDS, state.power_seeds, min=1, max=200, step=1),
            html.Label("points per run", htmlFor=ID.POWER_POINTS),
            _number_input(ID.POWER_POINTS, state.power_points, min=1, max=500, step=1),
            html.Label("effect", htmlFor=ID.POWER_EFFECT),
            _number_input(ID.POWER_EFFECT, state.power_effect, min=0, step="any"),
            html.Label("seed noise s.d.", htmlFor=ID.POWER_NOISE),
            _number_input(ID.POWER_NOISE, state.power_noise, min=0, step="any"),
        ]),
        html.Div(className="axes-row", children=[
            html.Button("From the sides", id=ID.POWER_FILL, className="button"),
            html.Button("Estimate power", id=ID.POWER_RUN, className="button"),
        ]),
        dcc.Loading(html.Div(id=ID.POWER_RESULT)),
    ])


def _number(value, digits: int = 4) -> str:
    return "undefined" if value is None or math.isnan(value) else f"{value:.{digits}g}"


def test_summary(view) -> html.Div:
    """The verdict in words, then Delta, relative Delta, p, B, the reference point and each
    side's spread."""
    test = view.test
    rel = ("undefined (the baseline's HV is 0)" if math.isnan(test.delta_relative)
           else f"{test.delta_relative:+.1%}")
    ref = ", ".join(f"{o} ({d}) {v:.4g}"
                    for o, d, v in zip(view.objectives, view.directions, test.ref))
    sides = []
    for side, (name, systems) in enumerate((("baseline", view.baseline),
                                            ("candidate", view.candidate))):
        sides.append(html.Li(
            f"{name} ({', '.join(systems)}): {test.n_runs[side]} runs, front HV "
            f"{(test.hv_baseline, test.hv_candidate)[side]:.4g}; one run's HV "
            f"{_number(test.run_hv_mean[side])} ± {_number(test.run_hv_sd[side], 3)} (s.d.)"))
    lines = [
        html.P(html.Strong(verdict(test, view.baseline, view.candidate)), id=ID.VERDICT),
        html.P([html.B(f"Δ = {test.delta:+.4g}"), f" ({rel} of the baseline's HV), ",
                html.B(f"p = {test.p_value:.4g}"),
                (f" from {test.n_permutations:,} permutations (random seed {test.seed}; "
                f"{test.n_partitions:,} distinct splits exist)."),
                " Cancelled early: the p-value covers the permutations done."
                if test.cancelled else ""]),
        html.P(f"Reference point ({test.ref_rule}), frozen before testing: {ref}."),
        html.Ul(sides),
    ]
    return html.Div([*lines, *(html.P(n, className="help") for n in view.notes)],
                    id="systems-summary", className="alert alert-info")


def result_panel(view, null_figure: dict, spread_figure: dict) -> html.Div:
    """The test's summary over its two figures (built when shown, so they size right)."""
    return html.Div([
        test_summary(view),
        html.Div(style={"display": "grid", "gridTemplateColumns": "3fr 2fr", "gap": "12px"},
                 children=[dcc.Graph(id=ID.NULL, figure=null_figure,
                                     config={"displayModeBar": False}),
                           dcc.Graph(id=ID.SPREAD, figure=spread_figure,
                                     config={"displayModeBar": False})]),
    ])


def register_page() -> None:
    """Register the page with Dash (app_shell registers its callbacks)."""
    dash.register_page("systems", path=PATH, name="Systems", title="copa-dash: systems",
                       layout=layout, nav=True)
