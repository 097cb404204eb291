"""``copa-dash gap``: hand-worked numbers from a file (paired and long layouts), the shipped
example with --dataset, --compare, the readable output and the exit status of user errors."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from copa_dash.cli import main

# Hand-worked (minimise both, r = (1, 1)), as in tests/core/test_generalization.py:
# system a: HV_val 0.33, HV_opt 0.22, HV_pess 0.11, gap 0.11; system b: 0.49, 0.42, 0.42, 0.
ROWS = [("a-0", "a", 0.1, 0.9, 0.2, 0.8), ("a-1", "a", 0.5, 0.5, 0.6, 0.9),
        ("a-2", "a", 0.9, 0.1, 0.9, 0.2), ("a-3", "a", 0.8, 0.8, 0.1, 0.1),
        ("b-0", "b", 0.3, 0.3, 0.4, 0.3), ("b-1", "b", 0.6, 0.6, 0.7, 0.7)]
EXPECTED = {"a": (0.33, 0.22, 0.11, 0.11), "b": (0.49, 0.42, 0.42, 0.0)}
OPTIONS = ["--id", "run", "--system", "family", "--objective", "err:min",
           "--objective", "cost:min", "--ref", "1,1"]


@pytest.fixture()
def paired_csv(tmp_path):
    frame = pd.DataFrame(ROWS, columns=["run", "family", "val_err", "val_cost", "test_err",
                                        "test_cost"])
    path = tmp_path / "paired.csv"
    frame.to_csv(path, index=False)
    return path


@pytest.fixture()
def long_csv(tmp_path):
    rows = []
    for run, family, ve, vc, te, tc in ROWS:
        rows += [(run, family, "test", te, tc), (run, family, "valid", ve, vc)]
    path = tmp_path / "long.csv"
    pd.DataFrame(rows, columns=["run", "family", "part", "err", "cost"]).to_csv(path, index=False)
    return path


def _json(capsys, *argv) -> dict:
    assert main(["gap", *map(str, argv), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _check_hand_worked(result):
    assert result["metrics"] == ["err", "cost"] and result["ref"] == [1.0, 1.0]
    assert [r["system"] for r in result["systems"]] == ["a", "b"]
    for row in result["systems"]:
        assert set(row) >= {"system", "budget", "hv_val", "hv_opt", "hv_pess", "gap"}
        assert row["budget"] is None
        got = (row["hv_val"], row["hv_opt"], row["hv_pess"], row["gap"])
        assert got == pytest.approx(EXPECTED[row["system"]])
    (comparison,) = result["comparisons"]
    assert (comparison["a"], comparison["b"]) == ("a", "b")
    assert [v["criterion"] for v in comparison["verdicts"]] == ["hv_difference", "dominance", "gap"]
    assert [v["winner"] for v in comparison["verdicts"]] == ["b", None, "b"]


def test_paired_columns_from_a_file(capsys, paired_csv):
    _check_hand_worked(_json(capsys, paired_csv, *OPTIONS))


def test_long_layout_with_a_split_column(capsys, long_csv):
    result = _json(capsys, long_csv, *OPTIONS, "--split", "part")
    _check_hand_worked(result)
    assert result["systems"][0]["seeds"][0]["n_validation_front"] == 3
    assert result["systems"][0]["seeds"][0]["n_optimistic"] == 2


def test_shipped_example_uses_the_manifest_roles_and_paired_metrics(capsys):
    result = _json(capsys, "--dataset", "breast-cancer-val-test")
    assert result["metrics"] == ["precision", "recall"]
    assert result["directions"] == ["max", "max"]
    assert [(r["system"], r["budget"]) for r in result["systems"]] == [
        (s, b) for s in ("random_forest", "sgd_linear") for b in (50, 100, 200, 500)]
    for row in result["systems"]:
        assert row["n_seeds"] == 3 and len(row["seeds"]) == 3
        assert row["gap"] == pytest.approx(np.mean([s["gap"] for s in row["seeds"]]))
        assert row["hv_pess"] <= row["hv_opt"] + 1e-12
    assert len(result["comparisons"]) == 12
    zero = _json(capsys, "--dataset", "breast-cancer-val-test", "--ref", "0,0")
    assert zero["ref"] == [0.0, 0.0]
    assert all(0 <= r["hv_pess"] <= r["hv_opt"] <= 1 for r in zero["systems"])
    only_recall = _json(capsys, "--dataset", "breast-cancer-val-test", "--objective", "recall:max")
    assert only_recall["metrics"] == ["recall"]


def test_compare_restricts_the_verdicts_to_one_pair(capsys, paired_csv):
    result = _json(capsys, paired_csv, *OPTIONS, "--compare", "b,a")
    (comparison,) = result["comparisons"]
    assert (comparison["a"], comparison["b"]) == ("b", "a")
    assert comparison["verdicts"][0]["winner"] == "b"


def test_readable_output_has_the_table_and_the_sentences(capsys, paired_csv):
    assert main(["gap", str(paired_csv), *OPTIONS]) == 0
    out = capsys.readouterr().out
    assert "hv_opt" in out and "0.22" in out
    assert "b is better: its pessimistic HV 0.4200 exceeds a's optimistic HV 0.2200." in out


@pytest.mark.parametrize("argv, message", [
    (["--id", "run", "--objective", "err:min"], "TABLE file or --dataset"),
    (["{csv}", "--id", "run"], "--objective METRIC:min"),
    (["{csv}", *OPTIONS[:-1], "1,x"], "--ref '1,x'"),
    (["{csv}", *OPTIONS[:-1], "1,1,1"], "'ref'"),
    (["{csv}", *OPTIONS, "--compare", "a"], "--compare 'a'"),
    (["{csv}", *OPTIONS, "--compare", "a,z"], "no system 'z'"),
    (["{csv}", *OPTIONS, "--split", "family"], "one validation value"),
    (["{csv}", "--id", "run", "--objective", "loss:min"], "no column 'val_loss'"),
])
def test_user_errors_exit_2_with_one_line(capsys, paired_csv, argv, message):
    argv = [str(paired_csv) if a == "{csv}" else a for a in argv]
    assert main(["gap", *argv, "--json"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("copa-dash gap: ") and message in err and "Traceback" not in err


def test_without_id_the_rows_are_named_as_on_the_upload_page(capsys, paired_csv):
    options = [a for a in OPTIONS if a not in ("--id", "run")]
    assert main(["gap", str(paired_csv), *options, "--json"]) == 0
    guessed = capsys.readouterr()
    assert "rows named by 'run' (give --id to choose)" in guessed.err
    assert main(["gap", str(paired_csv), *OPTIONS, "--json"]) == 0
    assert json.loads(guessed.out) == json.loads(capsys.readouterr().out)


def test_the_console_command_runs():
    command = shutil.which("copa-dash")
    launcher = [command] if command else [
        sys.executable, "-c", "import sys; from copa_dash.cli import main; sys.exit(main())"]
    out = subprocess.run([*launcher, "gap", "--dataset", "breast-cancer-val-test", "--ref", "0,0",
                          "--json"], capture_output=True, text=True, check=True)
    assert len(json.loads(out.stdout)["systems"]) == 8
