"""``copa_dash.robustness(df, ...)``: a frozen result with the CLI's numbers, from a DataFrame."""

from __future__ import annotations

import dataclasses
import json

import pandas as pd
import pytest

import copa_dash
from copa_dash.cli import main


def test_dataframe_in_frozen_result_out_same_as_the_cli(tmp_path, capsys):
    df = pd.DataFrame({"acc": [0.9, 0.8, 0.7, 0.85], "co2": [3.0, 1.0, 0.5, 2.0]},
                      index=pd.Index(["a", "b", "c", "d"], name="model"))
    result = copa_dash.robustness(df, objectives={"acc": "max", "co2": "min"}, focus="co2",
                                  alpha=0.4, samples=2000, seed=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.result = None
    assert result.pick == copa_dash.select(df, objectives={"acc": "max", "co2": "min"},
                                           focus="co2", alpha=0.4).pick
    assert list(result.acceptability.columns) == ["rank1", "top3", "rank1_se", "top3_se"]
    assert result.acceptability["rank1"].sum() == pytest.approx(1.0)
    assert "How sure is this pick?" in result._repr_html_()
    path = tmp_path / "t.csv"
    df.reset_index().to_csv(path, index=False)
    capsys.readouterr()
    assert main(["robustness", str(path), "--id", "model", "--objective", "acc:max",
                 "--objective", "co2:min", "--focus", "co2", "--alpha", "0.4", "--samples",
                 "2000", "--seed", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(result.result.to_json()))
