"""The explorer's figures and pick card, checked against the exploration they draw: the pick's
marker sits on the pick's values, a slider patch carries exactly what a full redraw would,
the sweep's dots are the sweep's rows, and user text cannot turn into markup."""

from __future__ import annotations

import functools
import math
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from copa_dash.core.ranks import u_interval
from copa_dash.data.filters import RowFilter
from copa_dash.data.io import build_eval_table
from copa_dash.data.schema import Objective, Roles
from copa_dash.services import explorer, selection
from copa_dash.services.catalog import OpenedDataset, open_dataset
from copa_dash.services.scatter_sample import scatter_rows
from copa_dash.ui.features.explore import figures, panels
from copa_dash.ui.features.explore.callbacks import drawn_key, slider_move
from copa_dash.ui.features.explore.ids import ExploreIds as ID
from copa_dash.ui.features.explore.state import parse_query, to_query, with_defaults
from copa_dash.ui.features.explore.view_state import preferences_and_filter

from . import html_cells

DATASET = "open-llm-leaderboard-v2"


def _state(**changes):
    opened = open_dataset(DATASET)
    state = with_defaults(parse_query({"dataset": DATASET}), opened, given={"dataset"})
    return opened, replace(state, **changes)


def _explore(**changes):
    opened, state = _state(**changes)
    prefs, row_filter = preferences_and_filter(state, opened.table)
    return state, explorer.explore(opened, prefs, row_filter, compare=state.compare)


def _pick_ring(layout):
    return next(s for s in layout["shapes"] if s.get("name") == "COPA pick")


@pytest.mark.parametrize("axes", ["raw", "cdf"])
def test_the_pick_ring_and_label_sit_on_the_picks_values(axes):
    state, result = _explore(axes=axes)
    figure = figures.front_figure(result, mode=axes, x=state.x, y=state.y)
    problem = result.problem
    kx, ky = problem.preferences.objectives.index(state.x), problem.preferences.objectives.index(state.y)
    source = problem.raw if axes == "raw" else problem.u
    ring = _pick_ring(figure["layout"])
    assert (ring["xanchor"], ring["yanchor"]) == (source[result.pick, kx], source[result.pick, ky])
    label = figure["layout"]["annotations"][-1]
    assert (label["x"], label["y"]) == (ring["xanchor"], ring["yanchor"])
    assert str(problem.ids[result.pick]) in label["text"]


def test_the_sweep_dots_are_the_sweep_rows_coloured_by_their_alpha():
    state, result = _explore()
    layout = figures.front_figure(result, mode="raw", x=state.x, y=state.y)["layout"]
    dots = [s for s in layout["shapes"] if s.get("legendgroup") == "sweep"]
    sweep = result.sweep
    assert len(dots) == len(sweep.rows) > 1
    kx = result.problem.preferences.objectives.index(state.x)
    assert [d["xanchor"] for d in dots] == [result.problem.raw[r, kx] for r in sweep.rows]
    # the colour scale runs from alpha 0 to 1: the dot with the smallest alpha is the darkest
    middles = 0.5 * (np.asarray(sweep.alpha_min) + np.asarray(sweep.alpha_max))
    expected = figures.sample_colorscale("Viridis", [float(np.clip(m, 0, 1)) for m in middles])
    assert [d["fillcolor"] for d in dots] == expected


def test_every_row_is_drawn_once_in_the_traces():
    state, result = _explore()
    figure = figures.front_figure(result, mode="raw", x=state.x, y=state.y)
    counts = [len(t["x"]) for t in figure["data"] if t["x"] != [None]]
    assert sum(counts) == result.problem.raw.shape[0]
    passing = next(t for t in figure["data"] if t["name"].startswith("passes the constraints")
                   and t["x"] != [None])
    assert len(passing["x"]) == int(result.problem.eligible.sum())
    ringed = [w > 0 for w in passing["marker"]["line"]["width"]]
    assert sum(ringed) == int((result.front & result.problem.eligible).sum())
    # the legend still names the front, as an entry of the passing trace's group
    assert any(t["name"].startswith("on the front") and t["legendgroup"] == "passing"
               for t in figure["data"])


def test_a_slider_patch_carries_exactly_the_layers_of_a_full_redraw():
    state, result = _explore(alpha=0.13)
    full = figures.front_figure(result, mode="raw", x=state.x, y=state.y)["layout"]
    layers = figures.front_layers(result, mode="raw", x=state.x, y=state.y)
    assert layers["shapes"] == full["shapes"] and layers["annotations"] == full["annotations"]
    patch = figures.layers_patch(layers).to_plotly_json()
    assigned = {tuple(op["location"]): op["params"]["value"] for op in patch["operations"]}
    assert assigned == {("layout", "shapes"): full["shapes"],
                        ("layout", "annotations"): full["annotations"]}


