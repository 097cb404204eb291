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
