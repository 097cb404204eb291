"""Plotly figures of the explorer, built as plain dicts (fast to build and to send)."""

from __future__ import annotations

import html

import numpy as np

from ..services.explorer import BASELINE_LABELS, Exploration, summary_coordinates

WEBGL_ROWS = 1500
FAINT = "rgba(160,160,160,0.35)"
PASSING = "rgba(90,110,140,0.55)"
FRONT_UNPICKED = "rgba(40,40,40,0.9)"
PICK_COLOR = "#d62728"
BASELINE_SYMBOLS = {"copa": "star", "sum": "square", "saw": "diamond", "ahp": "triangle-up",
                    "delta": "cross", "norm": "x"}


PICK_TRACES = 4  # the front figure's traces: 4 fixed layers, then baseline picks and the pick


def _scatter_type(n: int) -> str:
    return "scattergl" if n > WEBGL_ROWS else "scatter"


def plot_text(value) -> str:
    """User text (model names, column names) for a Plotly string: Plotly renders a subset of
    HTML (<b>, <br>, <a href>) in names and hover labels, so escape it to show it as text."""
    return html.escape(str(value), quote=False)


def _hover(problem, positions) -> tuple[list, str]:
    names = [plot_text(n) for n in problem.preferences.objectives]
    custom = [[plot_text(problem.ids[i])] + [float(problem.raw[i, k]) for k in range(len(names))]
              + [float(problem.u[i, k]) for k in range(len(names))] for i in positions]
    lines = ["<b>%{customdata[0]}</b>"]
    for k, name in enumerate(names):
        lines.append(f"{name}: %{{customdata[{k + 1}]:.4g}} (top %{{customdata[{k + 1 + len(names)}]:.1%}})")
    return custom, "<br>".join(lines) + "<extra></extra>"


def axis_values(exploration: Exploration, mode: str, x: str, y: str):
    """x and y of every scored row, with axis titles, for the chosen axes mode."""
    problem = exploration.problem
    names = problem.preferences.objectives
    if mode == "summary":
        xs, ys = summary_coordinates(problem)
        focus = ", ".join(problem.preferences.focus) or names[0]
        return xs, ys, f"u of the focus ({focus}): share of rows better", \
            "CDF of the p-norm of the other objectives' u"
    kx, ky = names.index(x), names.index(y)
    if mode == "cdf":
        return problem.u[:, kx], problem.u[:, ky], f"u({x}): share of rows better", \
            f"u({y}): share of rows better"
    dirs = problem.preferences.directions
    return problem.raw[:, kx], problem.raw[:, ky], f"{x} ({dirs[kx]})", f"{y} ({dirs[ky]})"


def front_figure(exploration: Exploration, *, mode: str, x: str, y: str) -> dict:
    """Rows failing a constraint faint, the rest as points, the front coloured by the alpha at
    which the sweep selects each row, the pick as a red star, baseline picks when compared."""
    problem = exploration.problem
    xs, ys, x_title, y_title = axis_values(exploration, mode, x, y)
    n = len(xs)
    kind = _scatter_type(n)
    eligible = problem.eligible
    front = exploration.front
    traces = []

    def trace(positions, name, marker, **extra):
        positions = np.asarray(positions, dtype=int)
        custom, template = _hover(problem, positions)
        traces.append({"type": kind, "mode": "markers", "name": name,
                       "x": xs[positions].tolist(), "y": ys[positions].tolist(),
                       "customdata": custom, "hovertemplate": template, "marker": marker, **extra})

    trace(np.flatnonzero(~eligible), "fails a constraint", {"color": FAINT, "size": 5})
    trace(np.flatnonzero(eligible & ~front), "passes the constraints", {"color": PASSING, "size": 6})
    sweep = exploration.sweep
    swept_alpha = np.full(n, np.nan)
    if sweep is not None:
        for row, low, high in zip(sweep.rows, sweep.alpha_min, sweep.alpha_max):
            swept_alpha[row] = 0.5 * (low + high)
    on_front = np.flatnonzero(front & eligible)
    never = on_front[np.isnan(swept_alpha[on_front])]
    picked = on_front[~np.isnan(swept_alpha[on_front])]
    trace(never, "on the front (never picked by the sweep)",
          {"color": "white", "size": 8, "line": {"color": FRONT_UNPICKED, "width": 1.5}})
    trace(picked, "picked by the alpha sweep (colour: alpha)",
          {"color": swept_alpha[picked].tolist(), "colorscale": "Viridis", "cmin": 0, "cmax": 1,
           "size": 11, "line": {"color": "black", "width": 1},
           "colorbar": {"title": {"text": "alpha"}, "thickness": 12, "len": 0.6}},
          showlegend=bool(picked.size))
    traces.extend(pick_traces(exploration, xs, ys, kind=kind))
    return {
        "data": traces,
        "layout": {
            "xaxis": {"title": {"text": plot_text(x_title)}, "zeroline": False},
            "yaxis": {"title": {"text": plot_text(y_title)}, "zeroline": False},
            "legend": {"orientation": "h", "y": -0.18, "x": 0},
            "margin": {"l": 60, "r": 20, "t": 30, "b": 40},
            "hovermode": "closest",
            "template": "plotly_white",
            "uirevision": f"{mode}:{x}:{y}",
            "height": 520,
        },
    }


