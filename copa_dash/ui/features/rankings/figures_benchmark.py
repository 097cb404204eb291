"""Figures of the benchmark view, as plain plotly dicts: box plots of the scaled and CCDF
values per method (paper Fig. 8), the critical-difference diagram, and the performance-vs-
time fronts per task type (paper Fig. B.9)."""

from __future__ import annotations

import numpy as np

from copa_dash.services.benchmarks import BenchmarkView, TradeoffGroup
from copa_dash.ui.common.log_ticks import log_ticks
from copa_dash.ui.common.plot_text import plot_text

REFERENCE_COLOR = "#d62728"
BOX_COLOR = "#2f5d8a"
FRONT_COLOR = "#d62728"
SCALED_FLOOR = -1.0     # the scaled view is cut here; points below count as off-view outliers


def _method_order(view: BenchmarkView) -> list[int]:
    medians = [np.nanmedian(col) if (~np.isnan(col)).any() else -np.inf for col in view.ccdf.T]
    return sorted(range(len(view.methods)), key=lambda m: (-medians[m], view.methods[m]))


def box_figure(view: BenchmarkView) -> dict:
    """Two panels sharing the method axis: scaled (left) and CCDF (right), best on top."""
    order = _method_order(view)
    traces = []
    labels = {}
    for m in order:
        scaled = view.scaled[:, m]
        off_view = int((scaled < SCALED_FLOOR).sum())
        labels[m] = plot_text(view.methods[m]) + (f" [{off_view}]" if off_view else "")
    for panel, (matrix, axis) in enumerate(((view.scaled, "x"), (view.ccdf, "x2"))):
        for m in order:
            column = matrix[:, m]
            keep = ~np.isnan(column)
            values = column[keep]
            if axis == "x":
                values = np.maximum(values, SCALED_FLOOR - 0.05)  # off-view points sit at the edge
            tasks = [view.tasks[t] for t in np.flatnonzero(keep)]
            color = REFERENCE_COLOR if view.methods[m] == view.reference else BOX_COLOR
            traces.append({
                "type": "box", "orientation": "h", "x": values.tolist(),
                "y": [labels[m]] * len(values), "name": labels[m], "xaxis": axis, "yaxis": "y",
                "boxpoints": "all", "jitter": 0.4, "pointpos": 0, "showlegend": False,
                "marker": {"color": color, "size": 3.5, "opacity": 0.55},
                "line": {"color": color, "width": 1.5}, "fillcolor": "rgba(47,93,138,0.12)",
                "hovertext": [f"{plot_text(view.methods[m])} on {plot_text(t)}: "
                              f"{v:.3g}" for t, v in zip(tasks, column[keep])],
                "hoverinfo": "text",
            })
    n = len(order)
    shapes = [{"type": "line", "xref": "x", "yref": "paper", "x0": 0, "x1": 0, "y0": 0, "y1": 1,
               "line": {"color": REFERENCE_COLOR, "width": 1.5, "dash": "dash"}}]
    return {
        "data": traces,
        "layout": {
            "template": "plotly_white", "height": max(360, 34 * n + 120),
            "xaxis": {"domain": [0, 0.47], "range": [SCALED_FLOOR - 0.08, 1.05],
                      # two lines each: on one, at 1024 px the two titles ran into each
                      # other (issue 33, F20)
                      "title": {"text": f"scaled {plot_text(view.metric)}<br>"
                                        f"({plot_text(view.reference)} = 0, best = 1)"}},
            "xaxis2": {"domain": [0.53, 1], "range": [-0.02, 1.02], "anchor": "y",
                       "title": {"text": f"CCDF of {plot_text(view.metric)}: 1 - u<br>"
                                         "(1 = best on the task)"}},
            "yaxis": {"categoryorder": "array",
                      "categoryarray": [labels[m] for m in reversed(order)],
                      "automargin": True},
            "shapes": shapes, "margin": {"l": 150, "r": 20, "t": 20, "b": 72},
            "hovermode": "closest",
        },
    }


