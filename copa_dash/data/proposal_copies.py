"""The words for the "(2)", "(3)", ... a row name gets when it comes back.

A table of configurations names its rows ``name · config``; when one pair is on several rows
(the same set-up on other tasks, or runs no column tells apart) the later copies become
``a · 1 (2)``, ``a · 1 (3)`` (:func:`~copa_dash.data.proposal.prepare_frame`), so every row
keeps a name of its own. A newcomer read ``framework · multiclass (7)`` as a setting or a
score (issue 33): :func:`copies_sentence` says what the number is, on the Upload page under
the Id picker and in ``copa-dash inspect``.
"""

from __future__ import annotations

from collections import Counter

import pandas as pd

from .cell_parsing import id_values

__all__ = ["config_labels", "copies_sentence"]


def config_labels(frame: pd.DataFrame, name: str, config: str, seed: str | None = None,
                  *, only_repeated: bool = False) -> pd.Series:
    """The row names ``name · config`` (`` · seed s``) before copies are numbered.

    ``only_repeated``: a name on one row keeps it alone (an id column with a few repeated
    names, which only those get the config of).
    """
    names = id_values(frame[name]).fillna("?")
    labels = names + " · " + id_values(frame[config]).fillna("?")
    if seed is not None:
        labels = labels + f" · {seed} " + id_values(frame[seed]).fillna("?")
    return labels.where(names.duplicated(keep=False), names) if only_repeated else labels


def copies_sentence(labels) -> str:
    """A sentence saying which row names come back and what their "(2)", "(3)" mean, or ""
    when every row's name is its own.

    Examples
    --------
    >>> copies_sentence(["a · 1", "a · 2", "a · 1", "a · 1"])
    " 1 name is on more than one row ('a · 1' on 3 rows: the name and its config do not tell those rows apart, perhaps other tasks, repeated runs or another setting); the later copies are called 'a · 1 (2)', 'a · 1 (3)', ...: the number in brackets counts that name's rows in the order of the file, it is not a setting or a score."
    >>> copies_sentence(["a · 1", "a · 2"])
    ''
    """
    counts = Counter(labels)
    repeated = [label for label in dict.fromkeys(labels) if counts[label] > 1]
    if not repeated:
        return ""
    first = repeated[0]
    many = len(repeated) > 1
    return (f" {len(repeated)} name{'s are' if many else ' is'} on more than one row "
            f"('{first}' on {counts[first]} rows: the name and its config do not tell those "
            f"rows apart, perhaps other tasks, repeated runs or another setting); the later copies are called '{first} (2)'"
            + (f", '{first} (3)', ...:" if counts[first] > 2 or many else ":")
            + " the number in brackets counts that name's rows in the order of the file, it "
            "is not a setting or a score.")
