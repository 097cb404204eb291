"""Figures and table rows of the systems page, built as plain plotly dicts.

The radar overlays the chosen systems on the five axes HV, ONVG^, ONVGR, UD_bar, OS (an
undefined value plots as 0, and its hover says why); the front plot draws each chosen
system's rows faintly and its own front (in the plotted objectives) as a staircase; the
test's figures are the null distribution of Delta with the observed value marked, and the
hypervolume of each run's own front per side (the seed noise).
"""

from __future__ import annotations

import math

import numpy as np

from copa_dash.services.systems import (
    INDICATORS,
    LABELS,
    RADAR_AXES,
    RADAR_LABELS,
    SignificanceView,
    SystemsView,
)
from copa_dash.ui.common.empty import empty_figure
from copa_dash.ui.common.plot_text import plot_text

COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
          "#17becf", "#bcbd22", "#7f7f7f")
SIDE_COLORS = ("#5b6b7f", "#d62728")
SIDE_NAMES = ("baseline", "candidate")
EMPTY = empty_figure(200)


def _color(position: int) -> str:
    return COLORS[position % len(COLORS)]


def _rgba(color: str, alpha: float) -> str:
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


def _value(x: float, digits: int = 4):
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(x, digits)


def indicator_rows(view: SystemsView) -> tuple[list[dict], list[dict], list[dict]]:
    """DataTable ``data``, ``columns`` and ``tooltip_data``: one row per system, "undefined"
    in a cell without a value and the reason beside it and in the cell's tooltip."""
    columns = [{"name": "system", "id": "system"}, {"name": "rows", "id": "rows",
                                                     "type": "numeric"}]
    columns += [{"name": LABELS[k], "id": k, "type": "numeric"} for k in INDICATORS]
    estimated = bool(view.hv_estimated_systems())
    if estimated:  # beside HV, only when some HV is a Monte-Carlo estimate
        columns.insert(3, {"name": "HV 95% interval", "id": "hv_ci"})
    columns.append({"name": "undefined because", "id": "why"})
    data, tooltips = [], []
    for s, record in enumerate(view.records()):
        row = {"system": record["system"], "rows": int(view.n_rows[s])}
        tips = {}
        for key in INDICATORS:
            value = _value(record[key])
            row[key] = "undefined" if value is None else value
            if key in record["reasons"]:
                tips[key] = {"value": record["reasons"][key], "type": "text"}
        if estimated:
            row["hv_ci"], tip = _hv_interval(record)
            if tip:
                tips["hv"] = tips["hv_ci"] = {"value": tip, "type": "text"}
        by_reason: dict[str, list[str]] = {}
        for key, reason in record["reasons"].items():
            by_reason.setdefault(reason, []).append(LABELS[key])
        row["why"] = "; ".join(f"{', '.join(names)}: {reason}"
                               for reason, names in by_reason.items())
        data.append(row)
        tooltips.append(tips)
    if not any(row["why"] for row in data):
        # an empty column only widens the table past its panel at 1024 px (issue 33, F15)
        columns.pop()
        for row in data:
            del row["why"]
    return data, columns, tooltips


def _hv_interval(record: dict) -> tuple[str, str | None]:
    """The HV interval cell ("exact" or "[low, high]") and its tooltip, from a record."""
    if math.isnan(record["hv"]):
        return "undefined", None
    if record["hv_exact"]:
        return "exact", None
    low, high = record["hv_ci95"]
    tip = (f"Monte-Carlo estimate from {record['hv_samples']:,} random points: the exact "
           f"HV lies in [{low:.4g}, {high:.4g}] with 95% confidence")
    return f"[{low:.4f}, {high:.4f}]", tip


# What each radar axis measures, in a few plain words under its name (the names alone,
# HV, ONVG^, ..., stopped a newcomer; the Help page and the "(i)" give the full sentences)
RADAR_WORDS = {"hv": "volume covered", "onvg_hat": "front size", "onvgr": "share on its front",
               "ud_bar": "evenness", "os": "spread"}


def radar_tick_text(axes=RADAR_AXES, labels=RADAR_LABELS) -> list[str]:
    """Each radar axis's name with its plain words under it.

    >>> radar_tick_text()[0]
    'HV<br><span style="font-size:11px">volume covered</span>'
    """
    return [f'{label}<br><span style="font-size:11px">{RADAR_WORDS[axis]}</span>'
            for axis, label in zip(axes, labels)]


