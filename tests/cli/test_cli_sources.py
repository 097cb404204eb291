"""``--from-optuna``, ``--from-mlflow`` and ``--from-lm-eval`` end to end (main() in process):
each answer equals the same command on a CSV exported independently from the tool's own API."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from copa_dash.cli import main
from tests.data.source_backends import (
    LM_EVAL_MODELS,
    make_lm_eval_folder,
    make_mlflow_store,
    make_optuna_study,
)

REPO = Path(__file__).resolve().parents[2]


def _json(capsys, argv) -> tuple[dict, str]:
    assert main(argv) == 0
    captured = capsys.readouterr()
    return json.loads(captured.out), captured.err


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    pytest.importorskip("optuna")
    return make_optuna_study(tmp_path_factory.mktemp("optuna"))


def test_select_from_optuna_equals_select_on_the_studys_own_export(study, tmp_path, capsys):
    import optuna

    frame = optuna.load_study(study_name="mo", storage=study).trials_dataframe()
    frame = frame[frame["state"] == "COMPLETE"]
    csv = tmp_path / "trials.csv"
    pd.DataFrame({"trial": [f"trial {n}" for n in frame["number"]],
                  "accuracy": frame["values_accuracy"], "latency": frame["values_latency"]}
                 ).to_csv(csv, index=False)
    for command in (["select", "--focus", "latency", "--alpha", "0.6"], ["front"],
                    ["hypervolume"]):
        got, said = _json(capsys, [*command, "--from-optuna", study, "--study", "mo", "--json"])
        want, _ = _json(capsys, [*command, str(csv), "--id", "trial", "--objective",
                                 "accuracy:max", "--objective", "latency:min", "--json"])
        assert got == want
        assert "objectives accuracy (max), latency (min)" in said
        assert "3 of 9 trials left out" in said


def test_rank_from_lm_eval_equals_rank_on_a_table_built_from_the_scores(tmp_path, capsys):
    root = make_lm_eval_folder(tmp_path)
    rows = [{"model": m, "hellaswag/acc": s["hellaswag"]["acc"][0],
             "wikitext/word_perplexity": s["wikitext"]["word_perplexity"][0]}
            for m, s in LM_EVAL_MODELS.items()]
    csv = tmp_path / "scores.csv"
    pd.DataFrame(rows).to_csv(csv, index=False)
    objectives = ["--objective", "hellaswag/acc:max", "--objective", "wikitext/word_perplexity:min"]
    got, _ = _json(capsys, ["rank", "--from-lm-eval", str(root), *objectives, "--json"])
    want, _ = _json(capsys, ["rank", str(csv), "--id", "model", *objectives, "--json"])
    assert got == want
    default, said = _json(capsys, ["rank", "--from-lm-eval", str(root), "--json"])
    assert [o.split(":")[0] for o in default["view"]["objectives"]] == [
        "gsm8k/exact_match/strict-match", "hellaswag/acc", "hellaswag/acc_norm",
        "wikitext/word_perplexity"]          # every metric, no standard error
    assert "standard errors kept beside their metric" in said


def test_select_from_mlflow_uses_the_guessed_directions_and_says_what_it_left_out(tmp_path,
                                                                                 capsys):
    pytest.importorskip("mlflow")
    uri = make_mlflow_store(tmp_path)
    got, said = _json(capsys, ["front", "--from-mlflow", uri, "--experiment", "sweep", "--json"])
    csv = tmp_path / "runs.csv"
    pd.DataFrame({"run": ["a", "b", "b (2)"], "accuracy": [0.9, 0.8, 0.7],
                  "val_loss": [0.3, 0.2, 0.25]}).to_csv(csv, index=False)
    want, _ = _json(capsys, ["front", str(csv), "--id", "run", "--objective", "accuracy:max",
                             "--objective", "val_loss:min", "--json"])
    assert got == want
    assert "left out (no direction known or guessed): widgets" in said
    assert "2 of 5 runs left out (1 failed, 1 running)" in said


@pytest.mark.parametrize(("argv", "message"), [
    (["select", "--from-mlflow", "sqlite:///x.db"], "--from-mlflow needs --experiment NAME"),
    (["select", "--study", "mo"], "--study names an Optuna study: give --from-optuna"),
    (["select", "t.csv", "--from-lm-eval", "out"], "give one table"),
    (["rank", "--from-lm-eval", "no/such/folder"], "no folder 'no/such/folder'"),
])
def test_source_mistakes_exit_2_with_a_reason(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_a_missing_extra_exits_2_naming_the_pip_install(tmp_path):
    code = ("import sys; sys.modules['optuna'] = None\nfrom copa_dash.cli import main\n"
            "sys.exit(main(['select', '--from-optuna', 'sqlite:///s.db', '--study', 'mo']))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=tmp_path, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
                         timeout=120, check=False)
    assert out.returncode == 2
    assert 'pip install "copa-dash[optuna]"' in out.stderr
    assert "Traceback" not in out.stderr


def test_every_analysis_command_takes_the_sources():
    from copa_dash.cli import COMMANDS, build_parser

    for command in COMMANDS:
        parser = build_parser(command)
        sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
        options = {o for a in sub.choices[command]._actions for o in a.option_strings}
        if "--dataset" in options:   # the commands that read a table
            assert {"--from-optuna", "--study", "--from-mlflow", "--experiment",
                    "--from-lm-eval"} <= options, command


def test_report_from_lm_eval_names_the_source(tmp_path, capsys):
    out = tmp_path / "lm.html"
    assert main(["report", "--from-lm-eval", str(make_lm_eval_folder(tmp_path)), "-o",
                 str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    assert "lm-eval lm_eval_out" in html
    assert "EleutherAI/pythia-1b" in html
