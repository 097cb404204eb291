"""A real ``gunicorn app:server`` (gunicorn.conf.py of the repository) on loopback."""

from __future__ import annotations

from pathlib import Path

import pytest

requests = pytest.importorskip("requests")
pytest.importorskip("gunicorn")

from benchmarks._gunicorn import ROOT, GunicornServer

REPO = ROOT
BOOT_SECONDS = 120


class Gunicorn(GunicornServer):
    """``gunicorn app:server`` as documented (2 workers), its settings from ``env`` on top of a
    clean environment (:class:`benchmarks._gunicorn.GunicornServer`)."""

    def __init__(self, tmp_path: Path, name: str = "gunicorn", **env):
        super().__init__(tmp_path, name=name, env={"COPA_WORKERS": "2", **env})

    def wait_ready(self, seconds: float = BOOT_SECONDS) -> Gunicorn:
        return super().wait_ready(seconds)


@pytest.fixture
def gunicorn(tmp_path):
    """Start gunicorn with extra environment variables; every one started is stopped."""
    started = []

    def start(name: str = "gunicorn", **env) -> Gunicorn:
        server = Gunicorn(tmp_path, name, **env)
        started.append(server)
        return server.wait_ready()

    yield start
    for server in started:
        server.stop()
