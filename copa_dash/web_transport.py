"""Bytes on the wire: compressed answers and long-lived caching of fingerprinted files.

:func:`apply_transport` adds two things to the Flask server under a Dash app:

Compression
    flask-compress answers a client that sends ``Accept-Encoding`` with Brotli (level 4)
    or gzip (level 6): pages, callback answers (JSON), scripts and style sheets over
    500 bytes. Dash's scripts are the same bytes for every client, so their compressed
    forms are kept in a small bounded cache in each worker (:class:`FingerprintedCache`:
    only fingerprinted URLs, at most 32 MB), and plotly.js (4.6 MB) is compressed once per
    worker rather than once per browser. Callback answers are never cached.
Caching
    A fingerprinted file (Dash's component scripts, ``...v4_4_1m1700000000.js``, and the
    app's ``/assets/...?m=<mtime>``) changes URL whenever it changes, so it is sent with
    ``Cache-Control: public, max-age=31536000, immutable`` (``private`` behind a login):
    a browser that has opened the app once fetches none of them again.

Measured (tests/hosting/test_wire_size.py, docs/hosting.md): the first Explore open of the
Open LLM leaderboard went from 4.9 MB to well under 1.5 MB on the wire.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict

from flask import request
from flask_compress import Compress

#: Dash's fingerprint in a component file's name: ``.v4_4_1m1700000000.`` (dash/fingerprint.py)
_FINGERPRINT = re.compile(r"\.v[\w-]+m[0-9a-fA-F]+\.")
YEAR_SECONDS = 31_536_000


def is_fingerprinted(path: str, args) -> bool:
    """True for a URL whose bytes never change (a new version gets a new URL).

    Examples
    --------
    >>> is_fingerprinted("/_dash-component-suites/dash/deps/react@18.v4_4_1m1764.3.1.min.js", {})
    True
    >>> is_fingerprinted("/_dash-component-suites/dash/deps/react@18.3.1.min.js", {})
    False
    >>> is_fingerprinted("/assets/style.css", {"m": "1764000000.0"})
    True
    >>> is_fingerprinted("/_dash-layout", {})
    False
    """
    if path.startswith("/_dash-component-suites/"):
        return bool(_FINGERPRINT.search(path))
    return path.startswith("/assets/") and "m" in args


class FingerprintedCache:
    """flask-compress's cache backend: compressed fingerprinted files, least recently used
    first out, at most ``max_bytes`` in all; every other key is neither kept nor found."""

    def __init__(self, max_bytes: int = 32 * 2**20):
        self.max_bytes = max_bytes
        self._entries: OrderedDict[str, bytes] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    @staticmethod
    def _cacheable(key: str) -> bool:
        return key.rsplit(";", 1)[-1].startswith("fingerprinted:")

    def get(self, key: str) -> bytes | None:
        if not self._cacheable(key):
            return None
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def set(self, key: str, value: bytes) -> None:
        if not self._cacheable(key) or len(value) > self.max_bytes:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            self._size -= len(old) if old is not None else 0
            self._entries[key] = value
            self._size += len(value)
            while self._size > self.max_bytes:
                _, dropped = self._entries.popitem(last=False)
                self._size -= len(dropped)


def _cache_key(req) -> str:
    if is_fingerprinted(req.path, req.args):
        return f"fingerprinted:{req.full_path}"
    return "not-cached"


def apply_transport(server, *, shared: bool = True) -> None:
    """Compress answers and let browsers keep fingerprinted files for a year.

    Parameters
    ----------
    server : flask.Flask
        The Dash app's server.
    shared : bool
        Whether shared caches (a CDN, a team proxy) may keep the files too; False behind a
        login (``private``).
    """
    server.config.update(
        COMPRESS_ALGORITHM=["br", "gzip"],
        COMPRESS_ALGORITHM_STREAMING=["br", "deflate"],
        COMPRESS_BR_LEVEL=4,
        COMPRESS_LEVEL=6,
        COMPRESS_MIN_SIZE=500,
        COMPRESS_CACHE_BACKEND=FingerprintedCache,
        COMPRESS_CACHE_KEY=_cache_key,
    )
    Compress(server)

    # registered after Compress, so it runs before it (Flask runs these in reverse order)
    @server.after_request
    def keep_fingerprinted_files(response):
        if response.status_code == 200 and is_fingerprinted(request.path, request.args):
            if response.is_streamed:  # a static file: read it, so its compressed form is
                response.direct_passthrough = False  # cached (flask-compress runs next)
                response.make_sequence()
            response.cache_control.no_cache = None  # Flask's default for static files
            response.cache_control.max_age = YEAR_SECONDS
            response.cache_control.immutable = True
            if shared:
                response.cache_control.public = True
            else:
                response.cache_control.private = True
        return response
