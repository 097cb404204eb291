"""The upload page's two steps (stage, then save with the user's roles): generated row ids,
repeated ids, and the two objectives a Pareto front needs; a refused save stores nothing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from copa_dash.config import Settings
from copa_dash.core.errors import InvalidInputError
from copa_dash.data.schema import Objective, Roles
from copa_dash.services.store import DatasetStore
from copa_dash.services.uploads import finalize_upload, stage_upload

# numbers only: a unique float score and a unique integer elo, neither of them a name
NUMBERS = b"score,loss,elo\n0.91,0.30,1210\n0.85,0.25,1180\n0.78,0.41,1250\n0.88,0.33,1100\n"
NAMED = b"model,accuracy,training_time,family\nm1,0.91,120,tree\nm2,0.88,30,linear\n" \
        b"m3,0.93,400,tree\n"


@pytest.fixture
def settings(tmp_path):
    return Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")


def save(settings, staged, roles, name=None):
    return finalize_upload(settings, staged.token, staged.filename, roles, name=name,
                           shared=False)


def test_a_table_of_numbers_is_proposed_row_numbers_and_saved_with_them(settings):
    staged = stage_upload(settings, "numbers.csv", NUMBERS)
    assert staged.row_ids == "row" and staged.proposed.id == staged.row_ids
    assert staged.proposed.id == "row"
    assert "row" not in staged.frame.columns  # the preview shows the file as it is
    assert {"score", "elo"} <= set(staged.proposed.objective_names) | set(
        staged.proposed.metadata)
    dataset_id = save(settings, staged, staged.proposed)
    table = DatasetStore(settings.data_dir).load(dataset_id)
    assert table.ids.tolist() == ["row 1", "row 2", "row 3", "row 4"]
    assert table.frame.columns.tolist() == ["row", "score", "loss", "elo"]
    assert table.frame["elo"].tolist() == [1210, 1180, 1250, 1100]
    assert save(settings, stage_upload(settings, "numbers.csv", NUMBERS),
                staged.proposed) == dataset_id  # the same upload is the same dataset


def test_row_numbers_can_replace_a_proposed_name_column(settings):
    staged = stage_upload(settings, "named.csv", NAMED)
    assert staged.proposed.id == "model" and staged.proposed.id != staged.row_ids
    roles = replace(staged.proposed, id=staged.row_ids,
                    metadata=(*staged.proposed.metadata, "model"))
    table = DatasetStore(settings.data_dir).load(save(settings, staged, roles))
    assert table.ids.tolist() == ["row 1", "row 2", "row 3"]
    assert table.frame["model"].tolist() == ["m1", "m2", "m3"]


def test_a_file_with_its_own_row_column_keeps_it_and_numbers_rows_apart(settings):
    staged = stage_upload(settings, "r.csv", b"row,loss,acc\n5,1.0,0.5\n5,2.0,0.7\n")
    assert staged.row_ids == "row_2" and staged.proposed.id == "row_2"
    table = DatasetStore(settings.data_dir).load(save(settings, staged, staged.proposed))
    assert table.frame.columns.tolist() == ["row_2", "row", "loss", "acc"]
    assert table.ids.tolist() == ["row 1", "row 2"]


def test_an_id_column_with_repeated_values_is_refused_naming_them(settings):
    staged = stage_upload(settings, "named.csv", NAMED)
    roles = Roles("family", (Objective("accuracy", "max"), Objective("training_time", "min")))
    with pytest.raises(InvalidInputError, match="^the id column 'family' has repeated values: "
                                                "'tree' in rows 1, 3 "):
        save(settings, staged, roles)
    assert DatasetStore(settings.data_dir).count() == 0


def test_one_objective_is_refused_naming_the_numeric_columns_that_could_join_it(settings):
    store = DatasetStore(settings.data_dir)
    staged = stage_upload(settings, "named.csv", NAMED)
    kept = save(settings, staged, staged.proposed)
    one = Roles("model", (Objective("accuracy", "max"),), metadata=("training_time", "family"))
    with pytest.raises(InvalidInputError) as refused:
        save(settings, staged, one)
    assert str(refused.value) == (
        "choose at least two objectives: a Pareto front needs something to trade off. Only "
        "'accuracy' is one now; give another numeric column the role 'objective' "
        "('training_time'). Nothing was saved.")
    assert store.count() == 1 and store.load(kept).n_rows == 3  # what was stored stays


def test_one_objective_in_a_table_with_one_number_says_to_add_a_measurement(settings):
    staged = stage_upload(settings, "one.csv", b"model,accuracy\na,0.5\nb,0.7\n")
    with pytest.raises(InvalidInputError, match="the table has no other numeric column: add a "
                                                "second measurement to the file"):
        save(settings, staged, staged.proposed)
    assert DatasetStore(settings.data_dir).count() == 0