def test_the_layers_fingerprint_changes_with_the_pick_and_only_then_on_alpha_moves():
    _, first = _explore(alpha=0.5)
    _, same_pick = _explore(alpha=0.49)
    _, other_pick = _explore(alpha=0.9)
    assert same_pick.pick == first.pick and other_pick.pick != first.pick

    def digest(result, state_alpha):
        state = _state(alpha=state_alpha)[1]
        return figures.layers_digest(figures.front_layers(result, mode="raw", x=state.x, y=state.y))

    assert digest(first, 0.5) == digest(same_pick, 0.49)
    assert digest(first, 0.5) != digest(other_pick, 0.9)


def test_the_axes_are_stated_in_full_so_plotly_does_not_rewrite_them():
    state, result = _explore()
    layout = figures.front_figure(result, mode="raw", x=state.x, y=state.y)["layout"]
    kx = result.problem.preferences.objectives.index(state.x)
    low, high = layout["xaxis"]["range"]
    values = result.problem.raw[:, kx]
    assert layout["xaxis"]["autorange"] is False and layout["xaxis"]["type"] == "linear"
    assert low < values.min() and high > values.max()
    assert figures.fixed_range([3.0, 3.0])["range"][0] < 3.0 < figures.fixed_range([3.0, 3.0])["range"][1]
    assert figures.fixed_range([math.nan])["range"] == [-1.0, 1.0]


def test_the_parallel_pick_line_passes_through_the_picks_u():
    state, result = _explore()
    figure = figures.parallel_figure(result)
    (line,) = figure["layout"]["shapes"]
    points = [p[1:].split(",") for p in line["path"].split()]
    assert [int(x) for x, _ in points] == list(range(len(state.objectives)))
    np.testing.assert_allclose([float(u) for _, u in points], result.problem.u[result.pick], rtol=1e-5)
    patch = figures.parallel_patch(result).to_plotly_json()
    assert patch["operations"][0]["params"]["value"] == [line]


def test_compared_baselines_get_a_ring_and_a_label_each():
    state, result = _explore(compare=True)
    layout = figures.front_figure(result, mode="raw", x=state.x, y=state.y)["layout"]
    picked = [b for b in result.baselines if b.position is not None and b.method != "copa"]
    labels = [a["text"] for a in layout["annotations"][:-1]]
    assert labels == [explorer.BASELINE_LABELS[b.method] for b in picked] and picked


def test_slider_moves_patch_and_anything_else_redraws():
    _, state = _state()
    drawn = {"key": drawn_key(state), "layers": "x"}
    assert slider_move(replace(state, alpha=0.1), drawn)
    assert slider_move(replace(state, p=2.0), drawn)
    assert slider_move(replace(state, weights=(("bbh", 3.0),)),
                       {"key": drawn_key(replace(state, weights=(("bbh", 1.0),)))})
    assert slider_move(replace(state, choose="tt"), drawn)    # a "Help me choose" answer
    # p moves every point in the summary view, so it redraws there
    summary = replace(state, axes="summary")
    assert not slider_move(replace(summary, p=2.0), {"key": drawn_key(summary)})
    assert slider_move(replace(summary, alpha=0.1), {"key": drawn_key(summary)})
    # anything else, or a page drawn for another view (or not drawn), redraws
    assert not slider_move(replace(state, axes="cdf"), drawn)
    assert not slider_move(replace(state, alpha=0.1, population="filtered"), drawn)
    assert not slider_move(state, None)


def test_code_html_shows_any_name_as_typed():
    for name in ["a_b*c <b>x</b> http://e.x", "a`b``c", "x & y \"q\" 'r'", "[l](http://e.x)", "ends\\"]:
        shown = html_cells.read(f"<p>{panels.code_html(name)}</p>")
        assert shown.code == [name] and shown.tags == ["p", "code"]
    assert html_cells.read(panels.code_html("two\nlines")).code == ["two lines"]


def test_the_pick_card_states_the_picks_values_and_runners_up():
    _, result = _explore()
    pick_id, text = panels.pick_card_text(result)
    card = html_cells.read(text)
    problem = result.problem
    assert pick_id == str(problem.ids[result.pick])
    objectives = problem.preferences.objectives
    assert [row[0] for row in card.rows[1:]] == list(objectives)
    for k, row in enumerate(card.rows[1:]):
        assert row[1] == problem.preferences.directions[k]
        assert float(row[2]) == pytest.approx(problem.raw[result.pick, k], rel=1e-3)
        assert row[3].startswith(f"top {100 * problem.u[result.pick, k]:.1f}%")
    runners = [str(problem.ids[j]) for j in result.runners_up[:panels.RUNNERS_UP]]
    assert card.code[len(objectives):] == runners


