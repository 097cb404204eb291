"""Thin callbacks of the explorer.

:func:`update_view` is the one callback that reads the controls (:data:`CONTROLS`, declared
once): it turns them into the view's :class:`~.state.ExploreState`, gets the view's
exploration from :mod:`.view_memo` (computed once per view and process) and hands it to one
small function per thing it changes: the pick card (:func:`pick_outputs`), the figures
(:func:`figure_outputs`), the table page (:func:`_table_page`), or the message of a view it
cannot explore (:func:`message_outputs`). The table's pager, search and sort
(:func:`render_table`) read the view from the query store (``ExploreIds.QUERY``) and the same
memo; they declare no control.

One callback for the pick card, the figures and the table page, not one each: every split
that was tried made a slider move slower (each extra request costs more than the work it
splits off); the timings are in docs/benchmarks.md, "Why the explorer has one callback".
"""

from __future__ import annotations

import math
from dataclasses import replace
from urllib.parse import parse_qs

from dash import ALL, Input, Output, State, ctx, dcc, no_update
from dash.exceptions import PreventUpdate

from copa_dash.core.errors import InvalidInputError
from copa_dash.services.catalog import file_stem
from copa_dash.services.export import safe_csv
from copa_dash.ui.common.alerts import alert, view_notes
from copa_dash.ui.common.empty import empty_figure
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.common.task_note import task_note
from copa_dash.ui.common.url_sync import register_url_sync, view_link, view_link_outputs
from copa_dash.ui.features.explore import (
    brushing,
    choose_callbacks,
    constraint_add,
    figures,
    panels,
    picker_sync,
    report_panel,
    robustness_panel,
    table_query,
    view_memo,
)
from copa_dash.ui.features.explore.choose_panel import ChooseIds
from copa_dash.ui.features.explore.ids import ExploreIds as ID
from copa_dash.ui.features.explore.layout import PATH
from copa_dash.ui.features.explore.state import ExploreState, to_query
from copa_dash.ui.features.explore.view_state import (
    p_controls_sync,
    p_from_controls,
    state_from_controls,
)


def _each_column(kind: str) -> dict:
    """The pattern id matching the control of ``kind`` of every objective column."""
    return {"type": kind, "column": ALL}


# The controls the view is read from, declared here once: the ones drawn once per objective
# column (matched by pattern; their ids tell the columns apart), the single ones, and p, whose
# box counts when Enter is pressed in it or it is left, not at every key.
PER_COLUMN = {"objectives": ID.OBJECTIVES, "directions": ID.DIRECTION, "weights": ID.WEIGHT,
              "range_min": ID.RANGE_MIN, "range_max": ID.RANGE_MAX, "sets": ID.SET_FILTER}
COLUMN_IDS = {"objective_ids": ID.OBJECTIVES, "weight_ids": ID.WEIGHT,
              "range_ids": ID.RANGE_MIN, "set_ids": ID.SET_FILTER}
SINGLE = {"mode": ID.MODE, "focus": ID.FOCUS, "alpha": ID.ALPHA, "population": ID.POPULATION,
          "axes": ID.AXES, "x": ID.X, "y": ID.Y, "log": ID.LOG, "compare": ID.COMPARE}
CONTROLS = {
    **{name: Input(_each_column(kind), "value") for name, kind in PER_COLUMN.items()},
    **{name: Input(ident, "value") for name, ident in SINGLE.items()},
    **{name: State(_each_column(kind), "id") for name, kind in COLUMN_IDS.items()},
    "p": State(ID.P_INPUT, "value"), "p_stop": Input(ID.P_SLIDER, "value"),
    "p_submit": Input(ID.P_INPUT, "n_submit"), "p_blur": Input(ID.P_INPUT, "n_blur"),
    "dataset": State(ID.REF, "data"),
    "choose": State(ChooseIds.ANSWERS, "data"),   # "Help me choose" answers, kept in the URL
}