def radar_figure(view: SystemsView, shown) -> dict:
    """One closed polygon per chosen system on the five radar axes; the legend gives areas."""
    position = {name: s for s, name in enumerate(view.systems)}
    traces, top = [], 1.0
    for n, name in enumerate(s for s in shown if s in position):
        s = position[name]
        values = view.indicators.radar_values(s)
        radii = np.nan_to_num(values, nan=0.0)
        top = max(top, float(radii.max()))
        hover = []
        for axis, label, value in zip(RADAR_AXES, RADAR_LABELS, values):
            reason = view.why_undefined(s, axis)
            text = f"undefined ({reason}); plotted as 0" if reason else f"{value:.4g}"
            if axis == "hv" and view.indicators.hv_is_estimate(s):
                text += (f" (Monte-Carlo estimate, 95% interval "
                         f"[{view.indicators.hv_ci_low[s]:.4g}, {view.indicators.hv_ci_high[s]:.4g}])")
            hover.append(f"<b>{plot_text(name)}</b><br>{label}: {plot_text(text)}")
        area = view.indicators.area[s]
        color = _color(n)
        traces.append({
            "type": "scatterpolar", "r": [*radii.tolist(), float(radii[0])],
            "theta": [*RADAR_LABELS, RADAR_LABELS[0]],
            "name": f"{plot_text(name)} (area {area:.3f})",
            "mode": "lines+markers", "fill": "toself", "fillcolor": _rgba(color, 0.12),
            "line": {"color": color, "width": 2.4}, "marker": {"size": 6, "color": color},
            "hovertext": [*hover, hover[0]], "hoverinfo": "text"})
    return {"data": traces, "layout": {
        "template": "plotly_white", "height": 470, "margin": {"l": 60, "r": 40, "t": 40,
                                                              "b": 40},
        "polar": {"radialaxis": {"range": [0, top * 1.02], "angle": 90, "tickangle": 90,
                                 "tickfont": {"size": 11}},
                  "angularaxis": {"direction": "clockwise", "rotation": 90,
                                  "tickfont": {"size": 14}, "tickvals": list(RADAR_LABELS),
                                  "ticktext": radar_tick_text()}},
        # the area is 1 for the pentagon of radius 1 on every axis; OS alone can pass 1 (a
        # system's front reaching past the global front's ends), so "1 = ideal" misread
        "legend": {"title": {"text": "system (radar area: 1 = radius 1 on every axis)"},
                   "x": 1.02, "y": 1},
        "hoverlabel": {"align": "left"}}}


def front_figure(view: SystemsView, shown, front_mask, *, x: str, y: str,
                 z: str | None = None) -> dict:
    """Each chosen system's rows (faint) and its own front in the plotted objectives."""
    names = [x, y] + ([z] if z else [])
    columns = [view.objectives.index(n) for n in names]
    position = {name: s for s, name in enumerate(view.systems)}
    traces = []
    for n, name in enumerate(s for s in shown if s in position):
        rows = np.flatnonzero(view.system_of_row == position[name])
        color = _color(n)
        for on_front in (False, True):
            part = rows[front_mask[rows] == on_front]
            if part.size == 0:
                continue
            if on_front and not z:   # staircase: sort by the oriented x, corners (x_next, y)
                sign = -1.0 if view.directions[columns[0]] == "max" else 1.0
                part = part[np.argsort(sign * view.raw[part, columns[0]], kind="stable")]
            hover = [f"<b>{plot_text(view.row_ids[i])}</b><br>system {plot_text(name)}<br>"
                     + "<br>".join(f"{plot_text(o)}: {view.raw[i, c]:.4g}"
                                   for o, c in zip(names, columns))
                     + ("<br>on its front" if on_front else "") for i in part]
            label = plot_text(name)
            trace = {"name": f"{label} front" if on_front else f"{label} rows",
                     "legendgroup": label, "hovertext": hover, "hoverinfo": "text",
                     "x": view.raw[part, columns[0]].tolist(),
                     "y": view.raw[part, columns[1]].tolist()}
            if z:
                trace.update(type="scatter3d", mode="markers",
                             z=view.raw[part, columns[2]].tolist(),
                             marker={"size": 6 if on_front else 3, "color": color,
                                     "opacity": 0.95 if on_front else 0.3})
            else:
                trace.update(type="scatter", mode="lines+markers" if on_front else "markers",
                             line={"shape": "hv", "color": color, "width": 2},
                             marker={"size": 9 if on_front else 6, "color": color,
                                     "opacity": 1.0 if on_front else 0.3,
                                     "line": {"width": 1, "color": "white"}})
            traces.append(trace)
    label = {n: f"{plot_text(n)} ({view.directions[c]})" for n, c in zip(names, columns)}
    layout = {"template": "plotly_white", "height": 520, "hovermode": "closest",
              "hoverlabel": {"align": "left"}, "margin": {"l": 70, "r": 20, "t": 30, "b": 60},
              "legend": {"title": {"text": "faint: rows; joined: the system's front"}}}
    if z:
        layout["scene"] = {"xaxis": {"title": {"text": label[x]}},
                           "yaxis": {"title": {"text": label[y]}},
                           "zaxis": {"title": {"text": label[z]}}}
        layout["height"] = 620
    else:
        layout["xaxis"] = {"title": {"text": label[x]}, "zeroline": False}
        layout["yaxis"] = {"title": {"text": label[y]}, "zeroline": False}
    return {"data": traces, "layout": layout}


