"""``copa-dash depth``: the paper's Example B.2 from a file, --dataset on the shipped
benchmarks, ties, approximate mode, the readable output and exit 2 on user errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from copa_dash.cli import main
from copa_dash.core.posets import task_posets, ufg_depth

# Example B.2 (see tests/services/test_posets_service.py): depths 2/3, 1, 2/3; 3 ufg sets.
B2 = [("SGD", "p1", 2, 2), ("Momentum", "p1", 1, 1), ("Adam", "p1", 0, 3),
      ("SGD", "p2", 2, 2), ("Momentum", "p2", 0, 3), ("Adam", "p2", 1, 1),
      ("SGD", "p3", 2, 2), ("Momentum", "p3", 3, 3), ("Adam", "p3", 1, 1)]
DATASETS = Path(__file__).resolve().parents[2] / "datasets"
OPTIONS = ["--method", "opt", "--task", "prob", "--criterion", "err:min",
           "--criterion", "cost:min"]


@pytest.fixture()
def b2_csv(tmp_path):
    path = tmp_path / "b2.csv"
    pd.DataFrame(B2, columns=["opt", "prob", "err", "cost"]).to_csv(path, index=False)
    return path


def _json(capsys, *argv) -> dict:
    assert main(["depth", *map(str, argv), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_example_b2_from_a_file(capsys, b2_csv):
    out = _json(capsys, b2_csv, *OPTIONS)
    assert [t["task"] for t in out["tasks"]] == ["p1", "p2", "p3"]
    assert [round(t["depth"], 6) for t in out["tasks"]] == [0.666667, 1.0, 0.666667]
    assert out["ufg_sets"] == 3 and out["exact"] and out["error_bound"] == 0
    assert out["most_central"] == ["p2"] and out["most_outlying"] == ["p1", "p3"]
    assert out["methods"] == ["SGD", "Momentum", "Adam"]


def test_maximised_criterion_in_a_tsv_with_a_tie(capsys, tmp_path):
    rows = [(m, t, -c, e) for m, t, e, c in B2] + [("SGD", "p4", 1, 1), ("Momentum", "p4", 1, 1),
                                                  ("Adam", "p4", 0, 0.5)]  # all-zero: a placeholder
    path = tmp_path / "b2.tsv"
    pd.DataFrame(rows, columns=["opt", "prob", "score", "cost"]).to_csv(path, sep="\t",
                                                                       index=False)
    argv = [path, "--method", "opt", "--task", "prob", "--criterion", "score:max",
            "--criterion", "cost:min"]
    dropped = _json(capsys, *argv)
    assert [round(t["depth"], 6) for t in dropped["tasks"]] == [0.666667, 1.0, 0.666667]
    assert dropped["flagged_ties"] == [{"task": "p4", "methods": ["SGD", "Momentum"]}]
    assert dropped["dropped"][0]["task"] == "p4"
    kept = _json(capsys, *argv, "--ties", "incomparable")
    assert [t["task"] for t in kept["tasks"]] == ["p1", "p2", "p3", "p4"]
    assert kept["dropped"] == [] and kept["ties"] == "incomparable"


@pytest.mark.parametrize("name, columns, n_tasks", [
    ("deepobs", ("optimizer", "problem", ["loss_rank", "speed"]), 8),
    ("dmop", ("algorithm", "problem", ["migd", "migd_stage1", "migd_stage2", "migd_stage3"]), 13),
])
def test_dataset_uses_roles_and_default_criteria_and_agrees_with_the_core(
        capsys, name, columns, n_tasks):
    out = _json(capsys, "--dataset", name)
    assert len(out["tasks"]) == n_tasks
    method, task, criteria = columns
    frame = pd.read_csv(DATASETS / f"{name}.csv")
    methods = list(dict.fromkeys(frame[method]))
    tasks = list(dict.fromkeys(frame[task]))
    tp = task_posets(frame[criteria].to_numpy(float),
                     method_index=frame[method].map(methods.index).to_numpy(),
                     task_index=frame[task].map(tasks.index).to_numpy())
    expected = ufg_depth(tp.relations)
    assert out["ufg_sets"] == expected.n_ufg_sets
    np.testing.assert_allclose([t["depth"] for t in out["tasks"]], expected.observed_depths)
    assert [t["task"] for t in out["tasks"]] == tasks


def test_dataset_with_other_criteria_and_missing_values(capsys):
    out = _json(capsys, "--dataset", "bbob", "--criterion", "ert:min", "--criterion",
                "fv_median:min")
    assert len(out["tasks"]) == 19
    assert {d["task"] for d in out["dropped"]} == {"f07", "f16", "f17", "f18", "f24"}
    worst = _json(capsys, "--dataset", "bbob", "--criterion", "ert:min", "--criterion",
                  "fv_median:min", "--missing", "worst")
    assert len(worst["tasks"]) == 24 and worst["dropped"] == []


def test_approximate_mode_states_its_bound(capsys):
    exact = _json(capsys, "--dataset", "dmop")
    approx = _json(capsys, "--dataset", "dmop", "--tolerance", "0.2")
    assert approx["error_bound"] <= 0.2
    for a, e in zip(approx["tasks"], exact["tasks"]):
        assert abs(a["depth"] - e["depth"]) <= approx["error_bound"] + 1e-12


def test_readable_output_sorts_by_depth(capsys, b2_csv):
    assert main(["depth", str(b2_csv), *OPTIONS]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert lines[0].split() == ["task", "depth"] and lines[2].split() == ["p2", "1"]
    assert "3 ufg sets; most central: p2; most outlying: p1, p3" in text


def test_criteria_left_out_are_the_guessed_objectives_and_said(capsys, b2_csv):
    assert main(["depth", str(b2_csv), "--method", "opt", "--task", "prob", "--json"]) == 0
    guessed = capsys.readouterr()
    assert "criteria err:min, cost:min" in guessed.err
    explicit = _json(capsys, b2_csv, *OPTIONS)
    assert {**json.loads(guessed.out), "seconds": 0} == {**explicit, "seconds": 0}


@pytest.mark.parametrize("argv, message", [
    (["--method", "opt", "--criterion", "err:min"], "--method COL and --task COL"),
    (["--method", "opt", "--task", "prob", "--criterion", "err"], "COLUMN:min"),
    (["--method", "opt", "--task", "prob", "--criterion", "nope:min"], "'nope'"),
    (["--method", "opt", "--task", "prob", "--criterion", "err:min", "--tolerance", "2"],
     "--tolerance"),
])
def test_user_errors_exit_2_with_one_line(capsys, b2_csv, argv, message):
    assert main(["depth", str(b2_csv), *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("copa-dash depth:") and message in err and "Traceback" not in err


def test_dataset_and_file_together_or_neither(capsys, b2_csv):
    assert main(["depth", str(b2_csv), "--dataset", "deepobs"]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["depth"]) == 2
    assert "TABLE file or --dataset" in capsys.readouterr().err


def test_default_depth_is_bounded_and_exact_insists(capsys, monkeypatch):
    """Issue 33: without --exact the depth is exact only when its predicted work fits the
    budget (COPA_DEPTH_EXACT_BUDGET), else approximate with its bound, and says so."""
    monkeypatch.setenv("COPA_DEPTH_EXACT_BUDGET", "1000")
    auto = _json(capsys, "--dataset", "bbob")
    assert not auto["exact"] and 0 < auto["error_bound"] <= 0.01
    insisted = _json(capsys, "--dataset", "bbob", "--exact")
    assert insisted["exact"] and insisted["error_bound"] == 0
    exact = {t["task"]: t["depth"] for t in insisted["tasks"]}
    assert all(abs(t["depth"] - exact[t["task"]]) <= auto["error_bound"] + 1e-12
               for t in auto["tasks"])
    monkeypatch.setenv("COPA_DEPTH_EXACT_BUDGET", str(10**7))
    assert _json(capsys, "--dataset", "bbob")["exact"]


def test_the_approximate_note_says_only_the_clis_words(capsys, monkeypatch):
    """F16: the CLI tells the user to give --exact, not to choose under the page's Depth."""
    monkeypatch.setenv("COPA_DEPTH_EXACT_BUDGET", "1000")
    assert main(["depth", "--dataset", "bbob"]) == 0
    out = capsys.readouterr()
    said = out.out + out.err
    assert "Give --exact to insist." in said and "under Depth" not in said


