"""benchmarks/bench_install_test.py: the phases it reads from pip's log and uv's summary."""

from __future__ import annotations

from datetime import datetime

import pytest

from benchmarks.bench_install_test import pip_phases, uv_phases

# the main process's lines of a pip log (PIP_LOG); the indented ones are the build set-up's own
PIP_LOG = """2026-11-29T11:02:41,147 Using pip 23.2.1 from /tmp/x1/lib/python3.11/site-packages/pip
2026-11-29T11:02:44,692   Installing collected packages: setuptools, packaging, wheel
2026-11-29T11:02:46,404   Successfully installed packaging-26.4 setuptools-84.2.1 wheel-0.48.0
2026-11-29T11:02:48,759   Preparing editable metadata (pyproject.toml): finished with status 'done'
2026-11-29T11:04:31,416 Installing collected packages: urllib3-secure-extra, sortedcontainers
2026-11-29T11:05:27,031 Successfully installed Flask-3.1.3 Jinja2-3.1.6
"""


def test_pip_phases_split_at_the_main_install_not_the_build_set_up(tmp_path):
    log = tmp_path / "pip.log"
    log.write_text(PIP_LOG, encoding="utf-8")
    end = datetime(2026, 11, 29, 11, 6, 37, 31000).timestamp()
    phases = pip_phases(log, end)
    assert phases == pytest.approx({"build set-up": 7.612, "resolve + download": 102.657,
                                    "install": 55.615, "compile .pyc": 70.0})


def test_uv_phases_read_seconds_milliseconds_and_minutes():
    output = ("Resolved 180 packages in 1.10s\nPrepared 179 packages in 34.0s\n"
              "Uninstalled 1 package in 36ms\nInstalled 179 packages in 950ms\n"
              "Bytecode compiled 14333 files in 1m 02s\n + zipp==4.1.2\n")
    assert uv_phases(output) == pytest.approx({"resolve": 1.1, "download + unpack": 34.0,
                                               "install": 0.95, "compile .pyc": 62.0})
