"""Plotly figures of the explorer, built as plain dicts (fast to build and to send)."""

from __future__ import annotations

import functools
import hashlib
import json
import math

import numpy as np
from dash import Patch
from plotly.colors import get_colorscale, sample_colorscale

from copa_dash.services.explorer import BASELINE_LABELS, Exploration, summary_coordinates
from copa_dash.services.scatter_sample import scatter_rows
from copa_dash.ui.common.log_ticks import log_ticks
from copa_dash.ui.common.plot_text import plot_text  # re-exported: callers import it from here
from copa_dash.ui.common.short_labels import short_label
from copa_dash.ui.features.explore import label_layout, parallel_axes
from copa_dash.ui.features.explore.axis_names import distinct_labels

WEBGL_ROWS = 10_000
FAINT = "rgba(160,160,160,0.35)"
PASSING = "rgba(90,110,140,0.55)"
FRONT_EDGE = "rgba(40,40,40,0.9)"
PICK_COLOR = "#d62728"
BASELINE_COLOR = "#e36f00"
PICK_FONT = 13
BASELINE_FONT = 13
SWEEP_SCALE = "Viridis"
# the scale's stops, looked up once: by name, plotly searches every named scale on each call
_SWEEP_STOPS = get_colorscale(SWEEP_SCALE)


def _scatter_type(n: int) -> str:
    return "scattergl" if n > WEBGL_ROWS else "scatter"


def significant(values: np.ndarray, digits: int) -> np.ndarray:
    """``values`` rounded to ``digits`` significant digits, each the double nearest its short
    decimal (so JSON writes it short): an integer times or divided by an exact power of ten.

    >>> significant(np.array([51.8174000540787, 0.000123456789, 123456789.0, 0.0, -2.5]), 4)
    array([ 5.182e+01,  1.235e-04,  1.235e+08,  0.000e+00, -2.500e+00])
    >>> significant(np.array([51.8174000540787]), 6).tolist()
    [51.8174]
    """
    values = np.asarray(values, dtype=float)
    finite = np.isfinite(values) & (values != 0)
    magnitude = np.zeros(values.shape)
    magnitude[finite] = np.floor(np.log10(np.abs(values[finite])))
    shift = (digits - 1 - magnitude).astype(int)
    out = values.copy()
    up = finite & (shift >= 0)
    down = finite & (shift < 0)
    scale_up = 10.0 ** shift[up]
    out[up] = np.round(values[up] * scale_up) / scale_up
    scale_down = 10.0 ** (-shift[down])
    out[down] = np.round(values[down] / scale_down) * scale_down
    return out


def _hover(problem, positions) -> dict:
    """A trace's hover: per point its id, raw values and u in ``customdata``, the objective
    names once in ``meta``. No user text goes into the template, where Plotly would fill a
    name's ``%{...}`` with the point's values; values it inserts from data stay as they are.
    (Plotly also fills the trace's ``name`` from its meta, so that name must be our own text.)
    """
    names = [plot_text(n) for n in problem.preferences.objectives]
    n = len(names)
    positions = np.asarray(positions, dtype=np.int64)
    # one tolist of a numeric block, not a float() per cell: 10x faster on big traces
    # the hover shows raw values to 4 significant digits and u to 0.1%: 8 digits and 6
    # decimals keep every shown digit (fewer let a value on a rounding boundary show its last
    # digit one off) and cut the figure's bytes (17 floats of 15-17 digits a point made
    # 1.1 MB of the Open LLM front's 1.5 MB answer to an objective tick)
    values = np.hstack([significant(np.asarray(problem.raw, dtype=float)[positions], 8),
                        np.round(np.asarray(problem.u, dtype=float)[positions], 6)]).tolist()
    custom = [[plot_text(problem.ids[i])] + row for i, row in zip(positions.tolist(), values)]
    lines = ["<b>%{customdata[0]}</b>"]
    for k in range(n):
        lines.append(f"%{{meta[{k}]}}: %{{customdata[{k + 1}]:.4g}} "
                     f"(top %{{customdata[{k + 1 + n}]:.1%}})")
    return {"customdata": custom, "meta": names,
            "hovertemplate": "<br>".join(lines) + "<extra></extra>"}


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

    def title(name, k):
        unit = exploration.unit_of(name)
        return f"{name}{f' [{unit}]' if unit and f'({unit})' not in name else ''} ({dirs[k]})"

    return problem.raw[:, kx], problem.raw[:, ky], title(x, kx), title(y, ky)


