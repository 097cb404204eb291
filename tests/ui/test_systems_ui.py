"""The systems page's URL state and figure builders: round trip, defaults, bad links, the
staircase of a front in mixed directions, the radar's undefined values, the test's figures."""

from __future__ import annotations

from urllib.parse import parse_qs

import numpy as np
import pandas as pd
import pytest

from copa_dash.data.io import build_eval_table
from copa_dash.data.schema import Objective, Roles
from copa_dash.services import systems
from copa_dash.services.catalog import open_dataset
from copa_dash.services.significance_verdict import verdict
from copa_dash.ui.features.systems import figures
from copa_dash.ui.features.systems import (
    layout as page,  # not test_summary: pytest would collect it
)
from copa_dash.ui.features.systems.state import SystemsState, parse_query, to_query, with_defaults
from tests.ui.dash_tree import find, text, walk


def test_state_round_trips_through_the_query():
    state = SystemsState(dataset="fairness-adult-sex", tab="significance",
                         objectives=("accuracy", "di_distance"), normalize="cdf", sigma=0.25,
                         shown=("SVM", "LR"), x="accuracy", y="di_distance", baseline=("SVM",),
                         candidate=("Feldman-SVM", "Feldman-LR"), permutations=999, seed=4,
                         ref_rule="worst-multiple", power_seeds=8, power_effect=0.1,
                         power_noise=0.02, power_points=3)
    assert parse_query(parse_qs(to_query(state))) == state


def test_bad_links_fall_back_to_defaults():
    state = parse_query({"tab": "nope", "norm": "rank", "sigma": "x", "perms": "-5",
                         "seed": "nan", "ref": "?", "view": "3d"})
    assert (state.tab, state.normalize, state.sigma) == ("indicators", "minmax", 0.1)
    assert state.permutations == 1 and state.seed == 0 and state.ref_rule == "range"


def test_defaults_from_the_dataset():
    opened = open_dataset("fairness-adult-sex")
    names = systems.system_names(opened.table)
    state = with_defaults(parse_query({"base": "SVM", "cand": "SVM", "view": "3d"}), opened,
                          names)
    assert state.objectives == ("accuracy", "di_distance") and state.shown == tuple(names[:5])
    assert state.baseline == ("SVM",) and state.candidate == ("GaussianNB",)
    assert (state.x, state.y, state.z, state.three_d) == ("accuracy", "di_distance", "", False)


def _view():
    """a: (1, 10), (2, 20), (3, 15); b: (2, 5) - f1 minimised, f2 maximised."""
    frame = pd.DataFrame({"id": list("pqrs"), "system": ["a", "a", "a", "b"],
                          "f1": [1.0, 2.0, 3.0, 2.0], "f2": [10.0, 20.0, 15.0, 5.0]})
    roles = Roles("id", (Objective("f1", "min"), Objective("f2", "max")), system="system")
    return systems.systems_view(build_eval_table(frame, roles))


def test_front_staircase_in_mixed_directions():
    view = _view()
    mask = view.front_in(["f1", "f2"])
    assert mask.tolist() == [True, True, False, True]
    figure = figures.front_figure(view, ["a", "b"], mask, x="f1", y="f2")
    front = next(t for t in figure["data"] if t["name"] == "a front")
    assert front["x"] == [1.0, 2.0] and front["y"] == [10.0, 20.0]
    assert front["line"]["shape"] == "hv"     # corner (2, 10): worse in both
    assert figure["layout"]["yaxis"]["title"]["text"] == "f2 (max)"
    with pytest.raises(Exception, match="not a chosen objective"):
        view.front_in(["f1", "f9"])


