"""AMLB 2022 (all_data.csv) as exported: a column of the task is not a config, rows are
named with their task, and ``rank`` is a result (tester 19, finding 2).

The file is a byte copy (tests/data/messy/README.md). Its PROVENANCE: one row per
framework x dataset (10 x 55); ``problem_type`` (binary, multiclass, regression) is the
dataset's; ``rank`` is the framework's rank on the dataset by ``metric_error`` (1 = best).
"""

from pathlib import Path

import pandas as pd

from copa_dash.data.io import read_table_report
from copa_dash.data.proposal import prepare_frame, propose
from copa_dash.data.task_columns import is_rank_within_tasks, task_properties

AMLB = Path(__file__).parent / "messy" / "amlb2022_all_data.csv"


def _proposal():
    read = read_table_report(AMLB)
    return read.frame, propose(read.frame, units=read.units, labels=read.labels)


def test_problem_type_is_task_metadata_and_rows_are_named_by_their_task():
    frame, proposal = _proposal()
    roles = {g.name: g for g in proposal.columns}
    assert (roles["dataset"].role, roles["framework"].role) == ("task", "system")
    assert roles["problem_type"].role == "metadata"
    assert "property of the task" in roles["problem_type"].reason
    assert not proposal.configurations
    named = prepare_frame(frame, proposal, proposal.directed_roles())
    names = named[proposal.directed_roles().id]
    # by hand: every row is '<framework> · <dataset>', all 550 different, no count appended
    expected = frame["framework"].astype(str) + " · " + frame["dataset"].astype(str)
    assert names.tolist() == expected.tolist() and names.is_unique


def test_rank_is_a_result_not_a_setting():
    frame, proposal = _proposal()
    rank = proposal.column("rank")
    assert rank.role == "metadata" and "a result, not a setting" in rank.reason
    assert "setting of the workload" not in rank.reason
    # by hand: within each dataset the ranks are 1..10
    per_task = frame.groupby("dataset")["rank"].agg(["min", "max"])
    assert (per_task["min"] == 1).all() and (per_task["max"] == 10).all()


def test_bestdiff_is_minimised_so_save_is_not_held_back():
    # PROVENANCE: 'relative gap of metric_error to best framework on the dataset', lower better
    _, proposal = _proposal()
    assert proposal.column("bestdiff").direction == "min" and proposal.undecided == ()


def test_a_setting_that_varies_within_a_task_stays_a_config():
    frame = pd.DataFrame({"dataset": ["a", "a", "b", "b"], "model": ["m", "m", "m", "m"],
                          "batch_size": [1, 8, 1, 8], "kind": ["x", "x", "y", "y"],
                          "lora_rank": [8, 16, 8, 16]})
    assert task_properties(frame, "dataset", ["batch_size", "kind"]) == ("kind",)
    assert not is_rank_within_tasks(frame, "dataset", "lora_rank")