TABLE_VIEW = {"page": State(ID.TABLE_PAGE, "data"), "search": State(ID.TABLE_SEARCH, "value"),
              "sort_key": State(ID.TABLE_SORT, "value"), "drawn": State(ID.DRAWN, "data"),
              "shown_query": State(ID.QUERY, "data")}
# a range dragged on the parallel coordinates: written into its constraint boxes (brushing.py)
BRUSH = {"brush": Input(ID.PARALLEL, "selectedData")}
TABLE_CONTROLS = {"search": Input(ID.TABLE_SEARCH, "value"),
                  "sort_key": Input(ID.TABLE_SORT, "value"),
                  "previous": Input(ID.TABLE_PREV, "n_clicks"),
                  "following": Input(ID.TABLE_NEXT, "n_clicks"),
                  "page": State(ID.TABLE_PAGE, "data")}
P_TRIGGERS = (f"{ID.P_SLIDER}.value", f"{ID.P_INPUT}.n_submit", f"{ID.P_INPUT}.n_blur")
TABLE_STEPS = {f"{ID.TABLE_PREV}.n_clicks": -1, f"{ID.TABLE_NEXT}.n_clicks": 1}
TABLE_RESETS = {f"{ID.TABLE_SEARCH}.value", f"{ID.TABLE_SORT}.value"}


def drawn_key(state: ExploreState) -> str:
    """What the drawn figures' traces depend on besides the sliders (alpha, weight values
    and, outside the summary axes, p): the dataset, objectives, constraints, axes and mode.
    Equal keys mean the figures can be patched instead of redrawn. In the summary axes p
    moves every point, so there it is part of the key."""
    p = state.p if state.axes == "summary" else math.inf
    neutral = replace(state, alpha=0.5, p=p, choose="",
                      weights=tuple((name, 1.0) for name, _ in state.weights))
    return to_query(neutral)


def slider_move(state: ExploreState, drawn: dict | None) -> bool:
    """True when the figures drawn (``drawn``, the store :func:`figure_outputs` fills) were
    drawn for a view that differs from ``state`` in the sliders only (alpha, a weight, p):
    their traces stand and what moved is patched."""
    return bool(drawn) and drawn.get("key") == drawn_key(state)


def table_page_asked(triggered, page) -> int:
    """The table page to show: one step for the pager's buttons, the first page after a new
    search or sort, the same page (the view's rows reordered) after any other change."""
    moved = [TABLE_STEPS[t] for t in triggered if t in TABLE_STEPS]
    if moved:
        return int(page or 0) + sum(moved)
    return 0 if set(triggered) & TABLE_RESETS else int(page or 0)


TABLE_PAGE_SIZE = 15


def _table_note(passing: int, matching: int | None, notes=()) -> str:
    text = f"{passing} {'row passes' if passing == 1 else 'rows pass'} the constraints, " \
        "ranked by the criterion"
    if matching is not None:
        text += f"; {matching} match the search"
    return " ".join([text + ".", TOP_NOTE, *(note[:1].upper() + note[1:] for note in notes)])


# what the grey figure beside each objective's value is (explore/panels.table_html)
TOP_NOTE = ("In grey beside or under each value: its top %, the share of rows better on that "
            "objective.")


def ranked_frame(query: str, search: str | None = None, sort_key: str | None = None):
    """Every ranked row of the view a query string describes that matches the table's search,
    in the table's sort order (what the pager pages through)."""
    result = view_memo.exploration(view_memo.state_of(query))
    if isinstance(result, str):
        raise InvalidInputError(result)
    frame, columns, _ = _searched_rows(result, search, sort_key)
    return frame.rename(columns={c["id"]: c["name"] for c in columns})


def _searched_rows(result, search, sort_key):
    """Every ranked row matching ``search``, sorted by ``sort_key``; the column specs; and the
    search's notes (conditions it read as text)."""
    frame, specs = panels.table_frame(result)
    objectives = result.problem.preferences
    columns = {spec["name"]: spec["id"] for spec in specs if spec["id"].startswith("obj")}
    found = table_query.search(frame, search, columns)
    directions = dict(zip(objectives.objectives, objectives.directions))
    return table_query.sort(found.frame, sort_key, columns, directions), specs, found.notes


