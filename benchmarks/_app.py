"""Starting the app for a benchmark, and reading the CPU time of processes.

``bench_cold_start`` and ``bench_explore_browser`` both run ``python app.py`` on a free
loopback port with their own data and cache directories, wait until it answers and stop it
afterwards: :class:`RunningApp` is that one way. CPU time is read from ``/proc`` (Linux, as
the machine the benchmarks run on): :func:`tree_cpu_seconds` adds a process's user and system
time to that of its descendants (the browser's renderer and GPU processes are children of
chromedriver's Chromium), so a benchmark can put the server's and the browser's CPU time
beside the wall time of the same step.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from typing_extensions import Self

ROOT = Path(__file__).resolve().parent.parent
CLK_TCK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    """A TCP port free on the loopback interface right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _stat_fields(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:                     # the process ended
        return None
    return text.rsplit(")", 1)[1].split()


def cpu_seconds(pid: int, *, reaped_children: bool = True) -> float:
    """User + system CPU seconds of process ``pid`` (0 if it is gone); with
    ``reaped_children`` also those of its children that ended and were waited for."""
    fields = _stat_fields(pid)
    if fields is None:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if reaped_children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / CLK_TCK


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (children, their children, ...)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat_fields(int(entry))
            if fields is not None:
                parents.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        children = parents.get(todo.pop(), [])
        found += children
        todo += children
    return found


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of ``pid`` and every live descendant (each with its reaped children)."""
    return sum(cpu_seconds(p) for p in [pid, *descendants(pid)])


class RunningApp:
    """``python app.py`` of ``app_dir`` on ``port``, started and waited for.

    Parameters
    ----------
    port : int
        Where it listens (``COPA_PORT``).
    state : Path, optional
        Its data and cache directories go here (a new temporary directory by default).
    app_dir : Path
        The checkout whose ``app.py`` runs.
    env : dict, optional
        Extra environment (e.g. ``NUMBA_CACHE_DIR``, ``COPA_JIT_MODE``); ``PYTHONPATH`` is
        ``app_dir`` for another checkout.
    environ : dict, optional
        The environment the app starts from (default: this process's).
    ready_path : str
        The path polled until it answers (``/healthz``, or ``/`` to time the first page).
    timeout : float
        Seconds to wait for it (a cold numba cache compiles kernels first).
    """

    def __init__(self, port: int, *, state: Path | None = None, app_dir: Path = ROOT,
                 env: dict | None = None, environ: dict | None = None,
                 ready_path: str = "/healthz", timeout: float = 900):
        self.port = port
        self.state = state or Path(tempfile.mkdtemp(prefix="copa-bench-"))
        self.env = app_env(port, self.state, app_dir, environ=environ, **(env or {}))
        self.started = time.perf_counter()
        self.process = subprocess.Popen([sys.executable, "app.py"], cwd=app_dir, env=self.env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            self._wait(ready_path, timeout)
        except BaseException:
            self.stop()
            raise
        self.ready_seconds = time.perf_counter() - self.started

    def _wait(self, path: str, timeout: float) -> None:
        while True:
            try:
                urllib.request.urlopen(f"{self.url}{path}", timeout=2).read()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise SystemExit(f"the app exited with code {self.process.returncode} "
                                     "before it answered") from None
                if time.perf_counter() - self.started > timeout:
                    raise SystemExit(f"the app did not answer within {timeout:.0f} s") from None
                time.sleep(0.1)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        return self.process.pid

    def cpu_seconds(self) -> float:
        """The server's CPU seconds so far (its threads included; Dash's development
        server runs in this one process)."""
        return tree_cpu_seconds(self.pid)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def app_env(port: int, state: Path, app_dir: Path = ROOT, *, environ: dict | None = None,
            **extra) -> dict:
    """The app's environment: ``environ`` (default: this process's) with its port, data and
    cache directories under ``state``, uploads up to 400 MB (the big-table benchmark uploads
    a 1,000,000-row table), and ``extra``."""
    env = dict(os.environ if environ is None else environ, COPA_PORT=str(port), COPA_DATA_DIR=str(state / "data"),
               COPA_CACHE_DIR=str(state / "cache"), COPA_MAX_UPLOAD_MB="400")
    if Path(app_dir).resolve() != ROOT or "PYTHONPATH" not in env:
        env["PYTHONPATH"] = str(app_dir)      # another checkout's app imports its own package
    env.update(extra)
    return env


def headless_chromium(width: int = 1400, height: int = 1000, *, trace_categories: str = ""):
    """A headless Chromium WebDriver (Debian's chromium and chromium-driver), no GPU: Plotly
    draws SVG here. A page can make a WebGL context (SwiftShader), but Plotly's scattergl
    still shows "WebGL is not supported" in place of the points, so a benchmark of a
    scattergl figure here times a figure that was never drawn (docs/benchmarks.md, session 17).
    With ``trace_categories`` chromedriver collects Chrome's trace of those categories into
    its performance log (``driver.get_log("performance")``)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options

    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-background-networking", f"--window-size={width},{height}"):
        options.add_argument(argument)
    if os.path.exists("/usr/bin/chromium"):
        options.binary_location = "/usr/bin/chromium"
    if trace_categories:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
        options.add_experimental_option("perfLoggingPrefs", {
            "enableNetwork": False, "enablePage": False, "traceCategories": trace_categories})
    return webdriver.Chrome(options=options)
