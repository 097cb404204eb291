"""Which objectives a view uses: names and directions, checked against the table."""

from __future__ import annotations

from ..core.errors import InvalidInputError
from ..data.schema import EvalTable

# the one wording of the most common refusal (explorer, upload, systems): pages and services share it
TWO_OBJECTIVES = "choose at least two objectives: a Pareto front needs something to trade off"


def rows_left_out_note(n_missing: int, *, hint: str = "") -> str:
    """The one wording of "rows without a chosen objective are left out" (explorer, rankings,
    systems), with the count's grammar right: "1 row is left out", "3 rows are left out".

    >>> rows_left_out_note(1)
    '1 row is left out because a chosen objective is missing for it.'
    >>> rows_left_out_note(3, hint="drop that objective to include them")
    '3 rows are left out because a chosen objective is missing for them; drop that objective to include them.'
    """
    one = n_missing == 1
    text = (f"{n_missing} {'row is' if one else 'rows are'} left out because a chosen objective "
            f"is missing for {'it' if one else 'them'}")
    if hint:
        hint = hint.replace("include them", "include it") if one else hint
        return f"{text}; {hint}."
    return f"{text}."


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
