"""services.task_span: the one rule that says rows come from several tasks (tester G2, G12)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from copa_dash.data.filters import RowFilter
from copa_dash.data.schema import EvalTable, Objective, Roles
from copa_dash.services import rankings
from copa_dash.services.task_span import task_span


def _table(tasks, system=None):
    frame = pd.DataFrame({"run": [f"r{i}" for i in range(len(tasks))], "task": tasks,
                          "acc": np.linspace(0.5, 0.9, len(tasks)),
                          "time": np.linspace(9.0, 1.0, len(tasks))})
    if system is not None:
        frame["system"] = system
    roles = Roles("run", (Objective("acc", "max"), Objective("time", "min")), task="task",
                  system="system" if system is not None else None)
    return EvalTable(frame, roles)


def test_tasks_named_by_numbers_are_listed_in_numeric_order():
    """BBOB's IOHanalyzer export (tests/data/messy/bbob_ert_iohanalyzer.csv) lists its funcId
    as text sorts it; the note said "tasks (1, 10, 11, 12, 13 and 19 more)"."""
    span = task_span(_table([1, 10, 11, 2, 20, 3, 1]))
    assert span.tasks == ("1", "2", "3", "10", "11", "20")
    assert "(1, 2, 3, 10, 11 and 1 more)" in span.sentence("pick")


def test_tasks_counted_in_table_order_and_named():
    span = task_span(_table(["b", "a", "b", "c"]))
    assert span.n == 3 and span.tasks == ("b", "a", "c") and span.column == "task"
    assert span.sentence("pick").startswith("These rows come from 3 tasks (b, a, c): the pick "
                                            "compares a run on one task with runs on others.")


def test_one_task_among_the_kept_rows_says_nothing():
    table = _table(["x", "y", "x", "y"])
    assert task_span(table, [0, 2]) is None
    assert task_span(table, np.array([True, False, True, False])) is None
    assert task_span(table, np.array([True, True, False, False])).n == 2


def test_no_task_column_or_missing_task_values_are_not_tasks():
    frame = pd.DataFrame({"run": ["a", "b"], "acc": [0.1, 0.2]})
    assert task_span(EvalTable(frame, Roles("run", (Objective("acc", "max"),)))) is None
    assert task_span(_table(["x", None, "x"])) is None


def test_many_tasks_are_shortened():
    span = task_span(_table([f"t{i}" for i in range(8)]))
    assert span.names() == "t0, t1, t2, t3, t4 and 3 more"


def test_cli_line_names_the_restriction_it_can_give():
    span = task_span(_table(["x", "y"]))
    assert '--in "task=x"' in span.cli_line("rank")
    assert "--in" not in span.cli_line("systems", with_in=False)
    assert "'copa-dash depth'" in span.cli_line()


def test_rank_view_carries_the_span_of_the_rows_it_ranks():
    table = _table(["x", "y", "x", "y"], system=["A", "A", "B", "B"])
    assert rankings.rank_view(table, criteria="copa:1").task_span.tasks == ("x", "y")
    one = RowFilter(sets={"task": ("x",)})
    assert rankings.rank_view(table, criteria="copa:1", row_filter=one).task_span is None



def test_a_mean_or_pool_is_said_to_mix_tasks_only_when_a_group_has_runs_on_several():
    mixed = _table(["x", "y", "x", "y"], system=["A", "A", "B", "B"])
    apart = _table(["x", "x", "y", "y"], system=["A", "A", "B", "B"])   # A on x, B on y
    assert task_span(mixed, pooled_by="system").pooled
    assert not task_span(apart, pooled_by="system").pooled
    assert "mean mixes its runs" in task_span(mixed, pooled_by="system").sentence("average")
    said = task_span(apart, pooled_by="system").sentence("average")
    assert "mixes" not in said and "compares runs on one task with runs on others" in said
    said = task_span(apart, pooled_by="system").sentence("systems")
    assert "pool" not in said and "systems are compared across tasks" in said


def test_rank_view_says_a_mean_mixes_tasks_only_when_it_does():
    apart = _table(["x", "x", "y", "y"], system=["A", "A", "B", "B"])
    view = rankings.rank_view(apart, criteria="copa:1")
    assert view.task_what == "average" and not view.task_span.pooled
    assert "mixes" not in view.task_span.sentence(view.task_what)
