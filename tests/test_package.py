"""The built package works outside the checkout: sdist -> wheel, a fresh venv, the lock.

``uv build`` makes the sdist and then the wheel from the sdist (so MANIFEST.in is checked
too); the wheel goes into a new venv with ``constraints.txt`` as constraints (uv, for
speed: the same pins pip would install, see benchmarks/bench_install.py for pip's time);
then, from a folder that is not the checkout and without PYTHONPATH, the commands run on
the bundled datasets and ``copa-dash serve`` answers with the pages and the assets.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import requests

from tests.serving import free_port, serving

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


def _uv() -> str:
    uv = pytest.importorskip("uv", reason="uv is in the [test] extra")
    return uv.find_uv_bin()


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(venv's bin folder, environment without the checkout, a folder outside it, the
    wheel); the detached compile is held off (:func:`_handover_lock`)."""
    work = tmp_path_factory.mktemp("package")
    uv = _uv()
    subprocess.run([uv, "build", "--quiet", "--out-dir", str(work / "dist"), str(ROOT)],
                   check=True, timeout=600)
    wheel = next((work / "dist").glob("copa_dash-*.whl"))
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(work / "venv")],
                   check=True, timeout=300)
    subprocess.run([uv, "pip", "install", "--quiet", "--python", str(work / "venv/bin/python"),
                    "-c", str(ROOT / "constraints.txt"), str(wheel)], check=True, timeout=900)
    # as a user's shell has it: no checkout on the path, the app's own compile mode (the test
    # suite's COPA_JIT_MODE=foreground would compile every kernel before the first page)
    # PYTHONDONTWRITEBYTECODE is left out too: uv installs no .pyc, and a machine that sets
    # it (this one does) made every command here compile dash, pandas, plotly and the rest
    # from source again; now the first command writes the .pyc files into this throwaway
    # venv and the next ones read them, as on a user's machine
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "COPA_DATASETS_DIR", "COPA_JIT_MODE",
                        "PYTHONDONTWRITEBYTECODE")}
    env["NUMBA_CACHE_DIR"] = str(work / "numba")
    elsewhere = work / "elsewhere"
    elsewhere.mkdir()
    handover = _handover_lock(env["NUMBA_CACHE_DIR"])
    handover.touch()
    yield work / "venv" / "bin", env, elsewhere, wheel
    handover.unlink(missing_ok=True)


def _handover_lock(numba_cache: str) -> Path:
    """The lock file of the detached compile a first command starts for ``numba_cache``
    (services/kernel_handover.py). This module holds it, as another copa-dash process
    compiling would: the commands answer as on a user's first run (numpy twins, the line
    saying so) but start no detached compile. That compile is checked in
    tests/cli/test_cli_startup.py, not here, and here it ran on after the module, beside
    the rest of the suite: about 29 CPU s (``select``'s and ``report``'s, 29 Nov 2026)."""
    from copa_dash.services import kernel_handover

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NUMBA_CACHE_DIR", numba_cache)
        return kernel_handover._lock_path()


def _run(installed, *args, timeout=300):
    bin_dir, env, elsewhere, _ = installed
    _handover_lock(env["NUMBA_CACHE_DIR"]).touch()      # fresh: never taken as stale
    return subprocess.run([str(bin_dir / "copa-dash"), *args], check=False, cwd=elsewhere,
                          env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_the_wheel_carries_datasets_assets_and_templates(installed):
    names = set(zipfile.ZipFile(installed[3]).namelist())
    for folder in ("datasets", "assets"):
        shipped = {f"copa_dash/_shipped/{folder}/{p.name}" for p in (ROOT / folder).iterdir()
                   if p.is_file()}
        assert shipped <= names, sorted(shipped - names)
    assert "copa_dash/_shipped/datasets/PROVENANCE.md" in names
    assert {f"copa_dash/reports/templates/{p.name}"
            for p in (ROOT / "copa_dash/reports/templates").glob("*.j2")} <= names


def test_the_installed_package_is_the_wheel_not_the_checkout(installed):
    bin_dir, env, elsewhere, _ = installed
    where = subprocess.run([str(bin_dir / "python"), "-c",
                            "import copa_dash; print(copa_dash.__file__)"], cwd=elsewhere,
                           env=env, capture_output=True, text=True, check=True, timeout=60)
    assert Path(where.stdout.strip()).is_relative_to(bin_dir.parent)


def test_commands_run_on_the_bundled_datasets(installed):
    done = _run(installed, "datasets", "--json")
    assert done.returncode == 0, done.stderr
    listed = [d["name"] for d in json.loads(done.stdout)["datasets"]]
    manifest = json.loads((ROOT / "datasets/manifest.json").read_text(encoding="utf-8"))
    assert listed and set(listed) == {d["name"] for d in manifest["datasets"]}
    picked = _run(installed, "select", "--dataset", "chatbot-arena-price", "--json")
    assert picked.returncode == 0, picked.stderr
    assert json.loads(picked.stdout)["id"]
    if "first run: answered with numpy" in picked.stderr:      # no detached compile started
        assert "another copa-dash process is compiling" in picked.stderr, picked.stderr
    wrong = _run(installed, "select", "--dataset", "no-such-table")
    assert wrong.returncode == 2 and "no-such-table" in wrong.stderr


def test_serve_from_another_folder_answers_with_pages_and_assets(installed):
    bin_dir, env, elsewhere, _ = installed
    (elsewhere / "runs.csv").write_text(
        "model,accuracy,latency_ms\nA,0.91,12\nB,0.88,7\nC,0.95,30\nD,0.80,40\n",
        encoding="utf-8")
    port = free_port()
    command = [str(bin_dir / "copa-dash"), "serve", "runs.csv", "--port", str(port),
               "--data-dir", "data", "--cache-dir", "cache"]
    with serving(command, cwd=elsewhere, env=env, port=port) as link:
        base = f"http://127.0.0.1:{port}"
        home = requests.get(base + "/", timeout=30)
        assert home.status_code == 200 and "copa-dash" in home.text
        assert requests.get(link, timeout=30).status_code == 200
        css = requests.get(base + "/assets/style.css", timeout=30)
        assert css.status_code == 200
        assert css.text == (ROOT / "assets/style.css").read_text(encoding="utf-8")
        assert requests.get(base + "/healthz", timeout=30).status_code == 200
    assert any((elsewhere / "data").rglob("*.json"))  # the table was stored there


def test_the_wheels_report_equals_the_checkouts(installed, tmp_path, monkeypatch):
    # templates, bundled table and its provenance all come from the wheel: same bytes
    from copa_dash.cli import main

    args = ["report", "--dataset", "copa-synthetic", "--alpha", "0.3", "-o", "synthetic.html",
            "--timestamp", "2026-01-31T12:00:00"]
    done = _run(installed, *args)
    assert done.returncode == 0, done.stderr
    monkeypatch.chdir(tmp_path)
    assert main(args) == 0
    assert (installed[2] / "synthetic.html").read_bytes() == \
        (tmp_path / "synthetic.html").read_bytes()
