"""A read table with the roles the options leave open filled in from the upload page's proposal.

One function behind ``copa-dash COMMAND TABLE`` and the notebook's functions given a
DataFrame: without an id the rows are named as the upload page names them; without
objectives the proposed objectives are used, and a proposed objective with no direction
stops it with a message naming the column and what decides it (never a pick from a silent
guess). Explicit choices are never second-guessed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import InvalidInputError
from .guessed_roles import refuse_undecided
from .io import build_eval_table
from .proposal import Proposal, prepare_frame, propose
from .read_log import TableRead
from .schema import EvalTable, Objective, Roles

SINGLE = ("system", "seed", "task", "split", "config", "budget")


@dataclass(frozen=True)
class GuessedTable:
    """The table, the proposal it was guessed from, and what was guessed, in words."""

    table: EvalTable
    proposal: Proposal
    said: tuple[str, ...]


def guessed_table(read: TableRead, /, *, id_column: str | None = None, objectives=(),
                  single: dict | None = None, ignore=(), how: str = "cli",
                  directions=()) -> GuessedTable:
    """Build the :class:`EvalTable` of ``read`` with the given roles, the rest guessed.

    Parameters
    ----------
    read : TableRead
        From :func:`~copa_dash.data.io.read_table_report` or
        :func:`~copa_dash.data.io.read_frame_report`.
    id_column : str, optional
        The id; default the proposed id, or rows named as on the upload page.
    objectives : sequence of (name, direction)
        Default: the proposed objectives that have a direction.
    single : dict, optional
        Explicit system/seed/task/split/config/budget columns.
    ignore : sequence of str
        Guessed objectives to leave out (``--ignore``).
    directions : sequence of (name, direction)
        Directions that decide or change those of the guessed objectives, which are all kept
        (``--direction``); a named column that was not guessed as an objective becomes one.
        Ignored when ``objectives`` is given (that list is the whole choice).
    how : {"cli", "criteria", "python"}
        Whose words a refusal gives the fix in (:func:`~copa_dash.data.guessed_roles.refuse_undecided`).

    Raises
    ------
    InvalidInputError
        As :func:`~copa_dash.data.io.build_eval_table`; and, when ``objectives`` is empty,
        when a guessed objective has no direction (never a pick from a silent guess: the
        message names the columns and what decides them).

    Examples
    --------
    >>> import pandas as pd
    >>> from copa_dash.data.io import read_frame_report
    >>> read = read_frame_report(pd.DataFrame({"model": ["a", "b"], "acc": [0.5, 0.7],
    ...                                        "Params": ["61.1M", "1.2B"]}))
    >>> g = guessed_table(read)
    >>> g.table.objective_names, g.table.frame["Params"].tolist()
    (('acc', 'Params'), [61.1, 1200.0])
    """
    proposal = propose(read.frame, units=read.units, labels=read.labels)
    said = []
    if objectives:
        chosen = tuple(Objective(n, d, read.units.get(n), read.labels.get(n))
                       for n, d in objectives)
    else:
        decided = _checked_directions(proposal, directions, how)
        refuse_undecided(proposal, ignore=tuple(ignore) + tuple(decided), how=how,
                         frame=read.frame)
        chosen = tuple(o for o in proposal.roles(directions=decided,
                                                 skip_undecided=True).objectives
                       if o.name not in set(ignore))
        named = {o.name for o in chosen}
        chosen += tuple(Objective(n, d, read.units.get(n), read.labels.get(n))
                        for n, d in decided.items() if n not in named and n not in set(ignore))
        said.append("objectives " + ", ".join(f"{o.display} ({o.direction})" for o in chosen))
        if ignore:
            said.append(f"left out (--ignore): {', '.join(ignore)}")
    if id_column is None:
        id_column = proposal.id if proposal.id is not None else proposal.row_ids
        said.insert(0, f"rows named by {id_column!r}" if proposal.id is not None else
                    f"rows named as on the upload page ({proposal.row_naming})")
    names = {o.name for o in chosen} | {id_column}
    guessed_single = {g.role: g.name for g in proposal.columns
                      if g.role in SINGLE and g.name not in names}
    if proposal.id is None and id_column == proposal.row_ids:
        guessed_single = {**guessed_single, **dict(single or {})}
    elif id_column == proposal.id and proposal.configurations and "config" in guessed_single:
        # repeated names told apart by their setting, as the upload page names them
        guessed_single = {"config": guessed_single["config"], **dict(single or {})}
    else:
        guessed_single = dict(single or {})
    roles = Roles(id=id_column, objectives=chosen, **guessed_single)
    frame = prepare_frame(read.frame, proposal, roles)
    return GuessedTable(build_eval_table(frame, roles), proposal, tuple(said))


def _checked_directions(proposal: Proposal, directions, how: str) -> dict:
    """``directions`` as a dict, each naming a column of the table."""
    decided = dict(directions or ())
    columns = [g.name for g in proposal.columns]
    unknown = [n for n in decided if n not in columns]
    if unknown:
        flag = "--direction" if how == "cli" else "directions="
        raise InvalidInputError(f"{flag} {unknown[0]!r}: no such column; the columns are "
                                + ", ".join(map(repr, columns[:12]))
                                + (" ..." if len(columns) > 12 else ""))
    return decided
