"""The systems page's view (:class:`~copa_dash.services.views.systems.SystemsView`, below
the UI: fields, link, default) named for the page, and the page's working-context hook."""

from __future__ import annotations

from dataclasses import replace

from copa_dash.services.views.systems import (
    DEFAULT_SHOWN,
    MAX_PERMUTATIONS,
    NORMALIZATIONS,
    REF_RULES,
    SystemsView,
)
from copa_dash.ui.common import working_context
from copa_dash.ui.common.page_view import view_functions

SystemsState = SystemsView   # the page's name for its view
parse_query, to_query, with_defaults = view_functions(SystemsView)

__all__ = ["DEFAULT_SHOWN", "MAX_PERMUTATIONS", "NORMALIZATIONS", "REF_RULES", "SystemsState",
           "apply_context", "parse_query", "to_query", "with_defaults"]


def apply_context(state: SystemsState, context: working_context.WorkingContext | None, opened):
    """The working context on the systems page (a hook, see ``ui/common/working_context``):
    its objectives, when at least two of them are the dataset's; constraints and flipped
    directions cannot apply here, and the notes say so. Call it before
    :func:`with_defaults`. Returns the state and the notes (None without a context)."""
    if context is None:
        return state, None
    fitted, left_out = working_context.fit_to_table(context, opened.table, objectives_only=True)
    if len(fitted.objectives) < 2:
        left_out.append("Systems compares at least two objectives, so it shows the dataset's "
                        "default ones")
        fitted = working_context.WorkingContext()
    state = replace(state, objectives=fitted.objective_names or state.objectives)
    return state, working_context.context_notes(
        "Systems", context, used=fitted, left_out=left_out,
        table_directions=working_context.directions_of(opened.table),
        why_no_constraints="it compares every row of each system")
