"""Open LLM Leaderboard v2 as exported: one column per benchmark, popularity and lineage
not goals (tester 19, finding 1).

The file is the header and the first 100 data rows of the leaderboard's ``contents``
dataset, lines unchanged (tests/data/messy/README.md). Its PROVENANCE: each benchmark is
given raw (0-1) and normalised (0-100, random baseline 0); ``Average ⬆️`` is the mean of the
6 normalised scores; ``Hub ❤️`` is likes; ``Generation`` is model lineage.
"""

from pathlib import Path

import pandas as pd

from copa_dash.data.io import read_table_report
from copa_dash.data.proposal import propose
from copa_dash.data.twin_columns import is_popularity, raw_twins

OPEN_LLM_V2 = Path(__file__).parent / "messy" / "llmeval_openllm_v2_contents_head.csv"
BENCHMARKS = ("IFEval", "BBH", "MATH Lvl 5", "GPQA", "MUSR", "MMLU-PRO")


def _proposal():
    read = read_table_report(OPEN_LLM_V2)
    return propose(read.frame, units=read.units, labels=read.labels)


def test_every_benchmark_is_one_objective_of_one_kind():
    proposal = _proposal()
    roles = {g.name: (g.role, g.direction) for g in proposal.columns}
    for name in BENCHMARKS:   # every one, normalised, to maximise; its raw twin not a goal
        assert roles[name] == ("objective", "max"), name
        assert roles[f"{name} Raw"][0] == "metadata", name
    raw = next(g for g in proposal.columns if g.name == "MMLU-PRO Raw")
    assert "'MMLU-PRO'" in raw.reason and "normalised" in raw.reason
    note = next(n for n in proposal.notes if "raw and normalised" in n)
    assert "6 benchmarks" in note and "guess" in note


def test_likes_and_lineage_are_not_goals_and_nothing_is_left_to_choose():
    proposal = _proposal()
    roles = {g.name: g for g in proposal.columns}
    assert roles["Hub ❤️"].role == "metadata" and roles["Generation"].role == "metadata"
    assert any("'Hub ❤️'" in n and "popularity" in n for n in proposal.notes)
    objectives = [g for g in proposal.columns if g.role == "objective"]
    assert all(g.direction is not None for g in objectives)   # Save is not held back
    assert not any(g.more for g in proposal.columns)          # no short set needed
    assert {g.name for g in objectives} >= set(BENCHMARKS) | {"CO₂ cost (kg)"}


def test_a_raw_column_without_a_twin_stays_a_goal():
    frame = pd.DataFrame({"name": ["a", "b", "c"], "acc_raw": [0.1, 0.5, 0.3],
                          "f1": [0.2, 0.4, 0.6]})
    roles = {g.name: g.role for g in propose(frame).columns}
    assert roles["acc_raw"] == "objective" and roles["f1"] == "objective"
    assert raw_twins(["f1 raw", "f1_normalized", "time"]) == {"f1 raw": "f1_normalized"}


def test_popularity_words():
    assert [is_popularity(c) for c in ("downloads", "GitHub stars", "Hub ❤️", "likelihood",
                                       "start_time", "accuracy")] == [True] * 3 + [False] * 3


def test_the_average_of_the_benchmarks_is_said_to_count_them_twice():
    proposal = _proposal()
    note = next(n for n in proposal.notes if n.startswith("'Average ⬆️'"))
    # by hand: the average lies within the 6 normalised scores in every one of the 100 rows
    frame = pd.read_csv(OPEN_LLM_V2)
    scores = frame[list(BENCHMARKS)]
    inside = ((frame["Average ⬆️"] >= scores.min(axis=1))
              & (frame["Average ⬆️"] <= scores.max(axis=1))).mean()
    assert inside == 1.0 and "the other 6 maximised objectives in 100% of 100 rows" in note
    assert "counts them twice" in note