def log_axes(exploration: Exploration, mode: str, x: str, y: str,
             log=()) -> tuple[bool, bool]:
    """Whether the x and y axes are drawn on a log scale: asked for (``log`` holds "x"
    and/or "y"), in the raw-values view, and every value of the column is positive."""
    if mode != "raw" or not log:
        return False, False
    xs, ys, _, _ = axis_values(exploration, mode, x, y)
    return tuple(axis in log and _all_positive(values)
                 for axis, values in (("x", xs), ("y", ys)))


def log_notes(exploration: Exploration, mode: str, x: str, y: str, log=()) -> list[str]:
    """Why an asked-for log axis is drawn linear, in words for the page."""
    if not log:
        return []
    if mode != "raw":
        return ["The log scale applies to the raw-values view; this view is drawn linear."]
    applied = log_axes(exploration, mode, x, y, log)
    return [f"{name} has values of zero or below, which a log axis cannot show: the {axis} "
            "axis stays linear." for axis, name, done in (("x", x, applied[0]), ("y", y, applied[1]))
            if axis in log and not done]


def log_choices(exploration: Exploration, mode: str, x: str, y: str,
                log=()) -> tuple[list[dict], list[str]]:
    """The "log x" / "log y" boxes as they can apply: their options and the ticked axes.

    Outside the raw-values view both boxes are greyed and keep their ticks (they apply again
    on the way back). In the raw view an axis whose column has values of zero or below is
    unticked and greyed, its label saying why, so no box stays ticked over a linear axis.
    """
    xs, ys, _, _ = axis_values(exploration, mode, x, y) if mode == "raw" else (None,) * 4
    options, ticked = [], []
    for axis, values in (("x", xs), ("y", ys)):
        usable = mode == "raw" and _all_positive(values)
        label = f"log {axis}" if usable or mode != "raw" else f"log {axis} (values \u2264 0)"
        options.append({"label": label, "value": axis, "disabled": not usable})
        if axis in log and (usable or mode != "raw"):
            ticked.append(axis)
    return options, ticked


def _all_positive(values) -> bool:
    finite = np.asarray(values, dtype=float)
    finite = finite[np.isfinite(finite)]
    return finite.size > 0 and bool((finite > 0).all())


def _on_axis(values, log: bool) -> np.ndarray:
    """Values in the axis's own units (log10 on a log axis), as Plotly wants an axis range."""
    values = np.asarray(values, dtype=float)
    return np.log10(values) if log else values


def fixed_range(values, pad: float = 0.04, *, log: bool = False) -> dict:
    """An axis set to the padded span of ``values``, stated in full (type, range, autorange);
    on a log axis the range is in log10 units, as Plotly wants it.

    Plotly writes the range it autoscales to back into the layout it was given; a figure that
    leaves the range out then differs from the drawn one on every update, and Plotly redraws
    every point where it would otherwise move just the pick markers.
    """
    finite = np.asarray(values, dtype=float)
    finite = finite[np.isfinite(finite)]
    kind = "log" if log else "linear"
    if finite.size == 0:
        return {"type": kind, "range": [-1.0, 1.0], "autorange": False}
    finite = _on_axis(finite, log)
    span = _padded(float(finite.min()), float(finite.max()), pad)
    # a log axis states its ticks: decades or 1-2-5 labelled in full, not bare minor digits
    return {"type": kind, "range": span, "autorange": False, **(log_ticks(*span) if log else {})}


def _padded(low: float, high: float, pad: float = 0.04) -> list[float]:
    span = high - low if high > low else max(abs(high), 1.0)
    return [low - pad * span, high + pad * span]


def _axis_range(values, log: bool) -> list[float]:
    """:func:`fixed_range`'s range from the column's minimum and maximum alone (log10 is
    monotone): a slider move places its labels without a log10 or a copy of every row
    (28 ms of CPU per move at a million rows before, about 3 ms now)."""
    values = np.asarray(values, dtype=float)
    if values.size and not np.isnan(values).all():
        low, high = float(np.nanmin(values)), float(np.nanmax(values))
        if math.isfinite(low) and math.isfinite(high) and (not log or low > 0):
            low, high = (math.log10(low), math.log10(high)) if log else (low, high)
            return _padded(low, high)
    return fixed_range(values, log=log)["range"]


