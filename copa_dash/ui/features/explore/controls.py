"""Reusable pieces of the explorer's control panel (layout only, no callbacks)."""

from __future__ import annotations

from dash import dcc, html

from copa_dash.services.constraint_columns import NumericColumn, constraint_columns
from copa_dash.ui.common.glossary import info
from copa_dash.ui.common.help import help_text
from copa_dash.ui.features.explore.ids import ExploreIds as ID
from copa_dash.ui.features.explore.state import P_STOPS, ExploreState, format_p, nearest_p_stop

HELP_ALPHA = ("alpha is the share of the weight given to the focus objectives; the other "
              "objectives share 1 - alpha equally.")
HELP_P = ("p sets how much one weak objective can be made up for by strong ones: p = 1 adds the "
          "weighted ranks up, p = inf judges a model by its worst weighted rank.")
HELP_TOP = ("top x% means x% of the models in the population are strictly better on that "
            "objective (its empirical CDF, u); 0% is the best.")


def objective_controls(table, state: ExploreState) -> html.Div:
    """A checkbox per objective column and its min/max toggle."""
    chosen = dict(state.objectives)
    rows = []
    for name, default_direction in zip(table.objective_names, table.directions):
        rows.append(html.Div(className="objective-row", children=[
            dcc.Checklist(id={"type": ID.OBJECTIVES, "column": name},
                          options=[{"label": name, "value": name}],
                          value=[name] if name in chosen else [], inline=True,
                          className="objective-check"),
            dcc.RadioItems(id={"type": ID.DIRECTION, "column": name},
                           options=[{"label": "min", "value": "min"}, {"label": "max", "value": "max"}],
                           value=chosen.get(name, default_direction), inline=True,
                           className="direction"),
        ]))
    return html.Div(rows)


def preference_controls(table, state: ExploreState) -> html.Div:
    """Focus + alpha, or one weight per objective; p as a slider and a number box."""
    names = list(state.objective_names)
    weights = dict(state.weights)
    p_index = nearest_p_stop(state.p)
    return html.Div([
        dcc.RadioItems(id=ID.MODE, value="weights" if state.weight_mode else "alpha", inline=True,
                       options=[{"label": "focus + alpha", "value": "alpha"},
                                {"label": "one weight per objective (advanced)", "value": "weights"}]),
        html.Div(id=ID.ALPHA_PANEL, style={"display": "none" if state.weight_mode else "block"}, children=[
            html.Label("Focus objectives", htmlFor=ID.FOCUS),
            dcc.Dropdown(id=ID.FOCUS, options=[{"label": n, "value": n} for n in names],
                         value=list(state.focus), multi=True, clearable=False),
            html.Div(id=ID.FOCUS_NOTE, className="help", role="status"),
            html.Label(["alpha (weight of the focus; the box beside the slider shows and takes it) ",
                        info("alpha")], htmlFor=ID.ALPHA),
            dcc.Slider(id=ID.ALPHA, min=0, max=1, step=0.01, value=state.alpha,
                       marks={0: "0", 0.25: "0.25", 0.5: "0.5", 0.75: "0.75", 1: "1"},
                       updatemode="drag"),
            help_text(HELP_ALPHA),
        ]),
        html.Div(id=ID.WEIGHT_PANEL, style={"display": "block" if state.weight_mode else "none"}, children=[
            html.Div([html.Div(className="weight-row", children=[
                html.Label(name),
                dcc.Input(id={"type": ID.WEIGHT, "column": name}, type="number", min=0, step="any",
                          value=weights.get(name, 1.0), debounce=True),
            ]) for name in table.objective_names]),
            html.Div(id=ID.WEIGHT_SHARES, className="help"),
        ]),
        html.Label(["p ", info("p")], htmlFor=ID.P_SLIDER),
        dcc.Slider(id=ID.P_SLIDER, min=0, max=len(P_STOPS) - 1, step=1, value=p_index,
                   allow_direct_input=False, updatemode="drag",
                   marks={i: format_p(v) for i, v in enumerate(P_STOPS)}),
        dcc.Input(id=ID.P_INPUT, value=format_p(state.p), type="text", debounce=True,
                  className="p-input", placeholder="1 ... inf"),
        help_text(HELP_P),
        html.Label(["CDF population ", info("cdf_population")], htmlFor=ID.POPULATION),
        dcc.RadioItems(id=ID.POPULATION, value=state.population, inline=True,
                       options=[{"label": "all rows", "value": "all"},
                                {"label": "rows passing the constraints", "value": "filtered"}]),
        help_text(HELP_TOP),
    ])


