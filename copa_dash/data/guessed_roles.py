"""Never a pick from a silent guess: guessed objectives with no direction are refused.

The upload page keeps Save off while an objective has no direction; every other way in -
the analysis commands given a TABLE without ``--objective``, ``copa_dash.select(df)``
without ``objectives`` - refuses the table the same way, naming the columns and what
decides them, in the caller's own words (command-line flags or keyword arguments).
"""

from __future__ import annotations

from ..core.errors import InvalidInputError

_FIXES = {
    "cli": ("--direction {q}:max (or :min) for each to use it with the other guesses, or "
            "--ignore {q} to leave it out ('copa-dash inspect TABLE' lists the guesses; "
            "--objective COL:DIR, repeated, names every objective yourself)"),
    "criteria": ("--criterion {q}:max (or :min) for each criterion to use: given criteria "
                 "replace the guessed ones"),
    "python": ("objectives={{{r}: 'max', ...}} naming every objective with its direction "
               "(leave a column out by not naming it)"),
}


def _shell(name: str) -> str:
    return f"'{name}'" if any(ch in name for ch in " ()'\"$*&;|<>[]{}#") else name


def _cells(frame, column: str) -> str:
    if frame is None or column not in frame.columns:
        return ""
    values = frame[column].dropna().head(3).tolist()
    more = ", ..." if frame[column].notna().sum() > 3 else ""
    return " (" + ", ".join(f"{v:g}" if isinstance(v, float) else str(v)
                            for v in values) + more + ")"


def refuse_undecided(proposal, *, ignore=(), how: str = "cli", frame=None) -> None:
    """Raise when a guessed objective of ``proposal`` has no direction and ``ignore`` does
    not name it.

    Parameters
    ----------
    proposal : Proposal
        From :func:`~copa_dash.data.proposal.propose`.
    ignore : sequence of str
        Columns the user leaves out.
    how : {"cli", "criteria", "python"}
        Whose words the fix is given in: the analysis commands' flags, the poset commands'
        ``--criterion``, or keyword arguments.
    frame : DataFrame, optional
        The table: the message then shows the first cells of each column.

    Raises
    ------
    InvalidInputError
        Naming every such column, and the flags or arguments that decide it; or naming an
        ``ignore`` entry that is not a column.

    Examples
    --------
    >>> import pandas as pd
    >>> from copa_dash.data.proposal import propose
    >>> p = propose(pd.DataFrame({"m": ["a", "b"], "recall_x": [1, 2], "hubness": [3, 1]}))
    >>> refuse_undecided(p, ignore=["hubness"])
    >>> try:
    ...     refuse_undecided(p)
    ... except InvalidInputError as error:
    ...     print(str(error).split(':')[0])
    no direction for 'hubness'
    """
    names = {g.name for g in proposal.columns}
    unknown = [c for c in ignore if c not in names]
    if unknown:
        flag = "--ignore" if how == "cli" else "ignore="
        raise InvalidInputError(f"{flag} {unknown[0]!r}: no such column; the columns are "
                                + ", ".join(repr(g.name) for g in proposal.columns[:12])
                                + (" ..." if len(proposal.columns) > 12 else ""))
    left = [c for c in proposal.undecided if c not in set(ignore)]
    if not left:
        return
    shown = ", ".join(repr(c) + _cells(frame, c) for c in left[:8]) + (
        " ..." if len(left) > 8 else "")
    where = "its name or unit" if len(left) == 1 else "their names or units"
    raise InvalidInputError(
        f"no direction for {shown}: nothing in {where} says whether lower or higher is "
        "better, and no pick is made from a guess. Give "
        + _FIXES[how].format(q=_shell(left[0]), r=repr(left[0])))
