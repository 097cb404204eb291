"""Searching dropdowns over long entry lists (ui/common/long_options): what they hold."""

from __future__ import annotations

from copa_dash.ui.common.long_options import SHOWN, matching_options


def _values(options):
    return [o["value"] for o in options]


def test_nothing_typed_gives_the_first_entries_and_keeps_the_chosen():
    values = [f"model-{i}" for i in range(2000)]
    options = matching_options(values, None, chosen=["model-1999"])
    assert _values(options)[0] == "model-1999" and len(options) == SHOWN + 1
    assert _values(options)[1:4] == ["model-0", "model-1", "model-2"]


def test_every_typed_word_must_match_case_insensitively():
    values = ["Qwen/Qwen2-72B-Instruct", "meta-llama/Llama-3-8B", "qwen/qwen1.5-7b-chat"]
    assert _values(matching_options(values, "qwen instruct")) == ["Qwen/Qwen2-72B-Instruct"]
    assert _values(matching_options(values, "QWEN")) == [values[0], values[2]]
    assert matching_options(values, "mistral") == []


def test_a_chosen_value_is_listed_once():
    assert _values(matching_options(["a", "b"], "a", chosen=["a"])) == ["a"]


def test_rankings_page_sends_a_short_pin_list_for_a_long_table():
    """The layout of Rankings on Open LLM (2,921 rows) holds at most SHOWN pin options."""
    from copa_dash.app_factory import create_app
    from copa_dash.ui.features.rankings import layout as rankings_layout
    from copa_dash.ui.features.rankings.ids import RankingsIds as ID
    from tests.ui.dash_tree import find

    create_app()
    page = rankings_layout.layout(dataset="open-llm-leaderboard-v2")
    pins = find(page, ID.PINS)
    assert 0 < len(pins.options) <= SHOWN
