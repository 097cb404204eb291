"""``copa-dash serve`` / ``python -m copa_dash``: options, a table opened by link, user errors."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
import requests

from copa_dash.cli import build_parser, main
from copa_dash.cli.serve import base_url, settings_from
from copa_dash.config import Settings
from copa_dash.services.store import open_store
from tests.serving import free_port, serving

REPO = Path(__file__).resolve().parents[2]
RUNS = "model,accuracy,latency_ms,co2_kg\nA,0.91,12,3.0\nB,0.88,7,2.0\nC,0.95,30,5.5\n"


def _args(*argv):
    return build_parser("serve").parse_args(["serve", *argv])


def test_defaults_are_localhost_8050_and_options_override_the_environment(monkeypatch):
    for name in ("COPA_HOST", "COPA_PORT", "COPA_DATA_DIR", "COPA_CACHE_DIR"):
        monkeypatch.delenv(name, raising=False)
    plain = settings_from(_args())
    assert (plain.host, plain.port) == ("127.0.0.1", 8050)
    monkeypatch.setenv("COPA_PORT", "9000")
    monkeypatch.setenv("COPA_DATA_DIR", "/env/data")
    assert settings_from(_args()).port == 9000
    given = settings_from(_args("--host", "0.0.0.0", "--port", "8123", "--data-dir", "d",
                                "--cache-dir", "c"))
    assert (given.host, given.port, given.data_dir, given.cache_dir) == \
        ("0.0.0.0", 8123, Path("d"), Path("c"))
    assert base_url("0.0.0.0", 8123) == "http://127.0.0.1:8123"
    assert base_url("::1", 80) == "http://[::1]:80"


def test_a_port_in_use_is_a_user_error(capsys, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status = main(["serve", "--port", str(port), "--data-dir", str(tmp_path)])
    assert status == 2
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}" in err and "give another --port" in err


@pytest.mark.parametrize(("argv", "message"), [
    (["--port", "70000"], "--port must be between 1 and 65535, not 70000"),
    (["--host", "no-such-host.invalid"], "--host 'no-such-host.invalid' is not an address"),
    (["missing.csv"], "no such table file: missing.csv"),
])
def test_bad_input_says_why_and_exits_2(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    port = [] if "--port" in argv else ["--port", str(free_port())]
    assert main(["serve", *argv, *port, "--data-dir", "data"]) == 2
    assert message in capsys.readouterr().err


def test_a_table_with_one_objective_is_refused_and_nothing_is_stored(capsys, tmp_path):
    table = tmp_path / "one.csv"
    table.write_text("model,accuracy\nA,0.9\nB,0.8\n", encoding="utf-8")
    data = tmp_path / "data"
    assert main(["serve", str(table), "--port", str(free_port()), "--data-dir", str(data)]) == 2
    assert "choose at least two objectives" in capsys.readouterr().err
    assert open_store(Settings(data_dir=data)).list() == []


@pytest.mark.slow
def test_python_m_copa_dash_serves_the_table_given_and_prints_its_link(tmp_path):
    (tmp_path / "runs.csv").write_text(RUNS, encoding="utf-8")
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "copa_dash", "serve", "runs.csv", "--port", str(port),
               "--data-dir", "data", "--cache-dir", "cache"]
    with serving(command, cwd=tmp_path, env=env, port=port) as link:
        assert requests.get(link, timeout=30).status_code == 200
    dataset = parse_qs(urlparse(link).query)["dataset"][0]
    table = open_store(Settings(data_dir=tmp_path / "data")).load(dataset)
    assert list(table.frame["model"]) == ["A", "B", "C"]
    assert {o.name: o.direction for o in table.roles.objectives} == \
        {"accuracy": "max", "latency_ms": "min", "co2_kg": "min"}


def test_python_m_copa_dash_with_arguments_is_the_command_line(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "copa_dash", "serve", "--help"], check=False,
                          cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0
    for option in ("--host", "--port", "--open", "--data-dir", "--cache-dir"):
        assert option in done.stdout


@pytest.mark.slow
def test_serve_opens_an_lm_eval_folder_in_the_explorer(tmp_path):
    """Issue 31: a source given to serve (as optuna-dashboard STORAGE, mlflow ui) is stored
    and its explorer link printed, with the directions the source states."""
    from tests.data.source_backends import make_lm_eval_folder

    root = make_lm_eval_folder(tmp_path / "lm")
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "copa_dash", "serve", "--from-lm-eval", str(root),
               "--port", str(port), "--data-dir", "data", "--cache-dir", "cache"]
    with serving(command, cwd=tmp_path, env=env, port=port) as link:
        assert requests.get(link, timeout=30).status_code == 200
    dataset = parse_qs(urlparse(link).query)["dataset"][0]
    table = open_store(Settings(data_dir=tmp_path / "data")).load(dataset)
    directions = {o.name: o.direction for o in table.roles.objectives}
    assert directions["hellaswag/acc"] == "max"
    assert directions["wikitext/word_perplexity"] == "min"
    assert not any(name.endswith("_stderr") for name in directions)


def test_serve_refuses_a_table_and_a_source_together(capsys, tmp_path):
    (tmp_path / "runs.csv").write_text(RUNS, encoding="utf-8")
    code = main(["serve", str(tmp_path / "runs.csv"), "--from-lm-eval", str(tmp_path),
                 "--port", str(free_port()), "--data-dir", str(tmp_path / "d")])
    assert code == 2 and "either a TABLE or a source" in capsys.readouterr().err