def test_radar_and_table_say_why_a_value_is_undefined():
    view = _view()
    radar = figures.radar_figure(view, ["b", "missing"])
    (trace,) = radar["data"]
    assert trace["name"].startswith("b (area ") and trace["r"][3] == 0.0
    assert "undefined (needs at least 2" in trace["hovertext"][3]
    data, columns, tooltips = figures.indicator_rows(view)
    assert data[1]["ud_bar"] == "undefined" and data[1]["os"] == "undefined"
    assert data[1]["why"].startswith("UD_bar, OS: needs at least 2")
    assert "needs at least 2" in tooltips[1]["os"]["value"]
    assert [c["id"] for c in columns][:3] == ["system", "rows", "hv"]


def _significance_view(rows, *, baseline, candidate, n_permutations):
    """The significance test on (id, system, seed, f1, f2) rows, both objectives minimised."""
    frame = pd.DataFrame(rows, columns=["id", "system", "seed", "f1", "f2"])
    roles = Roles("id", (Objective("f1", "min"), Objective("f2", "min")), system="system",
                  seed="seed")
    return systems.significance_test(build_eval_table(frame, roles), baseline=baseline,
                                     candidate=candidate, n_permutations=n_permutations,
                                     rng_seed=1)


def test_test_figures_mark_the_observed_delta():
    rng = np.random.default_rng(0)
    rows = [(f"{s}{k}{j}", s, k, rng.random(), rng.random()) for s in "xy" for k in range(3)
            for j in range(3)]
    view = _significance_view(rows, baseline="x", candidate="y", n_permutations=300)
    histogram = figures.null_histogram(view)
    assert len(histogram["data"][0]["x"]) == 300
    assert histogram["layout"]["shapes"][0]["x0"] == pytest.approx(view.test.delta)
    spread = figures.spread_figure(view)
    assert [len(t["y"]) for t in spread["data"]] == [3, 3]
    assert spread["data"][0]["hovertext"][0].startswith("run x · 0")


def test_the_summary_opens_with_the_verdict_in_words():
    rows = [(f"{s}{k}{j}", s, k, j / 3 + (0.5 if s == "old" else 0.0),
             1 - j / 3 + (0.5 if s == "old" else 0.0)) for s in ("old", "new")
            for k in range(5) for j in range(4)]
    view = _significance_view(rows, baseline="old", candidate="new", n_permutations=999)
    summary = page.test_summary(view)
    assert summary.children[0].id == page.ID.VERDICT
    text = find(summary, page.ID.VERDICT).children.children
    assert text == verdict(view.test, ("old",), ("new",))
    assert text.startswith("At the 5% level, the candidate's front (new) is significantly "
                           "better than the baseline's (old) in hypervolume (p = ")
    assert f"p = {view.test.p_value:.2g}, 999 permutations)" in text


def test_the_side_pickers_are_labelled_as_the_multi_selects_they_are():
    """Each side takes several systems (the e2e test runs SVM + LR against Feldman-SVM +
    Feldman-LR): the label before each picker says "systems (one or more)"."""
    from copa_dash.ui.features.systems.ids import SystemsIds as ID

    opened = open_dataset("fairness-adult-sex")
    state = with_defaults(parse_query({"tab": "significance", "base": ["SVM", "LR"],
                                       "cand": ["Feldman-SVM", "Feldman-LR"]}), opened,
                          systems.system_names(opened.table))
    panel = page._significance_panel(opened.table, state, systems.system_names(opened.table))
    for side, values in ((ID.BASELINE, ["SVM", "LR"]), (ID.CANDIDATE, ["Feldman-SVM", "Feldman-LR"])):
        block = next(c for c in walk(panel) if isinstance(getattr(c, "children", None), list)
                     and any(getattr(k, "id", None) == side for k in c.children))
        label, picker = block.children
        assert picker.id == side and picker.multi is True and picker.value == values
        assert label.htmlFor == side and label.children.endswith("systems (one or more)")


