"""Thin callbacks of the systems page: read the controls, call the systems service, hand the
result to the figure builders. The permutation test runs as a Dash background callback (the
app's manager: diskcache child processes, or Celery on Redis) with progress and cancel."""

from __future__ import annotations

from dash import Input, Output, State, html, no_update

from copa_dash.core.errors import InvalidInputError
from copa_dash.services import systems
from copa_dash.services.cache import get_cache
from copa_dash.services.catalog import open_dataset
from copa_dash.services.systems_flat import constant_objective_note, flat_radar_note
from copa_dash.services.task_span import task_span
from copa_dash.services.views.rankings import RankingsView
from copa_dash.ui.common.alerts import alert, view_notes
from copa_dash.ui.common.job_result import dim_while_running
from copa_dash.ui.common.settings_access import current_cache, current_settings
from copa_dash.ui.common.table_ids import id_tooltips
from copa_dash.ui.common.task_note import task_note
from copa_dash.ui.features.systems import figures, report_panel
from copa_dash.ui.features.systems.ids import SystemsIds as ID
from copa_dash.ui.features.systems.layout import PATH, result_panel
from copa_dash.ui.features.systems.run_guard import register_run_guard
from copa_dash.ui.features.systems.state import SystemsState, to_query

HIDDEN = {"display": "none"}
POWER_SIMULATED_MAX_K = 3
CONTROLS = {
    "dataset": State(ID.REF, "data"), "tab": Input(ID.TABS, "value"),
    "objectives": Input(ID.OBJECTIVES, "value"), "normalize": Input(ID.NORMALIZE, "value"),
    "sigma": Input(ID.SIGMA, "value"), "shown": Input(ID.SHOWN, "value"),
    "x": Input(ID.X, "value"), "y": Input(ID.Y, "value"), "z": Input(ID.Z, "value"),
    "three_d": Input(ID.THREE_D, "value"), "baseline": Input(ID.BASELINE, "value"),
    "candidate": Input(ID.CANDIDATE, "value"), "permutations": Input(ID.PERMUTATIONS, "value"),
    "seed": Input(ID.SEED, "value"), "ref_rule": Input(ID.REF_RULE, "value"),
    "power_seeds": Input(ID.POWER_SEEDS, "value"), "power_effect": Input(ID.POWER_EFFECT, "value"),
    "power_noise": Input(ID.POWER_NOISE, "value"), "power_points": Input(ID.POWER_POINTS, "value"),
}
from copa_dash.ui.common.url_sync import register_url_sync, view_link, view_link_outputs


def _whole(value, default: int) -> int:
    return int(value) if isinstance(value, (int, float)) and value == int(value) else default


def _real(value, default: float) -> float:
    return float(value) if isinstance(value, (int, float)) else default


def state_from_controls(*, dataset, tab, objectives, normalize, sigma, shown, x, y, z, three_d,
                        baseline, candidate, permutations, seed, ref_rule, power_seeds,
                        power_effect, power_noise, power_points) -> SystemsState:
    """The page's state from its controls (the inverse of the layout)."""
    return SystemsState(
        dataset=dataset or "", tab=tab or "indicators", objectives=tuple(objectives or ()),
        normalize=normalize or "minmax", sigma=_real(sigma, 0.1), shown=tuple(shown or ()),
        x=x or "", y=y or "", z=z or "", three_d=bool(three_d) and bool(z),
        baseline=tuple(baseline or ()), candidate=tuple(candidate or ()),
        permutations=_whole(permutations, systems.DEFAULT_PERMUTATIONS), seed=_whole(seed, 0),
        ref_rule=ref_rule or "range", power_seeds=_whole(power_seeds, 5),
        power_effect=_real(power_effect, 0.05), power_noise=_real(power_noise, 0.05),
        power_points=_whole(power_points, 1))


def _progress_reporter(set_progress, total: int):
    """``progress(fraction)`` for the core that sends at most one update per percent."""
    last = [-1]

    def report(fraction: float) -> None:
        percent = int(fraction * 100)
        if percent != last[0]:
            last[0] = percent
            set_progress((str(percent), f"{percent}% of {total:,} permutations"))

    return report


def power_text(estimate, *, n_seeds: int, effect: float, k_used: int, k_asked: int) -> list:
    """The power estimate in words."""
    lines = [html.B(f"Power ≈ {estimate.power:.2f}"),
             (f" (95% interval {estimate.ci_low:.2f} to {estimate.ci_high:.2f}): with "
             f"{n_seeds} seeds per side an improvement of {effect:g} in every objective is "
             f"declared at p ≤ {estimate.alpha:g} in {estimate.n_rejections} of "
             f"{estimate.n_simulations} simulated tests (random seed {estimate.seed}).")]
    if k_used != k_asked:
        lines.append(f" Simulated with {k_used} objectives: {k_asked} are too slow to "
                     "simulate here.")
    return [html.P(lines, id="systems-power-text")]


