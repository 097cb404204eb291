"""Callbacks of the posets page: one plain callback draws the views when the depth is stored
already (a warm open is one request) or computed within :data:`INLINE_SECONDS`, and otherwise
hands the view's arguments to a background job that computes it (progress, cancel), whose
result a second callback draws.

Before, every open started the background job, even for a stored depth: the job's start, the
renderer's polls (every 400 ms) and then the drawing callback one after the other made a warm
open of amlb-2022 take 2.4-5.5 s for a depth "computed in 0.17 s" (issue 33)."""

from __future__ import annotations

import time
from dataclasses import replace

from dash import Input, Output, State, ctx, no_update
from dash.exceptions import PreventUpdate

from copa_dash.core.errors import InvalidInputError
from copa_dash.services import posets
from copa_dash.services.cache import get_cache
from copa_dash.services.catalog import open_dataset
from copa_dash.ui.common.alerts import alert, view_notes
from copa_dash.ui.common.job_result import dim_while_running
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.common.url_sync import register_url_sync, view_link
from copa_dash.ui.features.posets import figures
from copa_dash.ui.features.posets import layout as page
from copa_dash.ui.features.posets.ids import PosetsIds as ID
from copa_dash.ui.features.posets.job_messages import SET_BACK, register_job_messages
from copa_dash.ui.features.posets.state import EXACT_OF_MODE, PosetsState, to_query

# the dataset's store is a State, not an Input: a wide table's empty state has the store (for
# the dataset picker) but none of these controls, and a callback with some Inputs on the page
# and others not logs "A nonexistent object was used in an `Input`" (issue 33); the store is
# set once with the layout, so nothing is lost by not listening to it
REF_STATE = State(ID.REF, "data")
MODE_INPUT = Input(ID.MODE, "value")
COMPUTE_INPUTS = [Input(ID.METHOD, "value"), Input(ID.TASK, "value"),
                  Input(ID.CRITERIA, "value"), Input(ID.TIES, "value"),
                  Input(ID.MISSING, "value"), MODE_INPUT, Input(ID.TOLERANCE, "value")]
# how long the drawing callback computes a depth itself before it leaves it to the job
INLINE_SECONDS = 0.4
VIEWS = ("headline", "tied", "depth", "central", "outlying", "beats", "agreement", "notes")
VIEW_OUTPUTS = {
    "headline": (ID.HEADLINE, "children"), "tied": (ID.TIED, "children"),
    "depth": (ID.DEPTH, "figure"), "central": (ID.HASSE_CENTRAL, "figure"),
    "outlying": (ID.HASSE_OUTLYING, "figure"), "beats": (ID.BEATS, "figure"),
    "agreement": (ID.AGREEMENT, "children"), "notes": (ID.NOTES, "children"),
    "shown": (ID.FIGURES, "style"), "forecast": (ID.FORECAST, "children"),
    "forecast_bar": (ID.FORECAST_BAR, "children"), "modes": (ID.MODE, "options")}


def _state(result: dict, k) -> PosetsState:
    k = int(k) if isinstance(k, (int, float)) and k >= 1 else 3
    return PosetsState(**{**result, "criteria": tuple(result["criteria"]), "k": k})


def _arguments(state: PosetsState, settings) -> tuple[object, dict]:
    """The table and the depth service's arguments for the view (both callbacks')."""
    opened = open_dataset(state.dataset, settings)
    roles_task = opened.table.roles.task
    names = opened.task_names if (state.task or roles_task) == roles_task else None
    return opened.table, dict(
        criteria=page.criteria_pairs(opened.table, state.criteria),
        method=state.method or None, task=state.task or None, ties=state.ties,
        missing=state.missing, exact=EXACT_OF_MODE[state.mode], tolerance=state.tolerance,
        exact_budget=settings.depth_exact_budget, dataset_id=opened.cache_id,
        cache=get_cache(settings),
        task_names=names)  # "P3 · fmnist_2c2d", never P3 alone (datasets/catalog.json)


def _view(state: PosetsState, settings, *, progress=None, cancel=None):
    """The depth view, computed or from the cache."""
    table, arguments = _arguments(state, settings)
    return posets.depth_view(table, progress=progress, cancel=cancel, **arguments)


def _quick_view(state: PosetsState, settings, seconds: float):
    """The depth view if it can be computed within about ``seconds`` (it is then stored),
    else None: the depth checks its ``cancel`` between chunks of work, so a longer run stops
    soon after the deadline, stores nothing, and the background job takes over."""
    deadline = time.monotonic() + seconds
    try:
        return _view(state, settings, cancel=lambda: time.monotonic() > deadline)
    except posets.DepthCancelled:
        return None


def _stored_view(state: PosetsState, settings):
    """The depth view if it is stored, else None (nothing computed)."""
    table, arguments = _arguments(state, settings)
    return posets.cached_depth_view(table, **arguments)


