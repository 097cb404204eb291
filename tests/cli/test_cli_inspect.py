"""``copa-dash inspect`` prints the upload page's proposal; analysis commands given a TABLE
without --id / --objective use it and say so on stderr."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from copa_dash.cli import main
from copa_dash.core.criteria import copa_select
from copa_dash.core.ranks import cdf_transform

MESSY = Path(__file__).parents[1] / "data" / "messy"


def _run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_inspect_json_has_the_documented_shape(capsys):
    status, out, err = _run(capsys, "inspect", str(MESSY / "llm_perf_lb.csv"), "--json")
    assert status == 0 and err == ""
    result = json.loads(out)
    # the rows of a model are its quantisation variants: configurations, not runs
    assert (result["rows"], result["id"], result["runs"]) == (901, None, False)
    assert result["configurations"] == ["Experiment 🧪"]
    roles = {c["name"]: (c["role"], c["direction"], c["unit"]) for c in result["columns"]}
    assert roles["Energy (tokens/kWh)"] == ("objective", "max", "tokens/kWh")
    assert roles["Model_name_for_merge"] == ("system", None, None)
    assert {c["role"] for c in result["columns"]} <= {
        "id", "objective", "system", "seed", "task", "split", "config", "budget", "metadata"}
    assert any("footnote marks" in n for n in result["notes"])
    assert {c["confidence"] for c in result["columns"]} <= {"sure", "likely", "unsure"}
    assert result["uncertainty"] == {} and isinstance(result["families"], dict)


def test_inspect_json_pairs_spreads_and_marks_confidence(capsys):
    status, out, _ = _run(capsys, "inspect", str(MESSY / "llmeval_alpacaeval2.csv"), "--json")
    assert status == 0
    result = json.loads(out)
    assert result["uncertainty"] == {
        "win_rate": ["standard_error", "standard_error"],
        "length_controlled_winrate": ["standard_error", "lc_standard_error"]}
    sure = {c["name"]: c["confidence"] for c in result["columns"]}
    assert (sure["win_rate"], sure["avg_length"]) == ("sure", "likely")


def test_inspect_readable_output_marks_directions_to_choose(capsys):
    status, out, _ = _run(capsys, "inspect", str(MESSY / "arena_records.json"))
    assert status == 0
    assert "overall" in out and "CHOOSE" in out and "What we read:" in out
    assert "sure" in out and "unsure" in out
    assert "Analysis commands refuse this table until each direction is chosen" in out


def test_select_without_id_or_objectives_uses_the_guesses_and_says_so(capsys):
    status, out, err = _run(capsys, "select", str(MESSY / "imagenet_eu.csv"), "--json")
    assert status == 0
    assert err.startswith("copa-dash select: guessed from ")
    assert "rows named by 'Weight'; objectives Acc@1 (max), Acc@5 (max), Params [M] (min), " \
           "GFLOPS (min)" in err
    result = json.loads(out)
    # independent: the pick by the core on the raw TSV, read by hand
    lines = (MESSY / "imagenet_raw.tsv").read_text().splitlines()[1:]
    names = [line.split("\t")[0] for line in lines]
    y = np.array([[float(c.rstrip("M")) for c in line.split("\t")[1:5]] for line in lines])
    keep = ~np.isnan(y).any(axis=1)
    u = cdf_transform(y[keep], ["max", "max", "min", "min"])
    # the page's default view of an upload: Acc@1 (a quality) against Params (a cost),
    # focus Acc@1 with alpha 0.5, the other three share 0.5
    expected = np.array(names)[keep][copa_select(u, np.array([0.5, 1 / 6, 1 / 6, 1 / 6]),
                                                 p=np.inf)]
    assert result["id"] == expected
    assert (result["view"]["x"], result["view"]["y"], result["view"]["focus"]) == (
        "Acc@1", "Params", ["Acc@1"])


def test_hypervolume_without_id_names_rows_like_the_page(capsys):
    status, out, err = _run(capsys, "front", str(MESSY / "fairness_adult_sex.csv"),
                            "--objective", "accuracy:max", "--objective", "CV:max", "--json")
    assert status == 0
    assert "rows named as on the upload page (system and configuration)" in err
    assert "No direction guessed" not in err  # the objectives were given
    assert all(" · run-id " in i for i in json.loads(out)["ids"])


def test_undecided_columns_are_refused_with_the_flags_that_decide_them(capsys):
    status, out, err = _run(capsys, "rank", str(MESSY / "arena_records.json"), "--json")
    assert status == 2 and out == ""
    assert "no direction for 'overall' (1309, 1321, 1308, ...), 'coding' (1359, " in err
    assert "--direction overall:max (or :min) for each" in err and "--ignore overall" in err


def test_direction_decides_an_undecided_column_and_keeps_the_other_guesses(capsys):
    # the tester's F3: following the advice with --objective dropped every other guessed
    # objective without a word; --direction decides one and keeps the guessed price
    path = str(MESSY / "arena_records.json")
    status, out, err = _run(capsys, "select", path, "--json", "--direction", "overall:max",
                            "--direction", "coding:max")
    assert status == 0, err
    assert "objectives overall (max), coding (max), price [$/M tokens] (min)" in err
    assert "No direction guessed" not in err
    spelled = _run(capsys, "select", path, "--json", "--objective", "overall:max",
                   "--objective", "coding:max", "--objective", "price ($/M tokens):min")
    assert spelled[0] == 0 and json.loads(out)["id"] == json.loads(spelled[1])["id"]
    # one decided, one left: still refused, naming only the one left
    status, _, err = _run(capsys, "select", path, "--direction", "overall:max")
    assert status == 2 and "'coding'" in err and "'overall'" not in err.split(":")[1]
    status, _, err = _run(capsys, "select", path, "--direction", "nope:max")
    assert status == 2 and "--direction 'nope': no such column" in err
    status, _, err = _run(capsys, "select", path, "--direction", "overall")
    assert status == 2 and "--direction 'overall': write COLUMN:min or COLUMN:max" in err


@pytest.mark.parametrize("command", ["select", "rank", "front", "sweep"])
def test_every_analysis_command_refuses_a_silent_guess(capsys, command):
    status, out, err = _run(capsys, command, str(MESSY / "arena_records.json"))
    assert status == 2 and out == "" and "no direction for 'overall'" in err


def test_ignore_decides_an_undecided_column(capsys):
    status, out, err = _run(capsys, "rank", str(MESSY / "arena_records.json"), "--json",
                            "--ignore", "overall", "--ignore", "coding")
    assert status == 0, err
    assert "left out (--ignore): overall, coding" in err and "overall" not in out
    status, _, err = _run(capsys, "rank", str(MESSY / "arena_records.json"), "--ignore", "nope")
    assert status == 2 and "--ignore 'nope': no such column" in err


def test_a_refused_file_is_one_line_and_exit_2(capsys, tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("model;acc\na;1\n")
    status, out, err = _run(capsys, "inspect", str(path))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "only 1 data row" in err


@pytest.mark.parametrize("name", ["imagenet.md", "imagenet_title.xlsx", "imagenet_raw.tsv"])
def test_every_format_gives_the_same_select(capsys, name):
    _, reference, _ = _run(capsys, "select", str(MESSY / "imagenet_eu.csv"), "--json")
    _, out, _ = _run(capsys, "select", str(MESSY / name), "--json")
    assert json.loads(out)["id"] == json.loads(reference)["id"]


def test_the_poset_commands_refuse_undecided_criteria_naming_the_flag(capsys, tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("Test Problem,Optimizer,MIGD,hubness\nF1,A,0.1,3\nF1,B,0.2,1\n"
                    "F2,A,0.3,2\nF2,B,0.1,5\n")
    status, out, err = _run(capsys, "depth", str(path))
    assert status == 2 and out == ""
    assert "no direction for 'hubness' (3, 1, 2, ...)" in err and "--criterion hubness:max" in err
    status, _, err = _run(capsys, "depth", str(path), "--criterion", "MIGD:min")
    assert status == 0, err


def test_a_missing_user_vocabulary_is_one_line_and_exit_2(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("COPA_VOCABULARY", str(tmp_path / "mine.toml"))
    status, out, err = _run(capsys, "inspect", str(MESSY / "code_evalperf.csv"))
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "COPA_VOCABULARY=" in err and "no such file" in err
