"""Slow clients against the documented ``gunicorn app:server``: they cost threads, not the instance.

Twenty clients each start an upload and send its body one byte every two seconds (the
"slow POST" attack); meanwhile /healthz must keep answering within a second, and once a
body's deadline (``COPA_BODY_SECONDS``) has passed the server answers 408 and closes.
With the sync workers of before, two such clients held both workers and /healthz timed out.
"""

from __future__ import annotations

import socket
import threading
import time

import pytest

from .server import requests

pytestmark = pytest.mark.slow

N_CLIENTS = 20
BODY_SECONDS = 5


def _slow_upload(port: int, stop: threading.Event, answers: list, index: int) -> None:
    head = (f"POST /api/datasets HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: multipart/form-data; boundary=xyz\r\n"
            "Content-Length: 1000\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(head)
        answer = b""
        next_byte = time.monotonic()
        while not stop.is_set():
            if time.monotonic() >= next_byte:
                try:
                    sock.sendall(b"-")
                except OSError:  # the server closed the connection
                    pass
                next_byte += 2.0
            # wait for the server until the next byte is due (at most 0.25 s, to see `stop`):
            # the client sees the 408 and the close when they come, not up to 2 s later
            sock.settimeout(min(0.25, max(0.01, next_byte - time.monotonic())))
            try:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                answer += chunk
            except TimeoutError:
                pass
            except OSError:  # reset by the server after its answer
                break
        answers[index] = answer


def test_twenty_trickling_uploads_leave_healthz_answering(gunicorn):
    server = gunicorn(COPA_BODY_SECONDS=str(BODY_SECONDS), COPA_MIN_UPLOAD_KBPS="50")
    requests.get(server.url + "/healthz", timeout=10)
    stop = threading.Event()
    answers = [None] * N_CLIENTS
    clients = [threading.Thread(target=_slow_upload, args=(server.port, stop, answers, i),
                                daemon=True) for i in range(N_CLIENTS)]
    for client in clients:
        client.start()
    try:
        time.sleep(1.0)  # every client has sent its headers and is trickling
        waits = []
        for _ in range(12):  # 3 s: all within the bodies' deadline
            started = time.monotonic()
            try:
                answer = requests.get(server.url + "/healthz", timeout=5)
                assert answer.status_code == 200
                waits.append(time.monotonic() - started)
            except requests.Timeout:
                waits.append(float("inf"))
            time.sleep(0.25)
        assert max(waits) < 1.0, f"/healthz waits with {N_CLIENTS} slow clients: {waits}"
        # each client ends when the server closes its connection after the 408 (past every
        # deadline: 5 s + 1000 B at 50 KB/s); a fixed 5 s here stopped a client the server had
        # not answered yet on a loaded machine, and its 408 was never read
        end = time.monotonic() + BODY_SECONDS + 60
        for client in clients:
            client.join(max(0.0, end - time.monotonic()))
    finally:
        stop.set()
        for client in clients:
            client.join(10)
    cut = [a for a in answers if a and a.startswith(b"HTTP/1.1 408")]
    assert len(cut) == N_CLIENTS, (answers[:3], server.text())
    assert "Traceback" not in server.text()
