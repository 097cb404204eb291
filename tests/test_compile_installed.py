"""tools/compile_installed.py: which pip installation reports lead to compiling site-packages."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "compile_installed.py"
_spec = importlib.util.spec_from_file_location("compile_installed", TOOL)
compile_installed = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compile_installed)

EDITABLE = {"metadata": {"name": "copa-dash"}, "is_direct": True,
            "download_info": {"url": "file:///work/copa-dash", "dir_info": {"editable": True}}}
WHEEL = {"metadata": {"name": "numba"}, "is_direct": False,
         "download_info": {"url": "file:///opt/wheels/numba-0.60.0-cp311.whl",
                           "archive_info": {}}}


def test_a_re_run_that_only_reinstalled_the_checkout_compiles_nothing():
    assert compile_installed.installed_names({"install": [EDITABLE]}) == []
    assert compile_installed.installed_names({}) == []


def test_a_fresh_install_names_every_distribution_but_the_checkout():
    assert compile_installed.installed_names({"install": [EDITABLE, WHEEL]}) == ["numba"]


def test_an_unreadable_report_is_a_clear_message_not_a_traceback(tmp_path):
    bad = tmp_path / "report.json"
    bad.write_text("{not json", encoding="utf-8")
    run = subprocess.run([sys.executable, str(TOOL), str(bad)], capture_output=True, text=True,
                         check=False, timeout=60)
    assert run.returncode == 2
    assert "cannot read pip's report" in run.stderr
    assert "Traceback" not in run.stderr


def test_a_report_with_nothing_new_leaves_the_site_packages_alone(tmp_path):
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"install": [EDITABLE]}), encoding="utf-8")
    run = subprocess.run([sys.executable, str(TOOL), str(report)], capture_output=True,
                         text=True, check=False, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout == ""
