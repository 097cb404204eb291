"""The validation -> test page's view
(:class:`~copa_dash.services.views.generalization.GeneralizationView`, below the UI: fields,
link, default) named for the page, and the page's working-context hook."""

from __future__ import annotations

from dataclasses import replace

from copa_dash.services.generalization import TEST_PREFIX, VAL_PREFIX
from copa_dash.services.views.generalization import GeneralizationView, format_ref, parse_ref
from copa_dash.ui.common.page_view import view_functions
from copa_dash.ui.common.working_context import WorkingContext, context_notes

GapViewState = GeneralizationView   # the page's name for its view
parse_query, to_query, with_defaults = view_functions(GeneralizationView)

__all__ = ["GapViewState", "apply_context", "format_ref", "parse_query", "parse_ref",
           "to_query", "with_defaults"]


def apply_context(state: GapViewState, context: WorkingContext | None, choices):
    """The working context on the validation -> test page (a hook, see
    ``ui/common/working_context``): an objective ``val_m`` or ``test_m`` (or ``m`` of a long
    table) chooses the metric ``m`` with the objective's direction; constraints cannot apply
    here. ``choices`` are the page's (metric, direction) pairs. Call it before the report.
    Returns the state and the notes (None without a context)."""
    if context is None:
        return state, None
    known = dict(choices)
    metrics, left_out = {}, []
    for name, direction in context.objectives:
        metric = next((m for m in (name, name.removeprefix(VAL_PREFIX),
                                   name.removeprefix(TEST_PREFIX)) if m in known), None)
        if metric is None:
            left_out.append(f"objective {name}: no validation/test metric of this dataset, "
                            "left out")
        else:
            metrics.setdefault(metric, direction)
    used = WorkingContext(objectives=tuple(metrics.items()))
    state = replace(state, metrics=used.objectives or state.metrics)
    return state, context_notes(
        "Val -> test", context, used=used, left_out=left_out,
        why_no_constraints="it compares every validation and test row of each search")
