"""Figures shown while a view has nothing to draw (an alert beside them says why)."""

from __future__ import annotations


def empty_figure(height: int = 120, message: str = "") -> dict:
    """A blank plotly figure of ``height`` pixels with hidden axes, and ``message`` in its
    middle when given."""
    layout = {"template": "plotly_white", "height": height,
              "xaxis": {"visible": False}, "yaxis": {"visible": False}}
    if message:
        layout["annotations"] = [{"text": message, "showarrow": False, "xref": "paper",
                                  "yref": "paper", "x": 0.5, "y": 0.5,
                                  "font": {"size": 14, "color": "#616e7c"}}]
    return {"data": [], "layout": layout}
