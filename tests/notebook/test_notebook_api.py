"""Each notebook function gives what the command of the same name prints, on the same table
(a CSV file for the CLI, the same rows as a DataFrame for the API) and on bundled datasets."""

import json
from html import escape

import numpy as np
import pandas as pd
import pytest

import copa_dash
from copa_dash.cli import main

OBJECTIVES = {"acc": "max", "co2": "min", "latency": "min"}


@pytest.fixture(scope="module")
def frame():
    rng = np.random.default_rng(3)
    n = 60
    data = pd.DataFrame({
        "acc": rng.integers(50, 90, n) / 100,        # integer grid: ties
        "co2": rng.integers(1, 30, n) / 10,
        "latency": rng.gamma(2.0, 3.0, n).round(2),
        "family": rng.choice(["llama", "mistral", "phi"], n),
    }, index=pd.Index([f"model-{i:02d}" for i in range(n)], name="model"))
    data.iloc[4, 1] = np.nan                          # a missing objective value
    return data


@pytest.fixture(scope="module")
def csv(frame, tmp_path_factory):
    path = tmp_path_factory.mktemp("api") / "table.csv"
    frame.to_csv(path)
    return str(path)


def _cli(capsys, *argv):
    capsys.readouterr()
    assert main(list(argv) + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _file(csv):
    return [csv, "--id", "model", "--objective", "acc:max", "--objective", "co2:min",
            "--objective", "latency:min"]


@pytest.mark.parametrize("options,cli", [
    ({"focus": "co2", "alpha": 0.3, "p": "inf"}, ["--focus", "co2", "--alpha", "0.3"]),
    ({"focus": ["co2", "latency"], "alpha": 0.7, "p": 2}, ["--focus", "co2", "--focus", "latency",
                                                          "--alpha", "0.7", "--p", "2"]),
    ({"weights": {"acc": 2, "co2": 1}, "p": 1, "where": "latency<8"},
     ["--weights", "acc=2,co2=1", "--p", "1", "--where", "latency<8"]),
    ({"method": "saw", "focus": "acc", "isin": {"family": ["llama", "phi"]}},
     ["--method", "saw", "--focus", "acc", "--in", "family=llama|phi"]),
])
def test_select_and_rank_equal_the_cli(frame, csv, capsys, options, cli):
    result = copa_dash.select(frame, OBJECTIVES, **options)
    expected = _cli(capsys, "select", *_file(csv), *cli)
    assert result.pick == expected["id"] and result.score == pytest.approx(expected["score"])
    assert result.u == pytest.approx(expected["u"])
    assert frame.index.get_loc(result.pick) == result.index == expected["index"]
    ranking = _cli(capsys, "rank", *_file(csv), *cli)["ranking"]
    table = copa_dash.rank(frame, OBJECTIVES, **options).table
    assert list(table.index) == [r["id"] for r in ranking]
    assert table["criterion"].to_numpy() == pytest.approx([r["score"] for r in ranking])
    assert list(table["rank"]) == [r["rank"] for r in ranking]
    assert list(result.table.index) == list(table.index)
    np.testing.assert_allclose(table["top%_acc"], 100 * table["u_acc"])


def test_the_u_columns_are_the_share_of_strictly_better_rows(frame):
    table = copa_dash.rank(frame, OBJECTIVES, focus="co2").table
    complete = frame.dropna(subset=list(OBJECTIVES))
    for name, direction in OBJECTIVES.items():
        values = complete[name].to_numpy()
        better = [(values > v).sum() if direction == "max" else (values < v).sum()
                  for v in table[name]]
        np.testing.assert_allclose(table[f"u_{name}"], np.array(better) / len(complete))


def test_sweep_front_and_hypervolume_equal_the_cli(frame, csv, capsys):
    sweep = copa_dash.sweep(frame, OBJECTIVES, focus="co2", p=2, alphas=500)
    expected = _cli(capsys, "sweep", *_file(csv), "--focus", "co2", "--p", "2",
                    "--alphas", "500")["selected"]
    records = sweep.table.to_dict("records")
    assert len(records) == len(expected)
    for got, want in zip(records, expected, strict=True):
        # field by field: pytest.approx no longer compares nested structures (a list of dicts)
        assert got.keys() == want.keys()
        for key, value in want.items():
            assert got[key] == (pytest.approx(value) if isinstance(value, float) else value), key
    front = copa_dash.front(frame, OBJECTIVES, where="acc>=0.6")
    assert front.ids == _cli(capsys, "front", *_file(csv), "--where", "acc>=0.6")["ids"]
    hv = copa_dash.hypervolume(frame, OBJECTIVES, ref=(0.4, 5, 30))
    expected = _cli(capsys, "hypervolume", *_file(csv), "--ref", "0.4,5,30")
    assert float(hv) == pytest.approx(expected["hypervolume"]) and hv.ref == (0.4, 5, 30)


def test_bundled_names_equal_the_cli(capsys):
    name = "chatbot-arena-price"
    expected = _cli(capsys, "select", "--dataset", name)
    assert copa_dash.select(name).pick == expected["id"]
    expected = _cli(capsys, "select", "--dataset", name, "--all-rows", "--p", "1")
    assert copa_dash.select(name, all_rows=True, p=1).pick == expected["id"]


def test_indicators_and_significance_equal_the_cli(capsys):
    name = "fairness-adult-sex"
    expected = _cli(capsys, "indicators", "--dataset", name)["systems"]
    table = copa_dash.indicators(name).table
    assert list(table.index) == [r["system"] for r in expected]
    for record in expected:
        for key, value in record.items():
            if key != "system":
                got = table.loc[record["system"], key]
                assert (value is None and np.isnan(got)) or got == pytest.approx(value)
    result = copa_dash.significance(name, baseline="SVM", candidate="Feldman-SVM",
                                    permutations=400, rng_seed=3)
    expected = _cli(capsys, "significance", "--dataset", name, "--baseline", "SVM",
                    "--candidate", "Feldman-SVM", "--permutations", "400", "--rng-seed", "3")
    assert result.p_value == expected["p_value"] and result.delta == pytest.approx(expected["delta"])
    assert result.permutations == 400 and result.rng_seed == 3
    assert "SVM" in result._repr_html_()


def test_html_of_results_escapes_ids():
    frame = pd.DataFrame({"acc": [0.9, 0.5], "co2": [1.0, 2.0]},
                         index=["<img src=x onerror=alert(1)>", "b"])
    result = copa_dash.select(frame, {"acc": "max", "co2": "min"})
    assert result.pick == "<img src=x onerror=alert(1)>"
    assert "<img" not in result._repr_html_() and "&lt;img" in result._repr_html_()


def test_select_without_objectives_uses_the_guesses_the_cli_uses(frame, csv, capsys):
    """acc (max), co2 and latency (min) are guessed from their names, as `select TABLE` does."""
    guessed = copa_dash.select(frame)
    assert guessed.preferences.objectives == ("acc", "co2", "latency")
    assert guessed.preferences.directions == ("max", "min", "min")
    assert guessed.pick == copa_dash.select(frame, OBJECTIVES).pick
    assert guessed.pick == _cli(capsys, "select", csv)["id"]


def test_bad_input_says_what_to_do(frame):
    from copa_dash.core.errors import InvalidInputError

    with pytest.raises(InvalidInputError, match="choose a direction|no objective has a direction|"
                                                "no column holds numbers"):
        copa_dash.select(pd.DataFrame({"model": ["a", "b"], "note": ["x", "y"]}))
    undecided = frame.assign(hubness=np.arange(len(frame)) % 7)
    with pytest.raises(InvalidInputError, match="^no direction for 'hubness'.*objectives="):
        copa_dash.select(undecided)                # never a pick from a silent guess
    with pytest.raises(InvalidInputError, match="either weights or focus/alpha"):
        copa_dash.select(frame, OBJECTIVES, weights={"acc": 1}, alpha=0.2)
    with pytest.raises(InvalidInputError, match="name a .html or .pdf|html or pdf"):
        copa_dash.report(frame, "out.docx", OBJECTIVES)


def test_a_pick_and_a_ranking_over_several_tasks_say_so_as_the_command_line_does():
    # amlb-2022 with every row: runs on 55 datasets (counted on the bundled frame here)
    import subprocess
    import sys

    from copa_dash.data.bundled import load_bundled

    table, _ = load_bundled("amlb-2022")
    n_tasks = table.frame[table.roles.task].dropna().nunique()
    picked = copa_dash.select("amlb-2022", all_rows=True)
    ranked = copa_dash.rank("amlb-2022", all_rows=True, top=3)
    assert picked.tasks.startswith(f"These rows come from {n_tasks} tasks (")
    assert picked.tasks in picked._repr_html_() or escape(picked.tasks) in picked._repr_html_()
    assert "the ranking compares" in ranked.tasks and "the pick compares" in picked.tasks
    cli = subprocess.run([sys.executable, "-m", "copa_dash", "select", "--dataset", "amlb-2022",
                          "--all-rows"], capture_output=True, text=True, check=True)
    assert picked.tasks in cli.stderr                 # the same words as the command line
    assert copa_dash.select("amlb-2022").tasks == ""  # its default view: one dataset
