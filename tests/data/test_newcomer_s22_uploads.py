"""Session 22's newcomer pass on two exports no test used: a black-box optimiser benchmark as
IOHanalyzer writes it (COCO/BBOB's ERT table) and MTEB's per-task scores (issue 33).

What a newcomer saw on the upload page, each now fixed:
* BBOB: ``funcId`` (the test function, a number) read as a setting, so the 168 rows read as
  "runs" of each optimiser named 'name · run 2'; ``ERT`` and ``PAR-1`` had no direction, and
  the short set of twelve was twelve undirected quantiles with ERT, the field's measure, left
  under "more columns". ERT is ``Inf`` where no run reached the target, and an objective must
  be finite to save: proposed, it would make the default Save fail, so it is left as metadata
  with the rows named and the way to use it said.
* MTEB: ``BrazilianToxicTweetsClassification`` guessed *min*, "sure" (the word 'toxic'): it is
  a classification score; the note read "(the first column of each family: )"; and the score
  column ``GermanSTSBenchmark`` (its last word) became the task, so every page said "These rows
  come from 30 tasks ... restrict to one task (GermanSTSBenchmark): 84.75471109539576, ...".
"""

from __future__ import annotations

import pandas as pd

from copa_dash.data.guessed_table import guessed_table
from copa_dash.data.io import read_table_report
from copa_dash.data.proposal import propose
from copa_dash.data.role_guess import direction_guess

MESSY = "tests/data/messy/"


def _proposal(name):
    read = read_table_report(MESSY + name)
    return propose(read.frame, units=read.units, labels=read.labels)


def test_bbob_functions_are_the_tasks_and_its_runtimes_read_as_costs():
    raw = pd.read_csv(MESSY + "bbob_ert_iohanalyzer.csv")       # the premise, pandas alone
    assert raw.groupby(["ID", "funcId"]).size().max() == 1 and raw["funcId"].nunique() == 24
    proposal = _proposal("bbob_ert_iohanalyzer.csv")
    roles = {g.name: g for g in proposal.columns}
    assert roles["funcId"].role == "task" and roles["ID"].role == "system"
    assert (roles["PAR-1"].role, roles["PAR-1"].direction) == ("objective", "min")
    assert (roles["ERT"].role, roles["ERT"].direction) == ("metadata", "min")
    assert roles["ERT"].reason.startswith("infinite in 8 rows")
    said = " ".join(proposal.notes)
    assert "Infinite values (Inf) in 'ERT' (rows 10, 32, 33 and 5 more)" in said
    assert int(raw["ERT"].isin([float("inf")]).sum()) == 8
    # IOHanalyzer's sd is the spread of the runtimes about their mean, not about the median
    assert "Kept as uncertainty, not goals: 'sd' (sd) of 'mean'." in said
    assert "'funcId' tells them apart (it becomes the task)" in said
    assert "run number" not in said
    assert "(those with a guessed direction first, then in the file's order)" in said


def test_mteb_task_columns_are_scores_and_the_note_has_no_empty_list():
    proposal = _proposal("mteb_per_task_head.csv")
    roles = {g.name: g for g in proposal.columns}
    toxic = roles["BrazilianToxicTweetsClassification"]
    assert toxic.direction == "max" and toxic.confidence == "likely", toxic
    assert all(g.direction is not None for g in proposal.columns if g.role == "objective")
    assert not any("family: )" in note for note in proposal.notes), proposal.notes


def test_a_task_named_last_decides_only_when_it_is_last():
    assert direction_guess("ToxicConversationsClassification")[::2] == ("max", "likely")
    assert direction_guess("classification_error")[0] == "min"     # the error is named last
    assert direction_guess("toxicity")[0] == "min"


def test_the_bbob_table_saves_as_proposed_once_its_directions_are_chosen():
    """The proposal never holds an objective the save refuses (ERT's Inf)."""
    read = read_table_report(MESSY + "bbob_ert_iohanalyzer.csv")
    chosen = [(g.name, g.direction or "min") for g in propose(read.frame).columns
              if g.role == "objective"]
    table = guessed_table(read, objectives=chosen).table
    assert "ERT" not in table.objective_names and "PAR-1" in table.objective_names


def test_a_score_named_like_a_task_is_not_the_task():
    proposal = _proposal("mteb_per_task_head.csv")
    roles = {g.name: g for g in proposal.columns}
    assert roles["GermanSTSBenchmark"].role in ("objective", "metadata")
    assert roles["GermanSTSBenchmark"].direction == "max"
    assert not any(g.role == "task" for g in proposal.columns)
    # whole numbers under a task's name still make the task (BBOB's funcId above)
    frame = pd.DataFrame({"model": list("aabb"), "benchmark": [1, 2, 1, 2],
                          "acc": [0.1, 0.2, 0.3, 0.4], "time": [1.0, 2, 3, 4]})
    assert {g.name: g.role for g in propose(frame).columns}["benchmark"] == "task"
