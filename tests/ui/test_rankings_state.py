"""The rankings page's URL state: round trip, defaults from the dataset, bad values."""

from __future__ import annotations

from urllib.parse import parse_qs

from copa_dash.services.catalog import open_dataset
from copa_dash.ui.features.rankings.state import RankingsState, parse_query, to_query, with_defaults


def _round_trip(state: RankingsState) -> RankingsState:
    return parse_query(parse_qs(to_query(state)))


def test_state_round_trips_through_the_query():
    state = RankingsState(dataset="decodingtrust", tab="benchmark", criteria=("mean", "copa:inf"),
                          objectives=("fairness", "privacy"), focus=("fairness",), alpha=0.7,
                          ties="keep", group="rows", top=12, by="copa:inf", pins=("GPT-4",),
                          sets=(("compressed", ("false",)),), metric="fairness",
                          reference="GPT-4", time="privacy", task_type="compressed",
                          significance=0.1)
    assert _round_trip(state) == state


def test_malformed_values_fall_back_to_defaults():
    state = parse_query({"tab": "nope", "ties": "x", "top": "-3", "alpha": "abc", "sig": "nan",
                         "group": "??", "crit": "mean,mean,copa:1"})
    assert (state.tab, state.ties, state.top, state.alpha, state.significance, state.group) == \
        ("ranks", "break", 1, 0.5, 0.05, "system")
    assert state.criteria == ("mean", "copa:1")


def test_defaults_come_from_the_dataset():
    amlb = with_defaults(RankingsState(), open_dataset("amlb-2022"))
    assert amlb.metric == "metric_error" and amlb.time == "time_infer_s"
    assert amlb.sets == (("dataset", ("Amazon_employee_access",)),)
    assert amlb.criteria[0] == "mean" and "copa:inf" in amlb.criteria
    dt = with_defaults(RankingsState(focus=("not-an-objective",)), open_dataset("decodingtrust"))
    assert len(dt.objectives) == 8 and dt.focus == ()


def test_a_set_carried_from_explore_shows_as_chosen_and_selects_its_rows():
    """Open LLM's available_on_hub holds the texts 'True'/'False'; Explore's link carries
    ``available_on_hub:true``. The "Rows taking part" picker must offer that value, or the
    browser drops it and Rankings ranks all 2,921 rows while the context bar says the
    constraint applies (finding F4). The rows it selects are the 'True' rows, counted here
    by pandas."""
    from copa_dash.data.filters import RowFilter
    from copa_dash.services.catalog import open_dataset
    from copa_dash.ui.common.working_context import read_context
    from copa_dash.ui.features.rankings import layout as page
    from copa_dash.ui.features.rankings.state import apply_context
    from tests.ui.dash_tree import walk

    opened = open_dataset("open-llm-leaderboard-v2")
    query = {"dataset": "open-llm-leaderboard-v2", "ctx_in": "available_on_hub:true"}
    state, notes = apply_context(with_defaults(parse_query(query), opened), read_context(query),
                                 opened)
    assert any("available_on_hub is true" in n for n in notes)
    picker = next(c for c in walk(page._set_filters(opened.table, state))
                  if isinstance(getattr(c, "id", None), dict)
                  and c.id.get("column") == "available_on_hub")
    assert picker.value == ["true"]
    assert set(picker.value) <= {o["value"] for o in picker.options}
    frame = opened.table.frame
    kept = RowFilter(sets={"available_on_hub": picker.value}).mask(frame)
    assert kept.sum() == (frame["available_on_hub"].astype(str) == "True").sum() < len(frame)
