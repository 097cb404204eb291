"""The upload page's form: built from the proposal (directions to choose, runs, the name from
the file), the "What we read" notes, and the live check of the objectives."""

from __future__ import annotations

import pandas as pd
import pytest

from copa_dash.config import Settings
from copa_dash.core.errors import InvalidInputError
from copa_dash.services.uploads import stage_upload
from copa_dash.ui.features.upload.ids import UploadIds, UploadReadIds
from copa_dash.ui.features.upload.mapping_check import objectives_check, roles_from_mapping
from copa_dash.ui.features.upload.proposal_form import proposal_controls
from copa_dash.ui.features.upload.read_panel import what_we_read
from copa_dash.ui.features.upload.role_table import shows_direction
from tests.ui.dash_tree import find

FRAME = pd.DataFrame({"score": [0.9, 0.8, 0.7], "loss": [0.3, 0.2, 0.4],
                      "family": ["a", "a", "b"]})


def _staged(tmp_path, name, text):
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    return stage_upload(settings, name, text.encode())


def test_the_form_follows_the_proposal_and_asks_for_unknown_directions(tmp_path):
    staged = _staged(tmp_path, "arena prices.csv",
                     "model;overall;price ($/M tokens)\na;1300;4,5\nb;1250;0,5\nc;1200;1\n")
    form = proposal_controls(staged)
    assert find(form, UploadIds.ID_COLUMN).value == "model"
    assert find(form, UploadIds.NAME).value == "arena prices"
    overall = find(form, {"type": UploadIds.DIRECTION, "column": "overall"})
    price = find(form, {"type": UploadIds.DIRECTION, "column": "price ($/M tokens)"})
    assert overall.value is None and price.value == "min"
    assert find(form, {"type": UploadIds.ROLE, "column": "overall"}).value == "objective"
    assert find(form, UploadReadIds.RUNS).value == "runs"
    panel = what_we_read(staged)
    notes = [li.children for li in panel.children[2].children]
    assert any("',' as the decimal mark" in n for n in notes)
    assert any("No direction guessed for 'overall'" in n for n in notes)


def test_runs_are_offered_in_plain_words_and_rows_named_by_system_and_seed(tmp_path):
    staged = _staged(tmp_path, "runs.csv", "model,seed,err,latency (ms)\n"
                     "a,0,0.1,3\na,1,0.2,4\nb,0,0.3,1\nb,1,0.2,2\n")
    form = proposal_controls(staged)
    runs = find(form, UploadReadIds.RUNS)
    assert [o["label"] for o in runs.options] == [
        "one row per run (analyse systems)", "average the runs per model (one row each)"]
    assert find(form, UploadIds.ID_COLUMN).value == staged.row_ids
    assert "runs of each system" in find(form, UploadIds.ID_NOTE).children
    assert find(form, {"type": UploadIds.ROLE, "column": "model"}).value == "system"


def test_an_objective_without_direction_is_refused_naming_it():
    with pytest.raises(InvalidInputError, match="^choose min or max for 'loss'"):
        roles_from_mapping("row", ["score", "loss"], ["objective", "objective"], ["max", None])
    check = objectives_check("row", ["score", "loss"], ["objective", "objective"], ["max", None])
    assert check.className == "alert alert-warning" and "Choose min or max for 'loss'" in \
        check.children
    assert "find a column" not in check.children         # two columns: one page, all shown


def test_on_a_paged_role_table_the_check_says_how_to_reach_an_undecided_column():
    columns = ["row", *(f"score_{i}" for i in range(40)), "loss"]
    roles = ["id", *["objective"] * 41]
    check = objectives_check("row", columns, roles, ["max"] * 41 + [None])
    assert "Choose min or max for 'loss'" in check.children
    assert "typing its name in the box 'find a column by its name'" in check.children


def test_roles_from_mapping_with_the_row_number_as_id():
    roles = roles_from_mapping("row", ["score", "loss", "family"],
                               ["objective", "objective", "metadata"], ["max", "min", "max"])
    assert roles.id == "row" and roles.objective_names == ("score", "loss")
    assert roles.metadata == ("family",)


def test_no_objective_is_refused_with_the_two_objectives_reason():
    with pytest.raises(InvalidInputError, match="^choose at least two objectives: a Pareto "
                                                "front needs something to trade off"):
        roles_from_mapping("row", ["score"], ["metadata"], ["max"])


@pytest.mark.parametrize("roles, kind, text", [
    (["objective", "objective", "metadata"], "info", "2 objectives: score, loss."),
    (["objective", "metadata", "metadata"], "warning",
     ("Choose at least two objectives: a Pareto front needs something to trade off (only "
      "'score' is one now). Set another numeric column's role to objective before saving.")),
    (["metadata", "ignore", "metadata"], "warning", "(none is chosen)"),
])
def test_live_objectives_check(roles, kind, text):
    check = objectives_check("row", ["score", "loss", "family"], roles)
    assert check.className == f"alert alert-{kind}" and text in check.children


def test_the_id_column_does_not_count_as_an_objective():
    check = objectives_check("score", ["score", "loss"], ["objective", "objective"])
    assert "only 'loss' is one now" in check.children


def test_directions_are_offered_only_on_objective_rows(tmp_path):
    staged = _staged(tmp_path, "runs.csv", "model,accuracy,latency_ms,family\n"
                     "m1,0.9,12,tree\nm2,0.8,30,linear\nm3,0.7,5,tree\n")
    form = proposal_controls(staged)
    roles = {c: find(form, {"type": UploadIds.ROLE, "column": c}).value
             for c in ("model", "accuracy", "latency_ms", "family")}
    assert roles["accuracy"] == roles["latency_ms"] == "objective"
    assert roles["family"] == "system"   # repeated text: guessed as the system column
    hidden = {c: find(form, {"type": UploadIds.DIRECTION_CELL, "column": c}).hidden
              for c in roles}
    assert hidden == {"model": True, "accuracy": False, "latency_ms": False, "family": True}
    # the radios stay in the page (the save reads one per column), inside the hidden cell
    for column in roles:
        cell = find(form, {"type": UploadIds.DIRECTION_CELL, "column": column})
        assert cell.children.id == {"type": UploadIds.DIRECTION, "column": column}


@pytest.mark.parametrize("column, role, id_column, shown", [
    ("loss", "objective", "model", True),
    ("loss", "metadata", "model", False),
    ("loss", "system", "model", False),
    ("loss", "ignore", "model", False),
    ("model", "objective", "model", False),   # the id is never an objective
    ("loss", None, "model", False),
])
def test_shows_direction(column, role, id_column, shown):
    assert shows_direction(column, role, id_column) is shown


def test_the_saved_summary_of_an_unknown_upload_says_so_in_words(tmp_path):
    from copa_dash.ui.features.upload.saved_summary import back_address, saved_summary

    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    shown = saved_summary("0" * 32, settings)
    assert "No saved upload has this id any more" in str(shown.children)
    assert back_address("ab" * 16) == "/upload?saved=" + "ab" * 16
