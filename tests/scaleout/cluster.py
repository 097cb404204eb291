"""Real processes of a scaled-out copa-dash on loopback: redis-server, a Celery worker, gunicorn.

The commands come from ``compose.yaml`` (the team-hosting file), so the tests and the load
benchmark run what ``docker compose up`` runs, with loopback ports and temporary directories
in place of the containers' network and volumes. Every wait is bounded and every process is
stopped (its whole process group: gunicorn's and Celery's children too).

Also here: :class:`DashClient`, which speaks Dash's callback protocol over HTTP (the page's
``end_id``, background-callback submit and poll), for tests and ``benchmarks/bench_load.py``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_FILE = ROOT / "compose.yaml"


def free_port() -> int:
    """A TCP port nobody listens on at the moment (loopback)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def compose_services(path: Path = COMPOSE_FILE) -> dict:
    """The ``services`` mapping of compose.yaml (YAML anchors resolved)."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))["services"]


def compose_command(service: str) -> list[str]:
    """The command compose runs for ``service`` (a list of words); its program is looked up
    on PATH, then beside this Python (a virtualenv's scripts when PATH lacks them)."""
    command = list(compose_services()[service]["command"])
    program = shutil.which(command[0]) or shutil.which(command[0], path=str(Path(sys.executable)
                                                                             .parent))
    return [program or command[0], *command[1:]]


def compose_environment(service: str) -> dict[str, str]:
    """The environment compose sets for ``service``, ``${VAR:-}`` left empty."""
    env = compose_services()[service].get("environment") or {}
    return {k: ("" if re.fullmatch(r"\$\{[^}]*\}", str(v)) else str(v)) for k, v in env.items()}


def _tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


class Process:
    """A command in its own process group, its output in ``log``; stopped with the group."""

    def __init__(self, name: str, command: list[str], *, env: dict, log: Path, cwd: Path = ROOT,
                 stop_signal: int = signal.SIGTERM):
        self.name, self.command, self.env, self.log, self.cwd = name, command, env, log, cwd
        self.stop_signal = stop_signal
        self.popen: subprocess.Popen | None = None

    def start(self) -> Process:
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as out:
            self.popen = subprocess.Popen(self.command, cwd=self.cwd, env=self.env, stdout=out,
                                          stderr=subprocess.STDOUT, start_new_session=True)
        return self

    @property
    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def signal_group(self, sig: int) -> None:
        if self.popen is not None:
            try:
                os.killpg(self.popen.pid, sig)
            except ProcessLookupError:
                pass

    def kill(self) -> None:
        """SIGKILL to the whole group (as when a container or host dies), then reap."""
        self.signal_group(signal.SIGKILL)
        if self.popen is not None:
            self.popen.wait(timeout=10)

    def stop(self, timeout: float = 20) -> None:
        """``stop_signal`` to the group, SIGKILL after ``timeout`` seconds."""
        if self.popen is None:
            return
        self.signal_group(self.stop_signal)
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.signal_group(signal.SIGKILL)
            self.popen.wait(timeout=10)
        # children of a group leader that exited first
        self.signal_group(signal.SIGKILL)

    def wait_until(self, ready, *, timeout: float, what: str) -> None:
        """Poll ``ready()`` until true; fail with the log's tail after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.running:
                raise RuntimeError(f"{self.name} exited ({self.popen.returncode}) before "
                                   f"{what}:\n{_tail(self.log)}")
            with contextlib.suppress(Exception):      # not up yet
                if ready():
                    return
            time.sleep(0.2)
        raise TimeoutError(f"{self.name}: no {what} within {timeout:.0f} s:\n{_tail(self.log)}")


class RedisServer:
    """redis-server on a loopback port with its files in ``directory`` (compose's options)."""

    def __init__(self, directory: Path, port: int | None = None):
        self.directory = Path(directory)
        self.port = port or free_port()
        self.process: Process | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self):
        import redis

        return redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=1,
                           socket_timeout=5)

    def start(self, timeout: float = 15) -> RedisServer:
        self.directory.mkdir(parents=True, exist_ok=True)
        command = [*compose_command("redis"), "--port", str(self.port),
                   "--bind", "127.0.0.1", "--dir", str(self.directory), "--save", ""]
        self.process = Process("redis-server", command, env=dict(os.environ),
                               log=self.directory / "redis.log").start()
        self.process.wait_until(lambda: self.client().ping(), timeout=timeout, what="PING")
        return self

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop(timeout=10)


