"""The parallel-coordinates figure's axis names and the bands of its range constraints.

Long column names ("Pair Classification Average (3 datasets)") printed in full, or at an
angle, run into each other and into the legend once there are more than a few axes
(issue 33, F12). :func:`axis_labels` gives each axis a label of at most a few short lines
whose width shrinks with the number of axes; the full name stays in the hover.

A range constraint (typed in the Constraints boxes or dragged on an axis) is drawn on its axis
as a band spanning the u of the rows it keeps (F21), so the user sees what is brushed and can
drag it again. A drag that held nothing leaves a note on the figure (:func:`brush_note`).
"""

from __future__ import annotations

import math

import numpy as np

from copa_dash.ui.common.plot_text import plot_text
from copa_dash.ui.common.short_labels import unique_short_labels

__all__ = ["LABEL_LINES", "axis_labels", "brush_note", "line_width", "range_bands", "tick_size",
           "wrap_words"]

LABEL_LINES = 3
_BREAK_AFTER = frozenset(" -_/")
BAND_COLOR = "rgba(255,160,0,0.45)"


def line_width(n_axes: int) -> int:
    """Characters per label line for ``n_axes`` axes (about 90 characters share the width:
    the figure is about 510 px wide at a 1024 px window, and :func:`tick_size` letters).

    >>> line_width(3), line_width(10), line_width(30)
    (30, 9, 8)
    """
    return max(8, min(36, 90 // max(n_axes, 1)))


def tick_size(n_axes: int) -> int:
    """Font size of the axis names: 12, or 10 from 7 axes on, so that at a 1024 px window
    two neighbouring names keep apart (tests/e2e/test_layout_widths.py).

    >>> tick_size(5), tick_size(10)
    (12, 10)
    """
    return 12 if n_axes < 7 else 10


def wrap_words(text: str, width: int) -> list[str]:
    """``text`` cut into lines of about ``width`` characters after spaces, ``-``, ``_`` or
    ``/``; a word longer than the line is cut where it reaches ``width``.

    >>> wrap_words("Pair Classification Average (3 datasets)", 14)
    ['Pair', 'Classification', 'Average (3', 'datasets)']
    >>> wrap_words("group20-acc", 8)
    ['group20-', 'acc']
    """
    words, word = [], ""
    for ch in text:
        word += ch
        if ch in _BREAK_AFTER:
            words.append(word)
            word = ""
    if word:
        words.append(word)
    lines: list[str] = []
    line = ""
    for word in words:
        while len(word.rstrip()) > width:          # a word longer than a line: cut it
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:width])
            word = word[width:]
        if line and len((line + word).rstrip()) > width:
            lines.append(line)
            line = ""
        line += word
    if line:
        lines.append(line)
    return [part.strip() for part in lines if part.strip()]


def axis_labels(names) -> list[str]:
    """One label per axis name, distinct, of at most :data:`LABEL_LINES` lines joined by
    ``<br>`` (names go through :func:`plot_text` first, so they show as typed).

    A name longer than the lines hold is shortened first (head "…" tail, where names differ
    when their shortened forms would collide), then wrapped.

    >>> axis_labels(["acc", "Pair Classification Average (3 datasets)"])
    ['acc', 'Pair Classification Average (3<br>datasets)']
    """
    names = [str(n) for n in names]
    width = line_width(len(names))
    short = unique_short_labels(names, limit=width * LABEL_LINES - 2)
    labels = []
    for label in short:
        lines = wrap_words(label, width)
        if len(lines) > LABEL_LINES:               # wrapping wasted room: cut the words
            lines = [label[i:i + width] for i in range(0, len(label), width)][:LABEL_LINES]
        labels.append("<br>".join(plot_text(line) for line in lines))
    return labels


def _band(problem, k: int, low, high) -> tuple[float, float] | None:
    """The (smallest, largest) u on objective ``k`` among the scored rows whose raw value lies
    in [low, high] (a missing bound is open), None when no row does."""
    raw = np.asarray(problem.raw, dtype=float)[:, k]
    keep = np.isfinite(raw)
    if low is not None and math.isfinite(float(low)):
        keep &= raw >= float(low)
    if high is not None and math.isfinite(float(high)):
        keep &= raw <= float(high)
    if not keep.any():
        return None
    u = np.asarray(problem.u, dtype=float)[keep, k]
    return float(u.min()), float(u.max())


def range_bands(problem, axes, labels, ranges) -> list[dict]:
    """One trace per range constraint on a drawn axis: a thick translucent bar on the axis
    from the smallest to the largest u of the rows the range keeps.

    Parameters
    ----------
    problem : SelectionProblem
        The view's rows: raw values and u per objective.
    axes : sequence of int
        The drawn objectives (indices into ``problem.preferences.objectives``), left to right.
    labels : sequence of str
        The category label of each drawn axis (:func:`axis_labels`).
    ranges : iterable of (column, low, high)
        The view's range constraints in the objective's own units; ``None`` is an open bound.
        Columns that are not drawn axes (constraints on other columns) are skipped.

    Returns
    -------
    list of dict
        Plotly scatter traces; hovering one shows the objective's full name and the range.
    """
    objectives = list(problem.preferences.objectives)
    drawn = {objectives[k]: (k, label) for k, label in zip(axes, labels)}
    traces = []
    for column, low, high in ranges or ():
        if column not in drawn or (low is None and high is None):
            continue
        k, label = drawn[column]
        band = _band(problem, k, low, high)
        if band is None:
            continue
        bounds = f"{'' if low is None else f'{low:.6g}'} to {'' if high is None else f'{high:.6g}'}"
        traces.append({
            "type": "scatter", "mode": "lines", "x": [label, label], "y": list(band),
            "name": "a range constraint", "legendgroup": "ranges",
            "showlegend": not traces,
            "customdata": [[plot_text(column), bounds]] * 2,
            "hovertemplate": "%{customdata[0]}: kept from %{customdata[1]}<extra></extra>",
            "line": {"color": BAND_COLOR, "width": 14}})
    return traces


NOTE_WIDTH = 90   # characters per line of a brush note


def brush_note(text: str) -> dict:
    """The note a brush that held nothing leaves on the figure (explore/brushing.py): over the
    top of the plot, boxed, in lines of about :data:`NOTE_WIDTH` characters, until the figure
    is drawn again.

    >>> brush_note("a < b " * 20)["text"].count("<br>")
    1
    """
    lines = wrap_words(text, NOTE_WIDTH)
    return {"xref": "paper", "yref": "paper", "x": 0.5, "y": 0.98, "xanchor": "center",
            "yanchor": "top", "showarrow": False, "align": "left", "name": "brush-note",
            "text": "<br>".join(plot_text(line) for line in lines),
            "bgcolor": "rgba(255,248,225,0.95)", "bordercolor": "rgba(200,120,0,0.9)",
            "borderpad": 6, "font": {"size": 12}}
