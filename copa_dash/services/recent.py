"""A small in-process memory of recent values, bounded in entries and in bytes.

The explorer recomputes its view on every slider move; what does not change with the sliders
(a dataset read from disk, a problem's rows and u) is kept here for the next move. Values are
shared between requests, so whoever puts one in must not change it afterwards.
"""

from __future__ import annotations

import threading
from collections import OrderedDict


class RecentValues:
    """The last few values by key, least recently used first out.

    Parameters
    ----------
    entries : int
        At most this many values are kept.
    max_bytes : int
        At most this many bytes (as stated by :meth:`put`'s callers) are kept; a value larger
        than this is not kept at all.

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

    def __init__(self, *, entries: int, max_bytes: int):
        self.entries = entries
        self.max_bytes = max_bytes
        self._values: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

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
            total = sum(size for _, size in self._values.values())
            while len(self._values) > self.entries or total > self.max_bytes:
                _, (_, size) = self._values.popitem(last=False)
                total -= size
        return value

    def clear(self) -> None:
        """Forget every value."""
        with self._lock:
            self._values.clear()