def pick_traces(exploration: Exploration, xs, ys, *, kind: str = "scatter") -> list[dict]:
    """The two traces that move with alpha: where the baselines pick (empty unless compared)
    and the COPA pick. Always the last two traces of the front figure, so a slider move can
    replace just them."""
    problem = exploration.problem
    baselines = [b for b in exploration.baselines if b.position is not None and b.method != "copa"]
    positions = [b.position for b in baselines]
    custom, template = _hover(problem, positions)
    baseline_trace = {
        "type": kind, "mode": "markers", "name": "baseline picks (Sum, SAW, AHP, Delta, norm)",
        "x": [float(xs[i]) for i in positions], "y": [float(ys[i]) for i in positions],
        "text": [BASELINE_LABELS[b.method] for b in baselines], "customdata": custom,
        "hovertemplate": "%{text} pick<br>" + template,
        "marker": {"symbol": [BASELINE_SYMBOLS[b.method] for b in baselines], "size": 14,
                   "color": "rgba(0,0,0,0)", "line": {"color": "#ff7f0e", "width": 2.5}},
        "showlegend": bool(baselines),
    }
    pick = exploration.pick
    custom, template = _hover(problem, [pick])
    pick_trace = {
        "type": kind, "mode": "markers", "name": f"COPA pick: {plot_text(problem.ids[pick])}",
        "x": [float(xs[pick])], "y": [float(ys[pick])], "customdata": custom,
        "hovertemplate": template,
        "marker": {"symbol": "star", "size": 22, "color": PICK_COLOR,
                   "line": {"color": "black", "width": 1}},
    }
    return [baseline_trace, pick_trace]


def pick_patch(exploration: Exploration, *, mode: str, x: str, y: str):
    """A Patch of the front figure that replaces only its last two traces (the picks)."""
    from dash import Patch

    xs, ys, _, _ = axis_values(exploration, mode, x, y)
    baseline_trace, pick_trace = pick_traces(exploration, xs, ys, kind=_scatter_type(len(xs)))
    patch = Patch()
    patch["data"][PICK_TRACES] = baseline_trace
    patch["data"][PICK_TRACES + 1] = pick_trace
    return patch


def parallel_figure(exploration: Exploration) -> dict:
    """Parallel coordinates of every chosen objective in CDF space (top of each axis = best):
    the non-dominated rows passing the constraints in grey, the pick in red.

    Drawn as SVG line traces (one trace for the front, one for the pick) rather than a WebGL
    ``parcoords``, so a slider move can replace only the pick's line and redraw in milliseconds.
    """
    problem = exploration.problem
    names = list(problem.preferences.objectives)
    positions = np.flatnonzero(problem.eligible & exploration.front)
    xs, ys, text = [], [], []
    for i in positions:
        xs.extend(list(range(len(names))) + [None])
        ys.extend(problem.u[i].tolist() + [None])
        text.extend([plot_text(problem.ids[i])] * len(names) + [None])
    front = {"type": "scatter", "mode": "lines", "name": "non-dominated rows passing the constraints",
             "x": xs, "y": ys, "text": text, "hovertemplate": "%{text}<br>top %{y:.1%}<extra></extra>",
             "line": {"color": "rgba(110,130,160,0.35)", "width": 1}}
    return {
        "data": [front, parallel_pick_trace(exploration)],
        "layout": {"margin": {"l": 60, "r": 30, "t": 20, "b": 60}, "height": 340,
                   "template": "plotly_white", "hovermode": "closest",
                   "legend": {"orientation": "h", "y": -0.2},
                   "xaxis": {"tickmode": "array", "tickvals": list(range(len(names))),
                             "ticktext": [plot_text(n) for n in names], "showgrid": True},
                   "yaxis": {"title": {"text": "u (share of rows better)"}, "range": [1.02, -0.02],
                             "tickformat": ".0%"}},
    }


def parallel_pick_trace(exploration: Exploration) -> dict:
    """The pick's line in the parallel-coordinates figure (its second trace)."""
    problem = exploration.problem
    pick = exploration.pick
    names = list(problem.preferences.objectives)
    return {"type": "scatter", "mode": "lines+markers", "name": f"pick: {plot_text(problem.ids[pick])}",
            "x": list(range(len(names))), "y": problem.u[pick].tolist(),
            "text": [plot_text(problem.ids[pick])] * len(names),
            "hovertemplate": "%{text}<br>top %{y:.1%}<extra></extra>",
            "line": {"color": PICK_COLOR, "width": 3}, "marker": {"size": 7, "color": PICK_COLOR}}


def parallel_patch(exploration: Exploration):
    """A Patch that replaces only the pick's line."""
    from dash import Patch

    patch = Patch()
    patch["data"][1] = parallel_pick_trace(exploration)
    return patch