# shown while the view has nothing to draw (the alert above says what to change)
EMPTY_FIGURE = empty_figure(160, "Nothing to draw for this view: see the message above.")
TABLE_OUTPUTS = (Output(ID.TABLE, "html"), Output(ID.TABLE_NOTE, "children"),
                 Output(ID.TABLE_PAGE, "data"), Output(ID.TABLE_PAGER, "children"),
                 Output(ID.TABLE_PREV, "disabled"), Output(ID.TABLE_NEXT, "disabled"))
TABLE_OUTPUTS_AGAIN = [Output(o.component_id, o.component_property, allow_duplicate=True)
                       for o in TABLE_OUTPUTS]
PICK_OUTPUTS = (Output(ID.PICK, "hidden"), Output(ID.PICK_ID, "children"),
                Output(ID.PICK_BODY, "html"), Output(ID.PICK_LINE, "hidden"),
                Output(ID.PICK_LINE_ID, "children"))
EMPTY_TABLE = ("", "", 0, "", True, True)
# the constraint boxes, written by the view callback after a brush (and read by it)
RANGE_OUTPUTS = (Output(_each_column(ID.RANGE_MIN), "value"),
                 Output(_each_column(ID.RANGE_MAX), "value"))


def pick_outputs(result) -> tuple:
    """The pick card's outputs: shown, the pick's id and the card's body, then the line above
    the figure (shown, the pick's id); hidden and empty for a view that has a message instead
    of an exploration."""
    if isinstance(result, str):
        return (True, "", "", True, "")
    pick_id, body = panels.pick_card_text(result)
    return (False, pick_id, body, False, pick_id)


def table_outputs(result, page, search, sort_key) -> tuple:
    """The table's outputs (:func:`_table_page`); an empty table for a view that has a message
    instead of an exploration."""
    if isinstance(result, str):
        return EMPTY_TABLE
    return _table_page(result, page, search, sort_key)


def figure_outputs(result, state: ExploreState, drawn: dict | None) -> dict:
    """The figures' outputs (and the notes above them): patched after a slider move
    (:func:`slider_move`), drawn anew for any other view."""
    compare = panels.compare_table(result) if state.compare else None
    if slider_move(state, drawn):
        return _slider_update(result, state, drawn, compare)
    return _full_draw(result, state, compare)


def message_outputs(message: str) -> dict:
    """What the page shows for a view it cannot explore: the message, nothing drawn, no pick
    card and an empty table."""
    return dict(alert=alert(message, "warning"), pick=pick_outputs(message), front=EMPTY_FIGURE,
                parallel=EMPTY_FIGURE, compare=None, table=EMPTY_TABLE, drawn=None,
                log=(no_update, no_update))


def _slider_update(result, state: ExploreState, drawn: dict, compare) -> dict:
    """The figures' outputs after a slider move: a patch of the front figure's markers (the
    pick, or the sweep's colours after a p move) and of the parallel plot's pick line when
    they moved, nothing when they did not."""
    layers = figures.front_layers(result, mode=state.axes, x=state.x, y=state.y, log=state.log)
    digest = figures.layers_digest(layers)
    same_layers, same_pick = drawn.get("layers") == digest, drawn.get("pick") == result.pick
    return dict(alert=no_update,
                front=no_update if same_layers else figures.layers_patch(layers),
                parallel=no_update if same_pick else figures.parallel_patch(result),
                compare=compare if state.compare else no_update, log=(no_update, no_update),
                drawn=no_update if same_layers and same_pick
                else dict(drawn, layers=digest, pick=result.pick))


