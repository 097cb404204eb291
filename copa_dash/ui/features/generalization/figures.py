"""Figures of the validation -> test view, as plain dicts (paper Figs. 3 and 4, Table 1).

For two metrics, :func:`search_panels` draws the paper's three panels side by side with
shared axes: the validation front; the test values of that front against the front of all
rows on test (grey: not knowable in practice); the optimistic and pessimistic fronts with
the approximation gap shaded. Fronts are drawn as attainment staircases down to the
reference point, so the areas are the hypervolumes the tables report.
"""

from __future__ import annotations

import math

import numpy as np

from copa_dash.services.generalization import GapReport, SearchResult, label_text
from copa_dash.ui.common.plot_text import plot_text

VAL_COLOR = "#e67e22"
TEST_COLOR = "#2e8b57"
HIDDEN_COLOR = "rgba(120,120,120,0.75)"
FAINT = "rgba(150,150,150,0.30)"
OPT_COLOR = "#2ca02c"
PESS_COLOR = "#c2185b"
GAP_FILL = "rgba(233,30,99,0.25)"
SYSTEM_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
                 "#7f7f7f", "#bcbd22", "#17becf")
MEASURES = (("hv_val", "validation HV", "solid"), ("hv_opt", "optimistic HV", "dash"),
            ("hv_pess", "pessimistic HV", "dot"))
# Lines of at most ~20 characters: each panel is about 150 px wide at a 1024 px window, and
# longer titles ran into their neighbours' (issue 33, screenshots at 1024 x 768).
PANEL_TITLES = ("1. Validation front", "2. Same rows on test",
                "3. Optimistic vs.<br>pessimistic front")
PAD = 0.08


def staircase(points, ref, maximise) -> tuple[list, list]:
    """x and y of the attainment staircase of ``points`` (2 columns) down to ``ref``.

    Points that do not beat ``ref`` in both metrics add nothing and are left out; the
    path starts on the reference line of the first metric and ends on that of the second.
    """
    if len(points) == 0:
        return [], []
    sign = np.where(np.asarray(maximise, dtype=bool), -1.0, 1.0)  # to minimisation and back
    low = np.asarray(points, dtype=np.float64) * sign
    r = np.asarray(ref, dtype=np.float64).reshape(-1) * sign
    low = low[(low < r).all(axis=1)]
    if low.shape[0] == 0:
        return [], []
    low = low[np.lexsort((low[:, 1], low[:, 0]))]
    keep = np.minimum.accumulate(low[:, 1])
    low = low[np.r_[True, low[1:, 1] < keep[:-1]]]  # the non-dominated steps
    xs, ys = [low[0, 0]], [r[1]]
    for k in range(low.shape[0]):
        xs.append(low[k, 0])
        ys.append(low[k, 1])
        xs.append(low[k + 1, 0] if k + 1 < low.shape[0] else r[0])
        ys.append(low[k, 1])
    return [float(v * sign[0]) for v in xs], [float(v * sign[1]) for v in ys]


def gap_polygon(optimistic, pessimistic, ref, maximise) -> tuple[list, list]:
    """Closed outline of the area the optimistic front dominates and the pessimistic does not."""
    ox, oy = staircase(optimistic, ref, maximise)
    if not ox:
        return [], []
    px, py = staircase(pessimistic, ref, maximise)
    if not px:
        px, py = [float(ref[0])], [float(ref[1])]
    return ox + px[::-1] + [ox[0]], oy + py[::-1] + [oy[0]]


def zoom_ranges(*blocks) -> tuple[list, list] | tuple[None, None]:
    """x and y ranges around the given (n, 2) blocks of points, padded by 8% of the span,
    so the fronts fill the panels (the staircases run on to the reference point)."""
    points = np.vstack([b for b in blocks if len(b)]) if any(len(b) for b in blocks) else None
    if points is None:
        return None, None
    low, high = points.min(axis=0), points.max(axis=0)
    pad = np.maximum(PAD * (high - low), 1e-3 * np.maximum(np.abs(high), 1.0))
    return [float(low[0] - pad[0]), float(high[0] + pad[0])], \
        [float(low[1] - pad[1]), float(high[1] + pad[1])]


