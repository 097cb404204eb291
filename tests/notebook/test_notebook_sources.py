"""copa_dash.from_optuna / from_mlflow / from_lm_eval: tables the notebook functions take, with
answers equal to the same functions on a DataFrame built independently from the tool's API."""

from __future__ import annotations

import pandas as pd
import pytest

import copa_dash
from copa_dash.core.errors import InvalidInputError
from tests.data.source_backends import LM_EVAL_MODELS, make_lm_eval_folder, make_optuna_study


def test_from_lm_eval_answers_as_the_same_scores_in_a_dataframe(tmp_path):
    with pytest.warns(UserWarning, match="standard errors kept beside their metric"):
        table = copa_dash.from_lm_eval(str(make_lm_eval_folder(tmp_path)))
    frame = pd.DataFrame({m: {"hellaswag/acc": s["hellaswag"]["acc"][0],
                              "wikitext/word_perplexity": s["wikitext"]["word_perplexity"][0]}
                          for m, s in LM_EVAL_MODELS.items()}).T
    objectives = {"hellaswag/acc": "max", "wikitext/word_perplexity": "min"}
    got = copa_dash.select(table, objectives=objectives, focus="wikitext/word_perplexity")
    want = copa_dash.select(frame, objectives=objectives, focus="wikitext/word_perplexity")
    assert (got.pick, got.score) == (want.pick, want.score)
    assert copa_dash.front(table, objectives=objectives).ids == \
        copa_dash.front(frame, objectives=objectives).ids


def test_from_optuna_uses_the_studys_objectives_without_being_told(tmp_path):
    pytest.importorskip("optuna")
    import optuna

    url = make_optuna_study(tmp_path)
    table = copa_dash.from_optuna(url, "mo", verbose=False)
    trials = optuna.load_study(study_name="mo", storage=url).trials_dataframe()
    trials = trials[trials["state"] == "COMPLETE"]
    frame = pd.DataFrame({"accuracy": trials["values_accuracy"].to_numpy(),
                          "latency": trials["values_latency"].to_numpy()},
                         index=[f"trial {n}" for n in trials["number"]])
    objectives = {"accuracy": "max", "latency": "min"}
    assert copa_dash.front(table).ids == copa_dash.front(frame, objectives=objectives).ids
    assert copa_dash.hypervolume(table).value == \
        copa_dash.hypervolume(frame, objectives=objectives).value


def test_from_optuna_without_the_extra_says_how_to_install_it(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "optuna", None)
    with pytest.raises(InvalidInputError, match=r'pip install "copa-dash\[optuna\]"'):
        copa_dash.from_optuna("sqlite:///study.db", "mo")
