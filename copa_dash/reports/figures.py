"""The report's figures as Plotly figures: the front of a decision, the radar and the fronts
of a systems comparison.

The project keeps Plotly in the UI layer; the report is the exception because it is a
document written by the CLI and the notebook API as well as by the pages, none of which may
import the UI. These builders only draw (no data access, no Dash), like the pages'
``figures.py``. Every user string (ids, system and column names) is HTML-escaped before it
reaches Plotly, whose text accepts a few tags (``<b>``, ``<a href>``), so a name is shown as
typed and can never become markup.
"""

from __future__ import annotations

from html import escape

import numpy as np
import plotly.graph_objects as go

WIDTH, HEIGHT = 860, 520
GREY, BLUE, RED, ORANGE = "#b8bec6", "#1f5fa8", "#c62828", "#e08a00"
PALETTE = ("#1f5fa8", "#c62828", "#2e7d32", "#e08a00", "#6a1b9a", "#00838f", "#5d4037",
           "#ad1457", "#455a64", "#9e9d24")


def _t(value) -> str:
    return escape(" ".join(str(value).splitlines()))


def axis_title(name: str, label: str, unit: str, direction: str) -> str:
    """``label [unit] (lower is better)`` with the user text escaped."""
    text = _t(label or name) + (f" [{_t(unit)}]" if unit else "")
    return f"{text} ({'lower' if direction == 'min' else 'higher'} is better)"


def decision_front(facts) -> go.Figure:
    """Every scored row on the figure's axes (``facts.axes``: the page's when the view came
    from the page): candidates in grey, the rows on the front (all chosen objectives) in
    blue, the runners-up in orange and the pick as a red star; excluded rows faint."""
    result = facts.exploration
    problem = result.problem
    axes = facts.axes
    xs, ys = np.asarray(axes.xs, dtype=float), np.asarray(axes.ys, dtype=float)
    ids = np.array([_t(i) for i in problem.ids], dtype=object)
    eligible = problem.eligible
    front = result.front & eligible
    runners = np.asarray(result.ranking[1:1 + len(facts.runners_up)], dtype=np.int64)
    layers = [
        ("excluded by a constraint", ~eligible, dict(color="#e3e6ea", size=5)),
        ("candidate", eligible & ~front, dict(color=GREY, size=6)),
        (f"on the front of all {len(problem.preferences.objectives)} objectives", front,
         dict(color=BLUE, size=8)),
    ]
    fig = go.Figure()
    hover = "%{text}<br>x %{x:.4g}<br>y %{y:.4g}<extra>%{fullData.name}</extra>"
    for label, mask, marker in layers:
        if mask.any():
            fig.add_trace(go.Scatter(x=xs[mask], y=ys[mask], mode="markers",
                                     name=label, text=ids[mask], marker=marker,
                                     hovertemplate=hover))
    if runners.size:
        fig.add_trace(go.Scatter(x=xs[runners], y=ys[runners], mode="markers",
                                 name="runner-up", text=ids[runners],
                                 marker=dict(color=ORANGE, size=11, symbol="diamond",
                                             line=dict(color="white", width=1)),
                                 hovertemplate=hover))
    pick = result.pick
    fig.add_trace(go.Scatter(x=[xs[pick]], y=[ys[pick]], mode="markers",
                             name="COPA pick", text=[ids[pick]],
                             marker=dict(color=RED, size=18, symbol="star",
                                         line=dict(color="white", width=1)),
                             hovertemplate=hover))
    # plotly places annotations on a log axis by the log10 of the value; the label points
    # inward, away from the nearest edge
    right = np.nanmean(xs) < xs[pick] if np.isfinite(xs[pick]) else False
    high = np.nanmean(ys) < ys[pick] if np.isfinite(ys[pick]) else False
    fig.add_annotation(x=np.log10(xs[pick]) if axes.log_x else xs[pick],
                       y=np.log10(ys[pick]) if axes.log_y else ys[pick],
                       text=ids[pick], showarrow=True, arrowhead=0, arrowcolor=RED,
                       ax=-50 if right else 50, ay=40 if high else -40,
                       xanchor="right" if right else "left",
                       bgcolor="rgba(255,255,255,0.9)", bordercolor=RED, font=dict(size=12))
    fig.update_xaxes(type="log" if axes.log_x else "linear")
    fig.update_yaxes(type="log" if axes.log_y else "linear")
    fig.update_layout(
        width=WIDTH, height=HEIGHT, template="plotly_white", margin=dict(l=70, r=20, t=40, b=60),
        title=dict(text="Where the pick sits (a 2-D view of the chosen objectives)",
                   font=dict(size=15)),
        xaxis_title=_t(axes.x_title), yaxis_title=_t(axes.y_title),
        legend=dict(orientation="h", y=-0.16, x=0), font=dict(family="Helvetica, Arial"))
    return fig


def systems_radar(records, labels, axes, shown) -> go.Figure:
    """Radar of the indicators (``axes`` in METHODS.md's order) of the systems ``shown``;
    an undefined value is drawn as 0, as the page does."""
    fig = go.Figure()
    theta = list(labels) + [labels[0]]
    top = 1.0               # OS can pass 1 (a front reaching past the global front's ends)
    for n, record in enumerate(r for r in records if r["system"] in shown):
        values = [0.0 if not np.isfinite(record[a]) else float(record[a]) for a in axes]
        top = max(top, *values)
        fig.add_trace(go.Scatterpolar(
            r=values + [values[0]], theta=theta, name=_t(record["system"]), fill="toself",
            opacity=0.55, line=dict(color=PALETTE[n % len(PALETTE)])))
    fig.update_layout(width=WIDTH, height=HEIGHT, template="plotly_white",
                      polar=dict(radialaxis=dict(range=[0, top * 1.02])),
                      title=dict(text="Indicators per system (area 1 = radius 1 on every axis)",
                                 font=dict(size=15)),
                      margin=dict(l=60, r=60, t=60, b=40), font=dict(family="Helvetica, Arial"))
    return fig


def systems_front(raw, system_of_row, systems, front_mask, shown, titles) -> go.Figure:
    """Each shown system's rows in the first two objectives; its own front in full colour."""
    fig = go.Figure()
    for n, name in enumerate(shown):
        s = systems.index(name)
        rows = system_of_row == s
        color = PALETTE[n % len(PALETTE)]
        for on_front in (False, True):
            mask = rows & (front_mask == on_front)
            if not mask.any():
                continue
            fig.add_trace(go.Scatter(
                x=raw[mask, 0], y=raw[mask, 1], mode="markers",
                name=_t(name) + ("" if on_front else " (dominated)"),
                marker=dict(color=color, size=9 if on_front else 6,
                            opacity=1.0 if on_front else 0.3),
                showlegend=on_front or not (rows & front_mask).any()))
    fig.update_layout(width=WIDTH, height=HEIGHT, template="plotly_white",
                      xaxis_title=titles[0], yaxis_title=titles[1],
                      title=dict(text="Each system's rows; its own front in full colour",
                                 font=dict(size=15)),
                      legend=dict(orientation="h", y=-0.18, x=0),
                      margin=dict(l=70, r=20, t=40, b=60), font=dict(family="Helvetica, Arial"))
    return fig
