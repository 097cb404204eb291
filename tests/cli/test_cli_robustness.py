"""``copa-dash robustness``: the issue's JSON contract, and the same numbers as the notebook's
``copa_dash.robustness`` and the service the page calls (main() in process)."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

import copa_dash
from copa_dash.cli import main
from copa_dash.core import robustness as core
from copa_dash.data.bundled import load_bundled
from copa_dash.services import robustness as service
from copa_dash.services import selection


def _json(capsys, argv) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def models(tmp_path):
    rng = np.random.default_rng(4)
    frame = pd.DataFrame({"name": [f"m{i}" for i in range(30)],
                          "acc": rng.integers(50, 90, 30) / 100,
                          "cost": rng.integers(1, 20, 30).astype(float),
                          "lat": rng.integers(1, 9, 30).astype(float)})
    path = tmp_path / "models.csv"
    frame.to_csv(path, index=False)
    return path, frame


OBJ = ["--id", "name", "--objective", "acc:max", "--objective", "cost:min",
       "--objective", "lat:min"]


def test_contract_keys_sorting_and_equal_weights_by_default(capsys, models):
    path, _ = models
    out = _json(capsys, ["robustness", str(path), *OBJ, "--samples", "3000", "--json"])
    assert {"pick", "samples", "acceptability", "leave_one_out"} <= set(out)
    assert out["samples"] == 3000
    assert out["weights"] == pytest.approx([1 / 3] * 3)
    picked = _json(capsys, ["select", str(path), *OBJ, "--json"])
    assert out["pick"] == picked["id"]
    shares = [row["rank1"] for row in out["acceptability"]]
    assert shares == sorted(shares, reverse=True)
    assert all(row["rank1"] > 0 or row["top3"] > 0 for row in out["acceptability"])
    assert sum(shares) == pytest.approx(1.0)
    assert sum(row["top3"] for row in out["acceptability"]) == pytest.approx(3.0)
    assert set(out["leave_one_out"]) == {"acc", "cost", "lat"}


def test_acceptability_equals_the_core_on_the_same_draws(capsys, models):
    path, frame = models
    out = _json(capsys, ["robustness", str(path), *OBJ, "--samples", "2000", "--seed", "9",
                         "--p", "2", "--json"])
    y = frame[["acc", "cost", "lat"]].to_numpy()
    from copa_dash.core.ranks import cdf_transform
    u = cdf_transform(y, ["max", "min", "min"])
    expected = core.rank_acceptability(u, p=2, samples=2000, rng=9)
    got = {row["id"]: row["rank1"] for row in out["acceptability"]}
    for i, name in enumerate(frame["name"]):
        assert got.get(name, 0.0) == expected.rank1[i]


def test_leave_one_out_equals_select_without_the_objective(capsys, models):
    path, _ = models
    out = _json(capsys, ["robustness", str(path), *OBJ, "--weights", "acc=0.5,cost=0.3,lat=0.2",
                         "--samples", "200", "--json"])
    for dropped, weights in (("acc", "cost=0.6,lat=0.4"), ("cost", "acc=0.5,lat=0.2"),
                             ("lat", "acc=0.5,cost=0.3")):
        kept = [o for o in OBJ[2:][1::2] if not o.startswith(dropped)]
        argv = ["select", str(path), "--id", "name"]
        for o in kept:
            argv += ["--objective", o]
        picked = _json(capsys, [*argv, "--weights", weights, "--json"])
        assert out["leave_one_out"][dropped] == picked["id"]


def test_cli_notebook_and_service_give_the_same_numbers(capsys):
    out = _json(capsys, ["robustness", "--dataset", "decodingtrust", "--samples", "1500",
                         "--json"])
    book = copa_dash.robustness("decodingtrust", samples=1500)
    assert book.result.to_json() == json.loads(json.dumps(out))
    assert book.pick == out["pick"]
    assert list(book.acceptability.index) == [r["id"] for r in out["acceptability"]]
    table, info = load_bundled("decodingtrust")
    view = info.default_view
    prefs = selection.Preferences(
        objectives=tuple(view.objectives),
        directions=tuple(table.objective(o).direction for o in view.objectives),
        focus=tuple(view.focus), alpha=view.alpha, p=view.p)
    from copa_dash.data.filters import filter_from_view
    direct = service.robustness(table, prefs, filter_from_view(view.filters),
                                samples=1500)
    assert direct.acceptability == book.result.acceptability
    assert direct.leave_one_out == book.leave_one_out


def test_flips_in_words_and_a_bad_option_exits_2(capsys, models):
    path, _ = models
    out = _json(capsys, ["robustness", str(path), *OBJ, "--focus", "cost", "--alpha", "0.4",
                         "--samples", "200", "--json"])
    settings = {f["setting"] for f in out["flips"]}
    assert settings <= {"alpha", "p", "weight"}
    for flip in out["flips"]:
        assert flip["text"].endswith(f"picks {flip['id']}") and flip["to"] != flip["from"]
    assert main(["robustness", str(path), *OBJ, "--samples", "0"]) == 2
    assert "'samples'" in capsys.readouterr().err
    assert main(["robustness", str(path), *OBJ, "--uncertainty", "acc"]) == 2


def test_uncertainty_columns_give_membership(capsys, tmp_path):
    frame = pd.DataFrame({"name": ["a", "b", "c"], "acc": [0.9, 0.5, 0.4],
                          "acc_se": [0.001, 0.001, 0.001], "cost": [1.0, 3.0, 4.0]})
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    out = _json(capsys, ["robustness", str(path), "--id", "name", "--objective", "acc:max",
                         "--objective", "cost:min", "--uncertainty", "acc=stderr:acc_se",
                         "--samples", "100", "--json"])
    rows = {r["id"]: r for r in out["membership"]["rows"]}
    assert rows["a"]["front"] == 1.0 and rows["a"]["pick"] == 1.0 and "b" not in rows
    assert "stated uncertainty" in out["membership"]["method"]
    assert not math.isnan(out["local"]["stays"])