def null_histogram(view: SignificanceView) -> dict:
    """The permuted Deltas with the observed Delta (and its mirror, two-sided) marked."""
    test = view.test
    delta = test.delta
    shapes = [{"type": "line", "xref": "x", "yref": "paper", "x0": d, "x1": d, "y0": 0,
               "y1": 1, "line": {"color": "#d62728", "width": 2.5, "dash": dash}}
              for d, dash in ((delta, "solid"), (-delta, "dot"))]
    annotation = {"x": delta, "y": 1, "xref": "x", "yref": "paper", "yanchor": "bottom",
                  "showarrow": False, "font": {"color": "#d62728", "size": 13},
                  "text": f"observed Δ = {delta:.4g}"}
    return {"data": [{"type": "histogram", "x": test.null_distribution.tolist(),
                      "nbinsx": 60, "name": "permuted Δ", "marker": {"color": "#8da0b6"},
                      "hovertemplate": "Δ in [%{x}]<br>%{y} permutations<extra></extra>"}],
            "layout": {"template": "plotly_white", "height": 340, "bargap": 0.04,
                       "shapes": shapes, "annotations": [annotation], "showlegend": False,
                       "margin": {"l": 60, "r": 20, "t": 78, "b": 55},
                       "title": {"text": f"null distribution of Δ over {test.n_permutations:,} "
                                         "permutations<br>(dotted: -Δ, the two-sided mirror)",
                                 "font": {"size": 13}, "x": 0.02, "xanchor": "left",
                                 "y": 0.97, "yanchor": "top"},
                       "xaxis": {"title": {"text": "Δ = HV(candidate front) - HV(baseline "
                                                   "front)"}},
                       "yaxis": {"title": {"text": "permutations"}}}}


def spread_figure(view: SignificanceView) -> dict:
    """Per-run hypervolume of each side (every run's own front, same r): the seed noise."""
    test = view.test
    traces = []
    for side in (0, 1):
        runs = np.flatnonzero(view.run_side == side)
        names = ", ".join(view.baseline if side == 0 else view.candidate)
        names = names if len(names) <= 40 else names[:38] + "…"
        label = f"{SIDE_NAMES[side]} ({len(runs)} runs)<br>{plot_text(names)}"
        traces.append({
            "type": "box", "y": test.run_hv[runs].tolist(), "name": label,
            "boxpoints": "all", "jitter": 0.4, "pointpos": 0, "boxmean": "sd",
            "marker": {"color": SIDE_COLORS[side], "size": 7},
            "line": {"color": SIDE_COLORS[side]}, "fillcolor": _rgba(SIDE_COLORS[side], 0.08),
            "hovertext": [f"run {plot_text(view.run_labels[r])}<br>HV {test.run_hv[r]:.4g}"
                          for r in runs], "hoverinfo": "text"})
    return {"data": traces, "layout": {
        "template": "plotly_white", "height": 340, "showlegend": False,
        "margin": {"l": 70, "r": 20, "t": 78, "b": 50},
        "title": {"text": "hypervolume of each run's own front<br>(box: quartiles; dashed: "
                          "mean ± s.d. over seeds)", "font": {"size": 13}, "x": 0.02,
                  "xanchor": "left", "y": 0.97, "yanchor": "top"},
        "yaxis": {"title": {"text": "HV of one run"}}, "xaxis": {"automargin": True}}}
