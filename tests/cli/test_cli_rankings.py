"""``copa-dash rank --criteria`` and ``copa-dash benchmark`` end to end (main() in process)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from copa_dash.cli import main
from copa_dash.core.benchmark_stats import nemenyi_critical_difference
from copa_dash.services import rankings
from copa_dash.services.catalog import open_dataset

CRITERIA = "copa:1,copa:2,copa:inf,mean,norm"


def _json(capsys, argv) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def tied_csv(tmp_path):
    """Two objectives (min); rows b and c are equal, d dominates everything."""
    path = tmp_path / "models.csv"
    pd.DataFrame({"name": ["a", "b", "c", "d", "=cmd()"], "err": [1.0, 2.0, 2.0, 0.5, 3.0],
                  "cost": [3.0, 2.0, 2.0, 1.0, 0.2]}).to_csv(path, index=False)
    return path


def test_decodingtrust_json_has_one_entry_per_row_with_every_criterion(capsys):
    out = _json(capsys, ["rank", "--dataset", "decodingtrust", "--criteria", CRITERIA, "--json",
                         "--equal-weights"])
    assert out["view"]["weighting"] == "equal weights (--equal-weights)"
    assert out["criteria"] == CRITERIA.split(",")
    assert len(out["ranks"]) == 55
    for criterion in out["criteria"]:
        assert sorted(r[criterion] for r in out["ranks"]) == list(range(1, 56))
    view = rankings.rank_view(open_dataset("decodingtrust").table, criteria=CRITERIA)
    assert out["ranks"] == rankings.rank_records(view)
    gpt4 = next(r for r in out["ranks"] if r["id"] == "GPT-4")
    assert gpt4["mean"] < gpt4["copa:inf"]


def test_ties_keep_gives_the_best_rank_of_a_tie(capsys, tied_csv):
    base = ["rank", str(tied_csv), "--id", "name", "--objective", "err:min",
            "--objective", "cost:min", "--criteria", "copa:1,obj:err,mean", "--json"]
    kept = _json(capsys, base + ["--ties", "keep"])
    by_id = {r["id"]: r for r in kept["ranks"]}
    assert by_id["b"]["obj:err"] == by_id["c"]["obj:err"] == 3          # 1 + {d, a} better
    assert by_id["b"]["copa:1"] == by_id["c"]["copa:1"]
    broken = _json(capsys, base)
    ranks = {r["id"]: r for r in broken["ranks"]}
    assert {ranks["b"]["obj:err"], ranks["c"]["obj:err"]} == {3, 4}
    assert ranks["b"]["obj:err"] == 3                                     # table order last
    errs = np.array([1.0, 2.0, 2.0, 0.5, 3.0])
    assert [r["obj:err"] for r in kept["ranks"]] == stats.rankdata(errs, "min").astype(int).tolist()


def test_delta_against_a_reference_row_and_top(capsys, tied_csv):
    out = _json(capsys, ["rank", str(tied_csv), "--id", "name", "--objective", "err:min",
                         "--objective", "cost:min", "--criteria", "delta:a,obj:cost", "--json",
                         "--top", "2"])
    # Delta vs a (1, 3): d (-0.5 - 2/3)/2 is best, then b/c ((1 - 1/3)/2), a 0 second
    assert [r["id"] for r in out["ranks"]] == ["d", "a"]


def test_plain_rank_and_rank_criteria_use_one_view_and_print_it(capsys):
    # issue 19: the two commands disagreed without saying why (view focus vs equal weights)
    plain = _json(capsys, ["rank", "--dataset", "decodingtrust", "--json"])
    criteria = _json(capsys, ["rank", "--dataset", "decodingtrust", "--criteria", "copa:inf",
                              "--json"])
    assert plain["view"]["weights"] == criteria["view"]["weights"]
    assert plain["view"]["weighting"].startswith("focus fairness gets alpha = 0.5")
    by_rank = sorted(criteria["ranks"], key=lambda r: r["copa:inf"])
    assert [r["id"] for r in by_rank] == [r["id"] for r in plain["ranking"]]
    assert main(["rank", "--dataset", "decodingtrust", "--criteria", "copa:inf", "--top", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith(
        "view: non_toxicity:max, non_stereotype:max")


def test_weights_from_focus_change_copa(capsys):
    base = ["rank", "--dataset", "decodingtrust", "--criteria", "copa:inf", "--json"]
    equal = {r["id"]: r["copa:inf"] for r in _json(capsys, base + ["--equal-weights"])["ranks"]}
    focus = {r["id"]: r["copa:inf"] for r in
             _json(capsys, base + ["--focus", "fairness", "--alpha", "0.9"])["ranks"]}
    assert equal != focus
    table = open_dataset("decodingtrust").table.frame.set_index("model")
    best_fairness = table["fairness"].idxmax()
    assert focus[best_fairness] == 1


def test_systems_are_averaged_over_seeds(capsys):
    out = _json(capsys, ["rank", "--dataset", "fairness-adult-sex", "--criteria", "mean,copa:2",
                         "--json"])
    ids = [r["id"] for r in out["ranks"]]
    frame = open_dataset("fairness-adult-sex").table.frame
    assert sorted(ids) == sorted(frame["algorithm"].astype(str).unique())


def test_text_output_lists_largest_moves_first(capsys):
    assert main(["rank", "--dataset", "domainbed-pacs", "--criteria",
                 "mean,norm,copa:1,copa:inf"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:5] == ["id", "mean", "norm", "copa:1", "copa:inf"]
    moves = [int(line.split()[-1]) for line in lines[2:16]]
    assert moves == sorted(moves, reverse=True)


@pytest.mark.parametrize("criteria, message", [("median", "not known"),
                                               ("delta:nobody", "not one of the ranked"),
                                               ("obj:missing", "not a chosen objective")])
def test_bad_criteria_exit_2_with_a_message(capsys, criteria, message):
    assert main(["rank", "--dataset", "decodingtrust", "--criteria", criteria]) == 2
    assert message in capsys.readouterr().err


def test_benchmark_json_on_amlb(capsys):
    out = _json(capsys, ["benchmark", "--dataset", "amlb-2022", "--json"])
    assert out["metric"] == "metric_error" and out["reference"] == "RandomForest"
    assert len(out["methods"]) == 10 and out["n_complete_tasks"] == 53
    assert out["critical_difference"] == pytest.approx(nemenyi_critical_difference(10, 53))
    friedman = out["friedman"]
    assert friedman["n_tasks"] == 53 and friedman["pvalue"] < 1e-10
    best = min(out["methods"], key=lambda m: m["mean_rank"])
    assert best["ccdf_median"] >= 0.8
    flat = [m for group in out["cd_groups"] for m in group]
    assert set(flat) <= {m["method"] for m in out["methods"]}


def test_benchmark_text_and_a_file_with_roles(capsys, tmp_path):
    rng = np.random.default_rng(0)
    rows = [{"id": f"{m}|{t}", "method": m, "task": t, "acc": float(rng.integers(0, 5)) + i}
            for i, m in enumerate(("m1", "m2", "m3", "m4")) for t in range(12)]
    path = tmp_path / "long.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    assert main(["benchmark", str(path), "--id", "id", "--objective", "acc:max", "--system",
                 "method", "--task", "task", "--reference", "m1", "--significance", "0.1"]) == 0
    text = capsys.readouterr().out
    assert "Nemenyi critical difference at alpha = 0.1" in text
    assert f"{nemenyi_critical_difference(4, 12, alpha=0.1):.4f}" in text
    methods = [line.split()[0] for line in text.splitlines() if line[:2] in ("m1", "m2", "m3", "m4")]
    assert methods[0] == "m4" and len(methods) == 4      # best mean rank first


def test_benchmark_refuses_a_wide_table(capsys):
    assert main(["benchmark", "--dataset", "decodingtrust"]) == 2
    assert "long table" in capsys.readouterr().err
