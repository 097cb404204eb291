"""Figures of the posets page, built as plain plotly dicts.

Depth per task (sorted bars, the most central and the most outlying in colour), the Hasse
diagram of one task's poset (methods as nodes, better above, cover pairs as line shapes) and
the matrix of how often each method is above each other across tasks.
"""

from __future__ import annotations

from copa_dash.services.posets import DepthView, HasseLayout, beats, depth_order, extreme_tasks
from copa_dash.ui.common.empty import empty_figure
from copa_dash.ui.common.plot_text import plot_text
from copa_dash.ui.common.short_labels import (
    apart_labels,
    left_out_sentence,
    shared_ends,
    unique_short_labels,
)

CENTRAL = "#2ca02c"
OUTLYING = "#d62728"
OTHER = "#8da0b3"
EMPTY = empty_figure(120)


def depth_figure(view: DepthView) -> dict:
    """Horizontal bars of the depth of each task's poset, the deepest on top."""
    order = depth_order(view)
    central, outlying = extreme_tasks(view)
    tasks = [view.tasks[i] for i in order]
    depths = [float(view.depths[i]) for i in order]
    colors = [CENTRAL if t in central else OUTLYING if t in outlying else OTHER for t in tasks]
    shared = [int(view.counts[view.poset_index[i]]) for i in order]
    hover = [f"<b>{plot_text(t)}</b><br>depth {d:.4f}<br>"
             + ("its poset is observed on " + f"{s} tasks" if s > 1 else "a poset seen once")
             for t, d, s in zip(tasks, depths, shared)]
    names = [plot_text(t) for t in tasks]
    values = [f"{d:.3f}" for d in depths]
    trace = {"type": "bar", "orientation": "h", "x": depths, "y": names,
             "marker": {"color": colors}, "hovertext": hover, "hoverinfo": "text",
             "cliponaxis": False, "name": "depth"}
    data = [trace]
    bound = 0.0 if view.exact else float(view.error_bound)
    if view.exact:
        trace.update(text=values, textposition="outside")
    else:
        trace["error_x"] = {"type": "constant", "value": bound, "color": "#555"}
        # each value beside its whisker's end: Plotly writes a bar's own text at the bar's
        # end, under the whisker (0.080 was crossed out by its error bar)
        data.append({"type": "scatter", "mode": "text", "x": [d + bound for d in depths],
                     "y": names, "text": values, "textposition": "middle right",
                     "hoverinfo": "skip", "cliponaxis": False, "name": "depth values"})
    height = max(260, 26 * len(tasks) + 90)
    top = max(depths) + bound
    return {"data": data, "layout": {
        "template": "plotly_white", "height": height,
        "margin": {"l": 10, "r": 40, "t": 30, "b": 40},
        "xaxis": {"title": {"text": "ufg depth (1 = most central)"},
                  # every depth 0 (no ufg set): the unit range, not a nano-scale axis
                  "range": [0, top * 1.15 if top > 0 else 1.0]},
        # the deepest on top; a range, not autorange: the value labels' text trace would pad it
        # by a bar's height above the first bar and below the last
        "yaxis": {"range": [len(tasks) - 0.5, -0.5], "autorange": False, "automargin": True,
                  "type": "category"},
        "title": {"text": (f"{len(tasks)} tasks, {view.n_ufg_sets} ufg sets"
                           + ("" if view.exact else f", within ±{view.error_bound:.3g}")),
                  "font": {"size": 13}, "x": 0.01},
        "showlegend": False}}


#: characters of node label one Hasse diagram has room for across its x range: half the
#: results panel at 1200 px and up (about 380 px of plot at 1400 px, 12 px text, ~6.7 px a
#: character); below 1200 px the two diagrams stand one above the other (assets/posets.css)
HASSE_LABEL_CHARS = 56


def _fits(lengths, xs, per_unit: float, step: int) -> bool:
    """Whether labels of ``lengths`` centred at ``xs`` (sorted) clear the ``step``-th next
    label of their row by a character: neighbours in a row are ``step`` members apart."""
    return all((lengths[k] + lengths[k + step]) / 2 + 1 <= (xs[k + step] - xs[k]) * per_unit
               for k in range(len(lengths) - step))


#: where a Hasse label sits: above or below its node, next to it or a line further out. A level
#: too crowded for one row staggers its labels over two rows, then four (issue 33: ten AMLB
#: methods on a level read "Au…Gluon" over two rows); neighbours in a row are then 2 or 4
#: members apart
ROWS = ("top center", "bottom center", "top center, outer", "bottom center, outer")

#: pixels between a label's row and the outer row beyond it (a 12 px font's 14 px box, and room)
ROW_STEP_PX = 18
#: a Hasse node's marker size (px)
NODE_SIZE = 16


