"""A deadline on every request body, so a client that trickles its upload frees its thread.

gunicorn's ``gthread`` workers (gunicorn.conf.py) give each request a thread of a pool and
wait for a request's *headers* without holding a thread, but a thread that reads a body
waits as long as the client takes: gunicorn's ``read(n)`` returns only once ``n`` bytes are
in, and a byte every two seconds never trips a socket timeout. :class:`BodyDeadline` gives
the whole body ``base_seconds + content_length / min_bytes_per_second`` from the request's
start; one watchdog thread per process shuts the reading side of the socket
(``gunicorn.socket``) of a request still reading past its deadline, the blocked read
returns, and the request ends with **408 Request Timeout** (the connection then closes).

With the defaults (60 s + 50 KB/s) a 50 MB upload may take 17 minutes; a client that
sends one byte every two seconds is cut after 60 s of a 1 KB body.
"""

from __future__ import annotations

import heapq
import itertools
import socket
import threading
import time

from werkzeug.exceptions import RequestTimeout

#: What a cut client is told (it rarely reads it: it was still sending).
TIMEOUT_MESSAGE = ("the request body arrived too slowly; send it again over a faster link "
                   "(the server gives a body {seconds:.0f} s)")


class _Watchdog:
    """One thread that shuts the read side of sockets whose deadline has passed."""

    def __init__(self):
        self._heap: list = []
        self._live: dict[int, socket.socket] = {}
        self._count = itertools.count()
        self._wake = threading.Condition()
        self._thread = None
        self._pid = None

    def watch(self, sock, deadline: float) -> int:
        import os

        key = next(self._count)
        with self._wake:
            if self._thread is None or self._pid != os.getpid():  # none yet, or forked
                self._heap, self._live, self._pid = [], {}, os.getpid()
                self._thread = threading.Thread(target=self._run, name="copa-body-deadline",
                                                daemon=True)
                self._thread.start()
            self._live[key] = sock
            heapq.heappush(self._heap, (deadline, key))
            self._wake.notify()
        return key

    def release(self, key: int) -> None:
        with self._wake:
            self._live.pop(key, None)

    def _run(self) -> None:
        with self._wake:
            while True:
                while self._heap and self._heap[0][1] not in self._live:
                    heapq.heappop(self._heap)
                if not self._heap:
                    self._wake.wait()
                    continue
                deadline, key = self._heap[0]
                now = time.monotonic()
                if deadline > now:
                    self._wake.wait(deadline - now)
                    continue
                heapq.heappop(self._heap)
                sock = self._live.pop(key)
                try:
                    sock.shutdown(socket.SHUT_RD)  # the blocked recv returns b""
                except OSError:
                    pass


_WATCHDOG = _Watchdog()


class _DeadlineInput:
    """A file-like ``wsgi.input`` that raises 408 once its deadline has passed."""

    def __init__(self, stream, deadline: float, allowed: float):
        self._stream = stream
        self._deadline = deadline
        self._allowed = allowed

    def _check(self) -> None:
        if time.monotonic() > self._deadline:
            raise RequestTimeout(TIMEOUT_MESSAGE.format(seconds=self._allowed))

    def _call(self, name, *args):
        self._check()
        try:
            data = getattr(self._stream, name)(*args)
        except TimeoutError:
            raise RequestTimeout(TIMEOUT_MESSAGE.format(seconds=self._allowed)) from None
        self._check()
        return data

    def read(self, *args):
        return self._call("read", *args)

    def readline(self, *args):
        return self._call("readline", *args)

    def readlines(self, *args):
        return self._call("readlines", *args)

    def __getattr__(self, name):  # anything else the server's stream offers
        return getattr(self._stream, name)

    def __iter__(self):
        while True:
            line = self.readline()
            if not line:
                return
            yield line


class BodyDeadline:
    """WSGI middleware bounding how long a request body may take to arrive.

    Parameters
    ----------
    app : WSGI application
        The application to wrap (``server.wsgi_app``).
    base_seconds : float
        Time every body gets, whatever its size.
    min_bytes_per_second : float
        Slowest average rate accepted beyond ``base_seconds``.
    read_timeout : float
        Longest wait for any one read from the socket.

    Examples
    --------
    >>> BodyDeadline(None, base_seconds=60, min_bytes_per_second=50_000).allowed_seconds(10**6)
    80.0
    """

    def __init__(self, app, *, base_seconds: float = 60.0, min_bytes_per_second: float = 50_000,
                 read_timeout: float = 30.0):
        self.app = app
        self.base_seconds = float(base_seconds)
        self.min_bytes_per_second = float(min_bytes_per_second)
        self.read_timeout = float(read_timeout)

    def allowed_seconds(self, content_length: int) -> float:
        """Seconds a body of ``content_length`` bytes may take to arrive."""
        return self.base_seconds + max(content_length, 0) / self.min_bytes_per_second

    def __call__(self, environ, start_response):
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        chunked = "chunked" in (environ.get("HTTP_TRANSFER_ENCODING") or "").lower()
        if not (length > 0 or chunked):
            return self.app(environ, start_response)
        allowed = self.allowed_seconds(length)
        deadline = time.monotonic() + allowed
        sock = environ.get("gunicorn.socket")
        key = None
        if sock is not None:
            try:
                sock.settimeout(self.read_timeout)
                key = _WATCHDOG.watch(sock, deadline)
            except OSError:  # closed already: the read will say so
                pass
        environ["wsgi.input"] = _DeadlineInput(environ["wsgi.input"], deadline, allowed)
        try:
            return self.app(environ, start_response)
        finally:  # the body has been read (or never will be): the response may take its time
            if key is not None:
                _WATCHDOG.release(key)