def _indicators_view(ref, objectives, normalize, sigma):
    """The dataset's systems view under the instance's HV budget (one cache entry for both
    callbacks that read it)."""
    settings = current_settings()
    opened = open_dataset(ref, settings)
    return systems.systems_view(opened.table, objectives=objectives or [], normalize=normalize,
                                sigma=_real(sigma, float("nan")),
                                hv_budget_seconds=settings.hv_budget_seconds,
                                dataset_id=opened.cache_id, cache=current_cache())


def register_callbacks(app) -> None:
    """Attach the systems page's callbacks to ``app``."""
    register_run_guard(app)  # Run disabled out of range; "cancelled"; stale errors cleared
    report_panel.register_callbacks(app)
    _register_indicators(app)
    _register_test(app)
    _register_power(app)
    register_url_sync(app, path=PATH, nav=ID.NAV, dataset=ID.DATASET, ref=ID.REF)


def _register_indicators(app) -> None:
    """The indicator table, radar, front plot, axis pickers and the page's link."""

    @app.callback(
        output={"alert": Output(ID.ALERT, "children"), "notes": Output(ID.NOTES, "children"),
                "data": Output(ID.TABLE, "data"),
                "columns": Output(ID.TABLE, "columns"),
                "hv_note": Output(ID.HV_NOTE, "children"),
                "tooltips": Output(ID.TABLE, "tooltip_data"),
                "radar": Output(ID.RADAR, "figure")},
        inputs={"ref": State(ID.REF, "data"), "objectives": Input(ID.OBJECTIVES, "value"),
                "normalize": Input(ID.NORMALIZE, "value"), "sigma": Input(ID.SIGMA, "value"),
                "shown": Input(ID.SHOWN, "value")},
        running=[(Output(ID.WORKING, "style"), {}, {"display": "none"})])
    def update_indicators(ref, objectives, normalize, sigma, shown):
        try:
            view = _indicators_view(ref, objectives, normalize, sigma)
        except InvalidInputError as exc:
            return {"alert": alert(str(exc)), "notes": None, "data": [], "columns": [],
                    "tooltips": [],
                    "hv_note": None,
                    "radar": figures.EMPTY}
        data, columns, tooltips = figures.indicator_rows(view)
        estimated = view.hv_estimate_note(current_settings().hv_budget_seconds)
        constant = constant_objective_note(view)
        rankings_view = RankingsView(dataset=ref)   # Systems has no filters: restrict there
        table = open_dataset(ref, current_settings()).table
        flat = flat_radar_note(view, table)
        tasks = task_note(task_span(table, pooled_by=table.roles.system), "systems",
                          rankings_view, restrict_in=rankings_view)
        # the notes under the radar: above it, two of them pushed it off the first screen
        return {"alert": None, "notes": view_notes(tasks or None,
                                             [*view.notes, *filter(None, [flat, constant])]),
                "data": data,
                "hv_note": alert(estimated) if estimated else None,
                "columns": columns, "tooltips": id_tooltips(data, "system", tooltips=tooltips),
                "radar": figures.radar_figure(view, shown or ())}

    @app.callback(
        Output(ID.FRONT, "figure"),
        Input(ID.OBJECTIVES, "value"), Input(ID.SHOWN, "value"), Input(ID.X, "value"),
        Input(ID.Y, "value"), Input(ID.Z, "value"), Input(ID.THREE_D, "value"),
        State(ID.REF, "data"), State(ID.NORMALIZE, "value"), State(ID.SIGMA, "value"))
    def update_front(objectives, shown, x, y, z, three_d, ref, normalize, sigma):
        names = [n for n in (x, y, z if three_d else None) if n]
        if len(set(names)) != len(names) or len(names) < 2:
            return figures.EMPTY
        try:
            view = _indicators_view(ref, objectives, normalize, sigma)
            mask = view.front_in(names)
        except InvalidInputError:
            return figures.EMPTY
        return figures.front_figure(view, shown or (), mask, x=x, y=y,
                                    z=z if three_d else None)

    @app.callback(Output(ID.X, "options"), Output(ID.Y, "options"), Output(ID.Z, "options"),
                  Input(ID.OBJECTIVES, "value"))
    def axis_options(objectives):
        """The axis pickers offer the chosen objectives."""
        options = [{"label": o, "value": o} for o in objectives or ()]
        return options, options, options

    @app.callback(*view_link_outputs(ID.QUERY, ID.SHARE), inputs=CONTROLS,
                  prevent_initial_call=True)
    def remember_view(**controls):
        return view_link(PATH, to_query(state_from_controls(**controls)))


