"""The working context's codec (ui/common/working_context.py) and the pages' apply_context hooks."""

from __future__ import annotations

import math
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from copa_dash.config import Settings
from copa_dash.services.catalog import open_dataset
from copa_dash.services.generalization import metric_choices
from copa_dash.ui.common.context import DATASET_PAGES, _config
from copa_dash.ui.common.working_context import (
    KEYS,
    PREFIX,
    WorkingContext,
    context_notes,
    context_query,
    fit_context,
    parse_context_query,
    read_context,
    without_context,
)
from copa_dash.ui.features.explore import state as explore_state
from copa_dash.ui.features.explore.link_check import link_notes
from copa_dash.ui.features.generalization import state as generalization_state
from copa_dash.ui.features.posets import state as posets_state
from copa_dash.ui.features.rankings import state as rankings_state
from copa_dash.ui.features.systems import state as systems_state

CONTEXT = WorkingContext(objectives=(("migd", "min"), ("mhvd", "max"), ("a:b", "min")),
                         ranges=(("migd", None, 0.5), ("mhvd", -1e-7, 3.0), ("x", 0.1, None)),
                         sets=(("problem", ("FDA1", "FDA2")), ("empty", ())))


@pytest.fixture(scope="module")
def settings(tmp_path_factory):
    root = tmp_path_factory.mktemp("context")
    return Settings(data_dir=root / "data", cache_dir=root / "cache")


def test_the_context_round_trips_through_its_query():
    text = context_query(CONTEXT)
    assert text.startswith("ctx_obj=migd:min&ctx_obj=mhvd:max&ctx_obj=a:b:min&ctx_range=migd::0.5")
    assert parse_context_query(text) == CONTEXT


def test_the_context_reads_explores_own_query_form():
    """The browser copies Explore's obj/range/in under the prefix: what Explore writes, the
    context reads back the same."""
    state = explore_state.ExploreState(dataset="d", objectives=CONTEXT.objectives,
                                       ranges=CONTEXT.ranges, sets=CONTEXT.sets)
    explore = parse_qs(explore_state.to_query(state))
    carried = {"dataset": ["d"], **{PREFIX + k: explore[k] for k in KEYS if k in explore}}
    assert read_context(carried) == CONTEXT


def test_a_link_with_settings_of_its_own_carries_no_context():
    assert read_context({"dataset": "d", "ctx_obj": "a:min", "tab": "ranks"}) is None
    assert read_context({"dataset": "d"}) is None
    assert read_context({"ctx_in": "t:x"}) == WorkingContext(sets=(("t", ("x",)),))


def test_unknown_objectives_and_columns_are_dropped_with_a_note():
    fitted, notes = fit_context(CONTEXT, ["migd", "mhvd"], ["problem"])
    assert fitted.objectives == (("migd", "min"), ("mhvd", "max"))
    assert fitted.ranges == (("migd", None, 0.5), ("mhvd", -1e-7, 3.0))
    assert fitted.sets == (("problem", ("FDA1", "FDA2")),)
    assert notes == ["objective a:b: this dataset has no such objective, left out",
                     "constraint on x: this dataset has no such column, left out",
                     "constraint on empty: this dataset has no such column, left out"]


def test_the_notes_say_what_applied_and_why_the_rest_did_not():
    used = WorkingContext(objectives=CONTEXT.objectives[:2], sets=CONTEXT.sets[:1])
    notes = context_notes("Rankings", CONTEXT, used=used, left_out=["objective q: gone"],
                          table_directions={"migd": "min", "mhvd": "min"},
                          why_no_ranges="sets only")
    assert notes == [
        "Opened with your working context: objectives migd, mhvd; constraints problem is FDA1 or FDA2.",
        ("Rankings takes every objective in its dataset's own direction: your direction for "
         "mhvd (max) is not used here."),
        ("Range constraints (migd <= 0.5; -1e-07 <= mhvd <= 3; x >= 0.1) do not apply on "
         "Rankings: sets only."),
        "Not here: objective q: gone."]