def test_a_table_without_runs_says_so_and_offers_no_run():
    """amlb-2022 has no seed column (its rows are fold averages): the significance tab says
    up front, in words without CLI flags, that the test needs runs, and Run is disabled and
    hidden (it used to be offered, then answer with ``--seed COL``). A table with seeds keeps
    Run enabled and shows no such note."""
    from copa_dash.ui.features.systems.ids import SystemsIds as ID

    for name, blocked in (("amlb-2022", True), ("fairness-adult-sex", False)):
        opened = open_dataset(name)
        names = systems.system_names(opened.table)
        state = with_defaults(parse_query({"tab": "significance"}), opened, names)
        panel = page._significance_panel(opened.table, state, names)
        note = find(panel, ID.TEST_BLOCKED)
        run = find(panel, ID.RUN)
        words = text(note)
        if blocked:
            assert "no seed column" in words and "fairness" in words and "--" not in words
            assert run.disabled is True
        else:
            assert note.children is None and not run.disabled


def test_the_indicators_say_in_words_that_they_are_being_computed():
    """Finding F2: a first Systems view of a 12-objective upload was a blank panel for 40 s.
    A status line says what is computed, for how many systems (counted here with pandas),
    from the first paint, and the indicators callback shows it while it runs and hides it
    after (its ``running`` entry)."""
    from copa_dash.app_factory import create_app
    from copa_dash.ui.features.systems.ids import SystemsIds as ID

    app = create_app()
    drawn = page.layout(dataset="fairness-adult-sex")
    line = find(drawn, ID.WORKING)
    frame = open_dataset("fairness-adult-sex").table.frame
    assert line.role == "status" and not (getattr(line, "style", None) or {}).get("display")
    assert line.children.startswith(
        f"Working: computing the indicators of {frame['algorithm'].nunique()} systems")
    # the callbacks as Dash sends them to the browser (what /_dash-dependencies serves)
    running = [spec.get("running") for spec in app._callback_list
               if f"{ID.TABLE}.data" in spec["output"]]
    assert running == [{"running": {f"{ID.WORKING}.style": {}},
                        "runningOff": {f"{ID.WORKING}.style": {"display": "none"}}}]


def test_the_undefined_because_column_is_left_out_when_every_value_is_defined():
    # every system with >= 2 front points: nothing undefined, so no empty column widening the
    # table past its panel at 1024 px (issue 33, F15)
    frame = pd.DataFrame({"id": list("pqrstu"), "system": ["a"] * 3 + ["b"] * 3,
                          "f1": [1.0, 2.0, 3.0, 1.5, 2.5, 0.5], "f2": [3.0, 2.0, 1.0, 2.5, 1.5, 4.0]})
    roles = Roles("id", (Objective("f1", "min"), Objective("f2", "min")), system="system")
    data, columns, _ = figures.indicator_rows(systems.systems_view(build_eval_table(frame, roles)))
    assert all(isinstance(row["os"], float) for row in data)
    assert "why" not in [c["id"] for c in columns] and all("why" not in row for row in data)
    # and it is there when a value is undefined
    data, columns, _ = figures.indicator_rows(_view())
    assert "why" in [c["id"] for c in columns]


def test_the_significance_tab_asks_its_question_before_the_controls_and_folds_the_formula():
    """Newcomer's pass (session 18): the tab opened on its p-value formula, before the
    system pickers. Now its first words are the question it answers in plain words, and the
    formula sits in "How the test works", after the pickers."""
    from dash import html

    from copa_dash.ui.features.systems.ids import SystemsIds as ID
    from copa_dash.ui.features.systems.layout import HELP_TEST, TEST_QUESTION

    drawn = page.layout(dataset="fairness-adult-sex", tab="significance")
    nodes = list(walk(drawn))
    question = next(i for i, n in enumerate(nodes) if getattr(n, "children", None) == TEST_QUESTION)
    picker = next(i for i, n in enumerate(nodes) if getattr(n, "id", None) == ID.BASELINE)
    formula = next(i for i, n in enumerate(nodes) if getattr(n, "children", None) == HELP_TEST)
    assert question < picker < formula
    folded = [n for n in nodes if isinstance(n, html.Details)
              and any(getattr(c, "children", None) == HELP_TEST for c in walk(n))]
    assert len(folded) == 1 and "How the test works" in text(folded[0])