def _full_draw(result, state: ExploreState, compare) -> dict:
    """The figures' outputs for a new view: both figures drawn, the view's notes above."""
    front = figures.front_figure(result, mode=state.axes, x=state.x, y=state.y, log=state.log)
    layers = {key: front["layout"][key] for key in ("shapes", "annotations")}
    notes = [*result.notes, *figures.log_notes(result, state.axes, state.x, state.y, state.log)]
    tasks = task_note(result.task_span, "pick", state)
    return dict(alert=view_notes(tasks, notes),
                front=front,
                parallel=figures.parallel_figure(result, state.ranges), compare=compare,
                log=figures.log_choices(result, state.axes, state.x, state.y, state.log),
                drawn={"key": drawn_key(state), "layers": figures.layers_digest(layers),
                       "pick": result.pick})


def _table_page(result, page, search, sort_key) -> tuple:
    """The table's outputs: one page of the ranked rows passing the constraints, searched and
    sorted as asked, the note above it, the page's index and the pager's text and buttons."""
    total = len(result.ranking)
    if not (search or "").strip() and sort_key in (None, table_query.RANKING):
        # the ranking's own order: build the asked page only, not every ranked row
        index, pages = table_query.page_bounds(total, page, TABLE_PAGE_SIZE)
        start = index * TABLE_PAGE_SIZE
        frame, specs = panels.table_frame(result, slice(start, start + TABLE_PAGE_SIZE))
        note = _table_note(total, None)
    else:
        shown, specs, notes = _searched_rows(result, search, sort_key)
        frame, index, pages = table_query.page(shown, page, TABLE_PAGE_SIZE)
        note = _table_note(total, len(shown) if (search or "").strip() else None, notes)
    return (panels.table_html(frame, specs), note, index, f"page {index + 1} of {pages}",
            index == 0, index >= pages - 1)


def _p_box_unchanged(triggered, state: ExploreState, shown_query: str | None) -> bool:
    """True when only the p box fired (Enter, or leaving it) and the view it describes is the
    one drawn: focusing and leaving the box costs nothing."""
    moved = set(triggered) - {"."}
    return bool(moved) and moved <= set(P_TRIGGERS[1:]) and shown_query == to_query(state)


def _box_entered(triggered) -> bool:
    """True when Enter in the p box, or leaving it, fired the callback, and the slider did not:
    leaving the box by moving the slider fires both, and the slider is the user's last word."""
    return bool(set(triggered) & set(P_TRIGGERS[1:])) and P_TRIGGERS[0] not in triggered


def _state(controls: dict, triggered) -> ExploreState:
    """The view's state from the callback's control values (p from the slider or the box)."""
    controls = dict(controls)
    del controls["p_submit"], controls["p_blur"]
    controls["p"] = p_from_controls(controls["p"], controls.pop("p_stop"),
                                    _box_entered(triggered))
    return state_from_controls(**controls)


def render_table(query: str, search, sort_key, previous, following, page) -> tuple:
    """Another page, search or sort of the ranked table of the view shown (``query``, the
    view's store; the view itself is unchanged): one step for the pager's buttons
    (``previous``, ``following``: their clicks), the first page after a new search or sort."""
    return table_outputs(view_memo.exploration(view_memo.state_of(query)),
                         table_page_asked(ctx.triggered_prop_ids, page), search, sort_key)