def constraint_controls(table, state: ExploreState) -> html.Div:
    """Min/max boxes in raw units for the objectives and every constrained column, an "add a
    constraint on..." list of the other numeric columns, and value sets for categorical
    columns with few values (which columns go where: services/constraint_columns.py)."""
    found = constraint_columns(table.frame, list(table.objective_names), other_candidates(table),
                               state.ranges, state.sets)
    ranges = {name: (low, high) for name, low, high in state.ranges}
    chosen_sets = dict(state.sets)
    set_rows = [html.Div(className="set-row", children=[
        html.Label(column),
        dcc.Dropdown(id={"type": ID.SET_FILTER, "column": column},
                     options=[{"label": v, "value": v} for v in values],
                     value=list(chosen_sets.get(column, ())), multi=True,
                     placeholder="any value"),
    ]) for column, values in found.sets]
    return html.Div([
        html.Div(id=ID.RANGE_ROWS, children=[
            range_row(c, *ranges.get(c.name, (None, None)),
                      removable=c.name not in table.objective_names)
            for c in found.shown]),
        html.Div(id=ID.ADD_CONSTRAINT_BOX, className="add-constraint", hidden=not found.offered,
                 children=[
            html.Label(add_label(len(found.offered)), id=ID.ADD_CONSTRAINT_LABEL,
                       htmlFor=ID.ADD_CONSTRAINT),
            dcc.Dropdown(id=ID.ADD_CONSTRAINT, options=add_options(found.offered),
                         value=None, searchable=True, clearable=True,
                         placeholder="add a constraint on... (type to search)"),
        ]),
        html.Div(set_rows),
    ])


def other_candidates(table) -> list[str]:
    """The columns besides the objectives that may hold a constraint, in the panel's order:
    the role columns (task, system, ...), then the metadata."""
    roles = table.roles
    return [getattr(roles, r) for r in ("task", "system", "config", "split", "seed", "budget")
            if getattr(roles, r, None)] + list(roles.metadata)


def range_row(column: NumericColumn, low=None, high=None, *, removable: bool = False
              ) -> html.Div:
    """One numeric column's min and max boxes, its observed range as placeholders; a column
    that is not an objective also gets a button that takes the row away (its constraint with
    it) and puts the column back in the "add a constraint on..." list."""
    remove = (html.Button("\u00d7", id={"type": ID.RANGE_REMOVE, "column": column.name},
                          className="range-remove", n_clicks=0,
                          title=f"Remove the constraint on {column.name}",
                          **{"aria-label": f"Remove the constraint on {column.name}"})
              if removable else html.Span())
    return html.Div(className="range-row", children=[
        html.Label(column.name, title=column.observed),
        dcc.Input(id={"type": ID.RANGE_MIN, "column": column.name}, type="number", step="any",
                  value=low, debounce=True, placeholder=f"min {column.low:.4g}"),
        dcc.Input(id={"type": ID.RANGE_MAX, "column": column.name}, type="number", step="any",
                  value=high, debounce=True, placeholder=f"max {column.high:.4g}"),
        remove,
    ])


def add_label(count: int) -> str:
    """The list's label: ``Add a constraint on another column (N)``."""
    return f"Add a constraint on another column ({count})"


def add_options(columns) -> list[dict]:
    """The "add a constraint on..." list's options: each column with its observed range
    (searched by the column's name only)."""
    return [{"label": f"{c.name} ({c.observed})", "value": c.name, "search": c.name}
            for c in columns]


def axes_controls(state: ExploreState) -> html.Div:
    names = list(state.objective_names)
    options = [{"label": n, "value": n} for n in names]
    return html.Div(className="axes-row", children=[
        dcc.RadioItems(id=ID.AXES, value=state.axes, inline=True, options=[
            {"label": "raw values", "value": "raw"},
            {"label": "CDF (u) space", "value": "cdf"},
            {"label": "summary (focus vs. rest)", "value": "summary"}]),
        # each axis name wraps to the next line together with its dropdown, never alone
        html.Div(className="axis-choice", children=[
            html.Span("x"), dcc.Dropdown(id=ID.X, options=options, value=state.x,
                                         clearable=False, className="axis-pick")]),
        html.Div(className="axis-choice", children=[
            html.Span("y"), dcc.Dropdown(id=ID.Y, options=options, value=state.y,
                                         clearable=False, className="axis-pick")]),
        dcc.Checklist(id=ID.LOG, value=list(state.log), inline=True,
                      options=[{"label": f"log {axis}", "value": axis,
                                "disabled": state.axes != "raw"} for axis in ("x", "y")]),
        dcc.Checklist(id=ID.COMPARE, options=[{"label": "compare normalisations", "value": "on"}],
                      value=["on"] if state.compare else [], inline=True),
    ])