def _hover(report: GapReport, rows) -> tuple[list, str]:
    """Per point its id, validation and test values and the metric names in ``customdata``,
    and the template reading them. No user text goes into the template, where Plotly would
    fill a name's ``%{...}`` with the point's values; values it inserts from data stay as
    they are. (Not the trace's ``meta``: Plotly would fill the trace names, which hold
    system names, from it.)"""
    names = [plot_text(m) for m in report.spec.metrics]
    n = len(names)
    runs = report.runs
    custom = [[plot_text(runs.ids[i])] + [float(v) for v in runs.val[i]]
              + [float(v) for v in runs.test[i]] + names for i in rows]
    lines = ["<b>%{customdata[0]}</b>"]
    for k in range(n):
        lines.append(f"%{{customdata[{k + 1 + 2 * n}]}}: validation %{{customdata[{k + 1}]:.4f}}, "
                     f"test %{{customdata[{k + 1 + n}]:.4f}}")
    return custom, "<br>".join(lines) + "<extra></extra>"


def _markers(report, rows, values, name, marker, axis, *, legend=True) -> dict:
    custom, template = _hover(report, rows)
    return {"type": "scatter", "mode": "markers", "name": name, "x": values[:, 0].tolist(),
            "y": values[:, 1].tolist(), "customdata": custom, "hovertemplate": template,
            "marker": marker, "xaxis": f"x{axis}", "yaxis": f"y{axis}", "showlegend": legend,
            "legendgroup": name}


def _line(xs, ys, name, color, axis, *, dash="solid", legend=False, **extra) -> dict:
    return {"type": "scatter", "mode": "lines", "name": name, "x": xs, "y": ys,
            "line": {"color": color, "width": 1.8, "dash": dash}, "hoverinfo": "skip",
            "xaxis": f"x{axis}", "yaxis": f"y{axis}", "showlegend": legend, "legendgroup": name,
            **extra}


def search_panels(report: GapReport, search: SearchResult) -> dict:
    """The paper's Fig. 3 for one search of two metrics: three panels with shared axes."""
    fronts, runs = search.fronts, report.runs
    rows = search.rows
    ref, maximise = report.ref, fronts.maximise
    val, test = runs.val[rows], runs.test[rows]
    on_val = fronts.validation_mask
    traces = [_markers(report, rows[~on_val], val[~on_val], "other configurations (validation)",
                       {"color": FAINT, "size": 5}, "")]
    xs, ys = staircase(val[on_val], ref, maximise)
    traces.append(_line(xs, ys, "validation front", VAL_COLOR, ""))
    traces.append(_markers(report, rows[on_val], val[on_val], "validation front",
                           {"color": VAL_COLOR, "size": 9, "line": {"color": "black", "width": 0.5}}, ""))
    hidden = search.test_front
    xs, ys = staircase(test[hidden], ref, maximise)
    traces.append(_line(xs, ys, "test-only front (not knowable in practice)", HIDDEN_COLOR, 2,
                        dash="dash"))
    traces.append(_markers(report, rows[hidden], test[hidden],
                           "test-only front (not knowable in practice)",
                           {"color": HIDDEN_COLOR, "size": 7, "symbol": "square"}, 2))
    link_x, link_y = [], []
    for a, b in zip(val[on_val], test[on_val]):
        link_x += [float(a[0]), float(b[0]), None]
        link_y += [float(a[1]), float(b[1]), None]
    traces.append(_line(link_x, link_y, "validation -> test move", "rgba(230,126,34,0.45)", 2,
                        dash="dot", legend=True))
    traces.append(_markers(report, rows[on_val], val[on_val], "validation front",
                           {"color": "rgba(0,0,0,0)", "size": 8,
                            "line": {"color": VAL_COLOR, "width": 1.5}}, 2, legend=False))
    traces.append(_markers(report, rows[on_val], test[on_val], "validation front on test",
                           {"color": TEST_COLOR, "size": 9, "line": {"color": "black", "width": 0.5}}, 2))
    opt, pess = fronts.optimistic_mask, fronts.pessimistic_mask
    gx, gy = gap_polygon(test[opt], test[pess], ref, maximise)
    if gx:
        traces.append(_line(gx, gy, f"approximation gap = {fronts.gap:.4f}", "rgba(0,0,0,0)", 3,
                            legend=True, fill="toself", fillcolor=GAP_FILL))
    neither = on_val & ~opt & ~pess
    traces.append(_markers(report, rows[neither], test[neither], "on neither test front",
                           {"color": "rgba(90,90,90,0.6)", "size": 6}, 3))
    for mask, name, color, symbol, size in ((opt, "optimistic front", OPT_COLOR, "star", 13),
                                            (pess, "pessimistic front", PESS_COLOR, "circle", 8)):
        xs, ys = staircase(test[mask], ref, maximise)
        traces.append(_line(xs, ys, name, color, 3))
        traces.append(_markers(report, rows[mask], test[mask], name,
                               {"color": color, "size": size, "symbol": symbol,
                                "line": {"color": "black", "width": 0.5}}, 3))
    layout = _panel_layout(report, fronts)
    xr, yr = zoom_ranges(val[on_val], test[on_val], test[hidden])
    if xr is not None:
        layout["xaxis"]["range"], layout["yaxis"]["range"] = xr, yr
    return {"data": traces, "layout": layout}


