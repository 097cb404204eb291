"""Reads a Dash component tree the way the UI tests need it: every node, one node by id,
the text a user reads. Shared so that each page's tests walk the tree the same way."""

from __future__ import annotations

from collections.abc import Iterator


def walk(component) -> Iterator:
    """``component`` and every component under it, depth first (strings and numbers are
    leaves, not components)."""
    yield component
    children = getattr(component, "children", None)
    for child in children if isinstance(children, (list, tuple)) else [children]:
        if child is not None and not isinstance(child, (str, int, float)):
            yield from walk(child)


def find(component, component_id):
    """The first component with ``component_id`` under ``component``, depth first (None if
    absent)."""
    return next((n for n in walk(component) if getattr(n, "id", None) == component_id), None)


def text(component) -> str:
    """The text children of every component under ``component``, joined by spaces."""
    return " ".join(n.children for n in walk(component)
                    if isinstance(getattr(n, "children", None), str))
