"""Role guesses for the upload form: whole-word direction guesses and a sensible id."""

import pandas as pd
import pytest

from copa_dash.core.errors import InvalidInputError
from copa_dash.data.io import build_eval_table, read_table
from copa_dash.data.proposal import guess_roles
from copa_dash.data.role_guess import add_row_ids, guess_direction, guess_id, row_id_name


@pytest.mark.parametrize("name", [
    "loss", "val_loss", "valLoss", "Test Error", "err", "wall_time_s", "Time (s)", "latency_ms",
    "HTTPLatency", "cost_usd", "cost_per_token", "co2_kg", "CO2", "#params", "n_params",
    "model_size", "memory_GB", "energy_kWh", "price", "MSE", "rmse", "mae", "Errors", "losses",
    "perplexity", "WER", "Prefill (s)", "Memory (MB)", "GFLOPS", "#Params (B)", "CO₂ cost (kg)",
    "Model Size (GB)", "NSFW frac ↓ [ sort ]", "cost ($/M tokens)",
])
def test_minimised_names(name):
    assert guess_direction(name) == "min"


@pytest.mark.parametrize("name", [
    "accuracy", "Accuracy (%)", "acc", "test-acc", "Top1Acc", "score", "F1", "F1Score",
    "macro_f1", "AUC", "precision@5", "recall_at_10", "throughput", "Elo", "win rate",
    "winRate", "win_rate", "BLEU", "rouge2", "ROUGE-L", "mAP", "ndcg@10",
    "tokens_per_second", "energy_tokens_per_kwh", "Decode (tokens/s)", "Energy (tokens/kWh)",
    "Open LLM Score (%)", "Non-toxicity", "Average ⬆️", "Mean win rate ↑ [ sort ]",
])
def test_maximised_names(name):
    assert guess_direction(name) == "max"


@pytest.mark.parametrize("name", [
    "accumulated", "accumulated_steps", "scores_std", "acc_std", "accuracy_ci",
    "time_to_accuracy", "batch_size", "seed", "epoch", "timestamp",
    "lossless", "errand", "notes", "",
])
def test_no_guess(name):
    assert guess_direction(name) is None


def test_guess_roles_on_a_wide_table():
    frame = pd.DataFrame({"run": [1, 2, 3], "model": ["a", "b", "c"], "method": ["x", "y", "x"],
                          "dataset": ["d", "d", "e"], "seed": [0, 1, 0],
                          "val_loss": [0.3, 0.2, 0.1], "acc": [0.8, 0.9, 0.7],
                          "epochs": [3, 4, 5], "notes": ["", "n", ""]})
    roles = guess_roles(frame)
    assert roles.id == "model"
    assert (roles.system, roles.task, roles.seed) == ("method", "dataset", "seed")
    assert [(o.name, o.direction) for o in roles.objectives] == [("val_loss", "min"),
                                                                 ("acc", "max")]
    assert roles.metadata == ("run", "epochs", "notes")
    build_eval_table(frame, roles)


def test_numeric_columns_without_a_guess_become_objectives_only_when_nothing_is_guessed():
    frame = pd.DataFrame({"name": ["a", "b"], "art": [1.0, 2.0], "photo": [3, 4],
                          "art_std": [0.1, 0.2]})
    roles = guess_roles(frame)
    assert [(o.name, o.direction) for o in roles.objectives] == [("art", "max"),
                                                                 ("photo", "max")]
    assert roles.metadata == ("art_std",)
    with_loss = guess_roles(frame.assign(loss=[1.0, 2.0]))
    assert with_loss.objective_names == ("loss",)
    assert with_loss.metadata == ("art", "photo", "art_std")


