"""Messages in the page: one look for every page's warnings, errors and notes, and one
shape for every page's empty state."""

from __future__ import annotations

from dash import html


def alert(text, kind: str = "warning") -> html.Div:
    """A message box; ``kind`` is ``"warning"`` (the user can fix it), ``"error"`` or ``"info"``."""
    return html.Div(text, className=f"alert alert-{kind}")


def empty_state(message, then=(), *, kind: str = "warning", component_id: str | None = None
                ) -> html.Div:
    """A page's (or a result's) empty state, one shape on every page: one box holding why
    there is nothing to show (``message``, a sentence or a list of strings and links) and,
    on a line of its own inside the same box, what to do next (``then``: links, with words
    between them). ``kind`` as in :func:`alert`; ``component_id`` lets callbacks or tests
    find the box.

    Examples
    --------
    >>> box = empty_state("This table has no systems.", ["Open an example"])
    >>> box.className, [p.className for p in box.children]
    ('alert alert-warning empty-state', ['empty-why', 'empty-next'])
    >>> empty_state("no rows.").children[0].children
    'No rows.'
    """
    if isinstance(message, str):       # a service's message starts in lower case
        message = message[:1].upper() + message[1:]
    children = [html.P(message, className="empty-why")]
    if then:
        children.append(html.P(list(then), className="empty-next"))
    extra = {} if component_id is None else {"id": component_id}
    return html.Div(children, className=f"alert alert-{kind} empty-state", **extra)


def view_notes(task_box, notes) -> list:
    """The notes on a view, as one compact block: the first shown, the rest
    behind a "n more notes" disclosure (every word one click away).

    At 1024 x 768 an upload's four notes on Explore (rows left out, columns left out, the
    average left out, why this pair) stood one above the other between the figure and the
    pick card and pushed the card off the first two screens; on Rankings a task table's
    three notes stood above the bump chart (issue 33). Every page with a notes box uses it.

    Parameters
    ----------
    task_box : Div or None
        The tasks-pooled note (:func:`~copa_dash.ui.common.task_note.task_note`), first.
    notes : sequence of str
        The view's other notes, in the service's order.

    Returns
    -------
    list
        The children of the page's notes box.

    Examples
    --------
    >>> [c.className for c in view_notes(None, ["a"])]
    ['alert alert-info']
    >>> first, more = view_notes(None, ["a", "b", "c"])
    >>> first.children, more.children[0].children, [c.children for c in more.children[1:]]
    ('a', '2 more notes on this view', ['b', 'c'])
    """
    boxes = [*([task_box] if task_box is not None else []),
             *(alert(note, "info") for note in notes)]
    if len(boxes) <= 1:
        return boxes
    rest = boxes[1:]
    return [boxes[0], html.Details(className="more-notes", children=[
        html.Summary(f"{len(rest)} more note{'s' * (len(rest) != 1)} on this view"), *rest])]