def front_figure(exploration: Exploration, *, mode: str, x: str, y: str, log=()) -> dict:
    """The front figure: rows failing a constraint faint, the rest as points, the rows on the
    front hollow; over them (see :func:`slider_layers`) the rows the alpha sweep picks filled
    with the colour of their alpha, the pick ringed and labelled, and the baselines' picks
    when compared.

    Traces depend only on the data, the constraints and the axes; everything that moves
    with alpha and p is layout, so a slider move patches the layout alone. The rows passing
    the constraints are one trace whose points are hollow and ringed on the front and filled
    off it (two legend entries of one group name the two looks), so a view whose points stay
    where they were (an objective ticked or a direction flipped off the axes) keeps
    ``layout.datarevision`` (:func:`points_revision`) and Plotly restyles the points.

    On a big table the dominated and failing rows are a fixed sample
    (:func:`~copa_dash.services.scatter_sample.scatter_rows`), stated in the figure's title;
    the front, the pick and the marked rows are always drawn.
    """
    problem = exploration.problem
    xs, ys, x_title, y_title = axis_values(exploration, mode, x, y)
    log_x, log_y = log_axes(exploration, mode, x, y, log)
    rows = scatter_rows(exploration.front, problem.eligible, _marked_rows(exploration))
    kind = _scatter_type(rows.drawn)
    sample = " (a sample)" if rows.sampled else ""
    passing = np.union1d(rows.passing, rows.front)   # every drawn row passing, in row order
    on_front = np.isin(passing, rows.front)
    looks = _front_looks(on_front)
    traces = [
        {"type": kind, "mode": "markers", "name": "fails a constraint" + sample,
         "x": xs[rows.failing].tolist(), "y": ys[rows.failing].tolist(),
         **_hover(problem, rows.failing), "marker": {"color": FAINT, "size": 5}},
        {"type": kind, "mode": "markers", "name": "passes the constraints" + sample,
         "showlegend": False, "legendgroup": "passing",
         "x": xs[passing].tolist(), "y": ys[passing].tolist(),
         **_hover(problem, passing), "marker": looks},
        # the passing trace's two looks, listed in the legend (a click hides the group)
        _legend_entry("passes the constraints" + sample, {"color": PASSING, "size": 6}),
        _legend_entry("on the front (non-dominated in the chosen objectives)",
                      {"color": "white", "size": 9, "line": {"color": FRONT_EDGE, "width": 1.2}}),
    ]
    if exploration.sweep is not None:
        # no points: it carries the colour bar of the sweep's alpha
        traces.append({"type": "scatter", "mode": "markers", "x": [None], "y": [None],
                       "showlegend": False, "hoverinfo": "skip",
                       "marker": {"color": [0.0], "colorscale": SWEEP_SCALE, "cmin": 0, "cmax": 1,
                                  "showscale": True,
                                  "colorbar": {"title": {"text": "alpha"}, "thickness": 12,
                                               "len": 0.6}}})
    traces.append(looks_fingerprint(on_front))
    revision = ({"datarevision": points_revision(xs, ys, rows.failing, passing, len(traces))}
                if kind == "scatter" else {})
    return {
        "data": traces,
        "layout": {
            **slider_layers(exploration, xs, ys, log=(log_x, log_y)),
            "xaxis": {"title": {"text": plot_text(x_title + (", log scale" if log_x else ""))},
                      "zeroline": False, **fixed_range(xs, log=log_x)},
            "yaxis": {"title": {"text": plot_text(y_title + (", log scale" if log_y else ""))},
                      "zeroline": False, **fixed_range(ys, log=log_y)},
            # in the order of the traces, as when each look was a trace of its own (grouped,
            # the passing trace's two entries would be laid out as a block of their own)
            "legend": {"orientation": "h", "y": -0.18, "x": 0, "traceorder": "normal"},
            "margin": {"l": 60, "r": 20, "t": 40 if rows.sampled else 30, "b": 40},
            **({"title": {"text": rows.note(), "font": {"size": 12, "color": "#555"},
                          "x": 0.01, "xanchor": "left", "y": 0.985}} if rows.sampled else {}),
            "hovermode": "closest",
            "template": "plotly_white",
            "uirevision": f"{mode}:{x}:{y}:{log_x}:{log_y}",
            "height": 520,
            **revision,
        },
    }