def test_id_may_be_whole_numbers_under_an_id_like_name():
    assert guess_roles(pd.DataFrame({"id": [3, 1, 2], "loss": [0.5, 0.5, 0.1]})).id == "id"
    assert guess_id(pd.DataFrame({"TrialID": [1.0, 2.0], "loss": [0.5, 0.1]})) == "TrialID"
    # an id-like name beats a unique text column that is not named like an id
    assert guess_id(pd.DataFrame({"notes": ["a", "b"], "run": [1, 2]})) == "run"


@pytest.mark.parametrize("column", [
    pd.Series([1, 2, 3], name="k"),                         # whole numbers, no id-like name
    pd.Series([1210, 1180, 1250], name="elo"),              # a unique integer measurement
    pd.Series([0.81, 0.78, 0.9], name="score"),             # a unique float measurement
    pd.Series([7e9, 13e9, 70e9], name="n_params"),
    pd.Series([0.25, 0.5, 1.0], name="checkpoint"),         # id-like name, fractional values
    pd.Series([1, 2, 3], name="model_size"),                # "model", but not as the last word
    pd.Series(pd.to_datetime(["2024-01-01", "2024-01-02", "2024-01-03"]), name="when"),
])
def test_a_numeric_column_is_never_the_id_unless_it_is_clearly_an_identifier(column):
    frame = pd.DataFrame({"system": ["a", "a", "b"], column.name: column,
                          "loss": [0.5, 0.5, 0.1]})
    assert guess_id(frame) is None
    with pytest.raises(InvalidInputError, match="^no column names the rows"):
        guess_roles(frame)


def test_numbers_only_table_gets_row_ids_and_keeps_every_column():
    frame = read_table(b"score,loss,elo\n0.9,0.3,1200\n0.8,0.2,1250\n0.7,0.4,1100\n",
                       filename="numbers.csv")
    assert guess_id(frame) is None
    with_ids = add_row_ids(frame)
    roles = guess_roles(with_ids)
    assert roles.id == "row"
    assert set(roles.objective_names) | set(roles.metadata) == {"score", "loss", "elo"}
    assert build_eval_table(with_ids, roles).ids.tolist() == ["row 1", "row 2", "row 3"]


def test_text_ids_must_differ_in_every_row_after_stripping():
    duplicated = pd.DataFrame({"model": ["a", "b", "a"], "name": ["x", "y", "z"],
                               "loss": [0.5, 0.4, 0.1]})
    assert guess_id(duplicated) == "name"
    assert guess_id(duplicated.drop(columns="name")) is None
    assert guess_id(pd.DataFrame({"model": ["a", " a"], "loss": [1.0, 2.0]})) is None
    assert guess_id(pd.DataFrame({"model": ["a", None], "loss": [1.0, 2.0]})) is None


def test_long_table_without_a_unique_column_needs_row_ids():
    frame = read_table(b"system,task,seed,loss\na,t,0,1\na,t,1,2\nb,t,0,3\nb,t,0,3\n",
                       filename="long.csv")
    with pytest.raises(InvalidInputError, match="^no column names the rows"):
        guess_roles(frame)
    with_ids = add_row_ids(frame)
    roles = guess_roles(with_ids)
    assert roles.id == "row" and roles.system == "system" and roles.task == "task"
    assert build_eval_table(with_ids, roles).ids.tolist() == ["row 1", "row 2", "row 3",
                                                              "row 4"]
    assert "row" not in frame.columns


def test_no_numeric_column():
    with pytest.raises(InvalidInputError, match="^no column holds numbers"):
        guess_roles(pd.DataFrame({"m": ["a", "b"], "t": ["x", "y"]}))


def test_add_row_ids_avoids_taken_names():
    frame = pd.DataFrame({"row": [5, 6], "row_2": [1, 2]})
    assert row_id_name(frame) == "row_3"
    out = add_row_ids(frame)
    assert out.columns.tolist() == ["row_3", "row", "row_2"]
    assert out["row_3"].tolist() == ["row 1", "row 2"]
    assert frame.columns.tolist() == ["row", "row_2"]
