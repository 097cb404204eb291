"""Lists in messages kept short: the first few items, then how many more.

A message that names every item of a long list is unreadable, and on a large table it is
huge: Posets on the Open LLM leaderboard with ``model`` as the method column named every
model missing from every task, a 300 MB message that crashed the browser tab showing it.
"""

from __future__ import annotations

from collections.abc import Iterable

#: items named before "and N more"
LISTED = 5


def brief_list(items: Iterable, limit: int = LISTED, *, separator: str = ", ",
               more: str = "more") -> str:
    """The first ``limit`` items joined by ``separator``, then "and N more" for the rest.

    Parameters
    ----------
    items : iterable
        What to name (each is turned into ``str``).
    limit : int, default 5
        How many to name at most.
    separator : str, default ", "
        Between two named items (``"; "`` when items hold commas).
    more : str, default "more"
        The words after the count of the items not named ("more tasks").

    Returns
    -------
    str

    Examples
    --------
    >>> brief_list(["a", "b"])
    'a, b'
    >>> brief_list(range(8), 3)
    '0, 1, 2 and 5 more'
    >>> brief_list(["x: 1", "y: 2", "z: 3"], 2, separator="; ", more="more tasks")
    'x: 1; y: 2 and 1 more tasks'
    """
    items = [str(item) for item in items]
    shown = separator.join(items[:limit])
    rest = len(items) - limit
    return f"{shown} and {rest:,} {more}" if rest > 0 else shown