def _legend_entry(name: str, marker: dict) -> dict:
    """A legend entry of the passing trace's group: a trace without points."""
    return {"type": "scatter", "mode": "markers", "name": name, "x": [None], "y": [None],
            "legendgroup": "passing", "hoverinfo": "skip", "marker": marker}


def _front_looks(on_front: np.ndarray) -> dict:
    """The passing trace's marker, per point: hollow and ringed on the front, filled grey-blue
    off it. Fully opaque (``opacity`` 1, stated: with per-point sizes Plotly takes the trace
    for a bubble chart and would default it to 0.7); the fingerprint of the looks that makes
    Plotly restyle the points is a trace of its own (:func:`looks_fingerprint`)."""
    on_front = np.asarray(on_front, dtype=bool)
    return {"color": np.where(on_front, "white", PASSING).tolist(),
            "size": np.where(on_front, 9, 6).tolist(),
            "line": {"color": FRONT_EDGE, "width": np.where(on_front, 1.2, 0.0).tolist()},
            "opacity": 1}


LOOKS_UID = "front-looks"   # the uid of the front figure's fingerprint trace


def looks_fingerprint(on_front: np.ndarray) -> dict:
    """A trace without points whose ``marker.opacity`` (1 to within 1e-4) is a fingerprint of
    the passing trace's looks (``on_front``, per point): a changed scalar style of any trace
    is what makes Plotly restyle every point from their new per-point arrays (see
    :func:`points_revision`).

    The fingerprint was the passing trace's own opacity until session 21; Plotly writes a
    marker's opacity into every point's style, and with an opacity under 1 on 2,142 points of
    the Open LLM leaderboard each frame that repainted the plot cost ~27% more browser CPU
    (measured; that Chrome paints each such point as a group of its own is the likely reason,
    docs/benchmarks.md, session 21). A
    trace whose one point has no coordinates draws nothing and is not in the legend."""
    on_front = np.asarray(on_front, dtype=bool)
    digest = int(hashlib.sha1(np.packbits(on_front).tobytes()
                              + on_front.size.to_bytes(8, "little")).hexdigest()[:12], 16)
    return {"type": "scatter", "mode": "markers", "uid": LOOKS_UID, "x": [None], "y": [None],
            "showlegend": False, "hoverinfo": "skip",
            "marker": {"opacity": 1.0 - 1e-10 * (1 + digest % 1_000_000)}}


def points_revision(xs, ys, failing, passing, n_traces: int) -> str:
    """The front figure's ``layout.datarevision``: a fingerprint of where its points are (the
    rows each trace draws and their x and y), not of how they look or what they hover.

    Plotly.react compares a figure's data arrays only when the revision changes; while it
    stays, new arrays are taken as they come without recomputing the points. So an objective
    tick or a direction change that leaves every point where it was (the raw-values axes, the
    same rows) is drawn as a restyle of the points (their front looks, the hover's values)
    instead of a recomputation and a redraw of every point: about half of Plotly's time on
    the 2,900 rows of the Open LLM leaderboard (docs/benchmarks.md, session 18).
    """
    digest = hashlib.sha1()
    for part in (failing, passing):
        part = np.asarray(part, dtype=np.int64)
        digest.update(part.size.to_bytes(8, "little"))
        digest.update(part.tobytes())
        digest.update(np.asarray(xs, dtype=float)[part].tobytes())
        digest.update(np.asarray(ys, dtype=float)[part].tobytes())
    digest.update(n_traces.to_bytes(2, "little"))
    return digest.hexdigest()[:16]


def _marked_rows(exploration: Exploration) -> list[int]:
    """Rows the figure marks, kept among the drawn points (so their hover shows): the pick,
    the baselines' picks and the alpha sweep's picks at this p. Their rings are layout
    shapes placed from every row's coordinates, so a pick a later move reaches is ringed
    even when its point is not in the sample."""
    marked = [int(exploration.pick)] + [int(b.position) for b in exploration.baselines
                                        if b.position is not None]
    if exploration.sweep is not None:
        marked += [int(r) for r in exploration.sweep.rows]
    return marked