def _register_test(app) -> None:
    """The permutation test, run in the background with progress and cancel.

    The job reads the serving instance's settings when it runs, never from this closure:
    Dash keys a background function by its source and registers it on every manager in the
    process, so a closure over one app's settings would serve every app's jobs (several
    instances in one process, as in the tests, read one another's data folders). A job
    process is forked from the request's thread and keeps its application context; a Celery
    worker has one instance, built from the environment.
    """

    @app.callback(
        output=[Output(ID.TEST_ALERT, "children"), Output(ID.RESULT, "children")],
        inputs=[Input(ID.RUN, "n_clicks")],
        state=[State(ID.REF, "data"), State(ID.OBJECTIVES, "value"),
               State(ID.BASELINE, "value"), State(ID.CANDIDATE, "value"),
               State(ID.PERMUTATIONS, "value"), State(ID.SEED, "value"),
               State(ID.REF_RULE, "value")],
        background=True,
        progress=[Output(ID.PROGRESS, "value"), Output(ID.PROGRESS_TEXT, "children")],
        progress_default=["0", ""],
        running=[(Output(ID.RUN, "disabled"), True, False),
                 (Output(ID.CANCEL, "disabled"), False, True),
                 (Output(ID.PROGRESS_ROW, "style"), {"display": "flex", "alignItems": "center"},
                  HIDDEN), dim_while_running(ID.RESULT)],
        cancel=[Input(ID.CANCEL, "n_clicks")],
        prevent_initial_call=True)
    def run_test(set_progress, n_clicks, ref, objectives, baseline, candidate, permutations,
                 seed, ref_rule):
        """The permutation test in a worker process, reporting progress per percent."""
        total = _whole(permutations, -1)
        try:
            settings = current_settings()
            opened = open_dataset(ref, settings)
            view = systems.significance_test(
                opened.table, baseline=baseline or (), candidate=candidate or (),
                objectives=objectives or [], n_permutations=total, rng_seed=_whole(seed, -1),
                ref_rule=ref_rule, progress=_progress_reporter(set_progress, total),
                dataset_id=opened.cache_id, cache=get_cache(settings))
        except InvalidInputError as exc:
            return alert(str(exc)), None
        return None, result_panel(view, figures.null_histogram(view), figures.spread_figure(view))


def _register_power(app) -> None:
    """The power estimate: its design filled from the sides, and the simulation."""

    @app.callback(
        Output(ID.POWER_SEEDS, "value"), Output(ID.POWER_POINTS, "value"),
        Output(ID.POWER_EFFECT, "value"), Output(ID.POWER_NOISE, "value"),
        Output(ID.POWER_RESULT, "children", allow_duplicate=True),
        Input(ID.POWER_FILL, "n_clicks"), State(ID.REF, "data"), State(ID.OBJECTIVES, "value"),
        State(ID.BASELINE, "value"), State(ID.CANDIDATE, "value"), prevent_initial_call=True)
    def power_from_sides(n_clicks, ref, objectives, baseline, candidate):
        """Fill the design from the chosen sides' runs."""
        try:
            opened = open_dataset(ref, current_settings())
            design = systems.design_from_sides(opened.table, baseline=baseline or (),
                                               candidate=candidate or (),
                                               objectives=objectives or [])
        except InvalidInputError as exc:
            return no_update, no_update, no_update, no_update, alert(str(exc))
        return (design["n_seeds"], design["points_per_run"], design["effect"],
                design["noise_sd"], None)

    @app.callback(
        Output(ID.POWER_RESULT, "children"), Input(ID.POWER_RUN, "n_clicks"),
        State(ID.POWER_SEEDS, "value"), State(ID.POWER_POINTS, "value"),
        State(ID.POWER_EFFECT, "value"), State(ID.POWER_NOISE, "value"),
        State(ID.OBJECTIVES, "value"), prevent_initial_call=True)
    def estimate_power(n_clicks, n_seeds, points, effect, noise, objectives):
        """Simulated power of the design (about a second)."""
        k_asked = max(2, len(objectives or ()))
        k_used = min(k_asked, POWER_SIMULATED_MAX_K)
        try:
            estimate = systems.power_for_design(
                n_seeds=_whole(n_seeds, -1), points_per_run=_whole(points, -1),
                effect=_real(effect, -1.0), noise_sd=_real(noise, -1.0), n_objectives=k_used,
                cache=current_cache())
        except InvalidInputError as exc:
            return alert(str(exc))
        return power_text(estimate, n_seeds=_whole(n_seeds, -1), effect=_real(effect, 0.0),
                          k_used=k_used, k_asked=k_asked)
