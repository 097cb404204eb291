"""Which objectives a view uses: names and directions, checked against the table."""

from __future__ import annotations

import numpy as np

from ..core.errors import InvalidInputError
from ..data.schema import EvalTable

# the one wording of the most common refusal (explorer, upload, systems): pages and services share it
TWO_OBJECTIVES = "choose at least two objectives: a Pareto front needs something to trade off"


def rows_left_out_note(n_missing: int, *, hint: str = "", missing=()) -> str:
    """The one wording of "rows without a chosen objective are left out" (explorer, rankings,
    systems), with the count's grammar right: "1 row is left out", "3 rows are left out".
    ``missing`` (``(objective, rows without it)`` pairs, :func:`missing_counts`) names the
    objectives that cost the rows, most first, so the user knows which one to drop.

    >>> rows_left_out_note(1)
    '1 row is left out because a chosen objective is missing for it.'
    >>> rows_left_out_note(3, hint="drop that objective to include them")
    '3 rows are left out because a chosen objective is missing for them; drop that objective to include them.'
    >>> rows_left_out_note(1, missing=[("Acc@1", 1), ("Acc@5", 1)])
    "1 row is left out because a chosen objective is missing for it: 'Acc@1' (1 row), 'Acc@5' (1 row); drop those objectives to include it."
    >>> rows_left_out_note(3, missing=[("Model Size (GB)", 3)])
    "3 rows are left out because a chosen objective is missing for them: 'Model Size (GB)'; drop it to include them."
    """
    one = n_missing == 1
    missing = [(name, int(k)) for name, k in missing if k]
    text = (f"{n_missing} {'row is' if one else 'rows are'} left out because a chosen objective "
            f"is missing for {'it' if one else 'them'}")
    if missing:
        text += ": " + ", ".join(f"{name!r}" + (f" ({k} {'row' if k == 1 else 'rows'})"
                                                if len(missing) > 1 else "")
                                 for name, k in missing[:4]) + (
            f" and {len(missing) - 4} more" if len(missing) > 4 else "")
        hint = f"drop {'it' if len(missing) == 1 else 'those objectives'} to include them"
    if hint:
        hint = hint.replace("include them", "include it") if one else hint
        return f"{text}; {hint}."
    return f"{text}."


def missing_counts(table: EvalTable, names, rows=None) -> list[tuple[str, int]]:
    """``(objective, rows without a value)`` for each of ``names`` missing somewhere (among
    the rows of the mask ``rows``, default all), the most missing first (ties: the order
    given)."""
    names = list(names)
    raw = table.matrix(names)
    counts = np.isnan(raw if rows is None else raw[np.asarray(rows, dtype=bool)]).sum(axis=0)
    order = sorted((k for k in range(len(counts)) if counts[k]), key=lambda k: -counts[k])
    return [(names[k], int(counts[k])) for k in order]


def resolve_objectives(table: EvalTable, objectives, *, at_least: int = 1
                       ) -> tuple[list[str], list[str]]:
    """Names and directions of the chosen objectives (default: every objective of the table).

    Parameters
    ----------
    objectives : None or sequence of str or (str, direction)
        A name alone takes the table's direction for it.
    at_least : int
        The fewest objectives the view can work with.

    Raises
    ------
    InvalidInputError
        If a name is not an objective of the table, a direction is not min/max, a name is
        listed twice, or fewer than ``at_least`` are chosen.
    """
    if objectives is None:
        names, directions = list(table.objective_names), list(table.directions)
    else:
        names, directions = [], []
        for item in objectives:
            name, direction = (item, None) if isinstance(item, str) else tuple(item)
            direction = direction or table.objective(name).direction
            if direction not in ("min", "max"):
                raise InvalidInputError(f"objective {name!r}: direction must be min or max")
            table.objective(name)
            names.append(name)
            directions.append(direction)
    if len(names) < at_least:
        if at_least == 1:
            raise InvalidInputError("choose at least one objective")
        raise InvalidInputError(f"choose at least {at_least} objectives: a front needs two")
    if len(set(names)) != len(names):
        raise InvalidInputError("an objective is listed twice")
    return names, directions
