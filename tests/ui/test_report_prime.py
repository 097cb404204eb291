"""The report jobs forked from the server find the report's code loaded (issue 33: an HTML
report of DecodingTrust took 14.9 s in the page the first time, 3 s from the CLI; each job,
a process forked from the server, loaded again what the server never had)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from copa_dash.ui.common import report_row

ROOT = Path(__file__).resolve().parents[2]

# a fresh interpreter with the app's imports: what a report still loads, primed or not
SCRIPT = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    from copa_dash.config import Settings
    from copa_dash.app_factory import create_app
    from copa_dash.reports import DecisionView, decision_report
    from copa_dash.services.catalog import open_dataset
    from copa_dash.ui.common.report_row import prime_reports
    root = Path(sys.argv[1])
    settings = Settings(data_dir=root / "data", cache_dir=root / "cache")
    create_app(settings)
    if sys.argv[2] == "primed":
        prime_reports(settings)
    before = set(sys.modules)
    decision_report(open_dataset("decodingtrust", settings), DecisionView("decodingtrust"))
    print(json.dumps(sorted(set(sys.modules) - before)))
""")


def _loaded_by_a_report(tmp_path, mode: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / mode), mode],
                          cwd=ROOT, capture_output=True, text=True, timeout=600, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_after_the_prime_a_report_of_another_dataset_loads_no_module(tmp_path):
    cold = _loaded_by_a_report(tmp_path, "cold")
    assert sum(m.startswith("plotly.graph_objs") for m in cold) > 50   # what a job paid
    assert _loaded_by_a_report(tmp_path, "primed") == []


def test_the_app_primes_after_the_kernels_warm_up(monkeypatch):
    from copa_dash import app_factory

    calls = []
    monkeypatch.setattr(app_factory, "warm_up_in_background", lambda: calls.append("kernels"))
    monkeypatch.setattr(app_factory, "submit_compile",
                        lambda label, job, priority: calls.append((label, priority, job)))
    monkeypatch.setattr(app_factory, "prime_reports", lambda settings: calls.append(settings))
    app_factory._warm_up_then_prime("the settings")
    assert calls[0] == "kernels" and calls[1][:2] == ("reports", 2)   # after the warm-up (1)
    calls[1][2]()
    assert calls[2] == "the settings"


def test_the_row_says_what_the_job_does_from_its_start(monkeypatch):
    monkeypatch.setattr(report_row, "compile_ready", lambda: "")
    assert report_row.starting_words() == "Starting: opening the dataset and the view..."
    monkeypatch.setattr(report_row, "compile_ready", lambda: "4 of 16 parts ready")
    said = report_row.starting_words()
    assert "still preparing its faster code after a first start (4 of 16 parts ready)" in said
    assert said.endswith("so this report takes longer than usual...")


def test_a_prime_that_fails_leaves_the_server_running(tmp_path, caplog, monkeypatch):
    from copa_dash.config import Settings

    monkeypatch.setattr(report_row, "PRIME_DATASET", "no-such-dataset")
    report_row.prime_reports(Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache"))
    assert "not loaded ahead" in caplog.text        # logged, not raised