def hasse_labels(layout: HasseLayout, *, room: int = HASSE_LABEL_CHARS
                 ) -> tuple[list[str], list[str]]:
    """Node labels that do not run into each other, and the row (:data:`ROWS`) each sits in.

    The diagram's x range (the widest level plus margins) holds ``room`` characters, so two
    neighbouring nodes ``d`` apart have ``d * room / range`` characters between their
    centres. A level whose labels do not fit there in one row staggers them: every other
    label below its node (neighbours in a row two members apart), then over four rows (two
    above, two below: four apart); names that still do not fit are shortened to the part
    that tells them apart (the hover keeps the full name), the head and tail every method's
    name shares left out first (:func:`hasse_labels_and_note`).
    """
    labels, positions, _ = hasse_labels_and_note(layout, room=room)
    return labels, positions


def _level_rows(lengths, xs, per_unit: float) -> int:
    """How many rows (1, 2 or 4) a level's labels of ``lengths`` at ``xs`` need; 4 when even
    four do not hold them whole."""
    return next((rows for rows in (1, 2) if _fits(lengths, xs, per_unit, rows)), 4)


def hasse_labels_and_note(layout: HasseLayout, *, room: int = HASSE_LABEL_CHARS
                          ) -> tuple[list[str], list[str], str]:
    """:func:`hasse_labels` and a note saying which shared head or tail the labels leave
    out ("" when none do): AMLB's ten methods all end in ``_4h8c_gp3_2022_jmlr``, and a
    level of them read "Au…_jmlr", "GA…_jmlr", ... (issue 33)."""
    labels, positions = list(layout.methods), [ROWS[0]] * len(layout.methods)
    head, tail = shared_ends(layout.methods)
    kept = [m[len(head):len(m) - len(tail)] for m in layout.methods]
    width = max((layout.level.count(lev) for lev in set(layout.level)), default=1)
    per_unit = room / (width + 0.6)                 # hasse_figure's x range
    left_out = False
    for lev in set(layout.level):
        members = sorted((j for j, level in enumerate(layout.level) if level == lev),
                         key=lambda j: layout.x[j])
        xs = [layout.x[j] for j in members]
        if _fits([len(layout.methods[j]) for j in members], xs, per_unit, 1):
            continue
        left_out |= bool(head or tail)      # what every name shares tells none apart
        rows = _level_rows([len(kept[j]) for j in members], xs, per_unit)
        short = [kept[j] for j in members]
        if not _fits([len(t) for t in short], xs, per_unit, rows):
            # a label may use the room up to the next node of its row
            gap = min((b - a for a, b in zip(xs, xs[rows:])), default=width + 0.6)
            short = unique_short_labels(short, limit=max(4, int(gap * per_unit) - 2))
        for rank, (j, label) in enumerate(zip(members, short)):
            labels[j], positions[j] = label, ROWS[rank % rows]
    if not left_out:
        return labels, positions, ""
    # every level without the shared parts, so no label carries what the note says is left out
    labels = [kept[j] if label == layout.methods[j] else label for j, label in enumerate(labels)]
    said = [f"starts with '{head}'"] * bool(head) + [f"ends in '{tail}'"] * bool(tail)
    return labels, positions, (f"Every method's name {' and '.join(said)}, left out of the "
                               "labels; hover a node for its full name.")


def _label_traces(layout: HasseLayout, labels, positions, per_px: float) -> list[dict]:
    """The nodes' labels beyond the first rows (:data:`ROWS`' outer two), as a text trace of
    its own a line further from the node: a scatter's text sits only next to its marker."""
    outer = [k for k, row in enumerate(positions) if row.endswith("outer")]
    if not outer:
        return []
    # a text-only point's label sits by the point itself, the nodes' labels past the marker's
    # radius: the outer row is one line beyond the node's own label
    step = (NODE_SIZE / 2 + ROW_STEP_PX) * per_px
    return [{"type": "scatter", "mode": "text", "x": [layout.x[k] for k in outer],
             "y": [-layout.level[k] + (step if positions[k].startswith("top") else -step)
                   for k in outer],
             "text": [plot_text(labels[k]) for k in outer],
             "textposition": [positions[k].split(",")[0] for k in outer],
             "hoverinfo": "skip", "name": "method labels", "cliponaxis": False}]


