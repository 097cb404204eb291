"""Start ``copa-dash serve TABLE`` as a process and wait until it answers (the serve tests)."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import time

import requests


def free_port() -> int:
    """A port nobody listens on now (the OS's choice)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(command: list[str], *, cwd, env, port: int, timeout: float = 120):
    """Run ``command`` (a ``serve TABLE --port PORT`` command line); yield the table's link,
    printed first on stdout, once the server answers at it. The process is stopped after."""
    server = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        link = server.stdout.readline().strip()
        assert link.startswith(f"http://127.0.0.1:{port}/explore?dataset="), \
            server.stderr.read() if server.poll() is not None else link
        deadline = time.monotonic() + timeout
        while True:
            try:
                requests.get(link, timeout=10)
                break
            except requests.ConnectionError:
                assert server.poll() is None, server.stderr.read()
                assert time.monotonic() < deadline, f"no answer in {timeout:.0f} s"
                time.sleep(0.5)
        yield link
    finally:
        server.terminate()
        server.wait(timeout=30)