def _drawn_for(state, result):
    layers = figures.front_layers(result, mode=state.axes, x=state.x, y=state.y, log=state.log)
    return {"key": drawn_key(state), "layers": figures.layers_digest(layers), "pick": result.pick}


def test_a_slider_move_sends_figure_patches_only_for_what_moved():
    from dash import no_update

    from copa_dash.ui.features.explore.callbacks import _slider_update

    state, drawn_result = _explore(alpha=0.6)
    drawn = _drawn_for(state, drawn_result)
    # the same pick at another alpha: the card's body and the table change, the figures do not
    state_b, same = _explore(alpha=0.65)
    assert same.pick == drawn_result.pick
    out = _slider_update(same, state_b, drawn, None)
    assert out["front"] is no_update and out["parallel"] is no_update
    assert out["drawn"] is no_update and out["alert"] is no_update
    # another pick: both figures are patched and the store remembers the new pick
    state_c, other = _explore(alpha=0.5)
    assert other.pick != drawn_result.pick
    out = _slider_update(other, state_c, drawn, None)
    assert out["front"] is not no_update and out["parallel"] is not no_update
    assert out["drawn"] == _drawn_for(state_c, other)
    # a p move that recolours the sweep but keeps the pick: the front only
    for p in (16.0, 8.0, 4.0, 2.0):
        state_d, moved = _explore(alpha=0.6, p=p)
        if moved.pick == drawn_result.pick and \
                _drawn_for(state_d, moved)["layers"] != drawn["layers"]:
            out = _slider_update(moved, state_d, drawn, None)
            assert out["front"] is not no_update and out["parallel"] is no_update
            break
    else:
        pytest.fail("no p keeps the pick at alpha 0.6 while recolouring the sweep")


def test_a_log_axis_places_the_points_range_and_pick_ring_in_log10_units():
    state, result = _explore(x="co2_cost", y="ifeval", log=("x",))
    assert figures.log_axes(result, "raw", state.x, state.y, state.log) == (True, False)
    layout = figures.front_figure(result, mode="raw", x=state.x, y=state.y, log=state.log)["layout"]
    k = result.problem.preferences.objectives.index("co2_cost")
    costs = result.problem.raw[:, k]
    assert layout["xaxis"]["type"] == "log" and layout["yaxis"]["type"] == "linear"
    low, high = np.log10(np.nanmin(costs)), np.log10(np.nanmax(costs))
    pad = 0.04 * (high - low)
    np.testing.assert_allclose(layout["xaxis"]["range"], [low - pad, high + pad])
    # Plotly places shapes on a log axis by value and annotations by log10 of the value
    ring = _pick_ring(layout)
    assert ring["xanchor"] == costs[result.pick]
    label = layout["annotations"][-1]
    assert label["x"] == pytest.approx(math.log10(costs[result.pick]))
    assert label["y"] == ring["yanchor"]
    # the patch after a slider move uses the same units as the full redraw
    assert figures.front_layers(result, mode="raw", x=state.x, y=state.y, log=state.log) == \
        {key: layout[key] for key in ("shapes", "annotations")}
    assert figures.log_notes(result, "raw", state.x, state.y, state.log) == []


def test_a_log_axis_over_zeros_or_outside_the_raw_view_stays_linear_and_says_why():
    state, result = _explore(x="co2_cost", y="math", log=("x", "y"))
    k = result.problem.preferences.objectives.index("math")
    assert (result.problem.raw[:, k] <= 0).any()            # some models score 0 in math
    assert figures.log_axes(result, "raw", state.x, state.y, state.log) == (True, False)
    notes = figures.log_notes(result, "raw", state.x, state.y, state.log)
    assert notes == [("math has values of zero or below, which a log axis cannot show: the y "
                      "axis stays linear.")]
    assert figures.log_axes(result, "cdf", state.x, state.y, state.log) == (False, False)
    assert "raw-values view" in figures.log_notes(result, "cdf", state.x, state.y, state.log)[0]


