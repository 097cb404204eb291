"""The bump chart of the rankings page, built as a plain plotly dict.

One column per criterion, one line per entry, the rank on the y axis with 1 on top. The
entries whose rank moves most (and the pinned ones) are drawn in colour and named at their
right end; the others are thin grey lines. Hover shows the entry's rank under every criterion
and its values.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from copa_dash.services.rankings import ChartRows, RankingView
from copa_dash.ui.common.plot_text import plot_text
from copa_dash.ui.common.short_labels import ApartLabels, apart_labels, left_out_sentence

HIGHLIGHT_COLORS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
                    "#e377c2", "#17becf", "#bcbd22", "#7f7f7f")
GREY = "rgba(120,130,145,0.45)"
LOG_AXIS_FROM = 60      # ranks above this use a log axis, so the top stays readable
GREY_LABELS_UP_TO = 40  # name every line when the chart has at most this many
LABEL_PX = 13           # vertical room of one label
# characters of an entry's name beside a line: with 34 the two side margins took 510 px and
# left 7 criteria about 150 px at a 1024 px window (issue 33, F20)
BUMP_LABEL_CHARS = 24


def bump_labels(names, /, *, limit: int = BUMP_LABEL_CHARS) -> list[str]:
    """The names beside the bump chart's lines: short, and different for different names.

    A name's path (``hf/compressed-llm/`` in ``hf/compressed-llm/llama-2-13b-awq@8bit_128g``)
    is left out when what follows the last ``/`` names no other entry: on DecodingTrust the
    paths took 14-18 of the 24 characters, and ``llama-2-13b-chat-awq@8bit_128g`` and
    ``llama-2-13b-awq@8bit_128g`` both became ``hf/com…llam…8bit_128g``, told apart only by
    a " (2)" (issue 33). What is left is shortened by
    :func:`~copa_dash.ui.common.short_labels.unique_short_labels`, which keeps the stretch
    where colliding names differ. The full name is in the line's hover.

    Examples
    --------
    >>> bump_labels(["hf/compressed-llm/llama-2-13b-chat-awq@8bit_128g",
    ...              "hf/compressed-llm/llama-2-13b-awq@8bit_128g", "a/GPT-4", "b/GPT-4"])
    ['llama-…chat-awq@8…t_128g', 'llama-…awq@8bit_128g', 'a/GPT-4', 'b/GPT-4']
    """
    return bump_labels_and_note(names, limit=limit).labels


def bump_labels_and_note(names, *, limit: int = BUMP_LABEL_CHARS) -> ApartLabels:
    """:func:`bump_labels` and what they leave out that every name shares (a tail such as
    AMLB's ``_4h8c_gp3_2022_jmlr``: :func:`~copa_dash.ui.common.short_labels.apart_labels`),
    said once under the chart; "" when nothing is."""
    names = [str(n) for n in names]
    tails = [n.rsplit("/", 1)[-1] for n in names]
    count = Counter(tails)
    return apart_labels([t if t and count[t] == 1 else n for n, t in zip(names, tails)],
                        limit=limit, noun="name")


def criterion_label(label: str) -> str:
    """Readable column title: ``copa:inf`` -> ``COPA p=inf``, ``delta:ERM`` -> ``Δ vs ERM``."""
    kind, _, argument = label.partition(":")
    if kind == "copa":
        return f"COPA p={argument}"
    if kind == "delta":
        return f"Δ vs {argument}" if argument else "Δ (vs ideal)"
    if kind == "obj":
        return argument
    return {"mean": "mean (raw)", "norm": "mean of norm"}.get(label, label)


def hover_texts(view: RankingView, position: int, ranks: np.ndarray) -> list[str]:
    """One hover text per criterion for the entry at ``position``."""
    n = len(view.ids)
    parts = [f"{criterion_label(c)} {ranks[position, j]}" for j, c in enumerate(view.criteria)]
    rank_line = "<br>".join(" · ".join(plot_text(p) for p in parts[k:k + 4])
                            for k in range(0, len(parts), 4))
    values = "<br>".join(f"{plot_text(o)} ({d}): {view.raw[position, k]:.4g}"
                         for k, (o, d) in enumerate(zip(view.objectives, view.directions)))
    members = ""
    if view.group_column and view.n_members[position] > 1:
        members = f"<br>mean of {view.n_members[position]} rows"
    head = f"<b>{plot_text(view.ids[position])}</b>"
    return [f"{head}<br>rank {ranks[position, j]} of {n} under {plot_text(criterion_label(c))}"
            f"<br>ranks: {rank_line}<br>{values}{members}"
            for j, c in enumerate(view.criteria)]


def _spread_labels(values: list[float], gap: float, limit: float) -> list[float]:
    """Label positions (axis units, larger = lower) at least ``gap`` apart: push down from
    the top, then push back up from ``limit`` (the bottom of the axis)."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = list(values)
    last = -np.inf
    for i in order:
        out[i] = max(values[i], last + gap)
        last = out[i]
    last = limit + gap
    for i in reversed(order):
        out[i] = min(out[i], last - gap)
        last = out[i]
    return out


def _side_labels(labels, *, x: int, anchor: str, to_axis, gap: float,
                 limit: float) -> list[dict]:
    """Annotations for ``labels`` = [(rank, text, color, size)] at column ``x``."""
    ys = _spread_labels([to_axis(rank) for rank, *_ in labels], gap, limit)
    return [{"x": x, "y": y, "text": plot_text(text), "showarrow": False, "xanchor": anchor,
             "yanchor": "middle", "xshift": -34 if anchor == "right" else 12,
             "font": {"color": color, "size": size}}
            for y, (_, text, color, size) in zip(ys, labels)]


def bump_figure(view: RankingView, rows: ChartRows, *, ties: str = "break") -> dict:
    """The bump chart of ``rows.shown`` (see module notes)."""
    ranks = view.ranks(ties)
    n_criteria = len(view.criteria)
    xs = list(range(n_criteria))
    highlighted = {int(i) for i in rows.highlighted}
    pinned = {int(i) for i in rows.pinned}
    grey = [int(i) for i in rows.shown if int(i) not in highlighted]
    traces = []
    gx, gy, gtext = [], [], []
    for i in grey:
        gx += xs + [None]
        gy += ranks[i].tolist() + [None]
        gtext += hover_texts(view, i, ranks) + [""]
    if grey:
        traces.append({"type": "scatter", "mode": "lines+markers", "name": "other entries",
                       "x": gx, "y": gy, "hovertext": gtext, "hoverinfo": "text",
                       "line": {"color": GREY, "width": 1.2}, "marker": {"color": GREY, "size": 5},
                       "connectgaps": False})
    max_rank = int(ranks[rows.shown].max()) if len(rows.shown) else 1
    log_axis = max_rank > LOG_AXIS_FROM
    # names at the right end only: with both ends named, the 200 + 180 px of side margins
    # left 7 criteria about 210 px in the 590 px chart at a 1024 x 768 window and their
    # names turned upright (issue 33); the right end is the last criterion, usually the one
    # the top N is chosen under, and every line's hover names it at each criterion
    labels = {n_criteria - 1: []}
    order = sorted(highlighted, key=lambda i: ranks[i, 0])
    shown = [int(i) for i in rows.shown]    # names that share a head and tail stay distinct
    named = bump_labels_and_note(view.ids[shown])
    label_of = dict(zip(shown, named.labels))
    for n, i in enumerate(order):
        color = HIGHLIGHT_COLORS[n % len(HIGHLIGHT_COLORS)]
        label = label_of[i] + (" (pinned)" if i in pinned else "")
        traces.append({"type": "scatter", "mode": "lines+markers", "name": plot_text(label),
                       "x": xs, "y": ranks[i].tolist(), "hovertext": hover_texts(view, i, ranks),
                       "hoverinfo": "text", "line": {"color": color, "width": 3.2},
                       "marker": {"color": color, "size": 9}})
        for x, side in labels.items():
            side.append((int(ranks[i, x]), label_of[i], color, 12))
    if not log_axis and len(rows.shown) <= GREY_LABELS_UP_TO:
        for i in grey:
            for x, side in labels.items():
                side.append((int(ranks[i, x]), label_of[i], "#7b8794", 10))
    yaxis = {"zeroline": False, "showgrid": True, "gridcolor": "#eef1f4", "ticks": "outside"}
    title = "rank under each criterion (1 = best, on top)"
    if log_axis:
        top, bottom = np.log10(0.8), np.log10(max_rank * 1.15)
        yaxis.update(type="log", range=[bottom, top],
                     tickvals=[v for v in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)
                               if v <= max_rank * 1.15])
        title = "rank under each criterion (1 = best, on top; log scale)"
        to_axis = np.log10
    else:
        top, bottom = 0.3, max_rank + 0.7
        yaxis.update(range=[bottom, top], dtick=1 if max_rank <= 30 else 5)
        to_axis = float
    if named.note:      # the part every name shares, left out of the names at the right
        title += f"<br>{plot_text(left_out_sentence(named.note, 'of the names'))}"
    height = 660 if log_axis else int(min(1400, max(520, 20 * max_rank + 120)))
    gap = LABEL_PX * abs(bottom - top) / max(100, height - 120)   # 120 px of margins
    annotations = []
    for x, side in labels.items():
        annotations += _side_labels(side, x=x, anchor="left", to_axis=to_axis, gap=gap,
                                    limit=bottom)
    return {
        "data": traces,
        "layout": {
            "template": "plotly_white", "height": height, "hovermode": "closest",
            "hoverlabel": {"align": "left"},
            "xaxis": {"tickvals": xs,
                      # on two lines ("COPA<br>p=1"), so a narrow chart need not turn them
                      # upright into the title (issue 33, F20)
                      "ticktext": ["<br>".join(plot_text(part) for part in
                                               criterion_label(c).rsplit(" ", 1))
                                   for c in view.criteria],
                      "range": [-0.08, n_criteria - 1 + 0.08], "side": "top",
                      "automargin": True,
                      "showgrid": True, "gridcolor": "#d9e2ec", "zeroline": False},
            "yaxis": yaxis,
            "margin": {"l": 48, "r": 180, "t": 60, "b": 66 if named.note else 48},
            "showlegend": False,    # every coloured line is named at its right end
            # the title under the chart: above it, criterion names turned upright in a
            # narrow window printed over it
            "annotations": annotations + [{
                "text": title, "font": {"size": 13}, "xref": "paper", "yref": "paper",
                "x": 0.5, "y": 0, "yshift": -10, "xanchor": "center", "yanchor": "top",
                "showarrow": False}],
            "uirevision": ",".join(view.criteria),
        },
    }
