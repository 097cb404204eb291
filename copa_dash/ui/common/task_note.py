"""The note a page shows beside a pick, ranking or mean over rows of several tasks.

The rule and the words are :mod:`copa_dash.services.task_span`'s; this module adds the links:
one per task that restricts the page's own view to it (a set constraint on the task column,
so the restriction is kept in the page's link) and one to Posets for the dataset.
"""

from __future__ import annotations

from dataclasses import replace

from dash import dcc, html

from copa_dash.services.views.links import dataset_link, link


def restricted(view, column: str, task: str):
    """``view`` (a page's view with ``sets``) restricted to the rows of ``task``: any other
    constraint on ``column`` replaced, the other constraints kept."""
    sets = tuple(s for s in view.sets if s[0] != column) + ((column, (task,)),)
    return replace(view, sets=sets)


def task_note(span, what: str, view, *, restrict_in=None) -> html.Div | None:
    """The note for ``span`` on the page of ``view``, or None when ``span`` is None.

    Parameters
    ----------
    span : TaskSpan or None
        The tasks the page's rows come from (None: one task, nothing to say).
    what : str
        What the page does with the rows (a key of ``task_span.WHAT``).
    view : ExploreView, RankingsView, ...
        The page's view: its dataset and its set constraints (``sets``).
    restrict_in : view, optional
        The view the restriction links open, when the page itself has no set constraints
        (Systems restricts on Rankings); ``view`` when None.
    """
    if span is None:
        return None
    target = view if restrict_in is None else restrict_in
    links = []
    for k, task in enumerate(span.shown()):
        links += [", " if k else "",
                  dcc.Link(task, href=link(restricted(target, span.column, task)),
                           className="task-restrict")]
    filters = "the filters" if restrict_in is None else \
        f"the filters on {target.PAGE.capitalize()}"
    more = f" (and {span.n - len(span.shown())} more in {filters})" \
        if span.n > len(span.shown()) else ""
    return html.Div(className="alert alert-warning task-note", children=[
        # the tasks are named once, as the restriction links below (the page stays short)
        span.sentence(what, named=False), " To choose a system across tasks use ",
        dcc.Link("Posets", href=dataset_link("posets", view.dataset), className="task-posets"),
        " (ranks per task) or ",
        *(["restrict to one task (", span.column, "): "] if restrict_in is None else
          # this page takes no constraints (the context bar says so): say where one task can
          # be chosen, rather than ask for a restriction the user may have made already
          [(f"compare on one task on {target.PAGE.capitalize()}, which can restrict its "
            f"rows (this page cannot; {span.column}): ")]),
        *links, more, "."])