def test_a_log_box_that_cannot_apply_is_unticked_and_greyed_with_the_reason():
    """Issue 33: "log y" stayed ticked while the note said the y axis stays linear."""
    from copa_dash.ui.features.explore import callbacks

    state, result = _explore(x="co2_cost", y="math", log=("x", "y"))
    options, ticked = callbacks.figure_outputs(result, state, None)["log"]
    assert ticked == ["x"]                                  # log y is unticked: math has zeros
    assert options == [{"label": "log x", "value": "x", "disabled": False},
                       {"label": "log y (values \u2264 0)", "value": "y", "disabled": True}]
    # outside the raw view both boxes are greyed and keep their ticks for the way back
    cdf = replace(state, axes="cdf")
    options, ticked = callbacks.figure_outputs(result, cdf, None)["log"]
    assert ticked == ["x", "y"] and all(o["disabled"] for o in options)
    assert [o["label"] for o in options] == ["log x", "log y"]
    # a positive column gets its box back
    state, result = _explore(x="co2_cost", y="bbh", log=("x",))
    options, ticked = callbacks.figure_outputs(result, state, None)["log"]
    assert ticked == ["x"] and not any(o["disabled"] for o in options)


def test_leaving_the_p_box_unchanged_does_nothing_and_a_new_p_does():
    from copa_dash.ui.features.explore.callbacks import _p_box_unchanged

    _, state = _state()
    blur, enter = f"{ID.P_INPUT}.n_blur", f"{ID.P_INPUT}.n_submit"
    assert _p_box_unchanged([blur], state, to_query(state))
    assert _p_box_unchanged([enter], state, to_query(state))
    assert not _p_box_unchanged([blur], replace(state, p=2.0), to_query(state))
    assert not _p_box_unchanged([blur, f"{ID.ALPHA}.value"], state, to_query(state))
    assert not _p_box_unchanged(["."], state, to_query(state))   # the first draw


def test_a_sampled_front_figure_draws_the_front_and_the_pick_and_states_the_share(monkeypatch):
    """The leaderboard (2,921 rows) with the background budget lowered to 300 rows stands in
    for a big table: the figure's points are the sample rule's rows, its title the rule's
    sentence, and the pick and every front row are among the points."""
    state, result = _explore()
    rows = scatter_rows(result.front, result.problem.eligible, figures._marked_rows(result),
                        budget=300)
    monkeypatch.setattr(figures, "scatter_rows", functools.partial(scatter_rows, budget=300))
    figure = figures.front_figure(result, mode="raw", x=state.x, y=state.y)
    problem = result.problem
    kx = problem.preferences.objectives.index(state.x)
    drawn_x = [v for trace in figure["data"][:2] for v in trace["x"]]
    assert len(drawn_x) == rows.drawn < problem.raw.shape[0]
    passing = figure["data"][1]
    ringed = np.asarray(passing["marker"]["line"]["width"]) > 0
    assert np.asarray(passing["x"])[ringed].tolist() == \
        problem.raw[result.front & problem.eligible, kx].tolist()
    ids = {c[0] for trace in figure["data"][:2] for c in trace["customdata"]}
    assert str(problem.ids[result.pick]) in ids
    assert figure["layout"]["title"]["text"] == rows.note()
    assert f"showing 300 of {rows.background_total:,}" in rows.note()


def test_the_pick_cards_interval_of_u_stays_within_0_and_100_on_a_tiny_table():
    """A 3-row table: the card shows Wilson's interval (the old u +- 1.96 se went below 0)."""
    frame = pd.DataFrame({"model": ["a", "b", "c"], "err": [0.1, 0.2, 0.3],
                          "cost": [3.0, 1.0, 2.0]})
    table = build_eval_table(frame, Roles(id="model", objectives=(
        Objective("err", "min"), Objective("cost", "min"))))
    opened = OpenedDataset(ref="tiny", cache_id="tiny", table=table, title="tiny",
                           description="", source="", licence="", default_view=None,
                           kind="uploaded")
    prefs = selection.Preferences(objectives=("err", "cost"), directions=("min", "min"))
    result = explorer.explore(opened, prefs, RowFilter())
    u = result.problem.u[result.pick]
    low, high = u_interval(u, 3)
    np.testing.assert_array_equal(result.u_interval[0], low)
    np.testing.assert_array_equal(result.u_interval[1], high)
    _, text = panels.pick_card_text(result)
    card = html_cells.read(text)
    for k, row in enumerate(card.rows[1:]):
        shown = row[3].split("(")[1].rstrip(")").split("–")
        assert [float(v) for v in shown] == pytest.approx([100 * low[k], 100 * high[k]], abs=0.06)
        assert 0.0 <= float(shown[0]) <= 100 * u[k] <= float(shown[1]) <= 100.0


