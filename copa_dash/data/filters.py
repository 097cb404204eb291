"""Row filters (constraints) on raw values: ranges, value sets and ``COL>=X`` conditions.

The CLI's ``--where`` options, the explorer's range sliders and set pickers, and the
manifest's default filters all become one :class:`RowFilter`, whose ``mask`` says which
rows pass.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core.errors import InvalidInputError
from ..core.numbers import read_number

_OPERATORS = ("<=", ">=", "==", "!=", "<", ">")
# the first operator of the text ends the column; ``=`` is read as ``==``
_OPERATOR = re.compile(r"<=|>=|!=|==|=|<|>")


@dataclass(frozen=True)
class ConditionText:
    """``COLUMN OP VALUE`` as typed, split: the one reading of the condition syntax that the
    CLI's ``--where``, the notebook and the explorer's table search share.

    Attributes
    ----------
    column : str
        The text before the first operator, stripped (not yet checked against a table).
    operator : str
        One of ``< <= > >= == !=`` (a typed ``=`` is ``==``).
    value : str
        The text after the operator, stripped, without surrounding quotes.
    number : float or None
        ``value`` as a number (:func:`~copa_dash.core.numbers.read_number`), None if it is not one.
    """

    column: str
    operator: str
    value: str
    number: float | None


def split_condition(text: str) -> ConditionText | None:
    """Split ``"COL>=X"`` at its first operator; None when it has none or no column before it.

    Examples
    --------
    >>> split_condition(" cost = 2 ")
    ConditionText(column='cost', operator='==', value='2', number=2.0)
    >>> split_condition("type != 'chat'").value, split_condition("<= 3")
    ('chat', None)
    """
    text = text or ""
    found = _OPERATOR.search(text)
    if found is None or not text[:found.start()].strip():
        return None
    value = text[found.end():].strip().strip("'\"")
    operator = "==" if found.group() == "=" else found.group()
    return ConditionText(text[:found.start()].strip(), operator, value, read_number(value))


@dataclass(frozen=True)
class Condition:
    """One comparison ``column op value``; ``value`` is a float or a string."""

    column: str
    operator: str
    value: float | str

    def mask(self, frame: pd.DataFrame) -> np.ndarray:
        """Rows of ``frame`` that satisfy the comparison (missing values never do)."""
        series = frame[self.column]
        if isinstance(self.value, float):
            values = pd.to_numeric(series, errors="coerce").to_numpy(dtype=float)
            with np.errstate(invalid="ignore"):
                result = compare(values, self.operator, self.value)
            return result & ~np.isnan(values)
        if self.operator in ("==", "!="):
            wanted = _as_text(self.value)
            equal = np.array([_as_text(t) == wanted for t in series.to_numpy(dtype=object)],
                             dtype=bool)
            present = series.notna().to_numpy()
            return (equal if self.operator == "==" else ~equal) & present
        raise InvalidInputError(
            f"filter on '{self.column}': '{self.operator}' needs a number, not {self.value!r}")


def compare(values, operator: str, value: float):
    """``values OP value`` elementwise, for an array or a Series (NaN passes only ``!=``)."""
    if operator == "<":
        return values < value
    if operator == "<=":
        return values <= value
    if operator == ">":
        return values > value
    if operator == ">=":
        return values >= value
    if operator == "==":
        return values == value
    return values != value


def parse_condition(text: str, columns) -> Condition:
    """Parse ``"COL>=X"`` (operators ``< <= > >= == !=``, ``=`` for ``==``) against the known
    ``columns``.

    Raises
    ------
    InvalidInputError
        If the text has no operator, names an unknown column, or compares a string
        with ``<``-like operators.

    Examples
    --------
    >>> parse_condition("score >= 0.5", ["score"])
    Condition(column='score', operator='>=', value=0.5)
    """
    split = split_condition(text)
    if split is None:
        raise InvalidInputError(
            f"cannot read the filter {text!r}: write COLUMN OP VALUE with OP one of "
            + ", ".join(_OPERATORS))
    column, operator = split.column, split.operator
    if column not in columns:
        raise InvalidInputError(
            f"filter {text!r} names the column '{column}', which the table does not have; "
            f"columns: {', '.join(map(str, columns))}")
    value: float | str = split.number if split.number is not None else split.value
    if isinstance(value, str) and operator not in ("==", "!="):
        raise InvalidInputError(
            f"filter {text!r}: '{operator}' needs a number, not {split.value!r}")
    return Condition(column, operator, value)


@dataclass(frozen=True)
class RowFilter:
    """Constraints on raw values: every condition, range and value set must hold.

    Attributes
    ----------
    conditions : tuple of Condition
        Free comparisons (from ``--where``).
    ranges : dict
        ``{column: (low, high)}``, inclusive; either bound may be None.
    sets : dict
        ``{column: allowed values}``; a row passes when its value (as text) is one of them.
    """

    conditions: tuple[Condition, ...] = ()
    ranges: dict = field(default_factory=dict)
    sets: dict = field(default_factory=dict)

    @property
    def is_empty(self) -> bool:
        """True when the filter lets every row through."""
        return not (self.conditions or self.ranges or self.sets)

    def columns(self) -> set[str]:
        """The columns the filter reads."""
        return {c.column for c in self.conditions} | set(self.ranges) | set(self.sets)

    def key(self) -> str:
        """A canonical text of the filter: two filters with the same key pass the same rows
        of any table (set values are compared as :meth:`mask` compares them, as text)."""
        return json.dumps({
            "conditions": [[c.column, c.operator, c.value] for c in self.conditions],
            "ranges": {k: list(v) for k, v in sorted(self.ranges.items())},
            "sets": {k: sorted({_as_text(v) for v in values})
                     for k, values in sorted(self.sets.items())},
        }, sort_keys=True, default=str)

    def mask(self, frame: pd.DataFrame) -> np.ndarray:
        """Boolean mask of the rows of ``frame`` that pass every constraint.

        Raises
        ------
        InvalidInputError
            If a constraint names a column the table does not have.
        """
        missing = sorted(self.columns() - set(frame.columns))
        if missing:
            raise InvalidInputError(
                f"a filter names column(s) the table does not have: {', '.join(missing)}")
        passed = np.ones(len(frame), dtype=bool)
        for condition in self.conditions:
            passed &= condition.mask(frame)
        for column, (low, high) in self.ranges.items():
            values = pd.to_numeric(frame[column], errors="coerce").to_numpy(dtype=float)
            with np.errstate(invalid="ignore"):
                inside = ~np.isnan(values)
                if low is not None:
                    inside &= values >= low
                if high is not None:
                    inside &= values <= high
            passed &= inside
        for column, allowed in self.sets.items():
            allowed_text = {_as_text(v) for v in allowed}
            # judge each distinct value once (a categorical column has few)
            codes, distinct = pd.factorize(frame[column], use_na_sentinel=False)
            allowed_distinct = np.array([_as_text(v) in allowed_text for v in distinct], dtype=bool)
            passed &= allowed_distinct[codes] if len(distinct) else np.zeros(len(frame), bool)
        return passed


def filter_from_view(filters: dict) -> RowFilter:
    """A manifest default view's filters as a :class:`RowFilter`.

    Parameters
    ----------
    filters : dict
        ``{column: {"min": low, "max": high}}`` (either bound may be missing: a range) or
        ``{column: [values]}`` (a value set), as ``DefaultView.filters`` holds them.

    Examples
    --------
    >>> f = filter_from_view({"params_b": {"max": 10}, "type": ["chat"]})
    >>> f.ranges, f.sets
    ({'params_b': (None, 10)}, {'type': ['chat']})
    """
    ranges, sets = {}, {}
    for column, spec in filters.items():
        if isinstance(spec, dict):
            ranges[column] = (spec.get("min"), spec.get("max"))
        else:
            sets[column] = list(spec)
    return RowFilter(ranges=ranges, sets=sets)


def _as_text(value) -> str:
    """Canonical text of a cell or an allowed value, so True, 'True' and 'true' agree."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    text = str(value)
    return text.lower() if text.lower() in ("true", "false") else text


