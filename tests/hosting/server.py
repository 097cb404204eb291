"""A real ``gunicorn app:server`` (gunicorn.conf.py of the repository) on loopback."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

requests = pytest.importorskip("requests")
pytest.importorskip("gunicorn")

REPO = Path(__file__).resolve().parents[2]
BOOT_SECONDS = 120


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Gunicorn:
    """``gunicorn app:server`` as documented, its settings from ``env`` on top of a clean one."""

    def __init__(self, tmp_path: Path, name: str = "gunicorn", **env):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp_path / f"{name}.log"
        full_env = dict(os.environ, COPA_DATA_DIR=str(tmp_path / "data"),
                        COPA_CACHE_DIR=str(tmp_path / "cache"), COPA_PORT=str(self.port),
                        COPA_WORKERS="2")
        for variable in ("PORT", "COPA_HOST", "COPA_AUTH_USER", "COPA_AUTH_PASSWORD",
                         "COPA_REDIS_URL", "COPA_THREADS"):
            full_env.pop(variable, None)
        full_env.update(env)
        self.log = open(self.log_path, "wb")  # noqa: SIM115 - open while gunicorn runs
        self.process = subprocess.Popen([sys.executable, "-m", "gunicorn", "app:server"],
                                        cwd=REPO, env=full_env, stdout=self.log,
                                        stderr=subprocess.STDOUT)

    def wait_ready(self) -> Gunicorn:
        deadline = time.monotonic() + BOOT_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"gunicorn exited with {self.process.returncode}:\n{self.text()}")
            try:
                if requests.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return self
            except (requests.ConnectionError, requests.Timeout):  # booting
                pass
            time.sleep(0.3)
        pytest.fail(f"gunicorn did not answer /healthz in {BOOT_SECONDS} s:\n{self.text()}")

    def text(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")[-8000:]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.log.close()


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