def register_callbacks(app) -> None:
    """Attach the explorer's callbacks to ``app``."""

    @app.callback(
        output=dict(alert=Output(ID.ALERT, "children"), pick=PICK_OUTPUTS,
                    front=Output(ID.FRONT, "figure"), parallel=Output(ID.PARALLEL, "figure"),
                    compare=Output(ID.COMPARE_TABLE, "children"), table=TABLE_OUTPUTS,
                    log=(Output(ID.LOG, "options"), Output(ID.LOG, "value")),
                    query=view_link_outputs(ID.QUERY, ID.SHARE), drawn=Output(ID.DRAWN, "data"),
                    p_controls=(Output(ID.P_INPUT, "value"), Output(ID.P_SLIDER, "value")),
                    ranges=RANGE_OUTPUTS, pickers=picker_sync.PICKER_OUTPUTS,
                    shares=picker_sync.SHARES_OUTPUT, robust=robustness_panel.VIEW_OUTPUTS),
        inputs=dict(CONTROLS, **TABLE_VIEW, **BRUSH, **picker_sync.MEMORY),
    )
    def update_view(page, search, sort_key, drawn, shown_query, brush, memory, **controls):
        """The view the controls describe: its share link, pick card, figures and table page,
        from one exploration. The p box and the p slider follow each other here too
        (:func:`p_controls_sync`), and a range brushed on the parallel coordinates is written
        into its constraint boxes (:mod:`.brushing`), in the same response; after a brush the
        parallel figure is always sent again (:func:`.brushing.redrawn`). After an objective's
        tick the pickers and the weights' shares are answered here too (:mod:`.picker_sync`):
        one request a tick, not three; and so is the "How sure" panel of a view whose result
        the cache holds (:func:`.robustness_panel.view_outputs`)."""
        triggered = ctx.triggered_prop_ids
        controls, pickers, sorted_by = picker_sync.after_tick(triggered, controls, sort_key, memory)
        page = page if sorted_by == sort_key else 0     # a new sort starts at the first page
        ranges = ([no_update] * len(controls["range_ids"]),) * 2   # each box: one per column
        brushed = brushing.BRUSH_TRIGGER in triggered
        if brushed:
            controls, ranges, note = brushing.apply_brush(controls, brush, shown_query)
        state = _state(controls, triggered)
        sync = p_controls_sync(controls["p"], controls["p_stop"], _box_entered(triggered))
        if sync == (None, None) and _p_box_unchanged(triggered, state, shown_query):
            raise PreventUpdate
        result = view_memo.exploration(state)
        shown = message_outputs(result) if isinstance(result, str) else dict(
            pick=pick_outputs(result), **figure_outputs(result, state, drawn),
            table=_table_page(result, page, search, sorted_by))
        if brushed and not isinstance(result, str):   # Plotly's box cleared, a miss said
            shown["parallel"] = brushing.redrawn(shown["parallel"], result, state.ranges, note)
        query = to_query(state)
        return dict(shown, query=view_link(PATH, query), ranges=ranges,
                    p_controls=tuple(no_update if value is None else value for value in sync),
                    pickers=pickers, shares=picker_sync.weight_shares(triggered, controls),
                    robust=robustness_panel.view_outputs(query))

    app.callback(TABLE_OUTPUTS_AGAIN, inputs=dict(query=State(ID.QUERY, "data"), **TABLE_CONTROLS),
                 prevent_initial_call=True)(render_table)

    @app.callback(Output(ID.ALPHA_PANEL, "style"), Output(ID.WEIGHT_PANEL, "style"), Input(ID.MODE, "value"))
    def toggle_mode(mode):
        """Show the focus/alpha controls or the per-objective weights."""
        show, hide = {"display": "block"}, {"display": "none"}
        return (hide, show) if mode == "weights" else (show, hide)

    register_url_sync(app, path=PATH, nav=ID.NAV, dataset=ID.DATASET, ref=ID.REF)
    choose_callbacks.register(app)
    constraint_add.register(app)
    report_panel.register_callbacks(app)
    robustness_panel.register_callbacks(app)

    @app.callback(Output(ID.DOWNLOAD, "data"), Input(ID.DOWNLOAD_BUTTON, "n_clicks"),
                  State(ID.QUERY, "data"), State(ID.TABLE_SEARCH, "value"),
                  State(ID.TABLE_SORT, "value"), prevent_initial_call=True)
    def download_csv(n_clicks, query, search, sort_key):
        """The table's rows as CSV (every page; the search and sort shown apply), formulas
        neutralised."""
        if not query:
            raise PreventUpdate
        stem = file_stem("copa-ranking", parse_qs(query).get("dataset", [""])[0],
                         current_settings())
        return dcc.send_string(safe_csv(ranked_frame(query, search, sort_key)), f"{stem}.csv")
