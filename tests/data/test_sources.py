"""The sources read real local backends made here: every value is compared with what the tool's
own API reports (Optuna's trials_dataframe, mlflow.search_runs, the JSON files themselves)."""

from __future__ import annotations

import json
import os
import sys

import pandas as pd
import pytest

from copa_dash.core.errors import InvalidInputError
from copa_dash.data.sources import CONFIG_COLUMN, require, unique_names
from copa_dash.data.sources.lm_eval import metric_column, read_lm_eval, read_results_file
from tests.data.source_backends import (
    FAILED,
    LM_EVAL_MODELS,
    MLFLOW_RUNS,
    PRUNED,
    make_lm_eval_folder,
    make_mlflow_store,
    make_optuna_study,
)


@pytest.fixture(scope="module")
def optuna():
    """Optuna (the [optuna] extra); its tests skip without it, the lm-eval ones do not."""
    return pytest.importorskip("optuna")


@pytest.fixture(scope="module")
def study_url(optuna, tmp_path_factory):
    return make_optuna_study(tmp_path_factory.mktemp("optuna"))


@pytest.fixture(scope="module")
def mlflow_uri(tmp_path_factory):
    pytest.importorskip("mlflow")
    return make_mlflow_store(tmp_path_factory.mktemp("mlflow"))


# --- Optuna ---------------------------------------------------------------------------------

def test_optuna_rows_are_the_completed_trials_with_the_studys_values(optuna, study_url):
    from copa_dash.data.sources.optuna import read_optuna

    source = read_optuna(study_url, "mo")
    expected = optuna.load_study(study_name="mo", storage=study_url).trials_dataframe()
    expected = expected[expected["state"] == "COMPLETE"].reset_index(drop=True)
    assert source.frame["trial"].tolist() == [f"trial {n}" for n in expected["number"]]
    assert PRUNED not in expected["number"].tolist() and FAILED not in expected["number"].tolist()
    assert len(source.frame) == 6  # 8 trials + 1 running: pruned, failed and running left out
    assert source.frame["accuracy"].tolist() == expected["values_accuracy"].tolist()
    assert source.frame["latency"].tolist() == expected["values_latency"].tolist()
    assert source.frame["params_lr"].tolist() == expected["params_lr"].tolist()
    assert source.frame["params_optimizer"].tolist() == expected["params_optimizer"].tolist()
    assert source.directions == {"accuracy": "max", "latency": "min"}
    assert source.config == ("params_lr", "params_optimizer")
    assert source.frame[CONFIG_COLUMN][0] == (f"lr={expected['params_lr'][0]}, "
                                              f"optimizer={expected['params_optimizer'][0]}")
    assert source.notes == (("3 of 9 trials left out (not complete: 1 fail, 1 pruned, "
                            "1 running)"),)


def test_optuna_table_takes_the_studys_directions_and_nothing_else_as_objectives(study_url):
    from copa_dash.data.sources.optuna import read_optuna

    said = []
    table = read_optuna(study_url).eval_table(say=said.append)  # the only study: no name needed
    assert table.roles.id == "trial"
    assert [(o.name, o.direction) for o in table.roles.objectives] == [("accuracy", "max"),
                                                                        ("latency", "min")]
    assert table.roles.config == CONFIG_COLUMN
    assert set(table.roles.metadata) == {"params_lr", "params_optimizer"}
    assert said[0].endswith("objectives accuracy (max), latency (min)")
    proposal = read_optuna(study_url).proposal()
    assert proposal.undecided == ()
    assert proposal.column("params_lr").role == "metadata"   # a number, never an objective


def test_optuna_without_metric_names_uses_optunas_own_column_names(optuna, tmp_path):
    from copa_dash.data.sources.optuna import read_optuna

    url = make_optuna_study(tmp_path, name="plain", metric_names=None, n_trials=4)
    source = read_optuna(url, "plain")
    assert source.directions == {"values_0": "max", "values_1": "min"}
    frame = optuna.load_study(study_name="plain", storage=url).trials_dataframe()
    assert source.frame["values_1"].tolist() == frame.loc[frame["state"] == "COMPLETE",
                                                          "values_1"].tolist()


def test_optuna_errors_name_what_to_fix(study_url, tmp_path):
    from copa_dash.data.sources.optuna import read_optuna

    with pytest.raises(InvalidInputError, match=r"no Optuna study 'nope' .* its studies: 'mo'"):
        read_optuna(study_url, "nope")
    with pytest.raises(InvalidInputError, match="no SQLite file"):
        read_optuna(f"sqlite:///{tmp_path / 'missing.db'}", "mo")
    assert not (tmp_path / "missing.db").exists()      # nothing created on the way
    with pytest.raises(InvalidInputError, match="not a storage URL: write sqlite:///"):
        read_optuna(str(tmp_path / "study.db"), "mo")


