"""Column names that wrap between their words, never inside one.

A header such as ``non_stereotype`` or ``co2_cost`` has no space, so a narrow column either
widened to hold it whole or, with ``overflow-wrap: anywhere``, broke it anywhere
("co2_co|st", "non_toxic|ity": issue 33). :func:`breakable_html` escapes the name and puts a
``<wbr>`` (a line-break opportunity that is not a character) after each separator inside
it, so the browser wraps a header only there; the text a reader copies, the tests read
(``textContent``) and the CSV exports stay the real name.
"""

from __future__ import annotations

import re
from html import escape

#: Where a name may wrap: after an underscore, a slash or a dot between two word characters
#: (``non_|stereotype``, ``org/|model``, ``v1.|5``). A hyphen needs nothing: browsers already
#: wrap after it, and a space is a space.
_BREAK_AFTER = re.compile(r"(?<=\w)([_/.])(?=\w)")


def breakable_html(name) -> str:
    """``name`` as HTML text that wraps only after its separators.

    Parameters
    ----------
    name
        A column's name (any value; shown with ``str``). A line break in it becomes a space.

    Returns
    -------
    str
        The escaped name with ``<wbr>`` after each ``_``, ``/`` or ``.`` that sits between
        two word characters.

    Examples
    --------
    >>> breakable_html("non_stereotype")
    'non_<wbr>stereotype'
    >>> breakable_html("a<b>_c")
    'a&lt;b&gt;_c'
    >>> breakable_html("_private")
    '_private'
    """
    text = " ".join(str(name).splitlines())
    # split first and escape each piece: an escaped "&lt;" must not gain a <wbr> of its own
    parts = _BREAK_AFTER.split(text)
    return "".join(escape(part) + ("<wbr>" if k % 2 else "") for k, part in enumerate(parts))
