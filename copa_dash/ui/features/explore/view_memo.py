"""The page's door to the view-keyed memo (:mod:`copa_dash.services.views.memo`): the
exploration of an Explore view with this instance's settings and cache, and the view a query
string (the page's store ``ExploreIds.QUERY``) describes."""

from __future__ import annotations

from copa_dash.services.explorer import Exploration
from copa_dash.services.views import memo
from copa_dash.services.views.explore import ExploreView
from copa_dash.ui.common.settings_access import current_cache, current_settings


def state_of(query: str) -> ExploreView:
    """The view a query string describes (the store's value back as a view)."""
    return ExploreView.from_query(query or "")


def exploration(state: ExploreView) -> Exploration | str:
    """The exploration of ``state``, or the input error's message for the page."""
    return memo.exploration(state, current_settings(), current_cache())
