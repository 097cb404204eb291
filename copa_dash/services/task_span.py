"""Whether the rows a page picks, ranks or averages come from more than one task.

A table of runs over several tasks (an AutoML benchmark: one row per framework, task and
fold; DeepOBS: one row per optimizer and test problem) holds numbers that are not
comparable across tasks: an accuracy of 0.88 on one dataset says nothing about one of 0.95
on another. A pick of one row, a ranking of rows, or a mean over a system's rows then mixes
tasks, and looks as sure as on a table of one task. This module is the one owner of that
rule: given a table (and the rows a view keeps) it says how many tasks those rows span and
words the note the pages and the command line show beside their answer.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from ..data.schema import EvalTable

#: task names listed in a note before "and N more"
_SHOWN = 5

#: what each front end does with the rows, in the note's words
WHAT = {
    "pick": "the pick compares a run on one task with runs on others",
    "rank": "the ranking compares runs on one task with runs on others",
    "front": "the front compares runs on one task with runs on others",
    "runs": "averaging the runs per model mixes each model's results on different tasks "
            "into one number",
    "average": "a system's mean mixes its runs on different tasks, and the ranking compares "
               "those mixtures",
    "systems": "each system's front and indicators pool its runs on different tasks as if "
               "they were one task",
    "systems_apart": "each system's runs are on other tasks than the others', so the "
                     "systems are compared across tasks",
}

#: the words for a mean or a pool when no group mixes tasks (each group sits in one task):
#: what remains true is that the groups are compared across tasks
_UNPOOLED = {"average": "rank", "systems": "systems_apart"}


@dataclass(frozen=True)
class TaskSpan:
    """The tasks a set of rows spans.

    Attributes
    ----------
    column : str
        The table's task column.
    tasks : tuple of str
        The distinct tasks among the rows, in table order (more than one).
    pooled : bool
        Some group that a mean or a front pools (a system, a model) has rows on two or more
        tasks; False when every group sits in one task (the words then say that the groups,
        not their runs, are compared across tasks).
    """

    column: str
    tasks: tuple[str, ...]
    pooled: bool = True

    @property
    def n(self) -> int:
        """How many tasks the rows span."""
        return len(self.tasks)

    def names(self) -> str:
        """The first task names, then "and N more" when there are many."""
        shown = ", ".join(self.tasks[:_SHOWN])
        rest = self.n - _SHOWN
        return shown if rest <= 0 else f"{shown} and {rest} more"

    def sentence(self, what: str = "pick", *, named: bool = True) -> str:
        """The note without its remedies: "These rows come from N tasks (a, b, ...): ...".

        ``what`` is a key of :data:`WHAT` (what the front end does with the rows); a mean
        or a pool that mixes no tasks (``pooled`` False) is worded as a comparison across
        tasks instead. ``named`` False leaves the task names out (a page lists them as
        links right after).
        """
        if not self.pooled:
            what = _UNPOOLED.get(what, what)
        names = f" ({self.names()})" if named else ""
        return f"These rows come from {self.n} tasks{names}: {WHAT[what]}."

    def shown(self) -> tuple[str, ...]:
        """The tasks a note offers to restrict to (the first few)."""
        return self.tasks[:_SHOWN]

    def cli_line(self, what: str = "pick", *, with_in: bool = True) -> str:
        """The note for the command line: the remedies as commands.

        ``with_in``: the command takes ``--in COL=VALUE`` (select, rank, sweep, front);
        otherwise the note says to give it a table of one task.
        """
        restrict = (f"with --in \"{self.column}={self.tasks[0]}\"" if with_in else
                    f"by giving a table of the rows of one {self.column}")
        return (f"{self.sentence(what)} To choose a system across tasks use 'copa-dash "
                f"depth' (the Posets page: ranks per task), or restrict to one task {restrict}.")


def task_span(table: EvalTable, rows=None, *, pooled_by: str | None = None) -> TaskSpan | None:
    """The tasks among ``rows`` of ``table``, or None when they come from one task (or the
    table has no task column).

    Parameters
    ----------
    table : EvalTable
        The table; its ``task`` role names the task column.
    rows : array-like of int or bool, optional
        The rows the view keeps: positions in the frame, or a boolean mask over it. All rows
        when None.
    pooled_by : str, optional
        The column whose groups a mean or a front pools (the system, a model column): the
        span's ``pooled`` then says whether some group has rows on two or more tasks.

    Returns
    -------
    TaskSpan or None
        The distinct tasks (missing task values are not a task) when there are two or more.

    Examples
    --------
    >>> import pandas as pd
    >>> from copa_dash.data.schema import EvalTable, Objective, Roles
    >>> frame = pd.DataFrame({"run": ["a", "b", "c"], "task": ["x", "y", "x"],
    ...                       "acc": [0.9, 0.8, 0.7]})
    >>> table = EvalTable(frame, Roles("run", (Objective("acc", "max"),), task="task"))
    >>> task_span(table).sentence()
    'These rows come from 2 tasks (x, y): the pick compares a run on one task with runs on others.'
    >>> task_span(table, [0, 2]) is None
    True
    >>> frame["model"] = ["m", "n", "m"]     # model m has runs on x only, n on y only
    >>> task_span(EvalTable(frame, table.roles), pooled_by="model").sentence("average")
    'These rows come from 2 tasks (x, y): the ranking compares runs on one task with runs on others.'

    """
    column = table.roles.task
    if column is None or column not in table.frame.columns:
        return None
    frame = table.frame
    if rows is not None:
        rows = np.asarray(rows)
        frame = frame.iloc[np.flatnonzero(rows) if rows.dtype == bool else rows]
    span = column_span(frame[column], column)
    if span is None or pooled_by is None or pooled_by not in frame.columns:
        return span
    tasks_per_group = frame[[pooled_by, column]].dropna().groupby(pooled_by)[column].nunique()
    return replace(span, pooled=bool((tasks_per_group > 1).any()))


def column_span(values: pd.Series, column: str) -> TaskSpan | None:
    """The tasks among ``values`` of the task column ``column`` (a table not yet saved, such
    as an upload's proposal), or None when they are fewer than two.

    Examples
    --------
    >>> column_span(pd.Series(["P1", "P2", "P1", None]), "problem").tasks
    ('P1', 'P2')
    >>> column_span(pd.Series([1, 10, 11, 2, 1]), "funcId").tasks    # numbers: in their order
    ('1', '2', '10', '11')
    """
    present = values.dropna()
    if pd.api.types.is_numeric_dtype(present):
        # tasks named by a number (BBOB's funcId) in numeric order: an export sorted as text
        # listed them "1, 10, 11, 12, 13" (session 22's newcomer pass)
        present = present.sort_values(kind="stable")
    tasks = pd.unique(present.astype(str))
    if len(tasks) < 2:
        return None
    return TaskSpan(column=column, tasks=tuple(tasks))
