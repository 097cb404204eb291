"""Session 22's newcomer pass: AMLB's raw ``all_data.csv`` proposed ``bestdiff``,
``loss_rescaled`` and ``time_*_rescaled`` as objectives beside the columns they are rescaled
from, task by task (issue 33). The name rule of ``twin_columns`` (``raw``/``normalised``) cannot
see them; the data can: within every dataset each orders the rows as its source does, and its
best value is the same in every dataset. The proposal now leaves them as metadata and says
which column each derives from and how to bring it back, on the page and on the CLI."""

from __future__ import annotations

import numpy as np
import pandas as pd

from copa_dash.cli import main
from copa_dash.data.proposal import propose
from copa_dash.data.twin_columns import task_twins

FILE = "tests/data/messy/amlb2022_all_data.csv"
TWINS = {"bestdiff": "metric_error", "loss_rescaled": "metric_error",
         "time_train_s_rescaled": "time_train_s", "time_infer_s_rescaled": "time_infer_s"}


def test_the_premise_each_rescaled_column_orders_every_task_as_its_source():
    """The independent check, pandas alone: Spearman's rho 1 within every dataset, a best
    value the same in every dataset, and across the whole table no such order."""
    raw = pd.read_csv(FILE)
    for derived, source in TWINS.items():
        rho = raw.groupby("dataset")[[derived, source]].corr(method="spearman")
        within = rho.xs(derived, level=1)[source].dropna()
        assert len(within) >= 50 and np.allclose(within, 1.0), derived
        assert raw[[derived, source]].corr(method="spearman").iloc[0, 1] < 0.99
        best = raw.groupby("dataset")[derived].min()
        assert np.ptp(best) < 1e-9 and np.ptp(raw.groupby("dataset")[source].min()) > 0


def test_the_proposal_keeps_the_sources_and_names_them_beside_each_twin():
    proposal = propose(pd.read_csv(FILE))
    roles = {g.name: g for g in proposal.columns}
    assert {n for n, g in roles.items() if g.role == "objective"} == {
        "metric_error", "time_train_s", "time_infer_s"}
    for derived, source in TWINS.items():
        assert roles[derived].role == "metadata"
        assert roles[derived].reason.startswith(f"derived from {source!r}: rescaled within "
                                                "each 'dataset'")
        assert "make it an objective" in roles[derived].reason
    note = next(n for n in proposal.notes if n.startswith("Rescaled within each 'dataset'"))
    assert "'bestdiff' and 'loss_rescaled' from 'metric_error'" in note
    assert "copa-dash: --objective 'bestdiff:min'" in note


def test_copa_dash_select_says_it_and_uses_the_sources(capsys):
    assert main(["select", FILE]) == 0
    out = capsys.readouterr()
    assert "Rescaled within each 'dataset' from another column" in out.err
    assert "loss_rescaled (min)" not in out.out and "metric_error (min)" in out.out


def test_columns_that_only_correlate_are_not_twins():
    """A second error that mostly agrees with the first, and a rescaled column whose order
    breaks in one task, stay objectives."""
    rng = np.random.default_rng(0)
    tasks = np.repeat(list("abcdef"), 8)
    error = rng.uniform(0, 1, len(tasks)) + np.repeat(np.arange(6.0), 8)
    frame = pd.DataFrame({"task": tasks, "error": error,
                          "other_error": error + rng.normal(0, 0.2, len(tasks))})
    low = frame.groupby("task")["error"].transform("min")
    frame["error_rescaled"] = frame["error"] - low
    assert task_twins(frame, "task", ["error", "other_error", "error_rescaled"]) == {
        "error_rescaled": "error"}
    frame.loc[[0, 1], "error_rescaled"] = frame.loc[[1, 0], "error_rescaled"].to_numpy()
    order_kept = (frame["error"][0] < frame["error"][1]) == (
        frame["error_rescaled"][0] < frame["error_rescaled"][1])
    assert not order_kept
    assert task_twins(frame, "task", ["error", "other_error", "error_rescaled"]) == {}
    assert task_twins(frame, None, ["error", "error_rescaled"]) == {}


def test_the_notebook_says_it_in_the_same_words():
    from copa_dash import notebook

    said = notebook.select(pd.read_csv(FILE)).view
    note = next(n for n in propose(pd.read_csv(FILE)).notes
                if n.startswith("Rescaled within each 'dataset'"))
    assert note in said
    assert notebook.select(pd.read_csv(FILE), {"metric_error": "min",
                                               "time_train_s": "min"}).view == ""