def cd_figure(view: BenchmarkView) -> dict:
    """Mean within-task ranks with bars of half-width CD/2 (non-overlap = significant
    difference), and a vertical bar for each group of methods that do not differ."""
    if view.friedman is None:
        return {"data": [], "layout": {"template": "plotly_white", "height": 120,
                                       "annotations": [{"text": "not enough complete tasks",
                                                        "showarrow": False}]}}
    ranks = view.friedman.mean_ranks
    cd = view.critical_difference
    order = list(np.argsort(ranks, kind="stable"))
    names = [plot_text(view.methods[m]) for m in order]
    row_of = {int(m): row for row, m in enumerate(order)}
    traces = [{
        "type": "scatter", "mode": "markers", "x": [float(ranks[m]) for m in order], "y": names,
        "error_x": {"type": "constant", "value": cd / 2, "color": "#7b8794", "thickness": 1.5},
        "marker": {"size": 10, "color": [REFERENCE_COLOR if view.methods[m] == view.reference
                                         else BOX_COLOR for m in order]},
        "hovertext": [f"{plot_text(view.methods[m])}: mean rank {ranks[m]:.3f}" for m in order],
        "hoverinfo": "text", "showlegend": False,
    }]
    k = len(view.methods)
    for g, group in enumerate(view.cd_groups):
        rows = [row_of[int(m)] for m in group]
        x = k + 0.35 + 0.22 * g
        traces.append({"type": "scatter", "mode": "lines", "x": [x, x],
                       "y": [names[min(rows)], names[max(rows)]], "showlegend": False,
                       "line": {"color": "#3e4c59", "width": 5}, "hoverinfo": "text",
                       "hovertext": "not significantly different: "
                                    + ", ".join(plot_text(view.methods[m]) for m in group)})
    return {
        "data": traces,
        "layout": {
            "template": "plotly_white", "height": max(260, 30 * k + 110),
            "xaxis": {"title": {"text": f"mean rank over {view.friedman.n_tasks} tasks "
                                        f"(1 = best); bars: ± CD/2 = {cd / 2:.3f}"},
                      "range": [0.5, k + 0.6 + 0.22 * len(view.cd_groups)], "dtick": 1},
            "yaxis": {"autorange": "reversed", "automargin": True},
            "margin": {"l": 150, "r": 20, "t": 40, "b": 50},
            "annotations": [{"x": 1 + cd, "y": 1.04, "xref": "x", "yref": "paper",
                             "xanchor": "left", "xshift": 8, "yanchor": "middle",
                             "text": f"CD = {cd:.3f} (alpha = {view.alpha:g})",
                             "showarrow": False, "font": {"size": 12}}],
            "shapes": [{"type": "line", "xref": "x", "yref": "paper", "x0": 1, "x1": 1 + cd,
                        "y0": 1.04, "y1": 1.04, "line": {"color": "#1f2933", "width": 3}}],
        },
    }


def tradeoff_figure(groups: tuple[TradeoffGroup, ...], *, metric: str, time_metric: str) -> dict:
    """One panel per task type: median time (log x) against COPA-aggregated performance."""
    n = max(1, len(groups))
    gap = 0.06
    width = (1 - gap * (n - 1)) / n
    traces, layout = [], {"template": "plotly_white", "height": 430, "hovermode": "closest",
                          "margin": {"l": 60, "r": 20, "t": 50, "b": 60}, "annotations": []}
    for g, group in enumerate(groups):
        suffix = "" if g == 0 else str(g + 1)
        valid = ~np.isnan(group.time) & (group.time > 0)
        for on_front in (False, True):
            pick = np.flatnonzero(valid & (group.front == on_front))
            if not pick.size:
                continue
            traces.append({
                "type": "scatter", "mode": "markers+text", "xaxis": f"x{suffix}",
                "yaxis": f"y{suffix}", "x": group.time[pick].tolist(),
                "y": group.performance[pick].tolist(),
                "text": [plot_text(group.methods[i]) for i in pick],
                "textposition": "top center",
                "cliponaxis": False,
                "textfont": {"size": 10, "color": FRONT_COLOR if on_front else "#52606d"},
                "marker": {"size": 11 if on_front else 8,
                           "color": FRONT_COLOR if on_front else "#9aa5b1",
                           "line": {"color": "black", "width": 1.2 if on_front else 0}},
                "name": "Pareto-optimal" if on_front else "dominated", "showlegend": g == 0,
                "legendgroup": str(on_front),
                "hovertext": [f"{plot_text(group.methods[i])}"
                              f"<br>performance {group.performance[i]:.3f}"
                              f"<br>median {plot_text(time_metric)} {group.time[i]:.3g}"
                              for i in pick], "hoverinfo": "text"})
        front = np.flatnonzero(valid & group.front)
        front = front[np.argsort(group.time[front])]
        if front.size > 1:
            traces.append({"type": "scatter", "mode": "lines", "xaxis": f"x{suffix}",
                           "yaxis": f"y{suffix}", "x": group.time[front].tolist(),
                           "y": group.performance[front].tolist(), "line": {"shape": "hv",
                           "color": FRONT_COLOR, "width": 1.5, "dash": "dot"},
                           "showlegend": False, "hoverinfo": "skip"})
        x0 = g * (width + gap)
        layout[f"xaxis{suffix}"] = {"domain": [x0, x0 + width], "type": "log", "anchor": f"y{suffix}",
                                    "title": {"text": f"median {plot_text(time_metric)} (log)"}}
        if valid.any():
            low, high = np.log10(group.time[valid].min()), np.log10(group.time[valid].max())
            pad = 0.12 * max(high - low, 1.0)
            layout[f"xaxis{suffix}"]["range"] = [low - pad, high + 2 * pad]
            # full values ("0.0001", "0.001"), not "100µ" beside "0.001" (issue 33, F20)
            layout[f"xaxis{suffix}"].update(log_ticks(low - pad, high + 2 * pad))
        layout[f"yaxis{suffix}"] = {"anchor": f"x{suffix}", "title": {
            "text": f"1 - COPA(p=2) of u({plot_text(metric)})" if g == 0 else ""}}
        title = f"<b>{plot_text(group.name)}</b> ({group.n_tasks} tasks)"
        layout["annotations"].append({"text": title,
                                      "x": x0 + width / 2, "y": 1.08, "xref": "paper",
                                      "yref": "paper", "showarrow": False})
    layout["legend"] = {"orientation": "h", "y": -0.2}
    return {"data": traces, "layout": layout}
