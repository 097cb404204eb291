"""``copa-dash elicit``: the line protocol, in process and through a real pipe."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from copa_dash.cli import main
from copa_dash.core.criteria import copa_ranking, copa_scores
from copa_dash.core.ranks import cdf_transform


def run(monkeypatch, capsys, argv, lines):
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
    status = main(["elicit", *argv, "--json"])
    captured = capsys.readouterr()
    return status, [json.loads(x) for x in captured.out.splitlines()], captured.err.splitlines()


def test_questions_answers_bad_line_and_end_of_input(monkeypatch, capsys):
    status, out, err = run(monkeypatch, capsys, ["--dataset", "helm-classic"], ["a", "left", "b"])
    assert status == 0
    questions = [o for o in out if "question" in o]
    assert [q["question"] for q in questions] == [1, 2, 2, 3]
    assert questions[1] == questions[2]   # the same question again after the bad line
    assert len(err) == 1 and "'left' is not an answer" in err[0] and "a, b or =" in err[0]
    done = out[-1]
    assert done["done"] is True and done["questions"] == 2
    assert set(done) == {"done", "pick", "confidence", "values", "weights", "p", "p_probability",
                         "credible_set", "level", "questions"}
    assert list(done["weights"]) == ["accuracy_win_rate", "robustness_win_rate",
                                     "fairness_win_rate", "bias_win_rate", "toxicity_win_rate"]
    assert sum(done["weights"].values()) == pytest.approx(1.0)
    assert done["p"] in (1.0, 2.0, 4.0, 8.0, "inf") and 0 < done["confidence"] <= 1


def test_max_questions_seed_and_repeatability(monkeypatch, capsys):
    argv = ["--dataset", "decodingtrust", "--max-questions", "2", "--confidence", "1", "--seed", "4"]
    first = run(monkeypatch, capsys, argv, ["a", "=", "b", "a"])
    second = run(monkeypatch, capsys, argv, ["a", "=", "b", "a"])
    assert first == second
    status, out, err = first
    assert status == 0 and err == []
    assert [o.get("question") for o in out] == [1, 2, None] and out[-1]["questions"] == 2


def test_bad_options_are_one_line_and_status_2(monkeypatch, capsys):
    for argv, text in ((["--dataset", "no-such-data"], "unknown bundled dataset"),
                       (["--dataset", "helm-classic", "--max-questions", "-1"], "--max-questions")):
        status, out, err = run(monkeypatch, capsys, argv, [])
        assert status == 2 and out == [] and len(err) == 1 and text in err[0]


def test_a_script_answering_through_a_pipe_gets_its_own_best_model(tmp_path):
    # A hidden user with weights w and p = 2 answers each question as it arrives; the
    # session must stop on its own (90% sure) with a pick in that user's top 3 by `rank`.
    rng = np.random.default_rng(3)
    y = rng.random((60, 3))
    frame = pd.DataFrame({"model": [f"m{i}" for i in range(60)], "acc": y[:, 0],
                          "cost": y[:, 1], "fair": y[:, 2]})
    path = tmp_path / "models.csv"
    frame.to_csv(path, index=False)
    directions = ["max", "min", "max"]
    u = cdf_transform(y, directions)
    weights, p = np.array([0.6, 0.3, 0.1]), 2.0
    score = dict(zip(frame["model"], copa_scores(u, weights, p=p)))
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    proc = subprocess.Popen(
        [sys.executable, "-m", "copa_dash.cli", "elicit", str(path), "--id", "model",
         "--objective", "acc:max", "--objective", "cost:min", "--objective", "fair:max", "--json"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    n_questions = 0
    while True:
        message = json.loads(proc.stdout.readline())
        if message.get("done"):
            break
        n_questions += 1
        proc.stdin.write("a\n" if score[message["a"]] < score[message["b"]] else "b\n")
        proc.stdin.flush()
    assert proc.wait(timeout=60) == 0
    assert message["questions"] == n_questions <= 20
    top3 = [frame["model"][i] for i in copa_ranking(u, weights, p=p)[:3]]
    assert message["pick"] in top3
    assert message["confidence"] >= 0.9 or n_questions == 20


def _helm_row(name):
    from copa_dash.services.catalog import open_dataset

    table = open_dataset("helm-classic").table
    frame = table.frame.set_index(table.roles.id)
    return frame.loc[name]


def test_json_questions_and_result_carry_the_models_values(monkeypatch, capsys):
    status, out, _ = run(monkeypatch, capsys, ["--dataset", "helm-classic", "--max-questions", "3"],
                         ["a", "b", "a"])
    assert status == 0
    for message in out[:-1]:
        for side in ("a", "b"):
            row = _helm_row(message[side])
            assert message["values"][side] == {k: pytest.approx(float(row[k]))
                                               for k in message["values"][side]}
            assert len(message["values"][side]) == 5
    done = out[-1]
    row = _helm_row(done["pick"])
    assert done["values"] == {k: pytest.approx(float(row[k])) for k in done["values"]}
    assert done["pick"] == done["credible_set"][0]
    assert sum(done["p_probability"].values()) == pytest.approx(1.0)
    assert list(done["p_probability"]) == ["1", "2", "4", "8", "inf"]


def test_readable_form_shows_both_models_values_and_a_select_line_that_picks_the_model(
        monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("b\na\n"))
    assert main(["elicit", "--dataset", "helm-classic", "--max-questions", "2",
                 "--confidence", "1"]) == 0
    text = capsys.readouterr().out
    first = text.split("Question 2")[0]
    a_id = first.split("  a = ")[1].splitlines()[0]
    b_id = first.split("  b = ")[1].splitlines()[0]
    a_row, b_row = _helm_row(a_id), _helm_row(b_id)
    line = next(x for x in first.splitlines() if x.startswith("accuracy_win_rate (higher"))
    cells = line.split()[4:]   # after "accuracy_win_rate (higher is better)"
    assert [float(cells[0]), float(cells[1])] == [pytest.approx(a_row["accuracy_win_rate"], abs=5e-4),
                                                  pytest.approx(b_row["accuracy_win_rate"], abs=5e-4)]
    better = "a" if a_row["accuracy_win_rate"] > b_row["accuracy_win_rate"] else "b"
    assert cells[2] == better
    assert "Your answer (a, b or = for can't tell)" in first
    assert "Recommended after 2 answers: " in text and "credible set" in text
    pick = text.split("Recommended after 2 answers: ")[1].splitlines()[0]
    assert "probability of each p: 1: " in text
    select = text.split("copa-dash select ... ")[1].split()
    assert main(["select", "--dataset", "helm-classic", *select, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["id"] == pick


def test_help_says_how_to_answer(capsys):
    with pytest.raises(SystemExit):
        main(["elicit", "--help"])
    text = capsys.readouterr().out
    assert "a   you would rather use model a" in text
    assert "b   you would rather use model b" in text
    assert "=   you can't tell" in text and "--json" in text