def test_parallel_axis_names_are_short_distinct_and_full_in_the_hover():
    from copa_dash.ui.features.explore import parallel_axes
    names = ["Pair Classification Average (3 datasets)", "Classification Average (12 datasets)",
             "Clustering Average (11 datasets)", "Reranking Average (4 datasets)",
             "Retrieval Average (15 datasets)", "STS Average (10 datasets)",
             "Summarization Average (1 dataset)", "Model Size (Million Parameters)",
             "Memory Usage (GB, fp32)", "Embedding Dimensions"]
    labels = parallel_axes.axis_labels(names)
    width = parallel_axes.line_width(len(names))
    assert len(set(labels)) == len(names)
    for label in labels:
        lines = label.split("<br>")
        assert len(lines) <= parallel_axes.LABEL_LINES
        assert all(len(line) <= width for line in lines), label
    # with the old angle, a 40-character name spanned ~3 axes' width; now no line passes one
    state, result = _explore()
    trace = figures.parallel_figure(result)["data"][0]
    assert trace["customdata"][:len(state.objectives)] == list(result.problem.preferences.objectives)
    assert figures.parallel_figure(result)["layout"]["xaxis"]["tickangle"] == 0


def test_a_range_constraint_is_a_band_on_its_axis_spanning_the_rows_it_keeps():
    from copa_dash.services.brushing import brushed_range
    _, result = _explore()
    problem = result.problem
    k = 1
    column = problem.preferences.objectives[k]
    low, high = brushed_range(problem, k, 0.2, 0.6)      # what a drag from u 0.2 to 0.6 sets
    figure = figures.parallel_figure(result, ranges=((column, low, high),))
    (band,) = figure["data"][1:]
    assert band["x"][0] == band["x"][1] == figure["data"][0]["x"][k]
    # independent: the u of every scored row whose raw value lies in the range, by a loop
    kept = [problem.u[i, k] for i in range(len(problem.raw)) if low <= problem.raw[i, k] <= high]
    assert band["y"] == [min(kept), max(kept)]
    assert 0.2 <= min(kept) and max(kept) <= 0.6
    # a range on a column that is not an axis, or keeping no row, draws nothing
    assert len(figures.parallel_figure(result, ranges=(("not-an-axis", 0, 1),))["data"]) == 1
    top = float(np.nanmax(problem.raw[:, k]))
    assert len(figures.parallel_figure(result, ranges=((column, top + 1, None),))["data"]) == 1


def test_a_tick_that_moves_no_point_keeps_the_data_revision_and_restyles_the_front():
    """Plotly.react recomputes and redraws every point when ``layout.datarevision`` changes
    and only restyles them when it stays (:func:`figures.points_revision`): an objective
    unticked or a direction flipped off the axes keeps it, with the front's new looks and a
    new fingerprint of them (the scalar Plotly compares); a new x axis changes it."""
    _, base = _state()
    others = [o for o in base.objectives if o[0] not in (base.x, base.y)]
    dropped = tuple(o for o in base.objectives if o != others[-1])
    flip = {"min": "max", "max": "min"}
    flipped = tuple((n, flip[d]) if (n, d) == others[0] else (n, d) for n, d in base.objectives)
    drawn = {}
    for name, changes in {"base": {}, "untick": {"objectives": dropped},
                          "flip": {"objectives": flipped}, "x": {"x": others[0][0]}}.items():
        state, result = _explore(**changes)
        drawn[name] = result, figures.front_figure(result, mode="raw", x=state.x, y=state.y)
    revision = {name: figure["layout"]["datarevision"] for name, (_, figure) in drawn.items()}
    assert revision["untick"] == revision["base"] == revision["flip"] != revision["x"]
    looks = {name: figure["data"][1]["marker"] for name, (_, figure) in drawn.items()}
    fingerprint = {name: [t for t in figure["data"] if t.get("uid") == figures.LOOKS_UID]
                   for name, (_, figure) in drawn.items()}
    assert all(len(traces) == 1 for traces in fingerprint.values())
    for name in ("untick", "flip"):
        result = drawn[name][0]
        assert (result.front != drawn["base"][0].front).any()   # the front moved
        assert (fingerprint[name][0]["marker"]["opacity"]
                != fingerprint["base"][0]["marker"]["opacity"])
        # the points themselves are fully opaque (an opacity under 1 on each of ~2,100 SVG
        # points made every repaint of the plot dearer); the fingerprint trace draws nothing
        assert looks[name]["opacity"] == 1
        assert fingerprint[name][0]["x"] == [None] and not fingerprint[name][0]["showlegend"]
        ringed = np.asarray(looks[name]["line"]["width"]) > 0
        assert ringed.sum() == (result.front & result.problem.eligible).sum()
    # the hover speaks of the new view's objectives
    assert drawn["untick"][1]["data"][1]["meta"] == [n for n, _ in dropped]
