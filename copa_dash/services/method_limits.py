"""Why a normalisation cannot run on a view, in plain words.

The core decides that a method cannot run and raises
:class:`~copa_dash.core.errors.MethodNotApplicableError`, naming the column and the row by
index; this module turns that into a sentence with the objective's name and the row's id,
the words the explorer's compare panel, the decision report, a pick by the method
(``selection.scores``: Explore, ``copa-dash select``, the notebook) and a Rankings criterion
show. Nothing here guesses: a method is said not to run only when the core refused it.
"""

from __future__ import annotations

from ..core.errors import InvalidInputError, MethodNotApplicableError

#: the method's own term, and what it does in a few plain words
PLAIN_NAMES = {
    "copa": "COPA (ranks each objective, then a weighted p-norm of the ranks)",
    "sum": "Sum (weighted sum of the raw values)",
    "saw": "SAW (weighted sum of each value's ratio to its objective's best)",
    "ahp": "AHP (pairwise ratios of the values, weighted)",
    "delta": "Delta (distance to the best value of each objective, relative to it)",
    "norm": "norm (each objective scaled to [0, 1] between its best and worst value)",
    "maxnorm": "max-normalisation (each value divided by its objective's best value)",
    "pnorm": "the usual weighted p-norm of the ranks",
}

#: the method a caller asked for, as the core names the step that refused it
_DIVIDES = {"saw": "SAW", "ahp": "AHP", "maxnorm": "Max-normalisation"}


def why_not(error: InvalidInputError, method: str, objectives, ids) -> str:
    """The reason ``method`` cannot run, for a person who knows the table, not the code.

    Parameters
    ----------
    error : InvalidInputError
        What the core raised; a :class:`MethodNotApplicableError` is reworded with the
        objective's name and the row's id, any other message is passed on as it is.
    method : str
        The method the user asked for ("saw", "ahp", "delta", ...).
    objectives : sequence of str
        The objectives' names, in the columns' order the core saw.
    ids : sequence
        The rows' ids, in the rows' order the core saw.

    Examples
    --------
    >>> from copa_dash.core.errors import MethodNotApplicableError
    >>> e = MethodNotApplicableError("...", method="maxnorm", reason="not_positive", column=1,
    ...                              row=0, value=0.0, n_rows=3)
    >>> why_not(e, "saw", ["acc", "cost"], ["m1", "m2"])  # doctest: +NORMALIZE_WHITESPACE
    "SAW works with ratios of values (each against its objective's best), so it needs values
    above 0; cost is 0 for m1 and 2 other rows."
    """
    if not isinstance(error, MethodNotApplicableError):
        return str(error)
    name = str(objectives[error.column])
    others = [str(objectives[k]) for k in error.columns if k != error.column]
    if error.reason == "not_positive":
        who = _DIVIDES.get(method, _DIVIDES.get(error.method, method))
        rows = f" and {error.n_rows - 1} other row{'s' if error.n_rows > 2 else ''}" \
            if error.n_rows > 1 else ""
        also = f" {_and(others)} {'has' if len(others) == 1 else 'have'} values of 0 or " \
            "below too." if others else ""
        return (f"{who} works with ratios of values (each against its objective's best), so "
                f"it needs values above 0; {name} is {error.value:g} for "
                f"{ids[error.row]}{rows}.{also}")
    if error.reason == "zero_ideal":
        where = "its best value" if error.row is None else f"the value of {ids[error.row]}"
        names = _and([name, *others])
        return (f"Delta divides by {where} in each objective, and that is 0 for {names}, "
                "so Delta is undefined here.")
    return str(error)


def _and(names) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def too_many_rows(method: str, limit: int, n_rows: int) -> str:
    """Why a method that compares every pair of rows is skipped on a big view."""
    return (f"{_DIVIDES.get(method, method)} compares every pair of rows, which takes too "
            f"long above {limit:,} rows; this table has {n_rows:,} with every chosen objective "
            "(constraints do not shrink that: every row takes part in the normalisation).")


__all__ = ["PLAIN_NAMES", "too_many_rows", "why_not"]