def filter_from_where(texts, columns) -> RowFilter:
    """Build a :class:`RowFilter` from ``--where`` texts."""
    return RowFilter(conditions=tuple(parse_condition(t, columns) for t in texts or ()))


def value_sets_from_in(texts, columns) -> dict:
    """Build value sets ``{column: [values]}`` from ``--in "COL=A|B"`` texts.

    Raises
    ------
    InvalidInputError
        If a text has no ``=`` or no value, or names a column the table does not have.

    Examples
    --------
    >>> value_sets_from_in(["type=chat|base"], ["type"])
    {'type': ['chat', 'base']}
    """
    sets: dict = {}
    for text in texts or ():
        column, sep, values = str(text).partition("=")
        items = [v for v in values.split("|") if v != ""]
        if not sep or not column or not items:
            raise InvalidInputError(f"--in {text!r}: write COLUMN=VALUE|VALUE|...")
        if column not in columns:
            raise InvalidInputError(
                f"--in {text!r} names the column '{column}', which the table does not have; "
                f"columns: {', '.join(map(str, columns))}")
        sets[column] = items
    return sets


def value_label(value) -> str:
    """The text under which a value set shows and matches ``value``: ``True``, ``'True'``
    and ``'true'`` are all ``'true'``, so a set chosen on one page selects the same rows, and
    shows as chosen, on every other.

    Examples
    --------
    >>> value_label("True"), value_label(True), value_label("chat")
    ('true', 'true', 'chat')
    """
    return _as_text(value)
