"""Runs of a system averaged into one row per system (the upload page's second choice).

A table with one row per run (``system`` + ``seed``) can be analysed as it is (the systems
page compares systems over their runs) or, when the user asks, with one row per system:
each objective is the mean of the system's runs (missing values left out), a column that
is constant within every system is kept, and a column that varies (seed, run id, ...) is
dropped. The number of runs is kept in a column ``runs``.
"""

from __future__ import annotations

import pandas as pd

from ..core.errors import InvalidInputError
from .cell_parsing import id_values
from .schema import Roles


def average_runs(frame: pd.DataFrame, roles: Roles, /) -> tuple[pd.DataFrame, Roles, str]:
    """One row per ``roles.system``: objectives averaged, constant columns kept.

    Returns
    -------
    (frame, roles, note)
        The averaged frame (system names as the id), its roles (no system or seed), and a
        sentence saying what was averaged and dropped.

    Raises
    ------
    InvalidInputError
        If ``roles`` has no system column.

    Examples
    --------
    >>> from copa_dash.data.schema import Objective
    >>> f = pd.DataFrame({"m": ["a", "a", "b"], "seed": [0, 1, 0], "acc": [0.5, 0.7, 0.9]})
    >>> out, r, _ = average_runs(f, Roles("row", (Objective("acc", "max"),), system="m",
    ...                                    seed="seed"))
    >>> out.to_dict("list"), r.id
    ({'m': ['a', 'b'], 'acc': [0.6, 0.9], 'runs': [2, 1]}, 'm')
    """
    if roles.system is None:
        raise InvalidInputError("averaging runs needs a system column: say which column "
                                "names the model of each run")
    key = id_values(frame[roles.system])
    groups = frame.groupby(key, sort=False, dropna=False)
    objectives = list(roles.objective_names)
    out = {roles.system: list(groups.groups)}
    kept, dropped = [], []
    for column in frame.columns:
        if column == roles.system or column == roles.id and column not in frame.columns:
            continue
        if column in objectives:
            out[column] = groups[column].mean().to_numpy()
        elif column != roles.id and (groups[column].nunique(dropna=False) <= 1).all():
            out[column] = groups[column].first().to_numpy()
            kept.append(column)
        else:
            dropped.append(column)
    out["runs"] = groups.size().to_numpy()
    averaged = pd.DataFrame(out)
    new_roles = Roles(id=roles.system, objectives=roles.objectives,
                      **{r: getattr(roles, r) for r in ("task", "split", "config", "budget")
                         if getattr(roles, r) in kept},
                      metadata=tuple(m for m in (*roles.metadata, "runs") if m in averaged))
    shown = ", ".join(map(repr, [d for d in dropped if d != roles.id][:5]))
    note = (f"Averaged the runs: {len(frame)} rows -> {len(averaged)} systems, each objective "
            f"the mean over the system's runs (the column 'runs' counts them)"
            + (f"; dropped columns that vary within a system: {shown}" if shown else "") + ".")
    return averaged, new_roles, note
