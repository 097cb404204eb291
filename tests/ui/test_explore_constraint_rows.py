"""Explore on a wide upload (issue 33, session 15): min/max boxes only for the objectives and
the constrained columns, the other numeric columns in one "add a constraint on..." list; a
shared link's constraint on a column that is no objective still shows, with its value, and
still applies; choosing a column in the list appends its boxes."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from dash import Patch

from copa_dash.config import Settings
from copa_dash.services.catalog import open_dataset
from copa_dash.services.uploads import save_upload, stage_upload
from copa_dash.ui.features.explore import constraint_add
from copa_dash.ui.features.explore import layout as page
from copa_dash.ui.features.explore.ids import ExploreIds as ID
from tests.ui.dash_tree import walk

FAIRNESS = Path(__file__).parents[1] / "data" / "messy" / "fairness_adult_sex.csv"


@pytest.fixture()
def upload(tmp_path, monkeypatch):
    """The fairness Adult/sex file saved as the upload page saves it (proposal accepted)."""
    monkeypatch.setenv("COPA_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COPA_CACHE_DIR", str(tmp_path / "cache"))
    settings = Settings.from_env()
    staged = stage_upload(settings, FAIRNESS.name, FAIRNESS.read_bytes())
    return save_upload(settings, staged.token, staged.filename, staged.proposed,
                       name=staged.suggested_name, shared=False).id


def _boxes(built, kind):
    return {n.id["column"]: n for n in walk(built)
            if isinstance(getattr(n, "id", None), dict) and n.id["type"] == kind}


def _numeric(frame):
    """Numeric, non-boolean columns holding a number (counted here from the file's frame)."""
    return [c for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c])
            and not pd.api.types.is_bool_dtype(frame[c]) and frame[c].notna().any()]


def test_the_wide_upload_gets_boxes_for_its_objectives_only_and_offers_the_rest(upload):
    table = open_dataset(upload, Settings.from_env()).table
    built = page.layout(dataset=upload)
    lows, highs = _boxes(built, ID.RANGE_MIN), _boxes(built, ID.RANGE_MAX)
    objectives = list(table.objective_names)
    assert len(objectives) == 12
    assert list(lows) == objectives and list(highs) == objectives    # 24 boxes, was 424
    pattern = [n for n in walk(built) if isinstance(getattr(n, "id", None), dict)]
    assert len(pattern) < 100
    offered = next(n for n in walk(built) if getattr(n, "id", None) == ID.ADD_CONSTRAINT)
    numeric = _numeric(table.frame)
    assert len(numeric) > 150            # the table is wide: every other one is offered
    listed = [o["value"] for o in offered.options]
    assert len(listed) == len(set(listed)) and set(listed) == set(numeric) - set(objectives)
    first = offered.options[0]
    values = table.frame[first["value"]]
    assert first["label"] == (f"{first['value']} (observed {values.min():.4g} to "
                              f"{values.max():.4g})")


def test_a_linked_constraint_on_a_column_not_chosen_shows_and_applies(upload):
    from copa_dash.ui.features.explore import view_memo
    from copa_dash.ui.features.explore.state import parse_query, with_defaults

    table = open_dataset(upload, Settings.from_env()).table
    column = next(c for c in _numeric(table.frame) if c not in table.objective_names
                  and table.frame[c].nunique() > 3)
    cut = float(table.frame[column].median())
    built = page.layout(dataset=upload, range=f"{column}::{cut}")
    lows, highs = _boxes(built, ID.RANGE_MIN), _boxes(built, ID.RANGE_MAX)
    assert lows[column].value is None and highs[column].value == cut
    offered = next(n for n in walk(built) if getattr(n, "id", None) == ID.ADD_CONSTRAINT)
    assert column not in [o["value"] for o in offered.options]
    state = with_defaults(parse_query({"dataset": upload, "range": f"{column}::{cut}"}),
                          open_dataset(upload, Settings.from_env()), given={"dataset", "range"})
    result = view_memo.exploration(state)
    kept = table.frame[column] <= cut                 # counted on the frame, not by the page
    assert len(result.ranking) == int(kept.sum()) < len(table.frame)


def test_choosing_a_column_in_the_list_appends_its_boxes_and_drops_it_from_the_list(upload):
    from unittest.mock import patch

    table = open_dataset(upload, Settings.from_env()).table
    built = page.layout(dataset=upload)
    offered = next(n for n in walk(built) if getattr(n, "id", None) == ID.ADD_CONSTRAINT)
    column = offered.options[3]["value"]
    with patch.object(constraint_add, "current_settings", Settings.from_env):
        rows, options, value, label, hidden = constraint_add.add_constraint(
            column, offered.options, upload)
    assert isinstance(rows, Patch) and value is None
    assert [o["value"] for o in options] == [o["value"] for o in offered.options
                                            if o["value"] != column]
    assert label == f"Add a constraint on another column ({len(offered.options) - 1})"
    assert hidden is False
    appended = rows.to_plotly_json()["operations"][0]["params"]["value"]
    ids = [n.id for n in walk(appended) if isinstance(getattr(n, "id", None), dict)]
    assert ids == [{"type": ID.RANGE_MIN, "column": column},
                   {"type": ID.RANGE_MAX, "column": column},
                   {"type": ID.RANGE_REMOVE, "column": column}]
    assert ids and table.frame[column].notna().any()


def test_removing_an_added_row_deletes_it_and_puts_the_column_back_in_its_place(upload):
    from unittest.mock import patch

    built = page.layout(dataset=upload)
    offered = next(n for n in walk(built) if getattr(n, "id", None) == ID.ADD_CONSTRAINT)
    shown = [n.id["column"] for n in walk(built)
             if isinstance(getattr(n, "id", None), dict) and n.id["type"] == ID.RANGE_MIN]
    assert not [n for n in walk(built) if isinstance(getattr(n, "id", None), dict)
                and n.id["type"] == ID.RANGE_REMOVE]          # objectives: no remove button
    column = offered.options[3]["value"]
    with patch.object(constraint_add, "current_settings", Settings.from_env):
        _, left, _, _, _ = constraint_add.add_constraint(column, offered.options, upload)
        rows, back, value, label, hidden = constraint_add.remove_constraint(
            column, shown + [column], left, upload)
        # the last column offered, added: the list hides; removed again: it shows
        last = offered.options[:1]
        *_, hides = constraint_add.add_constraint(last[0]["value"], last, upload)
        *_, shows = constraint_add.remove_constraint(last[0]["value"], [last[0]["value"]], [],
                                                     upload)
    operation = rows.to_plotly_json()["operations"][0]
    assert operation["operation"] == "Delete" and operation["location"] == [len(shown)]
    assert back == offered.options and value is None       # the same list, in the same order
    assert label == f"Add a constraint on another column ({len(offered.options)})"
    assert hidden is False and hides is True and shows is False
