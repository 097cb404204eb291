"""What a hand-edited explorer link asked for that the page could not honour.

:meth:`ExploreView.from_query` and :meth:`ExploreView.with_defaults` (``services/views``) are
forgiving: a malformed value falls back to a default so a link never breaks the page. This
module says, in a sentence per item, what was replaced or dropped, so the user is not left
wondering why the view differs from the link.
"""

from __future__ import annotations

from copa_dash.services.inputs import read_number
from copa_dash.services.views.query import as_list
from copa_dash.ui.features.explore.state import AXES_MODES, ExploreState, format_p

KNOWN_KEYS = ExploreState.QUERY_KEYS    # "choose" too: the page writes it after "Help me choose"


_number = read_number


def link_notes(query: dict, state: ExploreState, objective_columns) -> list[str]:
    """One sentence per setting of ``query`` that the page replaced or ignored.

    Parameters
    ----------
    query : dict
        The parsed query string, ``{key: str | list[str]}``.
    state : ExploreState
        The view the page shows (after :meth:`ExploreView.with_defaults`).
    objective_columns : iterable of str
        The dataset's objective columns.
    """
    notes = []
    for key in sorted(set(query) - KNOWN_KEYS):
        notes.append(f"'{key}' is not a setting of this page; it was ignored.")
    columns = set(objective_columns)
    for item in as_list(query.get("obj")):
        name, sep, direction = item.rpartition(":")
        if not (sep and name and direction in ("min", "max")):
            notes.append(f"obj={item} should read COLUMN:min or COLUMN:max; it was ignored.")
        elif name not in columns:
            notes.append(f"obj={item}: the dataset has no objective column '{name}'; it was ignored.")
    chosen = set(state.objective_names)
    for name in as_list(query.get("focus")):
        if name not in chosen:
            notes.append(f"focus={name} is not one of the chosen objectives; it was ignored.")
    for item in as_list(query.get("w")):
        name, sep, value = item.rpartition(":")
        number = _number(value)
        if not (sep and name) or number is None or number < 0:
            notes.append(f"w={item} should read COLUMN:WEIGHT with a weight of 0 or more; "
                         "it was read as weight 0.")
    for text in as_list(query.get("alpha"))[:1]:
        number = _number(text)
        if number is None or not 0 <= number <= 1:
            notes.append(f"alpha={text} is not a number from 0 to 1; the view uses "
                         f"alpha = {state.alpha:g}.")
    for text in as_list(query.get("p"))[:1]:
        number = _number(text)
        if number is None or number < 1:
            notes.append(f"p={text} is not a number of at least 1 (or inf); the view uses "
                         f"p = {format_p(state.p)}.")
    for key, allowed, used in (("axes", AXES_MODES, state.axes),
                               ("pop", ("all", "filtered"), state.population)):
        for text in as_list(query.get(key))[:1]:
            if text not in allowed:
                notes.append(f"{key}={text} is not one of {', '.join(allowed)}; the view uses {used}.")
    for key, used in (("x", state.x), ("y", state.y)):
        for text in as_list(query.get(key))[:1]:
            if text != used:
                notes.append(f"{key}={text} is not a chosen objective (or equals the other axis); "
                             f"the {key} axis shows {used}.")
    for text in as_list(query.get("log")):
        # "none" is what the page's own links write for linear axes (views/explore.to_query)
        if text not in ("x", "y", "none"):
            notes.append(f"log={text} should read log=x or log=y; it was ignored.")
    return notes
