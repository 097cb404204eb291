"""``copa-dash hypervolume``: exact when the cost model says it fits the budget (equal to
moocore), a seeded Monte-Carlo estimate with its interval when it does not, said in the
text and --json outputs; --exact forces exact, a bad --budget is one line and exit 2."""

from __future__ import annotations

import json

import moocore
import numpy as np
import pandas as pd
import pytest

from copa_dash.cli import main
from copa_dash.core import hypervolume as hv
from tests.hv_budget import big_fronts_cost_too_much, sphere

OBJECTIVES = [arg for k in range(6) for arg in ("--objective", f"f{k}:min")]


def _run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture()
def sphere_csv(tmp_path):
    """60 rows on the positive unit sphere in 6 objectives, all minimised, ref 1.1."""
    y = sphere(60, 6, 3)
    frame = pd.DataFrame(y, columns=[f"f{k}" for k in range(6)])
    frame.insert(0, "name", [f"m{i}" for i in range(60)])
    path = tmp_path / "sphere.csv"
    frame.to_csv(path, index=False)
    return path, y


def _args(path):
    return [str(path), "--id", "name", *OBJECTIVES,
            "--ref", ",".join(["1.1"] * 6)]


def _never_exact(monkeypatch):
    """Make exact look too costly and fail loudly if it runs anyway."""
    monkeypatch.setattr(hv, "exact_cost_seconds", lambda n, k: 1e9)
    monkeypatch.setattr(hv, "_probed_cost_seconds", lambda front, r, budget: 1e9)

    def refuse(*_args, **_kwargs):
        raise AssertionError("the exact hypervolume ran")
    monkeypatch.setattr(hv, "_exact_front", refuse)


def test_small_front_is_exact_and_equals_moocore(capsys, sphere_csv):
    path, y = sphere_csv
    status, out, err = _run(capsys, "hypervolume", *_args(path), "--json")
    assert status == 0, err
    result = json.loads(out)
    assert result["exact"] is True and result["n_samples"] == 0
    expected = moocore.hypervolume(y, ref=np.full(6, 1.1))
    assert result["hypervolume"] == pytest.approx(expected, rel=1e-12)
    assert result["ci95"] == [result["hypervolume"]] * 2


def test_too_costly_front_is_a_monte_carlo_estimate_said_in_json(capsys, sphere_csv, monkeypatch):
    path, y = sphere_csv
    exact = moocore.hypervolume(y, ref=np.full(6, 1.1))
    _never_exact(monkeypatch)
    status, out, err = _run(capsys, "hypervolume", *_args(path), "--json")
    assert status == 0, err
    result = json.loads(out)
    assert result["exact"] is False and result["method"] == "monte-carlo"
    assert result["n_samples"] == 100_000
    low, high = result["ci95"]
    assert low < result["hypervolume"] < high
    assert low <= exact <= high  # seeded: this draw's 95% interval holds the exact value
    # the same table gives the same estimate (seeded)
    assert json.loads(_run(capsys, "hypervolume", *_args(path), "--json")[1]) == result


def test_too_costly_front_is_said_in_the_text_output(capsys, sphere_csv, monkeypatch):
    path, _ = sphere_csv
    _never_exact(monkeypatch)
    status, out, _ = _run(capsys, "hypervolume", *_args(path), "--budget", "2")
    assert status == 0
    assert "Monte-Carlo estimate: 95% interval [" in out
    assert "from 100,000 samples (exact predicted to take over 2 s;" in out


def test_exact_flag_skips_the_chooser(capsys, sphere_csv, monkeypatch):
    path, y = sphere_csv
    monkeypatch.setattr(hv, "hypervolume_auto", lambda *a, **k: pytest.fail("chooser used"))
    status, out, _ = _run(capsys, "hypervolume", *_args(path), "--exact")
    assert status == 0
    expected = moocore.hypervolume(y, ref=np.full(6, 1.1))
    assert f"hypervolume: {expected:.10g}" in out and "exact" in out


@pytest.mark.parametrize("budget", ["-1", "nan"])
def test_bad_budget_is_one_line_and_exit_2(capsys, sphere_csv, budget):
    path, _ = sphere_csv
    status, out, err = _run(capsys, "hypervolume", *_args(path), "--budget", budget)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "--budget" in err


@pytest.fixture()
def systems_csv(tmp_path, sphere_csv):
    """The 60 sphere rows as system "big", plus 12 more as system "small"."""
    frame = pd.read_csv(sphere_csv[0])
    frame["family"] = "big"
    more = pd.DataFrame(sphere(12, 6, 4), columns=[f"f{k}" for k in range(6)])
    more.insert(0, "name", [f"s{i}" for i in range(12)])
    more["family"] = "small"
    out = tmp_path / "systems.csv"
    pd.concat([frame, more]).to_csv(out, index=False)
    return out


def _indicator_args(path):
    return ["indicators", str(path), "--id", "name", "--system", "family",
            *OBJECTIVES]


def test_indicators_json_lists_the_estimated_hv(capsys, systems_csv, monkeypatch):
    big_fronts_cost_too_much(monkeypatch, above=30)
    status, out, err = _run(capsys, *_indicator_args(systems_csv), "--json")
    assert status == 0, err
    result = json.loads(out)
    assert [e["system"] for e in result["hv_estimates"]] == ["big"]
    (big,) = result["hv_estimates"]
    assert big["n_samples"] == 100_000 and big["ci95"][0] < big["hv"] < big["ci95"][1]
    assert result["systems"][0]["hv"] == big["hv"] and result["hv_budget_seconds"] == 0.5


def test_indicators_text_says_which_hv_is_estimated(capsys, systems_csv, monkeypatch):
    big_fronts_cost_too_much(monkeypatch, above=30)
    status, out, _ = _run(capsys, *_indicator_args(systems_csv))
    assert status == 0
    assert "HV of big is a Monte-Carlo estimate" in out
    assert "  big: HV " in out and "from 100,000 samples" in out and "--exact-hv" in out


def test_indicators_small_fronts_stay_exact_and_equal_moocore(capsys, systems_csv):
    status, out, _ = _run(capsys, *_indicator_args(systems_csv), "--json")
    result = json.loads(out)
    assert status == 0 and "hv_estimates" not in result  # 60 rows at 6-D fit 0.5 s
    frame = pd.read_csv(systems_csv)
    y = frame[[f"f{k}" for k in range(6)]].to_numpy()
    z = (y - y.min(axis=0)) / np.ptp(y, axis=0)  # the page's min-max scale, r = 1
    expected = moocore.hypervolume(z[frame["family"].to_numpy() == "big"], ref=np.ones(6))
    assert result["systems"][0]["hv"] == pytest.approx(expected, rel=1e-12)