def link_query(state: PosetsState, *, computed: bool) -> str:
    """The view's query (for the URL and the share box), ``computed`` saying whether its depth is
    drawn (stored, or quick) rather than left to the background job.

    A link never carries an exact depth that is not computed yet: one choice and a Cancel
    left "mode=exact" in the URL, so a reload or a shared link restarted a job predicted to
    take years (issue 33). Of the two fixes the brief offered (the radio going back after
    Cancel, or the link not carrying such a choice) this one is chosen because it covers what
    Cancel does not: a tab closed, or a link copied, while the job runs. The link says
    'automatic' (exact when quick, else approximate) until the exact depth is stored; the
    job's end puts 'exact' back (``draw_result``), and a reload then draws the stored depth.

    Examples
    --------
    >>> state = PosetsState(dataset="amlb-2022", mode="exact")
    >>> "mode=auto" in link_query(state, computed=False)
    True
    >>> "mode=exact" in link_query(state, computed=True)
    True
    """
    if not computed and EXACT_OF_MODE[state.mode] is True:
        state = replace(state, mode="auto")
    return to_query(state)


def job_arguments(ref, method, task, criteria, ties, missing, mode, tolerance) -> dict:
    """The controls as the depth job's (and the view's) arguments, with their defaults."""
    tol = float(tolerance) if isinstance(tolerance, (int, float)) and 0 < tolerance < 1 \
        else 0.01
    return {"dataset": ref, "method": method or "", "task": task or "",
            "criteria": list(criteria or ()), "ties": ties or "drop",
            "missing": missing or "drop", "mode": mode if mode in EXACT_OF_MODE else "auto",
            "tolerance": tol}


def _empty(query) -> dict:
    figures_off = {name: figures.EMPTY for name in ("depth", "central", "outlying", "beats")}
    return {**{name: None for name in VIEWS}, **figures_off, "shown": page.HIDDEN,
            "query": query, "forecast": None, "forecast_bar": None,
            "modes": page.mode_options(None), "drawn": None}


def _views(view, k: int, budget: int = posets.DEFAULT_EXACT_BUDGET) -> dict:
    """Every output of the drawing callback but the query, from one DepthView (the figures'
    box shown)."""
    central, outlying = posets.extreme_tasks(view)
    order = posets.depth_order(view)
    hasse = {}
    equal = bool(posets.equal_depths_sentence(view))   # then no task is "most" anything
    for name, t, color in (("central", order[0], figures.CENTRAL),
                           ("outlying", order[-1], figures.OUTLYING)):
        which = "A task (all depths equal)" if equal else f"Most {name}"
        hasse[name] = figures.hasse_figure(
            posets.hasse_layout(view, view.relations[t]), color=color,
            title=f"{which}: {page.task_names([view.tasks[t]])} (depth {view.depths[t]:.3f})")
    return {"headline": page.headline(view, central, outlying), "tied": page.tied_panel(view),
            "depth": figures.depth_figure(view), **hasse, "beats": figures.beats_figure(view),
            "agreement": page.agreement_panel(posets.agreement(view, k=k), view.methods),
            "notes": view_notes(None, view.notes), "shown": {},
            "forecast": (forecast := posets.exact_forecast(view, budget=budget)),
            "forecast_bar": forecast,
            "modes": page.mode_options(posets.exact_seconds(view, budget=budget))}


def _progress(set_progress, *, exact: bool):
    """The depth's progress callback: the share settled in percent, or, for the exact depth
    (no honest share), no value (an indeterminate bar) and the seconds so far in words."""
    started, last = time.monotonic(), [-1]
    set_progress((None if exact else "0", page.running_words(exact, 0)))

    def progress(fraction):
        seconds = time.monotonic() - started
        step = int(seconds) if exact else int(fraction * 100)
        if step > last[0]:
            last[0] = step
            set_progress((None, page.running_words(True, seconds)) if exact
                         else (str(step), page.SHARE_WORDS))
    return progress


def _draw(arguments: dict, k) -> dict:
    """The drawing callback's answer for the controls' ``arguments`` (its views, or the
    job's arguments when the depth is neither stored nor quick)."""
    state = _state(arguments, k)
    query = view_link(page.PATH, to_query(state))
    try:
        settings = current_settings()
        view = _stored_view(state, settings)
        if view is None and ctx.triggered_id != ID.K:
            # a first view that is quick (amlb-2022's take 0.1-0.4 s) is drawn in this
            # answer: the job's start and its polls cost more than the depth itself
            view = _quick_view(state, settings, INLINE_SECONDS)
    except posets.NotLongTable as exc:       # a wide table: the long example, linked
        return {**_empty(query), "job": no_update, "alert": page.not_long_alert(str(exc))}
    except InvalidInputError as exc:
        return {**_empty(query), "job": no_update, "alert": alert(str(exc), "warning")}
    if view is not None:
        return {**_views(view, state.k, settings.depth_exact_budget), "job": no_update,
                "query": query, "alert": None, "drawn": arguments}
    if ctx.triggered_id == ID.K:
        raise PreventUpdate     # k moved while the job runs: its end draws with this k
    # not stored: the job computes it; what is drawn stays (dimmed) until it ends
    return {**{name: no_update for name in VIEW_OUTPUTS}, "job": arguments,
            "query": view_link(page.PATH, link_query(state, computed=False)),
            "alert": None, "drawn": no_update}


