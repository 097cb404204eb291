"""``copa-dash indicators`` and ``copa-dash significance``: hand-worked numbers from a file,
null for undefined values, --dataset on the fairness study, reproducible p-values, the
readable output and the exit status of user errors."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from copa_dash.cli import main
from copa_dash.services import systems
from copa_dash.services.catalog import open_dataset

KEYS = ["system", "hv", "onvg", "onvg_hat", "onvgr", "ud_bar", "os", "area"]


@pytest.fixture()
def hand_csv(tmp_path):
    """System a: (0,4), (4,0), (2,2); system b: (1,3), (3,3) (both minimised)."""
    frame = pd.DataFrame({"name": list("pqrst"), "family": ["a", "a", "a", "b", "b"],
                          "err": [0.0, 4.0, 2.0, 1.0, 3.0], "cost": [4.0, 0.0, 2.0, 3.0, 3.0]})
    path = tmp_path / "hand.csv"
    frame.to_csv(path, index=False)
    return path


@pytest.fixture()
def runs_csv(tmp_path):
    """Two systems x 5 seeds x 4 points; the candidate is clearly better."""
    rng = np.random.default_rng(0)
    rows = []
    for system, move in (("old", 0.0), ("new", 0.3)):
        for seed in range(5):
            for j in range(4):
                a = rng.uniform(0, np.pi / 2)
                rows.append((f"{system}-{seed}-{j}", system, seed,
                             1 - np.cos(a) - move + 0.03 * rng.standard_normal(),
                             np.sin(a) + move + 0.03 * rng.standard_normal()))
    path = tmp_path / "runs.csv"
    pd.DataFrame(rows, columns=["run_id", "algo", "rep", "loss", "acc"]).to_csv(path, index=False)
    return path


def _json(capsys, *argv) -> dict:
    assert main([*map(str, argv), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_indicators_hand_worked_with_null(capsys, hand_csv):
    out = _json(capsys, "indicators", hand_csv, "--id", "name", "--system", "family",
                "--objective", "err:min", "--objective", "cost:min")
    assert list(out) == ["systems"]
    a, b = out["systems"]
    assert list(a) == KEYS and (a["system"], b["system"]) == ("a", "b")
    assert a["hv"] == pytest.approx(0.25) and a["onvg"] == 3 and b["onvg"] == 1
    assert b["onvg_hat"] == pytest.approx(1 / 3) and b["onvgr"] == 0.5
    assert b["ud_bar"] is None and b["os"] is None and a["os"] == pytest.approx(1.0)
    # the radar area of a: HV .25, ONVG^ 1, ONVGR 1, UD_bar, OS 1 over the unit pentagon
    r = [a["hv"], a["onvg_hat"], a["onvgr"], a["ud_bar"], a["os"]]
    assert a["area"] == pytest.approx(np.dot(r, np.roll(r, -1)) / 5)


def test_indicators_options_change_the_numbers(capsys, hand_csv):
    base = ["indicators", hand_csv, "--id", "name", "--system", "family",
            "--objective", "err:min", "--objective", "cost:min"]
    minmax = _json(capsys, *base)
    cdf = _json(capsys, *base, "--normalize", "cdf", "--sigma", "0.6")
    assert cdf["systems"][0]["hv"] != pytest.approx(minmax["systems"][0]["hv"])
    assert main([*map(str, base)]) == 0
    text = capsys.readouterr().out
    assert "b: os undefined: needs at least 2 non-dominated points" in text


def test_indicators_on_the_fairness_dataset_match_the_service(capsys):
    out = _json(capsys, "indicators", "--dataset", "fairness-compas-race")
    table = open_dataset("fairness-compas-race").table
    expected = systems.systems_view(table, objectives=["accuracy", "di_distance"]).records()
    assert [r["system"] for r in out["systems"]] == [r["system"] for r in expected]
    for got, want in zip(out["systems"], expected):
        for key in KEYS[1:]:
            assert got[key] == (None if np.isnan(want[key]) else pytest.approx(want[key]))


def test_significance_from_a_file(capsys, runs_csv):
    argv = ["significance", runs_csv, "--id", "run_id", "--system", "algo", "--seed", "rep",
            "--baseline", "old", "--candidate", "new", "--objective", "loss:min",
            "--objective", "acc:max", "--permutations", 999, "--rng-seed", 4]
    out = _json(capsys, *argv)
    assert {"delta", "delta_relative", "p_value", "permutations", "ref"} <= set(out)
    assert out["permutations"] == 999 and len(out["ref"]) == 2 and out["rng_seed"] == 4
    assert out["delta"] > 0 and out["p_value"] < 0.05
    assert out["delta_relative"] == pytest.approx(out["delta"] / out["hv_baseline"])
    frame = pd.read_csv(runs_csv)
    assert out["ref"][0] == pytest.approx(frame["loss"].max() + 0.1 * np.ptp(frame["loss"]))
    assert out["ref"][1] == pytest.approx(frame["acc"].min() - 0.1 * np.ptp(frame["acc"]))
    assert _json(capsys, *argv)["p_value"] == out["p_value"]     # same seed, same p
    assert main([*map(str, argv)]) == 0
    text = capsys.readouterr().out
    assert "p = " in text and "reference point (range)" in text and "5 runs" in text
    assert text.splitlines()[-1].startswith(
        "verdict: At the 5% level, the candidate's front (new) is significantly better than "
        "the baseline's (old) in hypervolume (p = ")


def test_significance_on_the_fairness_dataset(capsys):
    out = _json(capsys, "significance", "--dataset", "fairness-adult-sex", "--baseline",
                "SVM,LR", "--candidate", "Feldman-SVM,Feldman-LR", "--permutations", 500,
                "--rng-seed", 1)
    table = open_dataset("fairness-adult-sex").table
    view = systems.significance_test(table, baseline=["SVM", "LR"],
                                     candidate=["Feldman-SVM", "Feldman-LR"],
                                     objectives=["accuracy", "di_distance"],
                                     n_permutations=500, rng_seed=1)
    assert out["p_value"] == view.test.p_value and out["n_runs"] == [20, 20]
    assert out["ref"] == pytest.approx(view.test.ref.tolist())


@pytest.mark.parametrize("argv, message", [
    (["significance", "--dataset", "fairness-adult-sex", "--baseline", "SVM",
      "--candidate", "SVM"], "on both sides"),
    (["significance", "--dataset", "fairness-adult-sex", "--baseline", "SVM",
      "--candidate", "Nope"], "not in the system column"),
    (["significance", "--dataset", "fairness-adult-sex", "--baseline", "SVM",
      "--candidate", "LR", "--permutations", "0"], "from 1 to"),
    (["indicators", "--dataset", "decodingtrust"], "no system column"),
])
def test_user_errors_exit_2(capsys, argv, message):
    assert main(argv) == 2
    assert message in capsys.readouterr().err
