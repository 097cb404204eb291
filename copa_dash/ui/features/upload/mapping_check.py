"""What a mapping of columns to roles allows: the Roles it saves as, the objectives still
without a direction, and the live check shown above "Save and explore"."""

from __future__ import annotations

from dash import html

from copa_dash.core.errors import InvalidInputError
from copa_dash.services.inputs import Objective, Roles
from copa_dash.services.objectives import TWO_OBJECTIVES
from copa_dash.services.uploads import MIN_OBJECTIVES
from copa_dash.ui.common.alerts import alert
from copa_dash.ui.common.messages import two_objectives
from copa_dash.ui.features.upload.role_table import FIND_PLACEHOLDER, PAGE_SIZE

SINGLE_ROLES = ("system", "seed", "task", "split", "config", "budget")


def roles_from_mapping(id_column, columns, roles, directions) -> Roles:
    """The user's mapping as Roles.

    Raises
    ------
    InvalidInputError
        If no objective is chosen or a single-column role is given to two columns.
    """
    objectives, metadata, single, undecided = [], [], {}, []
    for column, role, direction in zip(columns, roles, directions):
        if column == id_column or role == "ignore":
            continue
        if role == "objective" and direction is None:
            undecided.append(column)
        elif role == "objective":
            objectives.append(Objective(column, direction))
        elif role == "metadata":
            metadata.append(column)
        elif role in SINGLE_ROLES:
            if role in single:
                raise InvalidInputError(
                    f"two columns have the role '{role}' ({single[role]} and {column}): keep one")
            single[role] = column
    if undecided:
        raise InvalidInputError(
            f"choose min or max for {', '.join(map(repr, undecided))} (lower or higher is "
            f"better?), or make {'it' if len(undecided) == 1 else 'them'} metadata. Nothing "
            "was saved.")
    if not objectives:
        raise InvalidInputError(
            f"{TWO_OBJECTIVES}. No column has the role 'objective' now. Nothing was saved.")
    return Roles(id=id_column, objectives=tuple(objectives), metadata=tuple(metadata), **single)


def undecided_objectives(id_column, columns, roles, directions=None) -> list:
    """The objectives of the mapping with no direction yet (Save stays off while any is)."""
    return [c for c, r, d in zip(columns, roles, directions or ["max"] * len(columns))
            if r == "objective" and c != id_column and d is None]


# the role tables show a page of rows at a time (role_table.PAGE_SIZE): a column named here may
# be on another page
_FIND_HINT = (" A column not on the page shown is found by typing its name in the box "
              f"'{FIND_PLACEHOLDER}' above its table.")


def objectives_check(id_column, columns, roles, directions=None) -> html.Div:
    """What the mapping's objectives allow, shown live above the save button."""
    chosen = [c for c, r in zip(columns, roles) if r == "objective" and c != id_column]
    open_ = undecided_objectives(id_column, columns, roles, directions)
    if open_:
        return alert(f"Choose min or max for {', '.join(map(repr, open_))}: no word or unit in "
                     f"the name says whether lower or higher is better (or make "
                     f"{'it' if len(open_) == 1 else 'them'} metadata). Save is off until "
                     "then." + (_FIND_HINT if len(columns) > PAGE_SIZE else ""))
    if len(chosen) >= MIN_OBJECTIVES:
        return alert(named_objectives(chosen), "info")
    now = f"only {chosen[0]!r} is one now" if chosen else "none is chosen"
    return alert(f"{two_objectives(now)} Set another numeric column's role to objective before saving.")


# the live check names this many objectives; past it, a few and the rest folded (a wide table
# taken whole listed 99 names in one paragraph above the save button)
NAMES_SHOWN = 8


def named_objectives(chosen: list) -> str | list:
    """The objectives chosen, counted and named: all of them when few, else the first
    ``NAMES_SHOWN`` and the others in a folded ``html.Details``.

    Examples
    --------
    >>> named_objectives(["score", "loss"])
    '2 objectives: score, loss.'
    >>> head, folded = named_objectives([f"g{i}" for i in range(20)])
    >>> head
    '20 objectives: g0, g1, g2, g3, g4, g5, g6, g7, '
    >>> folded.children[0].children, folded.children[1].children
    ('and 12 more', 'g8, g9, g10, g11, g12, g13, g14, g15, g16, g17, g18, g19.')
    """
    count = f"{len(chosen)} objectives: "
    if len(chosen) <= NAMES_SHOWN:
        return f"{count}{', '.join(chosen)}."
    rest = chosen[NAMES_SHOWN:]
    return [count + ", ".join(chosen[:NAMES_SHOWN]) + ", ",
            html.Details(className="folded-names", children=[
                html.Summary(f"and {len(rest)} more"), html.Span(", ".join(rest) + ".")])]


def check_and_lock(id_column, columns, roles, directions) -> tuple:
    """The live check above the save button and whether the button is off (an objective
    without a direction keeps it off)."""
    return (objectives_check(id_column, columns, roles, directions),
            bool(undecided_objectives(id_column, columns, roles, directions)))
