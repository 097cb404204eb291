"""The rankings page's view (:class:`~copa_dash.services.views.rankings.RankingsView`, below
the UI: fields, link, default) named for the page, and the page's working-context hook."""

from __future__ import annotations

from dataclasses import replace

from copa_dash.services.views.rankings import DEFAULT_TOP, MAX_TOP, RankingsView
from copa_dash.ui.common import working_context
from copa_dash.ui.common.page_view import view_functions

RankingsState = RankingsView   # the page's name for its view
parse_query, to_query, with_defaults = view_functions(RankingsView)

__all__ = ["DEFAULT_TOP", "MAX_TOP", "RankingsState", "apply_context", "parse_query",
           "to_query", "with_defaults"]


def apply_context(state: RankingsState, context: working_context.WorkingContext | None, opened):
    """The working context on the rankings page (a hook, see ``ui/common/working_context``):
    its objectives and its sets of values replace the default view's; ranges and flipped
    directions cannot apply here, and the notes say so. Returns the state and the notes
    (None when the link carried no context)."""
    if context is None:
        return state, None
    table = opened.table
    fitted, left_out = working_context.fit_to_table(context, table)
    objectives = fitted.objective_names or state.objectives
    used = working_context.WorkingContext(objectives=fitted.objectives, sets=fitted.sets)
    state = replace(state, objectives=objectives, sets=fitted.sets,
                    focus=tuple(f for f in state.focus if f in objectives))
    return state, working_context.context_notes(
        "Rankings", context, used=used, left_out=left_out,
        table_directions=working_context.directions_of(opened.table),
        why_no_ranges="it chooses the rows taking part by sets of values only")
