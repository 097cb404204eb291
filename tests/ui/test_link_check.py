"""Hand-edited explorer links: every setting the page replaced or dropped is named."""

from __future__ import annotations

from dataclasses import replace
from urllib.parse import parse_qs

from copa_dash.services.catalog import open_dataset
from copa_dash.ui.features.explore.link_check import link_notes
from copa_dash.ui.features.explore.state import parse_query, with_defaults

DATASET = "open-llm-leaderboard-v2"


def _notes(query_string: str) -> list[str]:
    query = {k: v[0] if len(v) == 1 else v for k, v in parse_qs(query_string).items()}
    opened = open_dataset(DATASET)
    state = with_defaults(parse_query(query), opened, given=set(query))
    return link_notes(query, state, opened.table.objective_names)


def test_a_clean_link_has_no_notes():
    assert _notes(f"dataset={DATASET}&obj=bbh:max&obj=co2_cost:min&focus=bbh&alpha=0.3&p=2"
                  "&axes=cdf&x=bbh&y=co2_cost&pop=filtered&log=x&log=y") == []


def test_the_pages_own_link_has_no_notes():
    """to_query writes log=none for linear axes; the page used to call it a bad setting."""
    opened = open_dataset(DATASET)
    state = replace(with_defaults(parse_query({"dataset": DATASET}), opened,
                                  given={"dataset"}), log=())
    assert "log=none" in state.to_query()
    assert _notes(state.to_query()) == []


def test_each_bad_setting_is_named_with_what_the_view_uses_instead():
    notes = _notes(f"dataset={DATASET}&obj=bbh:max&obj=co2_cost:min&obj=nope:max&obj=bbh"
                   "&focus=math&alpha=abc&p=0.5&axes=3d&pop=some&x=zzz&colour=red&log=z")
    text = "\n".join(notes)
    assert "'colour' is not a setting" in text
    assert "obj=bbh should read COLUMN:min or COLUMN:max" in text
    assert "no objective column 'nope'" in text
    assert "focus=math is not one of the chosen objectives" in text
    assert "alpha=abc is not a number from 0 to 1; the view uses alpha = 0.5" in text
    assert "p=0.5 is not a number of at least 1" in text
    assert "axes=3d is not one of raw, cdf, summary; the view uses raw" in text
    assert "pop=some" in text and "the view uses all" in text
    assert "x=zzz is not a chosen objective" in text
    assert "log=z should read log=x or log=y; it was ignored" in text
    assert len(notes) == 10


def test_alpha_out_of_range_is_named_and_clamped():
    (note,) = _notes(f"dataset={DATASET}&alpha=7")
    assert note == "alpha=7 is not a number from 0 to 1; the view uses alpha = 1."
