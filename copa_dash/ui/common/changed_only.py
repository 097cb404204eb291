"""Pattern-matching outputs that send only what changed.

A callback with an ``ALL`` output returns one value per matching component, and Dash's
renderer updates every one of them. On the Upload page of a wide export (370 columns, each
with a role dropdown, a direction and its cell) a tick of a column family re-rendered all
370 dropdowns and direction cells, about 1.4 s of the browser's main thread per change
(issue 33). Dash leaves out of the response every element that is ``no_update``
(``dash._callback``), so the renderer touches only the components whose value changed.
"""

from __future__ import annotations

from dash import no_update


def changed_only(new, old) -> list:
    """``new`` with ``no_update`` wherever it equals ``old`` (element by element).

    >>> changed_only([1, 2, 3], [1, 5, 3])[1]
    2
    >>> changed_only([1], [1])[0] is no_update
    True
    """
    old = list(old or ())
    return [value if k >= len(old) or value != old[k] else no_update
            for k, value in enumerate(new)]
