"""Plotly figures of the explorer, built as plain dicts (fast to build and to send)."""

from __future__ import annotations

import numpy as np

from ..services.explorer import BASELINE_LABELS, Exploration, summary_coordinates

WEBGL_ROWS = 1500
FAINT = "rgba(160,160,160,0.35)"
PASSING = "rgba(90,110,140,0.55)"
FRONT_UNPICKED = "rgba(40,40,40,0.9)"
PICK_COLOR = "#d62728"
BASELINE_SYMBOLS = {"copa": "star", "sum": "square", "saw": "diamond", "ahp": "triangle-up",
                    "delta": "cross", "norm": "x"}


def _scatter_type(n: int) -> str:
    return "scattergl" if n > WEBGL_ROWS else "scatter"


def _hover(problem, positions) -> tuple[list, str]:
    names = problem.preferences.objectives
    custom = [[str(problem.ids[i])] + [float(problem.raw[i, k]) for k in range(len(names))]
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
    if picked.size:
        trace(picked, "picked by the alpha sweep (colour: alpha)",
              {"color": swept_alpha[picked].tolist(), "colorscale": "Viridis", "cmin": 0, "cmax": 1,
               "size": 11, "line": {"color": "black", "width": 1},
               "colorbar": {"title": {"text": "alpha"}, "thickness": 12, "len": 0.6}})
    for baseline in exploration.baselines:
        if baseline.position is None or baseline.method == "copa":
            continue
        trace([baseline.position], f"{BASELINE_LABELS[baseline.method]} pick",
              {"symbol": BASELINE_SYMBOLS[baseline.method], "size": 14, "color": "rgba(0,0,0,0)",
               "line": {"color": "#ff7f0e", "width": 2.5}})
    trace([exploration.pick], f"COPA pick: {problem.ids[exploration.pick]}",
          {"symbol": "star", "size": 22, "color": PICK_COLOR, "line": {"color": "black", "width": 1}})
    return {
        "data": traces,
        "layout": {
            "xaxis": {"title": {"text": x_title}, "zeroline": False},
            "yaxis": {"title": {"text": y_title}, "zeroline": False},
            "legend": {"orientation": "h", "y": -0.18, "x": 0},
            "margin": {"l": 60, "r": 20, "t": 30, "b": 40},
            "hovermode": "closest",
            "template": "plotly_white",
            "uirevision": f"{mode}:{x}:{y}",
            "height": 520,
        },
    }


def parallel_figure(exploration: Exploration, *, max_lines: int = 3000) -> dict:
    """Parallel coordinates of every chosen objective in CDF space (top of the axis = best),
    rows passing the constraints, the pick highlighted in red."""
    problem = exploration.problem
    positions = np.flatnonzero(problem.eligible)
    if positions.size > max_lines:
        keep = exploration.ranking[:max_lines]
        positions = np.sort(keep)
    highlight = (positions == exploration.pick).astype(float)
    order = np.argsort(highlight, kind="stable")  # the pick drawn last, on top
    positions, highlight = positions[order], highlight[order]
    dims = [{"label": name, "range": [1, 0], "values": problem.u[positions, k].tolist()}
            for k, name in enumerate(problem.preferences.objectives)]
    return {
        "data": [{"type": "parcoords", "dimensions": dims,
                  "line": {"color": highlight.tolist(),
                           "colorscale": [[0, "rgba(120,140,170,0.25)"], [1, PICK_COLOR]],
                           "cmin": 0, "cmax": 1}}],
        "layout": {"margin": {"l": 60, "r": 60, "t": 50, "b": 20}, "height": 360,
                   "template": "plotly_white"},
    }