def hasse_figure(layout: HasseLayout, *, title: str, color: str) -> dict:
    """One poset's Hasse diagram: a node per method, better methods above, a line per cover
    pair (line shapes under the nodes).

    Parameters
    ----------
    layout : HasseLayout
        Node positions and cover pairs of the poset.
    title : str
        Plain text (it may hold a task name); it is shown as typed, not as markup.
    color : str
        Colour of the nodes.

    Returns
    -------
    dict
        The plotly figure.
    """
    n_levels = max(layout.level) + 1
    xs, ys = list(layout.x), [-lev for lev in layout.level]
    shapes = [{"type": "line", "layer": "below", "x0": xs[i], "y0": ys[i], "x1": xs[j],
               "y1": ys[j], "line": {"color": "#555", "width": 1.5}} for i, j in layout.edges]
    below = {i: [layout.methods[j] for a, j in layout.edges if a == i]
             for i in range(len(layout.methods))}
    above = {j: [layout.methods[i] for i, b in layout.edges if b == j]
             for j in range(len(layout.methods))}
    hover = [f"<b>{plot_text(m)}</b><br>level {lev + 1} from the top"
             + (f"<br>covers {plot_text(', '.join(below[k]))}" if below[k] else "")
             + (f"<br>covered by {plot_text(', '.join(above[k]))}" if above[k] else "")
             for k, (m, lev) in enumerate(zip(layout.methods, layout.level))]
    width = max((layout.level.count(lev) for lev in range(n_levels)), default=1)
    labels, positions, note = hasse_labels_and_note(layout)
    outer = any(row.endswith("outer") for row in positions)
    # two more label rows a level where a level staggers its labels over four
    height = max(260, (70 + 2 * ROW_STEP_PX * outer) * n_levels + 110)
    margin = {"l": 20, "r": 40, "t": 50 + ROW_STEP_PX * outer,
              "b": (50 if note else 20) + ROW_STEP_PX * outer}
    per_px = n_levels / (height - margin["t"] - margin["b"])     # the y range's span
    return {"data": [{
        "type": "scatter", "mode": "markers+text", "x": xs, "y": ys,
        "text": [plot_text(m) if not row.endswith("outer") else ""
                 for m, row in zip(labels, positions)],
        "textposition": [row.split(",")[0] for row in positions],
        "marker": {"size": NODE_SIZE, "color": color, "line": {"color": "#fff", "width": 1.5}},
        "hovertext": hover, "hoverinfo": "text", "name": "methods", "cliponaxis": False},
        *_label_traces(layout, labels, positions, per_px)],
        "layout": {
            "template": "plotly_white", "height": height,
            "margin": margin, "shapes": shapes,
            # the tool bar stands upright at the right edge: across the top it covered the
            # title, which names the task ("Most central: P2 · mnist_vae (depth 0.649)")
            "modebar": {"orientation": "v"},
            "title": {"text": plot_text(title), "font": {"size": 13}, "x": 0.01},
            "xaxis": {"visible": False, "range": [-width / 2 - 0.3, width / 2 + 0.3]},
            "yaxis": {"visible": False, "range": [-(n_levels - 1) - 0.4, 0.6]},
            # the head or tail the labels leave out, said once under the diagram
            "annotations": [{"text": "<br>".join(plot_text(line) for line in
                                                  note.split(", ", 1)),
                             "xref": "paper", "yref": "paper",
                             "x": 0, "y": 0, "yshift": -14, "xanchor": "left",
                             "yanchor": "top", "showarrow": False,
                             "font": {"size": 11, "color": "#52606d"}}] if note else [],
            "showlegend": False}}


#: characters of a method's name on the beats heatmap's axes
BEATS_LABEL_CHARS = 24


def beats_figure(view: DepthView) -> dict:
    """Heatmap: row method above column method on how many of the kept tasks."""
    counts = beats(view).tolist()
    n_tasks = len(view.tasks)
    names = [str(m) for m in view.methods]
    # without the head or tail every method shares (AMLB's "_4h8c_gp3_2022_jmlr" took 19 of
    # each label's characters), said once under the title; the hover keeps the full names
    short, note = apart_labels(names, limit=BEATS_LABEL_CHARS, noun="method")
    labels = [plot_text(m) for m in short]
    z = [[None if i == j else counts[i][j] for j in range(len(names))]
         for i in range(len(names))]
    text = [["" if i == j else str(counts[i][j]) for j in range(len(names))]
            for i in range(len(names))]
    hover = [[("" if i == j else f"<b>{plot_text(a)}</b> above <b>{plot_text(b)}</b> on "
               f"{counts[i][j]} of {n_tasks} tasks<br>{plot_text(b)} above {plot_text(a)}: "
               f"{counts[j][i]}; neither: {n_tasks - counts[i][j] - counts[j][i]}")
              for j, b in enumerate(names)] for i, a in enumerate(names)]
    size = max(320, 46 * len(names) + 160)
    return {"data": [{
        "type": "heatmap", "z": z, "x": labels, "y": labels, "text": text,
        "texttemplate": "%{text}", "hovertext": hover, "hoverinfo": "text",
        "colorscale": [[0, "#f4f8fc"], [1, "#1f4e8c"]], "zmin": 0, "zmax": max(n_tasks, 1),
        "colorbar": {"title": {"text": "tasks"}}, "xgap": 2, "ygap": 2}],
        "layout": {
            "template": "plotly_white", "height": size,
            "margin": {"l": 10, "r": 10, "t": 56 if note else 40, "b": 60},
            "title": {"text": f"Row above column: tasks (of {n_tasks})" + (
                          f"<br><span style='font-size:11px;color:#52606d'>"
                          f"{plot_text(left_out_sentence(note, 'of the names'))}</span>"
                          if note else ""),
                      "font": {"size": 13}, "x": 0.01},
            # upright names: one column is narrower than a name, so at an angle the names of
            # neighbouring columns ran into each other (issue 33, F13)
            "xaxis": {"automargin": True, "tickangle": -90 if len(names) > 4 else 0},
            "yaxis": {"autorange": "reversed", "automargin": True}}}
