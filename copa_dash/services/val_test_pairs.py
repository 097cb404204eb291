"""Pairing the validation and test values of the same configurations.

Two layouts: paired columns ``val_<metric>`` / ``test_<metric>`` on one row per
configuration, or a long layout with a split column and one row per configuration and
split (the same id on both rows). :func:`pair_runs` turns either into a
:class:`PairedRuns` with (N, K) validation and test matrices and each row's system,
budget and seed labels, ready for :mod:`copa_dash.services.generalization`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from ..core.errors import InvalidInputError
from ..core.hypervolume import default_reference_point
from ..core.validate import check_ref_point
from ..data.cell_parsing import objective_values

VAL_PREFIX, TEST_PREFIX = "val_", "test_"
VAL_SPLITS = ("val", "valid", "validation", "dev", "development")
TEST_SPLITS = ("test", "testing")
ROLE_FIELDS = ("system", "budget", "seed")


@dataclass(frozen=True)
class GapSpec:
    """What to pair and how: the id column, metrics with directions, layout and roles.

    ``split`` names the split column of a long layout (None: paired ``val_``/``test_``
    columns); ``split_values`` optionally gives its (validation, test) values; ``ref`` is
    the reference point in the metrics' own directions (None: nadir + 10% of the range of
    every validation and test value of the table).
    """

    id: str
    metrics: tuple[str, ...]
    directions: tuple[str, ...]
    split: str | None = None
    system: str | None = None
    budget: str | None = None
    seed: str | None = None
    ref: tuple[float, ...] | None = None
    split_values: tuple[str, str] | None = None

    def cache_arguments(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(self).items()}


@dataclass(frozen=True)
class PairedRuns:
    """Validation and test values of the same N configurations, with their group labels."""

    ids: np.ndarray          # (N,) object
    val: np.ndarray          # (N, K) float64
    test: np.ndarray         # (N, K) float64
    system: np.ndarray       # (N,) object: label or None
    budget: np.ndarray
    seed: np.ndarray
    n_dropped: int           # configurations left out for a missing value or a missing split


def label(value):
    """A group value as a plain JSON value: integral numbers as int, NaN as None."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return None
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        number = float(value)
        return int(number) if number.is_integer() else number
    return str(value)


def label_text(value) -> str:
    """How a label is written in a URL or a menu ("" for no value)."""
    return "" if value is None else str(label(value))


def label_order(value) -> tuple:
    """Sort key: numbers by value, then text, then no value."""
    if value is None:
        return (2, 0.0, "")
    if isinstance(value, (int, float)):
        return (0, float(value), "")
    return (1, 0.0, str(value))


def paired_metric_names(columns) -> tuple[str, ...]:
    """Metrics ``m`` for which both ``val_m`` and ``test_m`` are columns, in column order.

    Examples
    --------
    >>> paired_metric_names(["id", "val_recall", "test_recall", "val_f1", "test_acc"])
    ('recall',)
    """
    names = [str(c) for c in columns]
    present = set(names)
    return tuple(c[len(VAL_PREFIX):] for c in names
                 if c.startswith(VAL_PREFIX) and TEST_PREFIX + c[len(VAL_PREFIX):] in present)


def spec_from_roles(roles, columns, /, *, paired_metrics=(), metrics=None, ref=None) -> GapSpec:
    """A :class:`GapSpec` from a table's roles (system, budget, seed, split columns).

    Parameters
    ----------
    roles : copa_dash.data.schema.Roles
        With a split column, the rows of one configuration are matched by the config
        column when there is one (uploaded tables need unique ids), else by the id.
    columns : sequence of str
        The table's columns (to find ``val_``/``test_`` pairs when the manifest names none).
    paired_metrics : sequence of str
        The manifest's ``paired_metrics``; default metrics of a paired table.
    metrics : sequence of (name, direction), optional
        Metrics to use instead of the defaults.
    ref : sequence of float, optional

    Raises
    ------
    InvalidInputError
        If no metric is found or a default metric has no known direction.
    """
    if metrics:
        names = [m for m, _ in metrics]
        directions = [d for _, d in metrics]
    else:
        known = {o.name: o.direction for o in roles.objectives}
        if roles.split:
            names = list(roles.objective_names)
        else:
            names = list(paired_metrics) or list(paired_metric_names(columns))
        if not names:
            raise InvalidInputError(
                "this table has no validation/test pairs: the page sets each model's score on "
                "validation data beside its score on test data, so it needs both, as two "
                "columns per metric (val_accuracy and test_accuracy, say) or as a split column "
                "(val or test) with one row per configuration and split.")
        directions = []
        for name in names:
            direction = known.get(name) or known.get(VAL_PREFIX + name) or known.get(TEST_PREFIX + name)
            if direction is None:
                raise InvalidInputError(f"the direction of metric {name!r} is not known: "
                                        "give it as METRIC:min or METRIC:max")
            directions.append(direction)
    # In a long layout the two rows of a configuration share its config value when the
    # table has a config column (stored tables need unique ids), else its id.
    key = roles.config if roles.split and roles.config else roles.id
    return GapSpec(id=key, metrics=tuple(names), directions=tuple(directions),
                   split=roles.split, system=roles.system, budget=roles.budget, seed=roles.seed,
                   ref=None if ref is None else tuple(float(r) for r in ref))


def _numbers(frame: pd.DataFrame, column: str) -> np.ndarray:
    if column not in frame.columns:
        raise InvalidInputError(f"the table has no column {column!r}; its columns are "
                                f"{', '.join(map(str, frame.columns[:30]))}")
    values, problem = objective_values(frame[column], column=column)
    if problem:
        raise InvalidInputError(problem)
    return values.to_numpy(dtype=np.float64)