def register_callbacks(app) -> None:
    """Attach the posets page's callbacks to ``app``."""
    register_job_messages(app)  # "cancelled" (stale errors: cleared by draw)

    @app.callback(
        Output(ID.RESULT, "data"), Output(ID.ALERT, "children"), Input(ID.JOB, "data"),
        background=True, interval=400, prevent_initial_call=True,
        progress=[Output(ID.PROGRESS, "value"), Output(ID.PROGRESS_TEXT, "children")],
        running=[(Output(ID.PROGRESS_ROW, "style"), {"display": "flex", "alignItems": "center",
                                                  "flexWrap": "wrap", "rowGap": "4px"},
                  {"display": "none"}), (Output(ID.CANCEL, "disabled"), False, True),
                 dim_while_running(ID.RESULTS, "results")],
        cancel=[Input(ID.CANCEL, "n_clicks")])
    def compute(set_progress, job):
        """Compute the depth the drawing callback found not stored; hand the view's
        arguments back to it."""
        if not job:
            raise PreventUpdate
        result = dict(job)
        progress = _progress(set_progress, exact=EXACT_OF_MODE[result["mode"]] is True)
        try:
            # the serving instance's settings, read when the job runs (see
            # systems.callbacks._register_test: a closure would serve every app's jobs)
            _view(_state(result, 3), current_settings(), progress=progress)
        except posets.NotLongTable as exc:       # a wide table: the long example, linked
            return None, page.not_long_alert(str(exc))
        except InvalidInputError as exc:
            return None, alert(str(exc), "warning")
        return result, None

    def outputs(duplicate: bool) -> dict:
        return {**{name: Output(target, prop, allow_duplicate=duplicate)
                   for name, (target, prop) in VIEW_OUTPUTS.items()},
                "query": (Output(ID.QUERY, "data", allow_duplicate=duplicate),
                          Output(ID.SHARE, "value", allow_duplicate=duplicate)),
                # the arguments of the depth drawn, for Cancel to set the controls back to
                "drawn": Output(ID.DRAWN, "data", allow_duplicate=duplicate)}

    # the alert line too: a message of an earlier view never stays beside a new one
    @app.callback(output={**outputs(False), "job": Output(ID.JOB, "data"),
                          "alert": Output(ID.ALERT, "children", allow_duplicate=True),
                          "restored": Output(ID.RESTORED, "data", allow_duplicate=True)},
                  inputs={"controls": COMPUTE_INPUTS, "k": Input(ID.K, "value")},
                  state={"ref": REF_STATE, "restored": State(ID.RESTORED, "data")},
                  prevent_initial_call="initial_duplicate")    # it draws the opened page
    def draw(controls, k, ref, restored):
        """Depth bars, the two Hasse diagrams, the beats matrix and the agreement when the
        depth is stored or quick to compute; else the job's arguments (the page opened, or a
        control changed). Nothing while no depth is chosen (Cancel with none drawn)."""
        if controls[COMPUTE_INPUTS.index(MODE_INPUT)] is None:
            raise PreventUpdate
        arguments = job_arguments(ref, *controls)
        answer = _draw(arguments, k)
        # the controls Cancel set back (job_messages): the view drawn again, said so once
        back = restored is not None and restored == arguments and answer.get("drawn")
        return {**answer, "restored": None,
                **({"alert": alert(SET_BACK, "info")} if back else {})}

    # the job's end, drawn by a callback of its own: one callback reading the job's result and
    # writing its arguments would be a cycle, which Dash refuses
    @app.callback(output=outputs(True), inputs={"result": Input(ID.RESULT, "data")},
                  state={"k": State(ID.K, "value")}, prevent_initial_call=True)
    def draw_result(result, k):
        """The views of the depth the job just computed (and stored)."""
        if not result:
            raise PreventUpdate     # the job ended with a message (in the alert line)
        state = _state(result, k)
        query = view_link(page.PATH, to_query(state))
        try:
            settings = current_settings()
            view = _view(state, settings)
        except InvalidInputError as exc:
            return {**_empty(query), "headline": alert(str(exc), "warning")}
        return {**_views(view, state.k, settings.depth_exact_budget), "query": query,
                "drawn": result}

    register_url_sync(app, path=page.PATH, nav=ID.NAV, dataset=ID.DATASET, ref=ID.REF)
