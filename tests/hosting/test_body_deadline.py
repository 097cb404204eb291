"""copa_dash.slow_bodies.BodyDeadline on a real socket pair: a trickling body is cut at its
deadline with 408, a prompt one passes untouched."""

from __future__ import annotations

import io
import socket
import threading
import time

from copa_dash.slow_bodies import BodyDeadline


class _SocketInput:
    """What gunicorn's body reader does: ``read(n)`` returns once n bytes are in (or EOF)."""

    def __init__(self, sock):
        self.sock = sock

    def read(self, size=-1):
        data = b""
        while size < 0 or len(data) < size:
            chunk = self.sock.recv(4096 if size < 0 else size - len(data))
            if not chunk:
                break
            data += chunk
        return data

    def readline(self, *args):
        return self.read(*args)


def _echo_length(environ, start_response):
    from flask import Flask, request

    app = Flask("deadline")

    @app.post("/")
    def upload():
        return str(len(request.get_data()))

    return app.wsgi_app(environ, start_response)


def _call(app, server_side, length):
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/", "SERVER_NAME": "x",
               "SERVER_PORT": "80", "wsgi.url_scheme": "http", "CONTENT_LENGTH": str(length),
               "wsgi.input": _SocketInput(server_side), "gunicorn.socket": server_side,
               "wsgi.errors": io.StringIO()}
    statuses = []
    body = b"".join(app(environ, lambda status, headers, exc=None: statuses.append(status)))
    return statuses[0], body


def test_a_trickling_body_is_cut_at_its_deadline():
    app = BodyDeadline(_echo_length, base_seconds=1.0, min_bytes_per_second=1000)
    server_side, client_side = socket.socketpair()
    stop = threading.Event()

    def trickle():
        while not stop.is_set():
            client_side.sendall(b"x")
            stop.wait(0.3)

    sender = threading.Thread(target=trickle, daemon=True)
    sender.start()
    started = time.monotonic()
    try:
        status, body = _call(app, server_side, 1000)  # 1 s + 1000 B at 1 KB/s = 2 s
        took = time.monotonic() - started      # the cut itself, not the sender's teardown
    finally:
        stop.set()
        sender.join(5)
        client_side.close()
        server_side.close()
    assert status.startswith("408"), (status, body)
    assert 1.9 < took < 5.0
    assert b"too slowly" in body


def test_a_prompt_body_is_read_whole():
    app = BodyDeadline(_echo_length, base_seconds=1.0, min_bytes_per_second=1000)
    server_side, client_side = socket.socketpair()
    client_side.sendall(b"y" * 5000)
    try:
        status, body = _call(app, server_side, 5000)
    finally:
        client_side.close()
        server_side.close()
    assert status.startswith("200") and body == b"5000"