def _axis_title(report: GapReport, k: int) -> str:
    return f"{plot_text(report.spec.metrics[k])} ({report.spec.directions[k]})"


def _panel_layout(report: GapReport, fronts) -> dict:
    layout = {"template": "plotly_white", "height": 480, "hovermode": "closest",
              "margin": {"l": 60, "r": 40, "t": 80, "b": 40}, "modebar": {"orientation": "v"},
              "legend": {"orientation": "h", "y": -0.2, "x": 0}, "annotations": []}
    domains = ((0.0, 0.30), (0.35, 0.65), (0.70, 1.0))
    subtitles = (f"HV {fronts.hv_val:.4f}", "grey: test-only front<br>(not knowable)",
                 f"HV {fronts.hv_opt:.4f} vs. {fronts.hv_pess:.4f}<br>gap {fronts.gap:.4f}")
    for i, (domain, title) in enumerate(zip(domains, PANEL_TITLES)):
        suffix = "" if i == 0 else str(i + 1)
        layout[f"xaxis{suffix}"] = {"domain": list(domain), "anchor": f"y{suffix}",
                                    "title": {"text": _axis_title(report, 0)}, "zeroline": False,
                                    **({"matches": "x"} if i else {})}
        layout[f"yaxis{suffix}"] = {"anchor": f"x{suffix}", "zeroline": False,
                                    "title": {"text": _axis_title(report, 1) if i == 0 else ""},
                                    **({"matches": "y"} if i else {})}
        text = f"<b>{title}</b>" + (f"<br>{subtitles[i]}" if subtitles[i] else "")
        layout["annotations"].append({"text": text, "x": sum(domain) / 2, "y": 1.0, "xref": "paper",
                                      "yref": "paper", "yanchor": "bottom", "showarrow": False,
                                      "font": {"size": 11}})
    return layout


