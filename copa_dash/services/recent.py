"""A small in-process memory of recent values, bounded in entries and in bytes.

The explorer recomputes its view on every slider move; what does not change with the sliders
(a dataset read from disk, a problem's rows and u) is kept here for the next move. Values are
shared between requests, so whoever puts one in must not change it afterwards.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable

from ..config import Settings

# Every RecentValues made with a ``share`` is listed here, so that one call sets the bounds of
# all from the instance's Settings: their shares sum to at most 1, so the in-process memory of
# these caches stays within ``Settings.memory_cache_bytes`` per worker.
_SHARED: list[RecentValues] = []


class RecentValues:
    """The last few values by key, least recently used first out.

    Parameters
    ----------
    entries : int
        At most this many values are kept.
    max_bytes : int, optional
        At most this many bytes (as stated by :meth:`put`'s callers) are kept; a value larger
        than this is not kept at all.
    share : float, optional
        Instead of ``max_bytes``: this fraction of the worker's in-process budget
        (``Settings.memory_cache_bytes``, env ``COPA_MEMORY_CACHE_MB``), set again by
        :func:`set_memory_budget` when the app starts.
    name : str, optional
        What the values are, for :func:`set_memory_budget`'s report.

    Examples
    --------
    >>> recent = RecentValues(entries=2, max_bytes=100)
    >>> recent.put("a", [1], nbytes=60)
    [1]
    >>> recent.put("b", [2], nbytes=60)   # both do not fit: "a" goes
    [2]
    >>> recent.get("a") is None, recent.get("b")
    (True, [2])
    """

    def __init__(self, *, entries: int, max_bytes: int | None = None,
                 share: float | None = None, name: str = ""):
        if (max_bytes is None) == (share is None):
            raise ValueError("give either max_bytes or share")
        self.entries = entries
        self.name = name
        self.share = share
        self.max_bytes = (max_bytes if share is None
                          else int(share * Settings().memory_cache_bytes))
        self._values: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        if share is not None:
            _SHARED.append(self)

    def get(self, key):
        """The value kept under ``key``, or None."""
        with self._lock:
            kept = self._values.get(key)
            if kept is None:
                return None
            self._values.move_to_end(key)
            return kept[0]

    def put(self, key, value, *, nbytes: int):
        """Keep ``value`` under ``key`` (unless it alone exceeds the byte budget); returns it."""
        with self._lock:
            self._values.pop(key, None)
            if nbytes > self.max_bytes:
                return value
            self._values[key] = (value, nbytes)
            self._trim()
        return value

    def _trim(self) -> None:
        total = sum(size for _, size in self._values.values())
        while len(self._values) > self.entries or total > self.max_bytes:
            _, (_, size) = self._values.popitem(last=False)
            total -= size

    def resize(self, max_bytes: int) -> None:
        """Keep at most ``max_bytes`` from now on (the oldest values go first)."""
        with self._lock:
            self.max_bytes = int(max_bytes)
            self._trim()

    def clear(self) -> None:
        """Forget every value."""
        with self._lock:
            self._values.clear()


def set_memory_budget(total_bytes: int) -> dict[str, int]:
    """Bound every shared RecentValues by its share of ``total_bytes``; returns the bounds.

    Raises
    ------
    ValueError
        If the shares add up to more than 1 (the budget would not hold).
    """
    if sum(r.share for r in _SHARED) > 1 + 1e-9:
        raise ValueError("the shares of the in-process caches add up to more than 1")
    for recent in _SHARED:
        recent.resize(int(recent.share * total_bytes))
    return {recent.name: recent.max_bytes for recent in _SHARED}


class PerTable:
    """Values worked out once per table object and key, kept while the table is.

    An :class:`~copa_dash.data.schema.EvalTable` never changes (its frame is handed out as a
    copy), so the object itself is the key: no digest to compute on every request, and the
    values go when the table does (weak keys). For what depends on the table alone (the
    reader's pairs of a column, an upload's first view) or on the table and a small key (the
    notes on the objectives a view leaves out).

    Parameters
    ----------
    keys_per_table : int, default 1
        At most this many keys are kept for one table; the oldest goes first.

    Examples
    --------
    >>> class Table: pass
    >>> memo, table, calls = PerTable(keys_per_table=2), Table(), []
    >>> memo.get(table, "a", lambda: calls.append("a") or 1), memo.get(table, "a", lambda: 2)
    (1, 1)
    >>> table in memo, len(memo), calls
    (True, 1, ['a'])
    """

    def __init__(self, *, keys_per_table: int = 1):
        self.keys_per_table = keys_per_table
        self._kept: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()    # gunicorn's gthread workers answer in threads

    def get(self, table, key, compute: Callable[[], object]):
        """The value of ``key`` for ``table``, from ``compute()`` the first time."""
        with self._lock:
            kept = self._kept.setdefault(table, OrderedDict())
            if key in kept:
                return kept[key]
        value = compute()                # outside the lock: two threads may both compute
        with self._lock:
            if key not in kept and len(kept) >= self.keys_per_table:
                kept.popitem(last=False)
            kept[key] = value
        return value

    def __contains__(self, table) -> bool:
        return table in self._kept

    def __len__(self) -> int:
        return len(self._kept)

