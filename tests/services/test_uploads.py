"""The upload page's two steps (stage, then save with the user's roles): generated row ids,
repeated ids, runs (named, or averaged), pasted text, and the two objectives a Pareto front
needs; a refused save stores nothing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from copa_dash.config import Settings
from copa_dash.core.errors import InvalidInputError
from copa_dash.data.schema import Objective, Roles
from copa_dash.services.store import DatasetStore
from copa_dash.services.uploads import finalize_upload, save_upload, stage_pasted, stage_upload

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
    again = save(settings, stage_upload(settings, "numbers.csv", NUMBERS), staged.proposed)
    assert again != dataset_id  # the same upload twice: two datasets over one stored table
    store = DatasetStore(settings.data_dir)
    assert store.load(again).frame.equals(table.frame) and store.count() == 2
    assert len(list((settings.data_dir / "objects").glob("*.parquet"))) == 1


def test_save_upload_hands_out_the_owner_token_once(settings):
    staged = stage_upload(settings, "named.csv", NAMED)
    saved = save_upload(settings, staged.token, staged.filename, staged.proposed,
                        name="mine", shared=False)
    store = DatasetStore(settings.data_dir)
    assert store.authorize(saved.id, saved.owner_token)["name"] == "mine"
    assert saved.owner_token not in (settings.data_dir / "records" / f"{saved.id}.json"
                                     ).read_text()


def test_staged_bytes_live_in_the_store_so_any_instance_can_save_them(tmp_path):
    url = f"memory://{tmp_path.name}/store"
    first = Settings(data_dir=tmp_path / "a", cache_dir=tmp_path / "c1", data_url=url)
    second = Settings(data_dir=tmp_path / "b", cache_dir=tmp_path / "c2", data_url=url)
    staged = stage_upload(first, "named.csv", NAMED)
    dataset_id = save(second, staged, staged.proposed)
    assert DatasetStore(url).load(dataset_id).n_rows == 3
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


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


RUNS = (b"model,seed,err,latency (ms)\n"
        b"a,0,0.1,3\na,1,0.3,5\nb,0,0.2,1\nb,1,0.2,2\nc,0,0.5,9\nc,1,0.4,8\n")


def test_runs_are_saved_named_by_system_and_seed_with_units_and_the_file_name(settings):
    staged = stage_upload(settings, "my runs.csv", RUNS)
    assert staged.proposal.runs and staged.suggested_name == "my runs"
    roles = staged.proposal.roles()
    store = DatasetStore(settings.data_dir)
    dataset_id = save(settings, staged, roles)
    table = store.load(dataset_id)
    assert table.ids.tolist()[:2] == ["a · seed 0", "a · seed 1"]
    assert table.roles.system == "model" and table.roles.seed == "seed"
    assert [o.display for o in table.roles.objectives] == ["err", "latency [ms]"]
    assert store.info(dataset_id)["name"] == "my runs"


def test_averaging_the_runs_saves_one_row_per_model(settings):
    staged = stage_upload(settings, "runs.csv", RUNS)
    dataset_id = finalize_upload(settings, staged.token, staged.filename,
                                 staged.proposal.roles(), name=None, shared=False, average=True)
    table = DatasetStore(settings.data_dir).load(dataset_id)
    assert table.ids.tolist() == ["a", "b", "c"]
    assert table.frame["err"].tolist() == pytest.approx([0.2, 0.2, 0.45])  # means by hand
    assert table.frame["runs"].tolist() == [2, 2, 2]


def test_a_pasted_markdown_table_is_staged_like_a_file(settings):
    staged = stage_pasted(settings, "| model | acc | params |\n|---|--:|--:|\n"
                                    "| a | 56.5% | 7B |\n| b | 61.1% | 13B |\n")
    assert staged.frame["acc"].tolist() == [56.5, 61.1]
    assert staged.suggested_name == "pasted table"
    assert [(g.name, g.direction, g.unit) for g in staged.proposal.of_role("objective")] == [
        ("acc", "max", "%"), ("params", "min", "B")]
    with pytest.raises(InvalidInputError, match="^the paste box is empty"):
        stage_pasted(settings, "  ")
