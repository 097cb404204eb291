"""The three functions a page's callbacks call on its view, named once for every page."""

from __future__ import annotations


def view_functions(view_class) -> tuple:
    """``(parse_query, to_query, with_defaults)`` of a page's view class.

    A page's ``state.py`` names its view's ``from_query``, ``to_query`` and
    ``with_defaults`` under the names its callbacks and tests have always used.

    Examples
    --------
    >>> from copa_dash.services.views.rankings import RankingsView
    >>> parse, to_query, with_defaults = view_functions(RankingsView)
    >>> to_query(parse("dataset=x")) == RankingsView.from_query("dataset=x").to_query()
    True
    """
    return view_class.from_query, view_class.to_query, view_class.with_defaults
