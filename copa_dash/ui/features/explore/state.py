"""The explorer's view and the page: the view itself (its fields, link and default) is
:class:`~copa_dash.services.views.explore.ExploreView`, below the UI, shared with the reports,
the CLI and the notebook; this module names it for the page and holds the page's hook for the
working context.
"""

from __future__ import annotations

from dataclasses import replace

from copa_dash.services.views.explore import (
    AXES_MODES,
    P_STOPS,
    ExploreView,
    format_p,
    nearest_p_stop,
)
from copa_dash.ui.common.working_context import WorkingContext, context_notes, fit_to_table

ExploreState = ExploreView   # the page's name for its view
parse_query = ExploreView.from_query

__all__ = ["AXES_MODES", "P_STOPS", "ExploreState", "apply_context", "format_p",
           "nearest_p_stop", "parse_query", "to_query", "with_defaults"]


def to_query(state: ExploreView) -> str:
    """The readable query string (without the leading ``?``) that reproduces ``state``."""
    return state.to_query()


def with_defaults(state: ExploreView, opened, given=()) -> ExploreView:
    """Fill what the URL left out (``given`` names the query keys it had): see
    :meth:`ExploreView.with_defaults`."""
    return state.with_defaults(opened, given=given)


def apply_context(state: ExploreState, context: WorkingContext | None, opened, given=()):
    """The working context on the explorer (a hook, see ``ui/common/working_context``): its
    objectives, directions and constraints replace the default view's, the rest of the
    default view (focus, alpha, p) stays. Returns the state and the context bar's notes
    (None when the link carried no context)."""
    if context is None:
        return state, None
    table = opened.table
    fitted, left_out = fit_to_table(context, table)
    changed = replace(state, ranges=fitted.ranges, sets=fitted.sets,
                      objectives=fitted.objectives or state.objectives)
    state = with_defaults(changed, opened, given=given)
    return state, context_notes("Explore", context, used=fitted, left_out=left_out)