def cluster_env(redis: RedisServer | None, *, data_dir: Path, cache_dir: Path,
                secret: str = "scale-out-tests") -> dict[str, str]:
    """The app's compose environment with local paths and the test Redis."""
    env = dict(os.environ)
    env.update({k: v for k, v in compose_environment("app").items() if v})
    env.update({"COPA_DATA_DIR": str(data_dir), "COPA_CACHE_DIR": str(cache_dir),
                "COPA_SECRET_KEY": secret, "COPA_HOST": "127.0.0.1", "PYTHONUNBUFFERED": "1"})
    if redis is None:
        env.pop("COPA_REDIS_URL", None)
    else:
        env["COPA_REDIS_URL"] = redis.url
    env.pop("COPA_AUTH_USER", None)
    env.pop("COPA_AUTH_PASSWORD", None)
    return env


class CeleryWorker:
    """``celery -A app:celery_app worker ...`` as compose runs it; ready when it beats."""

    def __init__(self, redis: RedisServer, env: dict, log: Path):
        self.redis, self.env, self.log = redis, env, log
        self.process: Process | None = None
        self.name = f"worker@{socket.gethostname()}"

    def start(self, timeout: float = 180, *, wait: bool = True) -> CeleryWorker:
        # SIGQUIT: Celery's cold shutdown (no waiting for a running job)
        self.process = Process("celery worker", compose_command("worker"), env=self.env,
                               log=self.log, stop_signal=signal.SIGQUIT).start()
        if wait:
            self.wait_ready(timeout)
        return self

    def wait_ready(self, timeout: float = 180) -> CeleryWorker:
        from copa_dash.services.job_health import worker_is_alive

        self.process.wait_until(lambda: worker_is_alive(self.redis.client(), self.name),
                                timeout=timeout, what="worker heartbeat in Redis")
        return self

    def ensure_running(self) -> CeleryWorker:
        """Start a new worker if a test killed this one; wait for its heartbeat."""
        if not self.process.running:
            self.start(wait=False)
        return self.wait_ready()

    def kill(self) -> None:
        self.process.kill()

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop(timeout=3)       # then SIGKILL: a test worker keeps no state


class AppInstance:
    """``gunicorn app:server`` (compose's app command) on a loopback port."""

    def __init__(self, env: dict, log: Path, *, workers: int = 2, port: int | None = None):
        self.port = port or free_port()
        self.env = {**env, "COPA_PORT": str(self.port), "COPA_WORKERS": str(workers)}
        self.log = log
        self.process: Process | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> AppInstance:
        # SIGQUIT: gunicorn's quick shutdown
        self.process = Process(f"gunicorn :{self.port}", compose_command("app"), env=self.env,
                               log=self.log, stop_signal=signal.SIGQUIT).start()
        return self

    def wait_ready(self, timeout: float = 240) -> AppInstance:
        self.process.wait_until(
            lambda: requests.get(self.url + "/healthz", timeout=5).status_code == 200,
            timeout=timeout, what="200 from /healthz")
        return self

    def stop(self) -> None:
        """SIGQUIT (gunicorn's quick shutdown), SIGKILL after 5 s: a test instance keeps
        nothing in memory that a later test needs (its uploads and cache are on disk), and a
        worker that had run background jobs sometimes did not exit until gunicorn's
        graceful_timeout (30 s), a wait that came at the end of the suite's slowest worker."""
        if self.process is not None:
            self.process.stop(timeout=5)


