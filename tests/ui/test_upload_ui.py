"""The upload page's mapping form: the row-number id choice, its note, and the live check that
at least two objectives are chosen."""

from __future__ import annotations

import pandas as pd
import pytest

from copa_dash.core.errors import InvalidInputError
from copa_dash.data.io import add_row_ids, guess_roles
from copa_dash.ui.features.upload.callbacks import objectives_check, roles_from_mapping
from copa_dash.ui.features.upload.ids import UploadIds
from copa_dash.ui.features.upload.layout import ROW_NUMBER_NOTE, mapping_controls

FRAME = pd.DataFrame({"score": [0.9, 0.8, 0.7], "loss": [0.3, 0.2, 0.4],
                      "family": ["a", "a", "b"]})


def find(component, component_id):
    """The component with ``component_id`` in a Dash tree (None if absent)."""
    if getattr(component, "id", None) == component_id:
        return component
    children = getattr(component, "children", None)
    for child in children if isinstance(children, (list, tuple)) else [children]:
        if child is not None and not isinstance(child, str):
            found = find(child, component_id)
            if found is not None:
                return found
    return None


def test_row_number_is_offered_proposed_and_explained_when_no_column_names_the_rows():
    proposed = guess_roles(add_row_ids(FRAME))
    form = mapping_controls(FRAME, proposed, "row")
    id_pick = find(form, UploadIds.ID_COLUMN)
    assert id_pick.value == "row"
    assert id_pick.options[-1] == {"label": "row number (row 1, row 2, ...)", "value": "row"}
    assert [o["value"] for o in id_pick.options[:-1]] == ["score", "loss", "family"]
    assert find(form, UploadIds.ID_NOTE).children == ROW_NUMBER_NOTE
    assert "row 1, row 2" in ROW_NUMBER_NOTE and "score" in ROW_NUMBER_NOTE


def test_a_named_id_has_no_note_and_its_row_is_kept_but_disabled():
    frame = FRAME.assign(model=["x", "y", "z"])
    form = mapping_controls(frame, guess_roles(frame), "row")
    assert find(form, UploadIds.ID_COLUMN).value == "model"
    assert find(form, UploadIds.ID_NOTE).children == ""
    model_role = find(form, {"type": UploadIds.ROLE, "column": "model"})
    assert model_role.disabled and model_role.value == "metadata"


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
