"""Leaderboards that name columns after benchmarks: read right, or asked, never guessed wrong.

Two real exports (tests/data/messy/README.md): the Open LLM leaderboard v1, whose columns
are benchmark names (``arc``, ``hellaswag``, ``gsm8k``) beside an ``average`` of them and a
``params_b`` that is 0 for models of unknown size; and the MTEB leaderboard, whose columns
are task families (``Retrieval Average (15 datasets)``) beside ``Average (56 datasets)``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from copa_dash.cli import main
from copa_dash.core.criteria import copa_select
from copa_dash.core.ranks import cdf_transform
from copa_dash.data.aggregate_columns import direct_aggregates, share_inside
from copa_dash.data.io import read_table_report
from copa_dash.data.proposal import ColumnGuess, propose
from copa_dash.data.role_guess import direction_guess

MESSY = Path(__file__).parent / "messy"
OPEN_LLM = MESSY / "llmeval_openllm_v1_head.csv"
MTEB = MESSY / "embed_mteb_2024.tsv"


def _proposal(path):
    read = read_table_report(path)
    return read, propose(read.frame, units=read.units, labels=read.labels)


@pytest.mark.parametrize("name", ["gsm8k", "GSM8K", "arc", "ARC-Challenge", "hellaswag",
                                  "TruthfulQA", "winogrande", "BBH", "GPQA", "MUSR",
                                  "MATH Lvl 5", "HumanEval+", "IFEval"])
def test_benchmark_names_are_scores(name):
    direction, _, sure = direction_guess(name)
    assert (direction, sure) == ("max", "sure")


def test_a_digit_inside_a_benchmark_name_does_not_make_it_a_setting():
    # 'gsm8k' splits as gsm8, k; 'k' alone is a search setting (top-k)
    _, proposal = _proposal(OPEN_LLM)
    assert (proposal.column("gsm8k").role, proposal.column("gsm8k").direction) == (
        "objective", "max")
    assert direction_guess("top_k")[0] is None


def test_task_families_are_scores_only_when_nothing_else_decides():
    assert direction_guess("AmazonCounterfactualClassification")[::2] == ("max", "likely")
    assert direction_guess("CovidRetrieval")[::2] == ("max", "likely")
    assert direction_guess("classification_error")[::2] == ("min", "sure")
    assert direction_guess("retrieval_latency_ms")[0] == "min"
    assert direction_guess("ArguAna")[0] is None  # a dataset name: the user is asked


def test_open_llm_v1_average_follows_the_scores_it_averages():
    _, proposal = _proposal(OPEN_LLM)
    average = proposal.column("average")
    assert (average.direction, average.confidence) == ("max", "likely")
    assert "an average of maximised scores" in average.reason
    # the evidence the reason states, recomputed by hand from the file
    frame = pd.read_csv(OPEN_LLM)
    scores = frame[["arc", "hellaswag", "mmlu", "truthfulqa", "winogrande", "gsm8k"]]
    inside = ((frame["average"] >= scores.min(axis=1) - 1e-9)
              & (frame["average"] <= scores.max(axis=1) + 1e-9)).mean()
    assert f"in {inside:.0%} of 300 rows" in average.reason
    # likes are popularity, not a goal (tester 19): nothing is left to choose
    assert proposal.undecided == () and proposal.column("hub_hearts").role == "metadata"


def test_mteb_families_and_average():
    read, proposal = _proposal(MTEB)
    families = [c for c in read.frame.columns if "Average (" in c and not c.startswith("Avg")]
    assert len(families) == 8
    for column in families:
        guess = proposal.column(column)
        assert (guess.role, guess.direction, guess.confidence) == (
            "objective", "max", "likely"), column
    # a note in brackets is not the name: "(1 dataset)" does not make it a dataset column
    assert proposal.column("Summarization Average (1 dataset)").role == "objective"
    assert "an average of maximised scores" in proposal.column("Average (56 datasets)").reason
    assert proposal.undecided == ("Embedding Dimensions",)


def test_mteb_analysis_still_asks_for_the_undecided_column(capsys):
    status = main(["select", str(MTEB)])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert "Embedding Dimensions" in err and "--ignore" in err


def _guess(name, direction=None):
    return ColumnGuess(name, "objective", direction)


def test_an_average_outside_its_siblings_envelope_stays_undecided():
    frame = pd.DataFrame({"acc": [0.1, 0.5, 0.9], "f1": [0.2, 0.4, 0.8],
                          "average": [0.3, 0.9, 1.7]})  # a sum, not a mean
    out = direct_aggregates(frame, [_guess("acc", "max"), _guess("f1", "max"),
                                    _guess("average")])
    assert out[2].direction is None


def test_an_average_inside_both_directions_envelopes_stays_undecided():
    frame = pd.DataFrame({"acc": [1.0, 2, 3], "f1": [3.0, 4, 5],
                          "loss": [1.0, 2, 3], "err": [3.0, 4, 5], "mean": [2.0, 3, 4]})
    guesses = [_guess("acc", "max"), _guess("f1", "max"), _guess("loss", "min"),
               _guess("err", "min"), _guess("mean")]
    assert direct_aggregates(frame, guesses)[4].direction is None


def test_a_name_that_is_more_than_an_aggregate_word_is_not_read():
    frame = pd.DataFrame({"acc": [1.0, 2, 3], "f1": [3.0, 4, 5], "mean_tokens": [2.0, 3, 4]})
    out = direct_aggregates(frame, [_guess("acc", "max"), _guess("f1", "max"),
                                    _guess("mean_tokens")])
    assert out[2].direction is None


def test_share_inside_against_a_loop():
    rng = np.random.default_rng(3)
    siblings = rng.normal(size=(200, 4))
    siblings[rng.random((200, 4)) < 0.05] = np.nan
    values = rng.normal(size=200)
    share, rows = share_inside(values, siblings)
    hits = total = 0
    for v, row in zip(values, siblings):
        if np.isnan(row).any() or np.isnan(v):
            continue
        total += 1
        hits += min(row) <= v <= max(row)
    assert (rows, share) == (total, pytest.approx(hits / total))


def test_zero_parameters_are_unknown_never_the_cheapest(capsys):
    status = main(["select", str(OPEN_LLM), "--ignore", "hub_hearts", "--json"])
    out, err = capsys.readouterr()
    assert status == 0, err
    frame = pd.read_csv(OPEN_LLM)
    zeros = int((frame["params_b"] == 0).sum())
    assert zeros > 0
    assert "Column 'params_b': 0 in rows" in err and "no model has no size" in err
    result = json.loads(out)
    # independent: the pick by the core on the file read with pandas, the zero sizes dropped;
    # 'average' (the mean of the six scores) is left out of the first view, which says so
    assert result["view"]["derived"] == "average"
    columns = ["arc", "hellaswag", "mmlu", "truthfulqa", "winogrande", "gsm8k", "params_b"]
    assert result["view"]["objectives"] == [f"{c}:{'min' if c == 'params_b' else 'max'}"
                                            for c in columns]
    y = frame[columns].to_numpy(dtype=float)
    keep = ~np.isnan(y).any(axis=1) & (frame["params_b"] > 0).to_numpy()
    u = cdf_transform(y[keep], ["max"] * 6 + ["min"])
    weights = np.array([0.5] + [0.5 / 6] * 6)  # focus 'arc', alpha 0.5
    expected = frame["model"].to_numpy()[keep][copa_select(u, weights, p=np.inf)]
    assert (result["view"]["focus"], result["view"]["alpha"]) == (["arc"], 0.5)
    assert result["id"] == expected
    assert frame.loc[frame["model"] == result["id"], "params_b"].iloc[0] > 0


def test_a_fairness_attribute_is_not_a_benchmark_name():
    # 'race' is the attribute of fairness tables ('race-FPR'), not the RACE benchmark
    assert direction_guess("race-FPR")[0] == "min"
    assert direction_guess("race-calibration+")[0] is None


@pytest.mark.parametrize("name, direction", [
    ("MMLU - ECE (10-bin)", "min"), ("BoolQ - ECE (10-bin)", "min"),
    ("HellaSwag - Denoised inference time (s)", "min"), ("TruthfulQA - EM", "max")])
def test_a_benchmark_name_yields_to_the_word_that_says_what_was_measured(name, direction):
    # HELM's headers name the benchmark and then the metric: the metric decides
    assert direction_guess(name)[0] == direction