# --- MLflow ---------------------------------------------------------------------------------

def test_mlflow_rows_are_the_finished_runs_with_their_last_metrics(mlflow_uri):
    import mlflow

    from copa_dash.data.sources.mlflow import read_mlflow

    source = read_mlflow(mlflow_uri, "sweep")
    mlflow.set_tracking_uri(mlflow_uri)
    runs = mlflow.search_runs(experiment_names=["sweep"], order_by=["attributes.start_time ASC"])
    runs = runs[runs["status"] == "FINISHED"].reset_index(drop=True)
    assert source.frame["run"].tolist() == ["a", "b", "b (2)"]
    assert runs["tags.mlflow.runName"].tolist() == ["a", "b", "b"]
    for metric in ("accuracy", "val_loss", "widgets"):
        assert source.frame[metric].tolist() == runs[f"metrics.{metric}"].tolist()
    assert source.frame["accuracy"][0] == 0.90          # the last value logged, not the first
    assert source.frame["params.lr"].tolist() == [float(v) for v in runs["params.lr"]]
    assert source.frame["params.optimizer"].tolist() == runs["params.optimizer"].tolist()
    assert source.directions == {"accuracy": None, "val_loss": None, "widgets": None}
    assert source.notes[0] == "2 of 5 runs left out (1 failed, 1 running)"
    finished = [r for r in MLFLOW_RUNS if r[3] == "FINISHED"]
    assert source.frame[CONFIG_COLUMN].tolist() == [
        ", ".join(f"{k}={v}" for k, v in sorted(p.items())) for _, p, _, _ in finished]


def test_mlflow_directions_are_guessed_as_for_a_file_and_the_unsure_one_is_asked(mlflow_uri):
    from copa_dash.data.proposal import propose
    from copa_dash.data.sources.mlflow import read_mlflow

    source = read_mlflow(mlflow_uri, "sweep")
    proposal = source.proposal()
    as_file = propose(source.frame[["run", "accuracy", "val_loss", "widgets"]])
    for metric in ("accuracy", "val_loss", "widgets"):
        assert proposal.column(metric).direction == as_file.column(metric).direction
    assert (proposal.column("accuracy").direction, proposal.column("val_loss").direction) == \
        ("max", "min")
    assert proposal.undecided == ("widgets",)
    assert any("choose min or max" in n for n in proposal.notes)
    said = []
    table = source.eval_table(say=said.append)
    assert table.objective_names == ("accuracy", "val_loss")
    assert "left out (no direction known or guessed): widgets" in said[0]
    chosen = source.eval_table(objectives=[("widgets", "min"), ("accuracy", "max")])
    assert chosen.objective_names == ("widgets", "accuracy")


def test_mlflow_errors_name_what_to_fix(mlflow_uri, tmp_path):
    from copa_dash.data.sources.mlflow import read_mlflow

    with pytest.raises(InvalidInputError, match=r"no MLflow experiment 'nope'.*'sweep'"):
        read_mlflow(mlflow_uri, "nope")
    with pytest.raises(InvalidInputError, match="no MLflow store"):
        read_mlflow(f"sqlite:///{tmp_path / 'none.db'}", "sweep")
    assert not (tmp_path / "none.db").exists()


# --- lm-eval --------------------------------------------------------------------------------

def test_lm_eval_one_row_per_model_one_column_per_task_metric(tmp_path):
    root = make_lm_eval_folder(tmp_path)
    source = read_lm_eval(str(root))
    frame = source.frame.set_index("model")
    assert sorted(frame.index) == sorted(LM_EVAL_MODELS)
    for model, scores in LM_EVAL_MODELS.items():
        for task, metrics in scores.items():
            for metric, (value, stderr) in metrics.items():
                name, _, filter_name = metric.partition(",")
                column = metric_column(task, name, filter_name or "none")
                assert frame.loc[model, column] == value        # 1b: the newer file's 0.3774
                if isinstance(stderr, float):
                    assert frame.loc[model, source.uncertainty[column]] == stderr
    assert "gsm8k/exact_match/strict-match" in frame.columns
    assert "wikitext/word_perplexity" not in source.uncertainty   # "N/A": no error column
    assert source.directions == {"gsm8k/exact_match/strict-match": "max", "hellaswag/acc": "max",
                                 "hellaswag/acc_norm": "max", "wikitext/word_perplexity": "min"}
    assert "1 values were in an older file too" in source.notes[1]


def test_lm_eval_standard_errors_stay_beside_their_metric_never_objectives(tmp_path):
    source = read_lm_eval(str(make_lm_eval_folder(tmp_path)))
    columns = list(source.frame.columns)
    for metric, error in source.uncertainty.items():
        assert columns.index(error) == columns.index(metric) + 1
        assert source.proposal().column(error).role == "metadata"
    table = source.eval_table()
    assert not any(o.name.endswith("_stderr") for o in table.roles.objectives)
    assert set(source.uncertainty.values()) <= set(table.roles.metadata)


