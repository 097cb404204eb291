"""``gunicorn app:server`` of this checkout (configured by its gunicorn.conf.py) on a loopback
port, started, waited for and stopped: the one way the hosting tests, the two-worker store
tests and ``bench_first_open_wire`` run the documented deployment.

It needs neither pytest nor requests, so a benchmark can use it as well as a test; a server
that exits or does not answer raises :class:`GunicornFailed` with the tail of its log.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from benchmarks._app import free_port

ROOT = Path(__file__).resolve().parent.parent
# settings of the caller's shell that would change what the server does (where it listens,
# whether it asks for a password, which job backend it uses): never inherited
_DROPPED = ("PORT", "COPA_HOST", "COPA_AUTH_USER", "COPA_AUTH_PASSWORD", "COPA_REDIS_URL",
            "COPA_THREADS")


class GunicornFailed(RuntimeError):
    """The server exited, or did not answer ``/healthz`` in time; the message ends with the
    tail of its log."""


class GunicornServer:
    """``gunicorn app:server`` started in ``ROOT`` with its log in ``state/NAME.log``.

    Parameters
    ----------
    state : Path
        Its data (``state/data``) and cache (``state/cache``) directories and log go here.
    name : str
        The log's name (two servers on one ``state`` keep two logs).
    port : int, optional
        Where it listens (default: a free loopback port).
    args : sequence of str
        Extra gunicorn command-line arguments (e.g. an access-log format).
    env : dict
        Environment on top of this process's, without the settings in ``_DROPPED``.
    """

    def __init__(self, state: Path, *, name: str = "gunicorn", port: int | None = None,
                 args=(), env: dict | None = None):
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = Path(state) / f"{name}.log"
        full_env = dict(os.environ, COPA_DATA_DIR=str(Path(state) / "data"),
                        COPA_CACHE_DIR=str(Path(state) / "cache"), COPA_PORT=str(self.port))
        for variable in _DROPPED:
            full_env.pop(variable, None)
        full_env.update(env or {})
        self.log = open(self.log_path, "wb")  # noqa: SIM115 - open while gunicorn runs
        # a session of its own: stop() ends the whole process group, workers included
        self.process = subprocess.Popen([sys.executable, "-m", "gunicorn", "app:server", *args],
                                        cwd=ROOT, env=full_env, stdout=self.log,
                                        stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self, seconds: float = 120) -> GunicornServer:
        """Wait until ``/healthz`` answers 200; the server itself.

        Raises
        ------
        GunicornFailed
            If gunicorn exits first or does not answer within ``seconds`` (it is stopped).
        """
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.stop()
                raise GunicornFailed(f"gunicorn exited with {self.process.returncode}:\n"
                                     f"{self.text()}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        return self
            except OSError:  # booting
                pass
            time.sleep(0.3)
        log = self.text()
        self.stop()
        raise GunicornFailed(f"gunicorn did not answer /healthz in {seconds:g} s:\n{log}")

    def text(self, chars: int = 8000) -> str:
        """The last ``chars`` characters of its log."""
        if not self.log.closed:
            self.log.flush()
        return self.log_path.read_text(errors="replace")[-chars:]

    def stop(self, *, quick: bool = False) -> None:
        """SIGTERM (workers finish their requests, then exit), then SIGKILL to whatever of
        the process group is left after 30 s; ``quick``: SIGKILL at once (a test that has
        checked what it needed, whose respawned worker may still be booting).

        The whole group, not only the master: gunicorn's gthread worker can deadlock in its
        SIGQUIT handler (``ThreadPoolExecutor.shutdown`` called while the interrupted main
        thread holds the pool's lock in ``submit``), and a master killed after waiting for it
        left that worker running with the listening socket open (seen once in a clean-clone
        run: 37 s for tests/reliability/test_worker_kill.py and an orphan worker after it).
        """
        if self.process.poll() is None and not quick:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):  # the group is gone already
            pass
        self.process.wait(10)
        self.log.close()  # a second stop() finds both done
