"""The Rankings bump chart leaves its criteria room at a 1024 x 768 window (issue 33).

With every line named at both ends, the side margins (200 + 180 px) left DecodingTrust's seven
criteria about 210 px of the 590 px chart at 1024 px: 30 px a column, so Plotly turned their
names upright and the lines were squeezed together. The names now sit at the right end only.
"""

from __future__ import annotations

from copa_dash.data.bundled import load_bundled
from copa_dash.services import rankings
from copa_dash.ui.features.rankings.figures import bump_figure

# the chart's width on the Rankings page in a 1024 x 768 window (headless Chromium, measured:
# the page's main column less its padding); at 1400 x 1000 it is 963 px
CHART_PX_AT_1024 = 590
# "COPA" over "p=inf" in the 12 px tick font, with a little air either side
COLUMN_PX = 45
CRITERIA = ["mean", "norm", "copa:1", "copa:2", "copa:4", "copa:8", "copa:inf"]


def _figure():
    table, _ = load_bundled("decodingtrust")
    view = rankings.rank_view(table, criteria=CRITERIA)
    return view, bump_figure(view, rankings.chart_rows(view, top=25))


def test_seven_criteria_get_45_px_each_in_a_1024_px_window():
    view, figure = _figure()
    margin = figure["layout"]["margin"]
    plot = CHART_PX_AT_1024 - margin["l"] - margin["r"]
    assert plot / (len(view.criteria) - 1 + 2 * 0.08) >= COLUMN_PX, margin


def test_every_drawn_line_is_named_once_at_its_right_end_inside_the_right_margin():
    view, figure = _figure()
    names = [a for a in figure["layout"]["annotations"] if a.get("xref") != "paper"]
    drawn = [t for t in figure["data"] if t["name"] != "other entries"]
    grey = next(t for t in figure["data"] if t["name"] == "other entries")
    n_grey = sum(1 for x in grey["x"] if x is None)
    assert len(names) == len(drawn) + n_grey            # 25 top + the flattered one, once each
    assert {a["x"] for a in names} == {len(view.criteria) - 1}
    assert {a["xanchor"] for a in names} == {"left"}
    # about 7 px a character at 12 px, after the 12 px shift off the last column
    widest = max(len(a["text"]) * 7 + a["xshift"] for a in names)
    assert widest <= figure["layout"]["margin"]["r"], widest