def systems_fronts(report: GapReport, a: SearchResult, b: SearchResult) -> dict:
    """The paper's Fig. 4 (right): both systems' optimistic (stars) and pessimistic
    (circles, darker) fronts on test, for the front-dominance verdict."""
    runs, ref = report.runs, report.ref
    traces, shown = [], []
    for search, color in ((a, SYSTEM_COLORS[0]), (b, SYSTEM_COLORS[1])):
        name = plot_text(label_text(search.system)) or "all rows"
        rows, maximise = search.rows, search.fronts.maximise
        test = runs.test[rows]
        for mask, kind, symbol, dash, size in (
                (search.fronts.optimistic_mask, "optimistic", "star", "dash", 12),
                (search.fronts.pessimistic_mask, "pessimistic", "circle", "solid", 8)):
            xs, ys = staircase(test[mask], ref, maximise)
            shown.append(test[mask])
            traces.append(_line(xs, ys, f"{name}: {kind}", color, "", dash=dash))
            traces.append(_markers(report, rows[mask], test[mask], f"{name}: {kind}",
                                   {"color": color, "symbol": symbol, "size": size,
                                    "opacity": 0.65 if kind == "optimistic" else 1.0,
                                    "line": {"color": "black", "width": 0.5}}, ""))
    xr, yr = zoom_ranges(*shown)
    return {"data": traces, "layout": {
        "template": "plotly_white", "height": 420, "hovermode": "closest",
        "margin": {"l": 60, "r": 40, "t": 30, "b": 40}, "modebar": {"orientation": "v"},
        "xaxis": {"title": {"text": _axis_title(report, 0)}, "zeroline": False,
                  **({"range": xr} if xr else {})},
        "yaxis": {"title": {"text": _axis_title(report, 1)}, "zeroline": False,
                  **({"range": yr} if yr else {})},
        "legend": {"orientation": "h", "y": -0.2, "x": 0}}}


def parallel_front(report: GapReport, search: SearchResult) -> dict:
    """For three or more metrics: the validation front's rows on parallel axes, validation
    and test value of each metric side by side; colour says which test fronts keep a row."""
    fronts, runs = search.fronts, report.runs
    rows = search.rows[fronts.validation_mask]
    opt = fronts.optimistic_mask[fronts.validation_mask]
    pess = fronts.pessimistic_mask[fronts.validation_mask]
    code = np.where(opt & pess, 3, np.where(opt, 2, np.where(pess, 1, 0))).astype(float)
    dims = []
    for k, (name, direction) in enumerate(zip(report.spec.metrics, report.spec.directions)):
        values = np.concatenate([runs.val[rows, k], runs.test[rows, k]])
        low, high = float(values.min()), float(values.max())
        span = [high, low] if direction == "min" else [low, high]  # best at the top
        label = plot_text(name)
        dims.append({"label": f"val {label}", "values": runs.val[rows, k].tolist(), "range": span})
        dims.append({"label": f"test {label}", "values": runs.test[rows, k].tolist(),
                     "range": span})
    scale = [[0.0, "rgba(90,90,90,0.6)"], [0.33, PESS_COLOR], [0.66, OPT_COLOR], [1.0, "#1f3f99"]]
    return {"data": [{"type": "parcoords", "dimensions": dims,
                      "line": {"color": code.tolist(), "colorscale": scale, "cmin": 0, "cmax": 3}}],
            "layout": {"template": "plotly_white", "height": 400,
                       "margin": {"l": 70, "r": 70, "t": 60, "b": 30}}}