def test_exact_and_tolerance_together_exit_2(capsys):
    assert main(["depth", "--dataset", "bbob", "--exact", "--tolerance", "0.1"]) == 2
    assert "either --exact or --tolerance" in capsys.readouterr().err


def test_an_approximate_depth_names_the_tasks_it_cannot_tell_from_the_extremes(capsys):
    """Newcomer's pass (session 18): amlb-2022's "most outlying: Amazon_employee_access
    (0.043)" had a dozen tasks within the stated bound of it. The answer now lists the tasks
    within twice the bound of each extreme, and the exact extreme is always among the named."""
    exact = _json(capsys, "--dataset", "dmop")
    approx = _json(capsys, "--dataset", "dmop", "--tolerance", "0.2")
    assert exact["within_bound_of_most_outlying"] == exact["within_bound_of_most_central"] == []
    depth = {t["task"]: t["depth"] for t in approx["tasks"]}
    bound = 2 * approx["error_bound"]
    low, top = min(depth.values()), max(depth.values())
    assert set(approx["within_bound_of_most_outlying"]) == {
        t for t, d in depth.items() if d <= low + bound} - set(approx["most_outlying"])
    assert set(approx["within_bound_of_most_central"]) == {
        t for t, d in depth.items() if d >= top - bound} - set(approx["most_central"])
    for which in ("outlying", "central"):
        named = set(approx[f"most_{which}"]) | set(approx[f"within_bound_of_most_{which}"])
        assert set(exact[f"most_{which}"]) <= named
