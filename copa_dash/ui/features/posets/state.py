"""The posets page's view (:class:`~copa_dash.services.views.posets.PosetsView`, below the
UI: fields, link, default) named for the page, and the page's working-context hook."""

from __future__ import annotations

from dataclasses import replace

from copa_dash.services.views.posets import EXACT_OF_MODE, PosetsView
from copa_dash.ui.common import working_context
from copa_dash.ui.common.page_view import view_functions

PosetsState = PosetsView   # the page's name for its view
parse_query, to_query, with_defaults = view_functions(PosetsView)

__all__ = ["EXACT_OF_MODE", "PosetsState", "apply_context", "parse_query", "to_query",
           "with_defaults"]


def apply_context(state: PosetsState, context: working_context.WorkingContext | None, opened):
    """Posets' hook for the working context (``ui/common/working_context``), called before
    :func:`with_defaults`: the context's objectives become the criteria the methods are
    ordered by. Returns the state and the bar's notes, which say that constraints and flipped
    directions have no meaning here (None when the link carried no context)."""
    if context is None:
        return state, None
    fitted, left_out = working_context.fit_to_table(context, opened.table, objectives_only=True)
    state = replace(state, criteria=fitted.objective_names or state.criteria)
    return state, working_context.context_notes(
        "Posets", context, used=fitted, left_out=left_out,
        table_directions=working_context.directions_of(opened.table),
        why_no_constraints="it orders the methods on every task")