def test_lm_eval_file_matches_the_json_it_was_read_from(tmp_path):
    root = make_lm_eval_folder(tmp_path)
    path = next((root / "EleutherAI__pythia-410m").glob("results_*.json"))
    data = json.loads(path.read_text())
    model, values, errors, directions = read_results_file(path)
    assert "model_name" not in data and model == "EleutherAI/pythia-410m"  # from model_args
    assert values["hellaswag/acc"] == data["results"]["hellaswag"]["acc,none"]
    assert errors["hellaswag/acc_norm"] == data["results"]["hellaswag"]["acc_norm_stderr,none"]
    assert "wikitext/word_perplexity" not in errors
    assert directions["wikitext/word_perplexity"] == "min"


def test_lm_eval_errors(tmp_path):
    with pytest.raises(InvalidInputError, match="no lm-eval results file"):
        read_lm_eval(str(tmp_path))
    with pytest.raises(InvalidInputError, match="no folder"):
        read_lm_eval(str(tmp_path / "missing"))
    (tmp_path / "results_x.json").write_text(json.dumps({"rows": []}))
    with pytest.raises(InvalidInputError, match='no "results" mapping'):
        read_lm_eval(str(tmp_path))


# --- shared ---------------------------------------------------------------------------------

def test_a_missing_extra_says_which_pip_install_brings_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "optuna", None)   # import optuna now raises ImportError
    with pytest.raises(InvalidInputError, match=r'pip install "copa-dash\[optuna\]"'):
        require("optuna", "optuna", "an Optuna study")


def test_unique_names_keeps_the_first_and_numbers_the_repeats():
    names = unique_names(pd.Series(["b", "b", "a", "b"]))
    assert names.tolist() == ["b", "b (2)", "a", "b (3)"]


def test_optuna_journal_file_is_read_like_a_database(optuna, tmp_path):
    from copa_dash.data.sources.optuna import read_optuna

    journal = tmp_path / "study.log"
    try:
        from optuna.storages.journal import JournalFileBackend as backend
    except ImportError:  # Optuna 3.x
        from optuna.storages import JournalFileStorage as backend
    storage = optuna.storages.JournalStorage(backend(str(journal)))
    study = optuna.create_study(study_name="j", storage=storage, directions=["minimize"] * 2)
    study.optimize(lambda t: (t.suggest_float("x", 0, 1), 1 - t.params["x"]), n_trials=4)
    source = read_optuna(str(journal))
    assert source.directions == {"values_0": "min", "values_1": "min"}
    assert source.frame["values_0"].tolist() == [t.values[0] for t in study.trials]
    with pytest.raises(InvalidInputError, match="no Optuna journal file"):
        read_optuna(str(tmp_path / "none.log"))


def test_mlflow_server_that_does_not_answer_is_a_user_error(monkeypatch):
    pytest.importorskip("mlflow")
    import socket

    from copa_dash.data.sources.mlflow import read_mlflow

    monkeypatch.delenv("MLFLOW_HTTP_REQUEST_MAX_RETRIES", raising=False)
    with socket.socket() as closed:      # a loopback port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    with pytest.raises(InvalidInputError, match="cannot open the MLflow tracking URI"):
        read_mlflow(f"http://127.0.0.1:{port}", "sweep")
    assert "MLFLOW_HTTP_REQUEST_MAX_RETRIES" not in os.environ  # put back


def test_lm_eval_group_scores_only_under_groups_are_read_too(tmp_path):
    data = {"results": {"mmlu_anatomy": {"alias": " - anatomy", "acc,none": 0.5,
                                         "acc_stderr,none": 0.04}},
            "groups": {"mmlu": {"alias": "mmlu", "acc,none": 0.45, "acc_stderr,none": 0.004}},
            "higher_is_better": {"mmlu_anatomy": {"acc": True}, "mmlu": {"acc": True}},
            "config": {"model_args": "pretrained=m"}}
    path = tmp_path / "m" / "results_2024-01-01T00-00-00.json"
    path.parent.mkdir()
    path.write_text(json.dumps(data))
    model, values, errors, directions = read_results_file(path)
    assert model == "m"
    assert values == {"mmlu/acc": 0.45, "mmlu_anatomy/acc": 0.5}
    assert errors == {"mmlu/acc": 0.004, "mmlu_anatomy/acc": 0.04}
    assert directions == {"mmlu/acc": "max", "mmlu_anatomy/acc": "max"}


def test_the_examples_in_the_docstrings_hold():
    import doctest

    from copa_dash.data import sources
    from copa_dash.data.sources import lm_eval as lm_eval_module
    from copa_dash.data.sources import optuna as optuna_module

    for module in (sources, lm_eval_module, optuna_module):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__
    assert doctest.testmod(sources).attempted >= 1
