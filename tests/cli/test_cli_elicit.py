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
    status = main(["elicit", *argv])
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
    assert set(done) == {"done", "pick", "confidence", "weights", "p", "questions"}
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
         "--objective", "acc:max", "--objective", "cost:min", "--objective", "fair:max"],
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