def slider_layers(exploration: Exploration, xs, ys, *, log=(False, False)) -> dict:
    """Everything of the front figure that moves with alpha and p, as layout ``shapes`` and
    ``annotations``: the rows the alpha sweep picks (at this p) filled with the colour of the
    middle of their alpha range, an orange ring and label on each baseline's pick (when
    compared), and a red ring and labelled arrow on the COPA pick, drawn last.

    Rings and dots are sized in pixels and anchored at the point's data coordinates, so they
    keep their size under zoom. Hovering shows the row underneath (the passing trace). ``log``
    says which axes are log axes, where Plotly places annotations (not shapes) by log10.
    """
    shapes = []
    sweep = exploration.sweep
    if sweep is not None and len(sweep.rows):
        middles = 0.5 * (np.asarray(sweep.alpha_min) + np.asarray(sweep.alpha_max))
        colours = sample_colorscale(_SWEEP_STOPS, np.clip(middles, 0.0, 1.0).tolist())
        for k, (row, colour) in enumerate(zip(sweep.rows, colours)):
            dot = _ring(float(xs[row]), float(ys[row]), "black", radius=6, width=1)
            dot.update(fillcolor=colour, legendgroup="sweep")
            if k == 0:
                dot.update(showlegend=True, name="picked by the alpha sweep (fill: alpha)")
            shapes.append(dot)
    markers = pick_markers(exploration, xs, ys, log=log)
    return {"shapes": shapes + markers["shapes"], "annotations": markers["annotations"]}


def pick_markers(exploration: Exploration, xs, ys, *, log=(False, False)) -> dict:
    """A red ring and a labelled arrow on the COPA pick and, when compared, an orange ring
    and label on each row a baseline picks (layout ``shapes`` and ``annotations``).

    Baselines that pick the same row share one label ("Sum, norm"); one that picks the COPA
    pick is named in the pick's label. Every label's offset comes from
    :func:`~.label_layout.place_labels`: inside the plot (never over the tick labels or the
    alpha colour bar), clear of the other labels and of the marked points.
    """
    problem = exploration.problem
    pick = exploration.pick
    rows: dict[int, list[str]] = {}
    for b in exploration.baselines:
        if b.position is not None and b.method != "copa":
            rows.setdefault(int(b.position), []).append(BASELINE_LABELS[b.method])
    same = rows.pop(pick, [])
    # a long id as Rankings' and Posets' labels show it (head, "…", tail); the card under the
    # figure and the hover name it in full
    pick_text = f"<b>COPA pick</b>: {plot_text(short_label(problem.ids[pick]))}" + (
        f" ({', '.join(same)} {'picks' if len(same) == 1 else 'pick'} it too)" if same else "")
    labelled = [pick, *rows]
    texts = [pick_text, *(", ".join(names) for names in rows.values())]
    sizes = [PICK_FONT, *[BASELINE_FONT] * len(rows)]
    to_fraction = _fractions(xs, ys, log)
    sweep_rows = [] if exploration.sweep is None else [int(r) for r in exploration.sweep.rows]
    placed = label_layout.place_labels(
        [to_fraction(r) for r in labelled],
        [label_layout.text_size(t, size) for t, size in zip(texts, sizes)],
        [to_fraction(r) for r in sweep_rows if r not in labelled])
    shapes, annotations = [], []
    for n, (row, text, spot) in enumerate(zip(labelled[1:], texts[1:], placed[1:])):
        x, y = float(xs[row]), float(ys[row])
        ring = _ring(x, y, BASELINE_COLOR, radius=8, width=2)
        if n == 0:
            ring.update(showlegend=True, name="another method's pick (compare normalisations)")
        shapes.append(ring)
        annotations.append({**_at(x, y, log), "text": text, "showarrow": True,
                            "arrowcolor": BASELINE_COLOR, "ax": spot.ax, "ay": spot.ay,
                            "font": {"color": "#9a4a00", "size": BASELINE_FONT},
                            "bgcolor": "rgba(255,255,255,0.9)", "bordercolor": BASELINE_COLOR})
    x, y = float(xs[pick]), float(ys[pick])
    ring = _ring(x, y, PICK_COLOR, radius=11, width=3)
    ring.update(showlegend=True, name="COPA pick")
    shapes.append(ring)
    annotations.append({**_at(x, y, log), "text": pick_text,
                        "showarrow": True, "arrowhead": 2, "arrowcolor": PICK_COLOR,
                        "ax": placed[0].ax, "ay": placed[0].ay,
                        "font": {"color": PICK_COLOR, "size": PICK_FONT},
                        "bgcolor": "rgba(255,255,255,0.9)", "bordercolor": PICK_COLOR})
    return {"shapes": shapes, "annotations": annotations}


