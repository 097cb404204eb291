"""Per-dataset memo of analysis results, shared by every worker process.

Key
    ``(function name, dataset id, arguments, core version)``: the arguments are frozen
    as canonical JSON (sorted keys; tuples, sets and numpy values turned into lists and
    numbers), the version is :func:`~copa_dash.services.core_version.core_version` (the
    package version and a hash of the core's source) so new kernels never read old results. The key is stored as its SHA-256.
Tag
    Every entry is tagged with its dataset id; :meth:`AnalysisCache.evict_dataset` drops
    them all. The cache never touches the dataset store.
Backends
    Locally a :class:`diskcache.Cache` in ``settings.cache_dir / "analysis"`` bounded by
    ``settings.cache_size_bytes`` with least-recently-used eviction; it is SQLite plus
    files, safe for several processes. diskcache pickles the values it stores: that is
    acceptable because only this process family writes that directory.
    With ``settings.redis_url`` a Redis server instead (redis-py): values are written with
    :mod:`copa_dash.services.codec` (JSON + ``np.save`` + Parquet), never pickled, since
    Redis is a network service. Bound its memory in Redis itself
    (``maxmemory`` with ``maxmemory-policy allkeys-lru``).

A cache that fails (disk full, Redis down, lock timeout) is logged and bypassed: the
result is computed and returned, never lost to a cache error.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import diskcache
import numpy as np

from ..config import Settings
from . import codec
from .core_version import core_version
from .healing_cache import SelfHealingCache
from .jobs import redis_client  # bounded timeouts: a stopped Redis answers at once

try:  # POSIX; elsewhere a rebuild is not serialised between processes
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

logger = logging.getLogger(__name__)
T = TypeVar("T")
_MISSING = object()
_KEY_PREFIX = "copa:analysis:"
_TAG_PREFIX = "copa:tag:"


def freeze_arguments(arguments: dict) -> str:
    """Canonical JSON text of an argument mapping (the part of a key that varies).

    Raises
    ------
    TypeError
        If a value has no canonical JSON form (the message names the argument).

    Examples
    --------
    >>> freeze_arguments({"p": float("inf"), "focus": ("a", "b")})
    '{"focus":["a","b"],"p":Infinity}'
    """
    if not isinstance(arguments, dict):
        raise TypeError(f"'arguments' must be a dict, not {type(arguments).__name__}")

    def plain(value, where: str):
        if value is None or isinstance(value, (bool, str, int)):
            return value
        if isinstance(value, float):
            return value
        if isinstance(value, np.generic):
            return plain(value.item(), where)
        if isinstance(value, np.ndarray):
            return [plain(v, where) for v in value.tolist()]
        if isinstance(value, (list, tuple)):
            return [plain(v, where) for v in value]
        if isinstance(value, (set, frozenset)):
            return sorted((plain(v, where) for v in value), key=repr)
        if isinstance(value, dict):
            return {str(k): plain(v, where) for k, v in value.items()}
        raise TypeError(f"argument {where!r} of type {type(value).__name__} cannot be part "
                        "of a cache key; pass numbers, text, lists or dicts")

    frozen = {str(name): plain(value, str(name)) for name, value in arguments.items()}
    return json.dumps(frozen, sort_keys=True, separators=(",", ":"), allow_nan=True)


class DiskBackend:
    """diskcache.Cache with LRU eviction and a tag index (values pickled locally), which
    mends itself.

    A cache is a copy of what can be recomputed, so nothing in it may fail a request:

    * an entry that cannot be read back (random bytes in its ``.val`` file, a truncated
      file, a pickle of code that no longer exists) is a miss: it is logged once and
      deleted, and the caller recomputes the value;
    * a damaged database (``cache.db`` that SQLite cannot open or read) is rebuilt: under
      a lock shared by the worker processes, the first one to notice moves the directory
      aside and starts an empty cache; the others see that the database works again
      and reopen it.
    """

    def __init__(self, directory: Path, *, size_limit: int):
        self.directory = Path(directory)
        self.size_limit = int(size_limit)
        self._errors = (diskcache.Timeout, OSError)
        self.rebuilds = 0
        self.dropped = 0
        try:
            self.cache = self._open()
        except sqlite3.DatabaseError:
            self.cache = None
            self._rebuild("the cache database cannot be opened")

    def _open(self):
        cache = diskcache.Cache(str(self.directory), size_limit=self.size_limit,
                                eviction_policy="least-recently-used", tag_index=True)
        self._identity = self._database_identity()
        return cache

    def _database_identity(self):
        try:
            stamp = os.stat(self.directory / "cache.db")
        except FileNotFoundError:
            return None
        return stamp.st_dev, stamp.st_ino

    def _current(self):
        """The open cache, reopened when its database file was replaced or removed.

        SQLite keeps using a file that was deleted or moved aside under it: without this
        check a worker would go on writing to a database no other process sees (after
        another worker rebuilt the cache, or after someone removed the cache directory).
        One ``stat`` per call.
        """
        if self.cache is None:
            self._rebuild("it was closed after an error")
        elif self._database_identity() != self._identity:
            _log_once(f"reopen:{self.directory}", "analysis cache database at %s was "
                      "replaced or removed; reopening it", self.directory)
            with contextlib.suppress(Exception):
                self.cache.close()
            try:
                self.cache = self._open()
            except sqlite3.DatabaseError as error:
                self.cache = None
                self._rebuild(str(error))
        return self.cache

    @property
    def errors(self) -> tuple:
        return self._errors

    def _rebuild(self, reason: str) -> None:
        """Reopen the cache, or replace it with an empty one if its database is damaged."""
        _log_once(f"rebuild:{self.directory}", "analysis cache at %s is damaged (%s); "
                  "rebuilding it empty", self.directory, reason)
        if self.cache is not None:
            with contextlib.suppress(Exception):
                self.cache.close()
            self.cache = None
        self.directory.parent.mkdir(parents=True, exist_ok=True)
        with _directory_lock(self.directory.parent / f".{self.directory.name}.rebuild.lock"):
            try:  # another process may have rebuilt it already
                cache = self._open()
                cache.get("copa:probe", retry=True)
            except sqlite3.DatabaseError:
                with contextlib.suppress(Exception):
                    cache.close()
                aside = self.directory.with_name(
                    f".{self.directory.name}.damaged-{os.getpid()}-{time.time_ns()}")
                with contextlib.suppress(FileNotFoundError):
                    os.replace(self.directory, aside)
                shutil.rmtree(aside, ignore_errors=True)
                cache = self._open()
        self.cache = cache
        self.rebuilds += 1

    def get(self, key: str):
        try:
            return self._current().get(key, default=_MISSING, retry=True)
        except diskcache.Timeout:
            raise
        except sqlite3.DatabaseError as error:
            self._rebuild(str(error))
            return _MISSING
        except Exception as error:  # noqa: BLE001 - unpickling damaged bytes raises anything
            _log_once(f"entry:{self.directory}", "analysis cache entry cannot be read (%s: "
                      "%s); dropping it and computing the value", type(error).__name__, error)
            self.dropped += 1
            with contextlib.suppress(Exception):
                self.cache.delete(key, retry=True)
            return _MISSING

    def set(self, key: str, value, tag: str) -> None:
        try:
            self._current().set(key, value, tag=tag, retry=True)
        except sqlite3.DatabaseError as error:
            self._rebuild(str(error))

    def evict(self, tag: str) -> int:
        try:
            return int(self._current().evict(tag, retry=True))
        except sqlite3.DatabaseError as error:
            self._rebuild(str(error))  # the rebuilt cache holds nothing of the tag
            return 0

    def clear(self) -> None:
        try:
            self._current().clear(retry=True)
        except sqlite3.DatabaseError as error:
            self._rebuild(str(error))

    def volume(self) -> int:
        return int(self._current().volume())

    def probe(self) -> None:
        """Write and read one small entry; raises if the cache does not work now."""
        cache = self._current()
        cache.set("copa:probe", os.getpid(), retry=True)
        cache.get("copa:probe", retry=True)

    def close(self) -> None:
        if self.cache is not None:
            self.cache.close()


@contextlib.contextmanager
def _directory_lock(path: Path):
    if fcntl is None:  # pragma: no cover - Windows
        yield
        return
    with open(path, "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def open_diskcache(directory: Path, **options):
    """A :class:`diskcache.Cache` at ``directory``, replaced by an empty one if damaged.

    For the caches Dash reads itself (background-callback jobs): a damaged database found
    when a worker starts is moved aside instead of failing every job until someone deletes
    the directory by hand.
    """
    directory = Path(directory)
    directory.parent.mkdir(parents=True, exist_ok=True)
    with _directory_lock(directory.parent / f".{directory.name}.rebuild.lock"):
        try:  # recreated when its directory is removed (services/healing_cache.py)
            cache = SelfHealingCache(str(directory), **options)
            cache.get("copa:probe", retry=True)
            return cache
        except sqlite3.DatabaseError as error:
            logger.warning("cache at %s is damaged (%s); starting it empty", directory, error)
            aside = directory.with_name(f".{directory.name}.damaged-{os.getpid()}-"
                                        f"{time.time_ns()}")
            with contextlib.suppress(FileNotFoundError):
                os.replace(directory, aside)
            shutil.rmtree(aside, ignore_errors=True)
            return SelfHealingCache(str(directory), **options)


_reported: set[str] = set()


def _log_once(key: str, message: str, *args) -> None:
    """Log a damaged cache once per process and place: a broken file is not a log flood."""
    if key not in _reported:
        _reported.add(key)
        logger.warning(message, *args)


class RedisBackend:
    """Redis with values in :mod:`codec` form and one set of keys per dataset tag."""

    def __init__(self, client):
        import redis  # the redis extra only (pip install "copa-dash[redis]")

        self.client = client
        self._errors = (redis.RedisError, OSError)

    @classmethod
    def from_url(cls, url: str) -> RedisBackend:
        return cls(redis_client(url))

    @property
    def errors(self) -> tuple:
        return self._errors

    def get(self, key: str):
        data = self.client.get(_KEY_PREFIX + key)
        if data is None:
            return _MISSING
        try:
            return codec.decode(data)
        except Exception as error:  # noqa: BLE001 - damaged or foreign bytes: a miss
            _log_once(f"redis-entry:{key}", "analysis cache entry in Redis cannot be read "
                      "(%s); dropping it", type(error).__name__)
            self.client.delete(_KEY_PREFIX + key)
            return _MISSING

    def set(self, key: str, value, tag: str) -> None:
        data = codec.encode(value)
        with self.client.pipeline() as pipe:
            pipe.set(_KEY_PREFIX + key, data)
            pipe.sadd(_TAG_PREFIX + tag, key)
            pipe.execute()

    def evict(self, tag: str) -> int:
        keys = [k.decode() if isinstance(k, bytes) else k
                for k in self.client.smembers(_TAG_PREFIX + tag)]
        removed = self.client.delete(*[_KEY_PREFIX + k for k in keys]) if keys else 0
        self.client.delete(_TAG_PREFIX + tag)
        return int(removed)

    def clear(self) -> None:
        for pattern in (_KEY_PREFIX + "*", _TAG_PREFIX + "*"):
            for key in self.client.scan_iter(match=pattern, count=1000):
                self.client.delete(key)

    def volume(self) -> int:
        return int(self.client.info("memory").get("used_memory", 0))

    def probe(self) -> None:
        """Raises if Redis does not answer."""
        self.client.ping()

    def close(self) -> None:
        self.client.close()


class AnalysisCache:
    """Memo of ``compute()`` results per (function, dataset, arguments, version).

    Parameters
    ----------
    backend : DiskBackend or RedisBackend
        Where entries live; see :meth:`from_settings`.
    version : str, optional
        Part of every key; :func:`~copa_dash.services.core_version.core_version` by default.

    Examples
    --------
    >>> import tempfile
    >>> cache = AnalysisCache(DiskBackend(Path(tempfile.mkdtemp()), size_limit=2**20))
    >>> cache.memoize("double", "d1", {"x": 2}, lambda: 4)
    4
    >>> cache.memoize("double", "d1", {"x": 2}, lambda: 5)  # a hit: compute is not called
    4
    >>> cache.close()
    """

    def __init__(self, backend, *, version: str | None = None):
        if version is None:
            version = core_version()
        self.backend = backend
        self.version = str(version)
        self.hits = 0
        self.misses = 0

    @classmethod
    def from_settings(cls, settings) -> AnalysisCache:
        """Redis when ``settings.redis_url`` is set, else diskcache under ``cache_dir``."""
        if settings.redis_url:
            return cls(RedisBackend.from_url(settings.redis_url))
        directory = Path(settings.cache_dir) / "analysis"
        return cls(DiskBackend(directory, size_limit=settings.cache_size_bytes))

    def key(self, function_name: str, dataset_id: str, arguments: dict) -> str:
        """SHA-256 hex of the canonical JSON of the four key parts."""
        if not isinstance(function_name, str) or not function_name:
            raise TypeError("'function_name' must be non-empty text")
        if not isinstance(dataset_id, str) or not dataset_id:
            raise TypeError("'dataset_id' must be non-empty text")
        text = json.dumps([function_name, dataset_id, freeze_arguments(arguments),
                           self.version], separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def memoize(self, function_name: str, dataset_id: str, arguments: dict,
                compute: Callable[[], T]) -> T:
        """The cached result for the key, or ``compute()`` stored under it.

        Parameters
        ----------
        function_name, dataset_id : str
            What is computed, on which dataset (the dataset id is also the entry's tag).
        arguments : dict
            Everything else the result depends on (see :func:`freeze_arguments`).
        compute : callable
            Called without arguments on a miss; an exception propagates and stores nothing.

        Notes
        -----
        Two processes missing the same key at once both compute; the results are equal,
        the last write stays. A failing backend is logged and bypassed.
        """
        key = self.key(function_name, dataset_id, arguments)
        try:
            value = self.backend.get(key)
        except self.backend.errors:
            logger.warning("analysis cache unavailable for reading; computing %s",
                           function_name, exc_info=True)
            value = _MISSING
        if value is not _MISSING:
            self.hits += 1
            return value
        self.misses += 1
        value = compute()
        try:
            self.backend.set(key, value, dataset_id)
        except self.backend.errors:
            logger.warning("analysis cache unavailable for writing %s", function_name,
                           exc_info=True)
        return value

    def peek(self, function_name: str, dataset_id: str, arguments: dict, default=None):
        """The cached result for the key, or ``default`` without computing anything (a page
        answers from it at once, and starts a background job only on a miss). A failing
        backend reads as a miss; hits and misses are not counted.

        >>> import tempfile
        >>> cache = AnalysisCache(DiskBackend(Path(tempfile.mkdtemp()), size_limit=2**20))
        >>> cache.peek("double", "d1", {"x": 2}) is None
        True
        >>> cache.memoize("double", "d1", {"x": 2}, lambda: 4)
        4
        >>> cache.peek("double", "d1", {"x": 2})
        4
        >>> cache.close()
        """
        key = self.key(function_name, dataset_id, arguments)
        try:
            value = self.backend.get(key)
        except self.backend.errors:
            logger.warning("analysis cache unavailable for reading %s", function_name,
                           exc_info=True)
            return default
        return default if value is _MISSING else value

    def evict_dataset(self, dataset_id: str) -> int:
        """Drop every entry tagged with ``dataset_id``; returns how many went."""
        return self.backend.evict(dataset_id)

    def clear(self) -> None:
        """Drop every entry."""
        self.backend.clear()

    def health(self) -> str:
        """``"ok"`` when an entry can be written and read back now, else ``"degraded"``
        (results are then computed without the cache)."""
        try:
            self.backend.probe()
        except Exception:
            logger.warning("analysis cache probe failed", exc_info=True)
            return "degraded"
        return "ok"

    def volume(self) -> int:
        """Bytes the backend uses (diskcache: database + files; Redis: used_memory)."""
        return self.backend.volume()

    def close(self) -> None:
        self.backend.close()


_caches: dict[tuple, AnalysisCache] = {}
_default: list = []
_lock = threading.Lock()


def get_cache(settings=None) -> AnalysisCache:
    """The process-wide cache for ``settings`` (default: the last one asked for, else the env).

    One instance per process and configuration: connections are opened lazily in each
    gunicorn worker after the fork, never inherited from a parent.
    """
    with _lock:
        if settings is None:
            if _default and _default[0][0] == os.getpid():
                return _default[0][1]
            settings = Settings.from_env()
        identity = (os.getpid(), str(Path(settings.cache_dir).resolve()),
                    settings.redis_url, settings.cache_size_bytes)
        cache = _caches.get(identity)
        if cache is None:
            cache = _caches[identity] = AnalysisCache.from_settings(settings)
        _default[:] = [(os.getpid(), cache)]
        return cache