def _split_values(series: pd.Series, given) -> tuple[str, str]:
    if given is not None:
        return str(given[0]), str(given[1])
    seen = sorted({str(v) for v in series.dropna().unique()})
    val = [v for v in seen if v.strip().lower() in VAL_SPLITS]
    test = [v for v in seen if v.strip().lower() in TEST_SPLITS]
    if len(val) != 1 or len(test) != 1:
        raise InvalidInputError(
            f"the split column {series.name!r} needs one validation value (one of "
            f"{', '.join(VAL_SPLITS)}) and one test value (test); it has "
            f"{', '.join(map(repr, seen[:10])) or 'no values'}")
    return val[0], test[0]


def _long_to_paired(frame: pd.DataFrame, spec: GapSpec) -> tuple[pd.DataFrame, int]:
    """One row per id with val_/test_ columns, from one row per (id, split)."""
    if spec.split not in frame.columns:
        raise InvalidInputError(f"the table has no split column {spec.split!r}")
    val_value, test_value = _split_values(frame[spec.split], spec.split_values)
    split = frame[spec.split].astype(str)
    roles = [c for c in (getattr(spec, f) for f in ROLE_FIELDS) if c]
    halves = []
    for value, prefix in ((val_value, VAL_PREFIX), (test_value, TEST_PREFIX)):
        part = frame.loc[split == value, [spec.id, *roles, *spec.metrics]]
        ids = part[spec.id].astype(str)
        repeated = ids[ids.duplicated()].unique()
        if repeated.size:
            raise InvalidInputError(
                f"id {repeated[0]!r} appears more than once with split {value!r}: the long layout "
                "needs one row per id and split")
        halves.append(part.assign(**{spec.id: ids}).rename(
            columns={m: prefix + m for m in spec.metrics}).set_index(spec.id))
    val_half, test_half = halves
    test_half = test_half.rename(columns={c: f"__test_{c}" for c in roles})
    joined = val_half.join(test_half, how="inner")
    for column in roles:
        other = joined.pop(f"__test_{column}")
        differ = (joined[column].astype(str) != other.astype(str)).to_numpy()
        if differ.any():
            bad = joined.index[np.flatnonzero(differ)[0]]
            raise InvalidInputError(f"id {bad!r} has different {column!r} values on its validation "
                                    "and test rows")
    n_unpaired = len(val_half) + len(test_half) - 2 * len(joined)
    return joined.reset_index(), n_unpaired


def pair_runs(frame: pd.DataFrame, spec: GapSpec, /) -> PairedRuns:
    """Validation and test values of every configuration, and its system/budget/seed.

    Parameters
    ----------
    frame : pandas.DataFrame
        Paired ``val_<m>``/``test_<m>`` columns, or (``spec.split``) one row per
        configuration and split, matched by ``spec.id``. Not modified.
    spec : GapSpec

    Returns
    -------
    PairedRuns
        Rows in table order (long layout: validation rows' order); configurations with a
        missing value, or without both splits, are left out and counted in ``n_dropped``.

    Raises
    ------
    InvalidInputError
        A missing column, a non-numeric metric, a split column without one validation and
        one test value, an id repeated within a split, role values that differ between the
        two rows of a configuration, or no configuration with every value.

    Notes
    -----
    Split values are recognised without case: validation is one of ``VAL_SPLITS``, test
    one of ``TEST_SPLITS``; ``spec.split_values`` names them otherwise. O(N K).

    Examples
    --------
    >>> frame = pd.DataFrame({"id": ["a", "a", "b", "b"], "split": ["val", "test"] * 2,
    ...                       "err": [0.1, 0.2, 0.3, 0.25]})
    >>> runs = pair_runs(frame, GapSpec("id", ("err",), ("min",), split="split"))
    >>> runs.ids.tolist(), runs.val.ravel().tolist(), runs.test.ravel().tolist()
    (['a', 'b'], [0.1, 0.3], [0.2, 0.25])
    """
    if not spec.metrics:
        raise InvalidInputError("give at least one metric")
    if len(spec.directions) != len(spec.metrics):
        raise InvalidInputError("give one direction per metric")
    n_unpaired = 0
    if spec.split:
        frame, n_unpaired = _long_to_paired(frame, spec)
    if spec.id not in frame.columns:
        raise InvalidInputError(f"the table has no id column {spec.id!r}")
    val = np.column_stack([_numbers(frame, VAL_PREFIX + m) for m in spec.metrics])
    test = np.column_stack([_numbers(frame, TEST_PREFIX + m) for m in spec.metrics])
    complete = ~(np.isnan(val).any(axis=1) | np.isnan(test).any(axis=1))
    if not complete.any():
        raise InvalidInputError("no configuration has every validation and test value")
    groups = {}
    for field in ROLE_FIELDS:
        column = getattr(spec, field)
        if column and column not in frame.columns:
            raise InvalidInputError(f"the table has no {field} column {column!r}")
        values = frame[column].tolist() if column else [None] * len(frame)
        groups[field] = np.array([label(v) for v in values], dtype=object)[complete]
    return PairedRuns(ids=frame[spec.id].astype(str).to_numpy(dtype=object)[complete],
                      val=np.ascontiguousarray(val[complete]),
                      test=np.ascontiguousarray(test[complete]),
                      n_dropped=int((~complete).sum()) + n_unpaired, **groups)


def reference_point(runs: PairedRuns, spec: GapSpec) -> np.ndarray:
    """``spec.ref`` checked, or nadir + 10% of the range over every val and test value."""
    if spec.ref is not None:
        return check_ref_point(spec.ref, len(spec.metrics))
    return np.asarray(default_reference_point(np.vstack([runs.val, runs.test]),
                                              directions=list(spec.directions)), dtype=np.float64)