def test_the_browser_gets_the_codecs_constants_from_the_server():
    config = _config()
    assert config["prefix"] == PREFIX and config["keys"] == list(KEYS)
    assert config["pages"] == list(DATASET_PAGES)
    script = (Path(__file__).parents[2] / "assets" / "context.js").read_text()
    assert "config.prefix" in script and "config.keys" in script


def test_each_page_takes_what_it_can_use(settings):
    dmop = open_dataset("dmop", settings)
    context = WorkingContext(objectives=(("migd", "min"), ("mhvd", "max"), ("nope", "min")),
                             ranges=(("migd", None, 0.5),), sets=(("problem", ("FDA2",)),))
    query = {"dataset": "dmop"}

    rankings, notes = rankings_state.apply_context(
        rankings_state.with_defaults(rankings_state.parse_query(query), dmop), context, dmop)
    assert rankings.objectives == ("migd", "mhvd") and rankings.sets == (("problem", ("FDA2",)),)
    assert any("Range constraints (migd <= 0.5) do not apply on Rankings" in n for n in notes)
    assert "Not here: objective nope: this dataset has no such objective, left out." in notes

    systems, notes = systems_state.apply_context(systems_state.parse_query(query), context, dmop)
    assert systems.objectives == ("migd", "mhvd")
    assert any("do not apply on Systems" in n for n in notes)

    posets, notes = posets_state.apply_context(posets_state.parse_query(query), context, dmop)
    assert posets.criteria == ("migd", "mhvd")

    explore, notes = explore_state.apply_context(
        explore_state.with_defaults(explore_state.parse_query(query), dmop, given={"dataset"}),
        context, dmop, given={"dataset"})
    assert explore.objectives == (("migd", "min"), ("mhvd", "max"))
    assert explore.ranges == (("migd", None, 0.5),) and explore.sets == (("problem", ("FDA2",)),)
    assert explore.focus == ("migd",) and explore.x in ("migd", "mhvd")
    assert explore.p == math.inf


def test_systems_keeps_its_default_objectives_when_fewer_than_two_apply(settings):
    dmop = open_dataset("dmop", settings)
    state, notes = systems_state.apply_context(
        systems_state.parse_query({}), WorkingContext(objectives=(("migd", "min"),)), dmop)
    assert state.objectives == ()           # with_defaults then takes the default view's
    assert any("at least two objectives" in n for n in notes)


def test_val_and_test_objectives_choose_their_metric(settings):
    opened = open_dataset("breast-cancer-val-test", settings)
    context = WorkingContext(objectives=(("val_precision", "max"), ("test_recall", "min"),
                                         ("val_f1", "max")), ranges=(("budget", 1.0, None),))
    state, notes = generalization_state.apply_context(
        generalization_state.parse_query({}), context, metric_choices(opened))
    assert state.metrics == (("precision", "max"), ("recall", "min"))
    assert any("do not apply on Val -> test" in n for n in notes)
    assert any("val_f1: no validation/test metric" in n for n in notes)


def test_no_context_changes_nothing(settings):
    dmop = open_dataset("dmop", settings)
    state = rankings_state.parse_query({"dataset": "dmop"})
    assert rankings_state.apply_context(state, None, dmop) == (state, None)


def test_constraints_alone_are_said_as_such():
    used = WorkingContext(sets=(("t", ("x",)),))
    assert context_notes("Explore", used, used=used) == [
        "Opened with your working context: constraints t is x."]


def test_explores_link_check_does_not_call_the_context_keys_unknown(settings):
    dmop = open_dataset("dmop", settings)
    query = {"dataset": "dmop", "ctx_obj": ["migd:min", "mhvd:min"]}
    state = explore_state.with_defaults(explore_state.parse_query(query), dmop, given=set(query))
    assert link_notes(without_context(query), state, dmop.table.objective_names) == []
    assert link_notes(query, state, dmop.table.objective_names) != []