def _fractions(xs, ys, log):
    """A function from a row to where it sits in the drawn axes' ranges (0 to 1)."""
    x_range, y_range = _axis_range(xs, log[0]), _axis_range(ys, log[1])

    def fraction(row: int) -> tuple[float, float]:
        out = []
        for values, (low, high), is_log in ((xs, x_range, log[0]), (ys, y_range, log[1])):
            value = float(_on_axis(float(values[row]), is_log))
            out.append((value - low) / (high - low) if high > low else 0.5)
        return out[0], out[1]

    return fraction


def _at(x: float, y: float, log) -> dict:
    """An annotation's position: Plotly reads it as log10 on a log axis (shapes take data
    values there)."""
    return {"x": math.log10(x) if log[0] else x, "y": math.log10(y) if log[1] else y}


def _ring(x: float, y: float, color: str, *, radius: int, width: float) -> dict:
    """A circle of ``radius`` pixels around a data point, as a closed 24-gon path: Plotly
    draws pixel-sized ``circle`` shapes squashed on a log axis, a path it draws right."""
    return {"type": "path", "path": _polygon_path(radius), "xref": "x", "yref": "y",
            "xsizemode": "pixel", "ysizemode": "pixel", "xanchor": x, "yanchor": y,
            "line": {"color": color, "width": width}, "layer": "above"}


@functools.cache
def _polygon_path(radius: int) -> str:
    """The SVG path of a 24-gon of ``radius`` pixels around (0, 0)."""
    angles = np.linspace(0.0, 2 * np.pi, 25)[:-1]
    corners = " L".join(f"{radius * math.cos(a):.2f},{radius * math.sin(a):.2f}" for a in angles)
    return f"M{corners} Z"


def front_layers(exploration: Exploration, *, mode: str, x: str, y: str, log=()) -> dict:
    """:func:`slider_layers` of the front figure drawn with these axes."""
    xs, ys, _, _ = axis_values(exploration, mode, x, y)
    log_x, log_y = log_axes(exploration, mode, x, y, log)
    return slider_layers(exploration, xs, ys, log=(log_x, log_y))


def layers_patch(layers: dict):
    """A Patch of the front figure that replaces only what moves with the sliders (its
    layout shapes and annotations); the traces are left alone."""

    patch = Patch()
    for key, value in layers.items():
        patch["layout"][key] = value
    return patch


def layers_digest(layers: dict) -> str:
    """A short fingerprint of the slider layers: equal fingerprints, nothing to redraw."""

    return hashlib.sha1(json.dumps(layers, sort_keys=True).encode()).hexdigest()[:16]


AXES_SHOWN = 12   # past a dozen objectives the parallel coordinates collapse to this many


def shown_axes(preferences) -> np.ndarray:
    """The objectives the parallel coordinates draw, as indices: all of them up to
    :data:`AXES_SHOWN`; past that, the focus objectives first, then the others in order, up
    to :data:`AXES_SHOWN` (fixed for a view: a slider move never changes the axes).

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> shown_axes(NS(objectives=tuple("abc"), focus=("c",))).tolist()
    [0, 1, 2]
    >>> names = tuple(f"m{k}" for k in range(20))
    >>> shown_axes(NS(objectives=names, focus=("m15",))).tolist()[:3]
    [15, 0, 1]
    """
    names = list(preferences.objectives)
    if len(names) <= AXES_SHOWN:
        return np.arange(len(names))
    focus = [names.index(f) for f in (preferences.focus or ()) if f in names]
    rest = [k for k in range(len(names)) if k not in focus]
    return np.array((focus + rest)[:AXES_SHOWN], dtype=np.intp)


