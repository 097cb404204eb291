"""Staging a source like an upload: the proposal carries the source's facts, the save step reads
the staged Parquet back and stores the table under the chosen roles; off unless allowed."""

from __future__ import annotations

import pytest

from copa_dash.config import Settings
from copa_dash.core.errors import InvalidInputError
from copa_dash.services.source_uploads import available_kinds, stage_source
from copa_dash.services.store import open_store
from copa_dash.services.uploads import save_upload
from tests.data.source_backends import LM_EVAL_MODELS, make_lm_eval_folder, make_mlflow_store


@pytest.fixture
def settings(tmp_path):
    return Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache", read_sources=True)


def test_sources_are_off_unless_the_instance_allows_them(tmp_path):
    closed = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    assert available_kinds(closed) == ()
    with pytest.raises(InvalidInputError, match="COPA_READ_SOURCES=1"):
        stage_source(closed, "lm-eval", str(make_lm_eval_folder(tmp_path)))
    assert not Settings.from_env({}).read_sources    # gunicorn on 0.0.0.0 may not say its host
    assert Settings.from_env({"COPA_READ_SOURCES": "1"}).read_sources


def test_an_lm_eval_folder_is_staged_and_saved_with_its_directions(settings, tmp_path):
    staged = stage_source(settings, "lm-eval", str(make_lm_eval_folder(tmp_path)))
    assert staged.proposal.id == "model"
    assert staged.proposal.column("wikitext/word_perplexity").direction == "min"
    assert staged.proposal.column("hellaswag/acc_stderr").role == "metadata"
    assert staged.notes[0].startswith("Read from lm-eval results in ")
    saved = save_upload(settings, staged.token, staged.filename, staged.proposed, name=None,
                        shared=False)
    stored = open_store(settings).load(saved.id)
    frame, roles = stored.frame, stored.roles
    assert roles.id == "model" and sorted(frame["model"]) == sorted(LM_EVAL_MODELS)
    assert dict(zip(roles.objective_names, (o.direction for o in roles.objectives))) == {
        "gsm8k/exact_match/strict-match": "max", "hellaswag/acc": "max",
        "hellaswag/acc_norm": "max", "wikitext/word_perplexity": "min"}
    row = frame.set_index("model").loc["EleutherAI/pythia-1b"]
    assert row["hellaswag/acc"] == 0.3774 and row["hellaswag/acc_stderr"] == 0.0048


def test_an_mlflow_experiment_asks_for_the_metric_no_name_decides(settings, tmp_path):
    pytest.importorskip("mlflow")
    staged = stage_source(settings, "mlflow", make_mlflow_store(tmp_path), "sweep")
    assert staged.proposal.undecided == ("widgets",)
    assert staged.proposed.objective_names == ("accuracy", "val_loss")
    assert "widgets" in staged.proposed.metadata
    with pytest.raises(InvalidInputError, match="give the MLflow experiment's name"):
        stage_source(settings, "mlflow", "sqlite:///x.db", "")


def test_save_source_stores_what_serve_opens(tmp_path):
    import argparse

    from copa_dash.cli.sources import add_source_arguments, source_location
    from copa_dash.services.source_uploads import save_source

    parser = argparse.ArgumentParser()
    add_source_arguments(parser)
    args = parser.parse_args(["--from-lm-eval", str(make_lm_eval_folder(tmp_path))])
    closed = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    saved = save_source(closed, *source_location(args))  # the operator named it: no guard
    stored = open_store(closed).load(saved.id)
    assert stored.roles.id == "model" and len(stored.roles.objectives) == 4
    assert source_location(parser.parse_args([])) is None
