"""Session 23's newcomer pass: what the upload proposal said of two real exports (issue 33).

* Chatbot Arena merged with the Open LLM Leaderboard (``arena_merged_openllm.csv``): rows
  were named by ``id`` ('microsoft/phi-4_float16_381727a5..._False', 98 characters) rather
  than by ``key`` ('phi-4'); and ``model_average_score``, exactly the mean of the six
  ``evaluations_*_normalized_score`` columns, was proposed beside ``evaluations_ifeval_value``
  (IFEval counted twice) because its name is not made of aggregate words alone.
* BBOB's IOHanalyzer ERT table: ``mean``, ``median`` and the quantiles ``2%`` ... ``98%`` of
  the runtime had no direction, the user asked eleven times for what the cells show.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from copa_dash.data.guessed_table import guessed_table
from copa_dash.data.io import read_table_report
from copa_dash.data.proposal import propose

MESSY = "tests/data/messy/"
ARENA = MESSY + "arena_merged_openllm.csv"
BBOB = MESSY + "bbob_ert_iohanalyzer.csv"
NORMALISED = [f"evaluations_{b}_normalized_score"
              for b in ("ifeval", "bbh", "math", "gpqa", "musr", "mmlu_pro")]


def _proposal(path):
    read = read_table_report(path)
    return read, propose(read.frame, units=read.units, labels=read.labels)


def test_the_arena_merge_names_its_rows_by_the_model_key_not_the_long_id():
    raw = pd.read_csv(ARENA)                                   # the premise, pandas alone
    assert raw["id"].is_unique and raw["id"].str.len().max() == 98
    assert all(k.lower() in i.lower() for k, i in zip(raw["key"], raw["id"]))
    assert raw["key"].duplicated(keep=False).sum() == 10     # phi-4 thrice, ...
    read, proposal = _proposal(ARENA)
    assert proposal.id == "key"
    roles = {g.name: g.role for g in proposal.columns}
    assert roles["id"] == "metadata" and roles["model_precision"] == "config"
    assert "'id' spells out 'key' and more in every row" in " ".join(proposal.notes)
    names = guessed_table(read).table.ids
    assert len(set(names)) == 60 and max(len(n) for n in names) <= 45
    assert all(str(n).startswith(k) for n, k in zip(names, raw["key"]))
    assert "phi-4 · float16" in list(names) and "aya-expanse-32b" in list(names)


def test_an_id_that_does_not_spell_out_the_name_stays_the_id():
    frame = pd.DataFrame({"run_id": [f"r{i}-2024" for i in range(6)],
                          "model": ["a", "a", "b", "c", "d", "e"],
                          "acc": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]})
    assert propose(frame).id == "run_id"
    composite = frame.drop(columns="run_id").assign(
        uid=[f"org/{m}_fp16_{i}" for i, m in enumerate(frame["model"])])
    assert propose(composite).id == "model"
    # a name repeated in most rows names runs, not models: the id stays
    assert propose(composite.assign(model=["a"] * 5 + ["b"])).id == "uid"
    # and a run id that holds the model's name names runs: it stays the id
    runs = frame.assign(run_id=[f"{m}-seed{i}" for i, m in enumerate(frame["model"])])
    assert propose(runs).id == "run_id"


def test_the_arena_average_stands_for_the_benchmarks_it_averages():
    raw = pd.read_csv(ARENA)
    mean = raw[NORMALISED].mean(axis=1)                     # the premise, pandas alone
    assert np.allclose(mean, raw["model_average_score"], rtol=1e-9, atol=1e-9)
    _, proposal = _proposal(ARENA)
    objectives = [g.name for g in proposal.columns if g.role == "objective"]
    assert "model_average_score" in objectives
    assert not [o for o in objectives if o.startswith("evaluations_")], objectives
    said = " ".join(proposal.notes)
    assert "'model_average_score' is, row by row, the mean of 6 columns" in said


def test_bbob_runtime_statistics_are_minimised_with_the_evidence_said():
    raw = pd.read_csv(BBOB)                                  # the premise, pandas alone
    quantiles = ["2%", "5%", "10%", "25%", "50%", "75%", "90%", "95%", "98%"]
    reached = raw[quantiles].dropna()                 # 8 rows where no run reached the target
    assert len(reached) == 160 and (np.diff(reached.to_numpy(), axis=1) >= 0).all()
    inside = raw["median"].between(raw["25%"], raw["75%"])      # the same runtimes' median
    assert inside[raw["50%"].notna()].all()
    _, proposal = _proposal(BBOB)
    guesses = {g.name: g for g in proposal.columns}
    for name in ["mean", "median", *quantiles]:
        g = guesses[name]
        assert (g.direction, g.confidence) == ("min", "likely"), g
        assert g.reason.startswith("minimised like '") and "of the same measure" in g.reason
        assert "rank correlation 0.9" in g.reason
    assert not any(n.startswith("No direction guessed") for n in proposal.notes)


def test_a_mean_of_something_else_is_not_made_a_runtime():
    rng = np.random.default_rng(3)
    time_s = rng.uniform(1, 100, 30)
    unrelated = pd.DataFrame({"agent": [f"a{i}" for i in range(30)],
                              "time (s)": time_s, "mean": rng.uniform(0, 1, 30)})
    g = {c.name: c for c in propose(unrelated).columns}
    assert g["mean"].direction is None                      # asked, as before
    # a mean that follows an accuracy is an accuracy; one following both ways is asked
    accuracy = np.sort(rng.uniform(0.5, 0.9, 30))
    scored = pd.DataFrame({"agent": [f"a{i}" for i in range(30)], "accuracy": accuracy,
                           "mean": accuracy * 1.01})
    assert {c.name: c for c in propose(scored).columns}["mean"].direction == "max"
    both = scored.assign(**{"error rate": accuracy * 0.99})
    assert {c.name: c for c in propose(both).columns}["mean"].direction is None