def parallel_figure(exploration: Exploration, ranges=()) -> dict:
    """Parallel coordinates of every chosen objective in CDF space (top of each axis = best):
    the non-dominated rows passing the constraints in grey, the pick in red, and each range
    constraint ``(column, low, high)`` in ``ranges`` (the view's, in raw units) as a band on
    its axis (:func:`parallel_axes.range_bands`). Axis names are shortened and wrapped
    (:func:`parallel_axes.axis_labels`); the hover shows them in full.

    Drawn as one SVG line trace for the front rather than a WebGL ``parcoords``; the pick's
    line is a layout shape, so a slider move redraws only that line (:func:`parallel_patch`).
    """
    problem = exploration.problem
    axes = shown_axes(problem.preferences)
    names = [problem.preferences.objectives[k] for k in axes]
    positions = np.flatnonzero(problem.eligible & exploration.front)
    short, metric_title = distinct_labels(names)   # HELM: "IMDB", not "... ECE (10-bin)"
    labels = parallel_axes.axis_labels(short)
    full = [plot_text(n) for n in names]
    xs, ys, text, custom = [], [], [], []
    for i in positions:
        xs.extend(labels + [None])
        ys.extend(problem.u[i, axes].tolist() + [None])
        text.extend([plot_text(problem.ids[i])] * len(names) + [None])
        custom.extend(full + [None])
    hidden = len(problem.preferences.objectives) - len(axes)
    front = {"type": "scatter", "mode": "lines", "name": "non-dominated rows passing the constraints",
             "x": xs, "y": ys, "text": text, "customdata": custom,
             "hovertemplate": "%{text}<br>%{customdata}: top %{y:.1%}<extra></extra>",
             "line": {"color": "rgba(110,130,160,0.35)", "width": 1}}
    lines = max(label.count("<br>") for label in labels) + 1 if labels else 1
    bands = parallel_axes.range_bands(problem, axes, labels, ranges)
    return {
        "data": [front, *bands],
        # the legend sits above the plot, clear of the axis names under it; the notes on
        # hidden axes and on the shared metric above it, on the left
        "layout": {"margin": {"l": 60, "r": 30, "t": 36 + 20 * bool(hidden) + 20 * bool(metric_title),
                              "b": 16 + 15 * lines},
                   "height": 340,
                   "template": "plotly_white", "hovermode": "closest",
                   "legend": {"orientation": "h", "y": 1.0, "yanchor": "bottom",
                              "x": 1, "xanchor": "right"},
                   "shapes": [parallel_pick_line(exploration)],
                   # dragging a range on an axis is a constraint (explore/brushing.py)
                   "dragmode": "select", "selectdirection": "any",
                   # a category axis, not tickvals/ticktext: Plotly compares those arrays by
                   # identity and would redraw every line on each slider move. 0.4 of an axis
                   # spacing either side: a box dragged around the first axis (25 px each
                   # side, 12 axes) starts inside the plot, not on the y axis's margin, where
                   # a drag selects nothing (explore/brushing.py)
                   "xaxis": {"type": "category", "showgrid": True,
                             "range": [-0.4, len(names) - 0.6], "autorange": False,
                             "tickangle": 0, "automargin": True,
                             "tickfont": {"size": parallel_axes.tick_size(len(names))}},
                   "annotations": ([] if not hidden else [{
                       "xref": "paper", "yref": "paper", "x": 0,
                       "y": 1.12 + (0.06 if metric_title else 0),
                       "showarrow": False, "xanchor": "left", "yanchor": "bottom",
                       "text": f"{len(names)} of {len(names) + hidden} objectives shown (the "
                               "focus first); the pick card lists them all"}]) + ([] if not
                       metric_title else [{   # HELM's "<Task> - ECE (10-bin)": named once
                           "xref": "paper", "yref": "paper", "x": 0, "y": 1.12,
                           "showarrow": False, "xanchor": "left", "yanchor": "bottom",
                           "font": {"size": 11}, "text": plot_text(metric_title)}]),
                   "yaxis": {"title": {"text": "u (share of rows better)"}, "type": "linear",
                             "range": [1.02, -0.02], "autorange": False, "tickformat": ".0%"}},
    }


def parallel_pick_line(exploration: Exploration) -> dict:
    """The pick's line in the parallel-coordinates figure, as a layout shape (a path through
    its u on every axis, x being the objective's index on the category axis) that is listed
    in the legend."""
    problem = exploration.problem
    pick = exploration.pick
    values = problem.u[pick, shown_axes(problem.preferences)]
    path = " ".join(f"{'M' if k == 0 else 'L'}{k},{float(u):.6g}" for k, u in enumerate(values))
    return {"type": "path", "path": path, "xref": "x", "yref": "y", "layer": "above",
            "line": {"color": PICK_COLOR, "width": 3}, "showlegend": True,
            "name": "the pick"}


def parallel_patch(exploration: Exploration):
    """A Patch that replaces only the pick's line."""

    patch = Patch()
    patch["layout"]["shapes"] = [parallel_pick_line(exploration)]
    return patch