class DashClient:
    """Dash's callback protocol over HTTP, as the browser's renderer speaks it.

    A page load gives a signed ``end_id``; every callback request echoes it, and a
    background callback answers with signed ``cacheKey`` and ``job`` handles that the
    polls send back (to any instance sharing the secret and the job store).
    """

    def __init__(self, base_url: str, session: requests.Session | None = None):
        self.base_url = base_url.rstrip("/")
        self.session = session or requests.Session()
        self.session.headers.update({"Origin": self.base_url})
        self.end_id: str | None = None
        self._dependencies: list | None = None

    def open_page(self, path: str) -> str:
        """GET a page and keep its ``end_id``; returns the HTML."""
        response = self.session.get(self.base_url + path, timeout=30)
        response.raise_for_status()
        match = re.search(r'<script id="_dash-config" type="application/json">(.*?)</script>',
                          response.text, re.DOTALL)
        self.end_id = json.loads(match.group(1)).get("end_id") if match else None
        self.session.headers["Referer"] = self.base_url + path
        return response.text

    def dependencies(self) -> list:
        if self._dependencies is None:
            response = self.session.get(self.base_url + "/_dash-dependencies", timeout=30)
            response.raise_for_status()
            self._dependencies = response.json()
        return self._dependencies

    def payload(self, output_contains: str, values: dict, *, triggered: str) -> dict:
        """The request body of the callback whose output names ``output_contains``.

        ``values`` maps ``"id.property"`` to the value sent (others are sent as None);
        ``triggered`` is the ``"id.property"`` that fired it.
        """
        matches = [d for d in self.dependencies() if output_contains in d["output"]]
        if len(matches) != 1:
            raise LookupError(f"{len(matches)} callbacks write {output_contains!r}")
        spec = matches[0]

        def filled(items):
            return [{**item, "value": values.get(f"{item['id']}.{item['property']}")}
                    for item in items]

        outputs = [{"id": o.split(".")[0], "property": o.split(".")[1]}
                   for o in spec["output"].strip(".").split("...")]
        return {"output": spec["output"], "outputs": outputs if len(outputs) > 1 else outputs[0],
                "inputs": filled(spec["inputs"]), "state": filled(spec["state"]),
                "changedPropIds": [triggered]}

    def post(self, payload: dict, base_url: str | None = None, **params) -> requests.Response:
        """POST a callback to this instance or ``base_url``; the ``Origin`` is the instance
        asked, as behind a load balancer (one public origin for every replica)."""
        base = (base_url or self.base_url).rstrip("/")
        params = {"endId": self.end_id, **params}
        return self.session.post(base + "/_dash-update-component",
                                 params={k: v for k, v in params.items() if v is not None},
                                 headers={"Origin": base}, json=payload, timeout=60)

    def submit(self, payload: dict) -> dict:
        """Start a background callback; returns its handles (``cacheKey``, ``job``)."""
        response = self.post(payload)
        response.raise_for_status()
        handles = response.json()
        if "job" not in handles:
            raise RuntimeError(f"not a background callback answer: {handles}")
        return handles

    def poll(self, payload: dict, handles: dict, *, base_url: str | None = None,
             timeout: float = 120, on_progress=None, until_progress: bool = False) -> dict:
        """Poll until the job answers; returns the final JSON (with ``response``).

        ``base_url`` polls another instance (it must share the secret and Redis);
        ``until_progress`` returns at the first answer that carries progress.
        """
        blank = {**payload, "inputs": [{**i, "value": None} for i in payload["inputs"]],
                 "state": [{**s, "value": None} for s in payload["state"]]}
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            response = self.post(blank, base_url, cacheKey=handles["cacheKey"],
                                 job=handles["job"])
            if response.status_code == 204:       # PreventUpdate / no update: job gone
                return {}
            response.raise_for_status()
            data = response.json()
            if data.get("progress") and on_progress is not None:
                on_progress(data["progress"])
            if data.get("progress") and until_progress:
                return data
            if "response" in data:
                return data
            time.sleep(0.3)
        raise TimeoutError(f"background job {handles['job']} did not answer in {timeout:.0f} s")


def raw_job(handles: dict) -> str:
    """The job id inside a signed handle (``value~signature``): a process id when the job
    runs in-process, a Celery task id (UUID) when a worker runs it."""
    return handles["job"].rpartition("~")[0]


def is_celery_job(handles: dict) -> bool:
    return bool(re.fullmatch(r"[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}", raw_job(handles)))