def budget_figure(report: GapReport) -> dict:
    """The paper's Table 1 as a chart: HVs (left) and gap (right) against budget, one colour
    per system; error bars are one standard deviation over seeds."""
    summaries = [s for s in report.summaries if isinstance(s.budget, (int, float))]
    systems = sorted({s.system for s in summaries}, key=lambda v: label_text(v))
    traces = []
    for i, system in enumerate(systems):
        color = SYSTEM_COLORS[i % len(SYSTEM_COLORS)]
        rows = sorted((s for s in summaries if s.system == system), key=lambda s: s.budget)
        budgets = [s.budget for s in rows]
        name = plot_text(label_text(system)) or "all rows"
        for key, measure, dash in MEASURES + (("gap", "approximation gap", "solid"),):
            axis = "2" if key == "gap" else ""
            traces.append({
                "type": "scatter", "mode": "lines+markers", "name": f"{name}: {measure}",
                "x": budgets, "y": [getattr(s, key) for s in rows],
                "error_y": {"type": "data", "array": [s.sd[key] for s in rows],
                            "visible": any(s.n_seeds > 1 for s in rows), "thickness": 1},
                "line": {"color": color, "dash": dash}, "xaxis": f"x{axis}", "yaxis": f"y{axis}",
                # the name as data: Plotly would fill a %{...} in it if it were template text
                "customdata": [name] * len(rows),
                "hovertemplate": f"<b>%{{customdata}}</b><br>{measure} at budget %{{x}}: "
                                 "%{y:.4f}<extra></extra>"})
    ticks = sorted({s.budget for s in summaries})
    xaxis = {"title": {"text": "budget"}, "type": "log", "tickvals": ticks,
             "ticktext": [f"{t:g}" for t in ticks]}
    # the legend in a bottom margin of its own (about 3 entries a line at 1024 px) and the
    # panel titles on two lines: at 1024 px the legend covered the "budget" titles and the
    # two titles ran into each other (issue 33, F20)
    legend_px = 22 * math.ceil(len(traces) / 3)
    return {"data": traces, "layout": {
        "template": "plotly_white", "height": 380 + legend_px, "hovermode": "closest",
        "margin": {"l": 60, "r": 20, "t": 56, "b": 60 + legend_px},
        "legend": {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom",
                   "x": 0},
        "xaxis": {**xaxis, "domain": [0, 0.6]}, "yaxis": {"title": {"text": "hypervolume"}},
        "xaxis2": {**xaxis, "domain": [0.7, 1], "anchor": "y2"},
        "yaxis2": {"title": {"text": "gap (optimistic - pessimistic HV)"}, "anchor": "x2",
                   "rangemode": "tozero"},
        "annotations": [{"text": "<b>Hypervolumes</b><br>solid validation, dashed optimistic, "
                                 "dotted pessimistic", "x": 0.3, "y": 1.0, "xref": "paper",
                         "yref": "paper", "yanchor": "bottom", "showarrow": False},
                        {"text": "<b>Approximation gap</b>", "x": 0.85, "y": 1.0, "xref": "paper",
                         "yref": "paper", "yanchor": "bottom", "showarrow": False}]}}


def summary_table(report: GapReport) -> tuple[list[dict], list[dict]]:
    """Rows and columns of the per-(system, budget) table (means over seeds)."""
    spread = any(s.n_seeds > 1 for s in report.summaries)
    data = []
    for s in report.summaries:
        row = {"system": label_text(s.system) or "all rows", "budget": label_text(s.budget),
               "seeds": s.n_seeds}
        for key in ("hv_val", "hv_opt", "hv_pess", "gap"):
            row[key] = f"{getattr(s, key):.4f}" + (f" ± {s.sd[key]:.4f}" if spread else "")
        data.append(row)
    names = {"system": "system", "budget": "budget", "seeds": "seeds", "hv_val": "validation HV",
             "hv_opt": "optimistic HV", "hv_pess": "pessimistic HV", "gap": "gap"}
    return data, [{"id": k, "name": v} for k, v in names.items()]


def front_table(report: GapReport, search: SearchResult) -> tuple[list[dict], list[dict]]:
    """The validation front's rows: validation and test values, and which test fronts keep them."""
    fronts, runs = search.fronts, report.runs
    data = []
    for position in np.flatnonzero(fronts.validation_mask):
        row = int(search.rows[position])
        item = {"id": str(runs.ids[row])}
        for k, name in enumerate(report.spec.metrics):
            item[f"val_{name}"] = round(float(runs.val[row, k]), 6)
            item[f"test_{name}"] = round(float(runs.test[row, k]), 6)
        item["optimistic"] = "yes" if fronts.optimistic_mask[position] else ""
        item["pessimistic"] = "yes" if fronts.pessimistic_mask[position] else ""
        data.append(item)
    columns = [{"id": "id", "name": "id"}]
    for name in report.spec.metrics:
        columns += [{"id": f"val_{name}", "name": f"validation {name}"},
                    {"id": f"test_{name}", "name": f"test {name}"}]
    columns += [{"id": "optimistic", "name": "optimistic front"},
                {"id": "pessimistic", "name": "pessimistic front"}]
    return data, columns
