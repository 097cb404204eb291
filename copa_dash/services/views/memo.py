"""The exploration of one Explore view, computed once per view and process.

The explorer's view callback, the table's pager, the CSV download and the brushing read the
view's exploration from here (through ``ui/features/explore/view_memo.py``, which hands in the
instance's settings and cache): the callback by its view, the others by the view's query
string (the page's store ``ExploreIds.QUERY``). This memo, keyed by the dataset's content id and the view's query
string (without the "Help me choose" answers, which change nothing explored), computes a view's
exploration once: when requests for one view arrive side by side, the first computes it while
the others wait for it (a lock per view), then every one reads the same result. It is our own
because the key and the value (the exploration, or the message of an input error) belong to
Explore's view; the bound is the shared :class:`~copa_dash.services.recent.RecentValues`, its
share of the Settings' ``memory_cache_bytes`` (``COPA_MEMORY_CACHE_MB``) like the other
in-process caches.
"""

from __future__ import annotations

import threading

from ...core.errors import InvalidInputError
from ..catalog import open_dataset
from ..explorer import Exploration, explore
from ..recent import RecentValues
from .explore import ExploreView

# a handful of views: the one shown, and the last few a user went back and forth between
_recent_views = RecentValues(entries=6, share=0.05, name="explorer views")
_computing: dict = {}            # view key -> the lock of the request computing it
_computing_guard = threading.Lock()


def exploration(state: ExploreView, settings, cache) -> Exploration | str:
    """The exploration of ``state``, or the input error's message for the page, with the
    instance's ``settings`` (who may read the dataset) and analysis ``cache``.

    The dataset is opened on every call (it checks who may read it, and is itself cached);
    only the exploration is memoised, under the opened dataset's content id and the view.
    """
    try:
        opened = open_dataset(state.dataset, settings)
    except InvalidInputError as exc:
        return str(exc)
    key = (opened.cache_id, state.memo_key())
    kept = _recent_views.get(key)
    if kept is not None:
        return kept
    with _computing_guard:
        lock = _computing.setdefault(key, threading.Lock())
    with lock:                   # the renderers of one view: one computes, the others wait
        kept = _recent_views.get(key)
        if kept is None:
            kept = _compute(opened, state, key, cache)
    with _computing_guard:
        _computing.pop(key, None)
    return kept


def _compute(opened, state: ExploreView, key, cache) -> Exploration | str:
    try:
        result = explore(opened, state.preferences(), state.row_filter(), compare=state.compare,
                         cache=cache)
    except InvalidInputError as exc:
        return _recent_views.put(key, str(exc), nbytes=len(str(exc)))
    return _recent_views.put(key, result, nbytes=_nbytes(result))


def _nbytes(result: Exploration) -> int:
    """The arrays this view holds of its own (the problem's are the selection cache's)."""
    arrays = (result.scores, result.front, result.ranking, result.u_standard_error)
    return sum(a.nbytes for a in arrays) + 4096
