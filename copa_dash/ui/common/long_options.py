"""Dropdowns over thousands of entries: the options are found on the server as the user types.

A ``dcc.Dropdown`` builds a search index of all its options in the browser each time they are
set: with the 2,142 entries of the Open LLM leaderboard that took 1-3 s of the page's main
thread on every open of Rankings (a CPU profile of a warm open: ``indexDocument`` of
async-dropdown.js). Dash's documented pattern for long lists is dynamic options: the dropdown
holds only what is chosen plus what matches the typed text, and a callback on its
``search_value`` finds those matches here.
"""

from __future__ import annotations

#: the most options a searching dropdown holds besides the chosen ones
SHOWN = 50


def matching_options(values, search: str | None, chosen=(), *, limit: int = SHOWN) -> list[dict]:
    """Options for a searching dropdown: every chosen value (a multi dropdown drops a chosen
    value that is not among its options), then up to ``limit`` values containing every word
    of ``search`` (case-insensitive), in their order; the first ``limit`` values when nothing
    is typed.

    Examples
    --------
    >>> [o["value"] for o in matching_options(["Qwen-7B", "Llama-3-8B", "qwen-72b"], "QWEN")]
    ['Qwen-7B', 'qwen-72b']
    >>> [o["value"] for o in matching_options(["a", "b", "c"], "", chosen=["c"], limit=1)]
    ['c', 'a']
    """
    chosen = [str(v) for v in (chosen or ())]
    words = (search or "").lower().split()
    found, taken = list(chosen), set(chosen)
    for value in map(str, values):
        if len(found) - len(chosen) >= limit:
            break
        if value not in taken and all(word in value.lower() for word in words):
            found.append(value)
            taken.add(value)
    return [{"label": value, "value": value} for value in found]
