"""The exploration of one explorer view, computed once per view and process.

The view callback, the table's pager and the CSV download read the view's exploration from
here: the callback by its state, the others by the view's query string (the store
``ExploreIds.QUERY``). This memo, keyed by the dataset's content id and the view's query
string (without the "Help me choose" answers, which change nothing explored), computes a view's
exploration once: when requests for one view arrive side by side, the first computes it while
the others wait for it (a lock per view), then every one reads the same result. It is our own
because the key and the value (the exploration, or the message of an input error) belong to
this page; the bound is the shared :class:`~copa_dash.services.recent.RecentValues`, set from
``COPA_MEMORY_CACHE_MB``.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from urllib.parse import parse_qs

from copa_dash.core.errors import InvalidInputError
from copa_dash.services.catalog import open_dataset
from copa_dash.services.explorer import Exploration, explore
from copa_dash.services.recent import RecentValues
from copa_dash.ui.common.settings_access import current_cache, current_settings
from copa_dash.ui.features.explore.state import ExploreState, parse_query, to_query
from copa_dash.ui.features.explore.view_state import preferences_and_filter

# a handful of views: the one shown, and the last few a user went back and forth between
_recent_views = RecentValues(entries=6, share=0.05, name="explorer views")
_computing: dict = {}            # view key -> the lock of the request computing it
_computing_guard = threading.Lock()


def state_of(query: str) -> ExploreState:
    """The view a query string describes (the store's value back as a state)."""
    parsed = {k: v[0] if len(v) == 1 else v for k, v in parse_qs(query or "").items()}
    return parse_query(parsed)


def exploration(state: ExploreState) -> Exploration | str:
    """The exploration of ``state``, or the input error's message for the page.

    The dataset is opened on every call (it checks who may read it, and is itself cached);
    only the exploration is memoised, under the opened dataset's content id and the view.
    """
    try:
        opened = open_dataset(state.dataset, current_settings())
    except InvalidInputError as exc:
        return str(exc)
    key = (opened.cache_id, to_query(replace(state, choose="")))
    kept = _recent_views.get(key)
    if kept is not None:
        return kept
    with _computing_guard:
        lock = _computing.setdefault(key, threading.Lock())
    with lock:                   # the renderers of one view: one computes, the others wait
        kept = _recent_views.get(key)
        if kept is None:
            kept = _compute(opened, state, key)
    with _computing_guard:
        _computing.pop(key, None)
    return kept


def _compute(opened, state: ExploreState, key) -> Exploration | str:
    try:
        prefs, row_filter = preferences_and_filter(state, opened.table)
        result = explore(opened, prefs, row_filter, compare=state.compare, cache=current_cache())
    except InvalidInputError as exc:
        return _recent_views.put(key, str(exc), nbytes=len(str(exc)))
    return _recent_views.put(key, result, nbytes=_nbytes(result))


def _nbytes(result: Exploration) -> int:
    """The arrays this view holds of its own (the problem's are the selection cache's)."""
    arrays = (result.scores, result.front, result.ranking, result.u_standard_error)
    return sum(a.nbytes for a in arrays) + 4096
