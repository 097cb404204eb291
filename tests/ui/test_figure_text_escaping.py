"""User text in the figures of the rankings, benchmark, posets, generalisation and systems
pages shows as typed: names holding Plotly's HTML subset (<b>, <br>, <a href>) reach every
string of the figure escaped once, never as markup."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from copa_dash.data.io import build_eval_table
from copa_dash.data.schema import Objective, Roles
from copa_dash.services import benchmarks, posets, rankings, systems
from copa_dash.services import generalization as gap
from copa_dash.ui.features.explore.figures import plot_text
from copa_dash.ui.features.generalization import figures as figures_generalization
from copa_dash.ui.features.posets import figures as figures_posets
from copa_dash.ui.features.rankings import figures as figures_rankings
from copa_dash.ui.features.rankings import figures_benchmark
from copa_dash.ui.features.systems import figures as figures_systems

BOLD = "<b>bold</b>"
BREAK = "a<br>b"
LINK = '<a href="x">l</a>'
MARKUP = (BOLD, BREAK, LINK)
ESCAPED = {BOLD: "&lt;b&gt;bold&lt;/b&gt;", BREAK: "a&lt;br&gt;b",
           LINK: '&lt;a href="x"&gt;l&lt;/a&gt;'}
NOT_DRAWN = {"uirevision"}   # an opaque token Plotly compares between redraws, never shows


def _strings(node, key=None):
    """Every string in a figure dict (keys of ``NOT_DRAWN`` left out), depth first."""
    if key in NOT_DRAWN:
        return
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for k, value in node.items():
            yield from _strings(value, k)
    elif isinstance(node, (list, tuple)):
        for value in node:
            yield from _strings(value, key)


def _assert_shown_as_typed(figure: dict, expected=MARKUP) -> None:
    """No raw markup name and no double escape anywhere; each ``expected`` name escaped."""
    strings = list(_strings(figure))
    for raw in MARKUP:
        assert not [s for s in strings if raw in s], f"raw {raw!r} in the figure"
    assert not [s for s in strings if "&amp;lt;" in s or "&amp;gt;" in s], "escaped twice"
    for raw in expected:
        assert any(ESCAPED[raw] in s for s in strings), f"{ESCAPED[raw]!r} not in the figure"


def test_plot_text_escapes_markup_but_not_quotes():
    assert [plot_text(raw) for raw in MARKUP] == [ESCAPED[raw] for raw in MARKUP]
    assert plot_text("it's \"x\" & y") == "it's \"x\" &amp; y"   # Plotly has no &quot;


# --- rankings --------------------------------------------------------------------------

def _ranking_inputs():
    f1, f2 = f"{LINK} f1", f"{BOLD} f2"
    frame = pd.DataFrame({"model": [BOLD, BREAK, LINK, f"{BOLD} 2", f"{BREAK} 2"],
                          f1: [1.0, 2.0, 4.0, 8.0, 5.0], f2: [9.0, 4.0, 2.0, 1.0, 5.0]})
    table = build_eval_table(frame, Roles("model", (Objective(f1, "min"),
                                                    Objective(f2, "min"))))
    view = rankings.rank_view(table, criteria=[f"obj:{f2}", f"delta:{LINK}", "copa:1"])
    return view, rankings.chart_rows(view, top=5, pinned=[BREAK], n_highlight=1)


def test_bump_chart_shows_names_as_typed():
    view, rows = _ranking_inputs()
    assert len(rows.highlighted) < len(rows.shown)      # grey lines and coloured ones
    figure = figures_rankings.bump_figure(view, rows)
    _assert_shown_as_typed(figure)
    ticks = [t.replace("<br>", " ") for t in figure["layout"]["xaxis"]["ticktext"]]
    assert ticks[1] == f"Δ vs {ESCAPED[LINK]}"


# --- benchmark -------------------------------------------------------------------------

def _benchmark_table():
    """The long table of tests/services/test_rankings.py with markup in every name."""
    errors = {BOLD: [0.1, 0.2, 0.3, 0.1], BREAK: [0.2, 0.1, 0.5, 0.3],
              LINK: [0.3, 0.3, 0.4, None]}
    times = {BOLD: [10.0, 10.0, 30.0, 10.0], BREAK: [1.0, 2.0, 3.0, 1.0],
             LINK: [5.0, 5.0, 5.0, None]}
    metric, time = f"{BOLD} err", f"{BREAK} time"
    rows = [{"id": f"{m}|t{t}", "method": m, "task": f"{MARKUP[t % 3]} t{t}",
             "kind": f"{LINK} cls" if t < 2 else f"{BREAK} reg", metric: errors[m][t],
             time: times[m][t]} for m in errors for t in range(4)]
    roles = Roles("id", (Objective(metric, "min"), Objective(time, "min")), system="method",
                  task="task", metadata=("kind",))
    return build_eval_table(pd.DataFrame(rows), roles), metric, time


def test_benchmark_figures_show_names_as_typed():
    table, metric, time = _benchmark_table()
    view = benchmarks.benchmark_view(table, reference=LINK)
    boxes = figures_benchmark.box_figure(view)
    _assert_shown_as_typed(boxes)
    categories = {label for trace in boxes["data"] for label in trace["y"]}
    assert categories == set(boxes["layout"]["yaxis"]["categoryarray"])
    cd = figures_benchmark.cd_figure(view)
    _assert_shown_as_typed(cd)
    markers, *groups = cd["data"]
    assert groups and all(set(g["y"]) <= set(markers["y"]) for g in groups)
    trade = benchmarks.tradeoff_view(table, metric=metric, time_metric=time,
                                     group_column="kind")
    _assert_shown_as_typed(figures_benchmark.tradeoff_figure(trade, metric=metric,
                                                             time_metric=time))


# --- posets ----------------------------------------------------------------------------

def _depth_view(names=MARKUP):
    """Example B.2 of the paper (tests/services/test_posets_service.py), its three methods
    renamed to ``names`` and its tasks to a name each plus the task."""
    method = dict(zip(("SGD", "Momentum", "Adam"), names))
    task = {"p1": f"{names[2]} p1", "p2": f"{names[0]} p2", "p3": f"{names[1]} p3"}
    rows = [("SGD", "p1", 2, 2), ("Momentum", "p1", 1, 1), ("Adam", "p1", 0, 3),
            ("SGD", "p2", 2, 2), ("Momentum", "p2", 0, 3), ("Adam", "p2", 1, 1),
            ("SGD", "p3", 2, 2), ("Momentum", "p3", 3, 3), ("Adam", "p3", 1, 1)]
    frame = pd.DataFrame([(method[m], task[t], a, b) for m, t, a, b in rows],
                         columns=["opt", "prob", "a", "b"])
    data = posets.poset_table(frame, method="opt", task="prob",
                              criteria=(("a", "min"), ("b", "min")))
    return posets.compute_depth_view(data)


def test_posets_figures_show_names_as_typed():
    view = _depth_view()
    _assert_shown_as_typed(figures_posets.depth_figure(view))
    _assert_shown_as_typed(figures_posets.beats_figure(view))
    chain = 2   # Adam > SGD > Momentum: every method in one diagram
    hasse = figures_posets.hasse_figure(
        posets.hasse_layout(view, view.relations[chain]), color=figures_posets.CENTRAL,
        title=f"Most central: {view.tasks[chain]} (depth {view.depths[chain]:.3f})")
    _assert_shown_as_typed(hasse)
    assert hasse["layout"]["title"]["text"].startswith(f"Most central: {ESCAPED[BREAK]} p3")


# --- generalisation --------------------------------------------------------------------

METRICS = (f"{BOLD} acc", f"{LINK} loss", f"{BREAK} time")


def _gap_report(n_metrics: int, *, metrics=METRICS, systems=(BREAK, LINK),
                run=BOLD) -> gap.GapReport:
    """Two systems x two budgets x five configurations, random paired values; the runs' ids
    start with ``run``."""
    rng = np.random.default_rng(0)
    n = 20
    frame = pd.DataFrame({"id": [f"{run} r{i}" for i in range(n)],
                          "sys": [systems[0]] * 10 + [systems[1]] * 10,
                          "budget": ([1] * 5 + [2] * 5) * 2})
    for name in metrics[:n_metrics]:
        val = rng.integers(0, 10, n).astype(float)
        frame[f"val_{name}"] = val
        frame[f"test_{name}"] = np.clip(val + rng.integers(-3, 4, n), 0, 10)
    spec = gap.GapSpec("id", metrics[:n_metrics], ("min",) * n_metrics, system="sys",
                       budget="budget")
    return gap.build_report(frame, spec)


def test_generalization_figures_show_names_as_typed():
    report = _gap_report(2)
    first, *others = report.searches
    _assert_shown_as_typed(figures_generalization.search_panels(report, first),
                           expected=(BOLD, LINK))          # ids and metric names
    other = next(s for s in others if s.system != first.system and s.budget == first.budget)
    _assert_shown_as_typed(figures_generalization.systems_fronts(report, first, other))
    _assert_shown_as_typed(figures_generalization.budget_figure(report),
                           expected=(BREAK, LINK))          # system names
    wide = _gap_report(3)
    _assert_shown_as_typed(figures_generalization.parallel_front(wide, wide.searches[0]))


# --- systems ---------------------------------------------------------------------------

OBJECTIVES = (f"{BOLD} f1", f"{LINK} f2", f"{BREAK} f3")


def _systems_table(seeds: int = 1):
    """Systems BREAK and LINK, four rows per seed, three random objectives."""
    rng = np.random.default_rng(1)
    rows = [(f"{BOLD} {s}{k}{j}", system, k, *rng.random(3))
            for s, system in enumerate((BREAK, LINK)) for k in range(seeds) for j in range(4)]
    frame = pd.DataFrame(rows, columns=["id", "system", "seed", *OBJECTIVES])
    roles = Roles("id", tuple(Objective(o, "min") for o in OBJECTIVES), system="system",
                  seed="seed")
    return build_eval_table(frame, roles)


@pytest.mark.parametrize("three_d", [False, True])
def test_systems_figures_show_names_as_typed(three_d):
    view = systems.systems_view(_systems_table())
    shown = [BREAK, LINK]
    _assert_shown_as_typed(figures_systems.radar_figure(view, shown), expected=shown)
    axes = OBJECTIVES if three_d else OBJECTIVES[:2]
    front = figures_systems.front_figure(view, shown, view.front_in(list(axes)), x=axes[0],
                                         y=axes[1], z=axes[2] if three_d else None)
    _assert_shown_as_typed(front)


def test_significance_figures_show_names_as_typed():
    view = systems.significance_test(_systems_table(seeds=3), baseline=BREAK, candidate=LINK,
                                     n_permutations=50, rng_seed=1)
    _assert_shown_as_typed(figures_systems.null_histogram(view), expected=())
    _assert_shown_as_typed(figures_systems.spread_figure(view), expected=(BREAK, LINK))


def test_bump_chart_title_sits_under_the_chart_clear_of_the_criterion_names():
    # at 1024 px Plotly turned the criterion names upright into the title above (issue 33, F20)
    view, rows = _ranking_inputs()
    layout = figures_rankings.bump_figure(view, rows)["layout"]
    assert "title" not in layout and layout["xaxis"]["side"] == "top"
    (title,) = [a for a in layout["annotations"] if a["text"].startswith("rank under each")]
    assert title["yref"] == "paper" and title["y"] == 0 and title["yanchor"] == "top"
    assert all(t.count("<br>") <= 1 for t in layout["xaxis"]["ticktext"])
