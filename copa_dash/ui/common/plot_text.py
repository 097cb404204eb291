"""User text for Plotly strings.

Plotly renders a subset of HTML (``<b>``, ``<i>``, ``<br>``, ``<a href>``, ``<sup>``,
``<span style>``) in trace names, hover texts, tick and category labels, annotations and
titles. Names that come from the data (model ids, method, system and task names, column
names of an uploaded table) go through :func:`plot_text` so they show as typed.
"""

from __future__ import annotations

import html


def plot_text(value) -> str:
    """``value`` as a string Plotly shows as typed, not as markup.

    Parameters
    ----------
    value
        Any value; it is turned into a string first.

    Returns
    -------
    str
        The string with ``&``, ``<`` and ``>`` escaped. Quotes stay as they are: Plotly
        decodes only a few named entities (``&amp;``, ``&lt;``, ``&gt;``, ...), so an
        escaped quote (``&quot;``) would show literally.

    Examples
    --------
    >>> plot_text("a<br>b & c")
    'a&lt;br&gt;b &amp; c'
    >>> plot_text('say "hi"')
    'say "hi"'
    """
    return html.escape(str(value), quote=False)
