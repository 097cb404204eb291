"""The schema of an evaluation table: column roles, the default view and the table itself.

A table has one row per evaluated model (or run). Each column plays at most one role:
the row ``id``, an objective (numeric, with a direction ``"min"`` or ``"max"``), one of
the single roles ``system``, ``seed``, ``task``, ``split``, ``config``, ``budget``, or
metadata (usable in filters). See ``/work/shared/METHODS.md`` (Data model).

Everything here is a frozen dataclass with ``to_dict``/``from_dict`` that round-trip
through JSON, so roles and views can live in a manifest, a URL or a cache key.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core.errors import InvalidInputError
from ..core.validate import check_p

SINGLE_ROLES = ("system", "seed", "task", "split", "config", "budget")
_DIRECTION_ALIASES = {
    "min": "min", "minimize": "min", "minimise": "min", "lower": "min",
    "max": "max", "maximize": "max", "maximise": "max", "higher": "max",
}


def _direction(value, where: str) -> str:
    if isinstance(value, str) and value.strip().lower() in _DIRECTION_ALIASES:
        return _DIRECTION_ALIASES[value.strip().lower()]
    raise InvalidInputError(f"{where} must be 'min' or 'max', but it is {value!r}")


def _name(value, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError(f"{where} must be a non-empty column name, but it is {value!r}")
    return value


def _optional_text(value, where: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise InvalidInputError(f"{where} must be a string or None, but it is {value!r}")


def _check_keys(d, allowed: Sequence[str], what: str) -> None:
    if not isinstance(d, Mapping):
        raise InvalidInputError(
            f"{what} must be a mapping (JSON object), but it is {type(d).__name__}")
    unknown = [k for k in d if k not in allowed]
    if unknown:
        raise InvalidInputError(
            f"{what} has unknown keys {', '.join(map(repr, unknown))}; "
            f"allowed keys: {', '.join(allowed)}")


@dataclass(frozen=True)
class Objective:
    """One objective column: its name, direction and optional unit and display label.

    ``direction`` accepts ``"min"``/``"max"`` (and the aliases minimize/maximise/lower/
    higher, any case) and is stored as ``"min"`` or ``"max"``.
    """

    name: str
    direction: str
    unit: str | None = None
    label: str | None = None

    def __post_init__(self):
        _name(self.name, "objective name")
        object.__setattr__(self, "direction",
                           _direction(self.direction, f"direction of objective {self.name!r}"))
        _optional_text(self.unit, f"unit of objective {self.name!r}")
        _optional_text(self.label, f"label of objective {self.name!r}")

    @property
    def display(self) -> str:
        """Label if given, else the name; with the unit in brackets when known."""
        text = self.label or self.name
        return f"{text} [{self.unit}]" if self.unit else text

    def to_dict(self) -> dict:
        """JSON-safe dict: name, direction, unit, label."""
        return {"name": self.name, "direction": self.direction,
                "unit": self.unit, "label": self.label}

    @classmethod
    def from_dict(cls, d) -> Objective:
        """Inverse of :meth:`to_dict`; ``unit`` and ``label`` may be left out."""
        _check_keys(d, ("name", "direction", "unit", "label"), "an objective")
        if "name" not in d or "direction" not in d:
            raise InvalidInputError(f"an objective needs 'name' and 'direction', got {dict(d)!r}")
        return cls(d["name"], d["direction"], d.get("unit"), d.get("label"))


@dataclass(frozen=True)
class Roles:
    """Which column plays which role.

    ``metadata`` means "the other columns worth filtering on": a metadata column that
    also has a real role (id, objective, system, ...) is dropped from it, repeats too.

    Raises
    ------
    InvalidInputError
        If there is no objective, an objective is listed twice, or one column is given
        two real roles (for example the id column is also an objective).
    """

    id: str
    objectives: tuple[Objective, ...]
    system: str | None = None
    seed: str | None = None
    task: str | None = None
    split: str | None = None
    config: str | None = None
    budget: str | None = None
    metadata: tuple[str, ...] = ()

    def __post_init__(self):
        _name(self.id, "the id column")
        objectives = tuple(o if isinstance(o, Objective) else Objective.from_dict(o)
                           for o in (self.objectives or ()))
        if not objectives:
            raise InvalidInputError("roles need at least one objective column")
        object.__setattr__(self, "objectives", objectives)
        for role in SINGLE_ROLES:
            value = getattr(self, role)
            if value is not None:
                _name(value, f"the {role} column")
        if isinstance(self.metadata, str):
            raise InvalidInputError("metadata must be a list of column names, not one string")
        metadata = tuple(dict.fromkeys(_name(m, "a metadata column") for m in self.metadata))
        object.__setattr__(self, "metadata", ())
        roled = set(self.columns)
        object.__setattr__(self, "metadata", tuple(m for m in metadata if m not in roled))
        seen: dict[str, str] = {}
        for column, role in self._assignments():
            if column in seen:
                if seen[column] == role == "objective":
                    raise InvalidInputError(f"objective {column!r} is listed twice")
                if seen[column] == role:
                    raise InvalidInputError(f"{role} column {column!r} is listed twice")
                raise InvalidInputError(
                    f"column {column!r} cannot be both the {seen[column]} and "
                    f"{'an' if role[0] in 'aeiou' else 'a'} {role} column; "
                    "give each column one role")
            seen[column] = role

    def _assignments(self):
        yield self.id, "id"
        for o in self.objectives:
            yield o.name, "objective"
        for role in SINGLE_ROLES:
            value = getattr(self, role)
            if value is not None:
                yield value, role
        for m in self.metadata:
            yield m, "metadata"

    @property
    def objective_names(self) -> tuple[str, ...]:
        """Names of the objective columns, in order."""
        return tuple(o.name for o in self.objectives)

    @property
    def columns(self) -> tuple[str, ...]:
        """Every column named in the roles: id, objectives, single roles, metadata."""
        return tuple(column for column, _ in self._assignments())

    def role_of(self, column: str) -> str | None:
        """The role of ``column`` ("id", "objective", "system", ..., "metadata") or None."""
        for name, role in self._assignments():
            if name == column:
                return role
        return None

    def to_dict(self) -> dict:
        """JSON-safe dict; :meth:`from_dict` turns it back into equal Roles."""
        out = {"id": self.id, "objectives": [o.to_dict() for o in self.objectives]}
        for role in SINGLE_ROLES:
            out[role] = getattr(self, role)
        out["metadata"] = list(self.metadata)
        return out

    @classmethod
    def from_dict(cls, d) -> Roles:
        """Inverse of :meth:`to_dict`.

        The single roles may sit at the top level or, as in ``datasets/manifest.json``,
        in a nested ``"roles"`` mapping. Unknown keys are an error (they are usually typos).
        """
        allowed = ("id", "objectives", *SINGLE_ROLES, "metadata", "roles")
        _check_keys(d, allowed, "roles")
        if "id" not in d or "objectives" not in d:
            raise InvalidInputError("roles need 'id' and 'objectives'")
        single = {role: d.get(role) for role in SINGLE_ROLES}
        nested = d.get("roles")
        if nested is not None:
            _check_keys(nested, SINGLE_ROLES, "'roles'")
            for role, value in nested.items():
                if single[role] is not None and value is not None and single[role] != value:
                    raise InvalidInputError(
                        f"the {role} column is given twice: {single[role]!r} and {value!r}")
                single[role] = single[role] if value is None else value
        objectives = d["objectives"]
        if isinstance(objectives, (str, Mapping)) or not isinstance(objectives, Sequence):
            raise InvalidInputError(
                "'objectives' must be a list of objects with name and direction")
        metadata = d.get("metadata") or ()
        if isinstance(metadata, str) or not isinstance(metadata, Sequence):
            raise InvalidInputError("'metadata' must be a list of column names")
        return cls(id=d["id"], objectives=tuple(Objective.from_dict(o) for o in objectives),
                   metadata=tuple(metadata), **single)


def _check_filters(filters) -> dict:
    """Return a deep copy of ``filters`` after checking its shape (see DefaultView)."""
    if filters is None:
        return {}
    if not isinstance(filters, Mapping):
        raise InvalidInputError("'filters' must be a mapping {column: allowed values or range}")
    out = {}
    for column, rule in filters.items():
        _name(column, "a filter column")
        if isinstance(rule, Mapping):
            _check_keys(rule, ("min", "max"), f"the range filter on {column!r}")
            bounds = {}
            for key, value in rule.items():
                if value is None:
                    bounds[key] = None
                    continue
                if isinstance(value, bool) or not isinstance(value, (int, float)) \
                        or math.isnan(value):
                    raise InvalidInputError(
                        f"'{key}' of the range filter on {column!r} must be a number, "
                        f"not {value!r}")
                bounds[key] = value
            out[column] = bounds
        elif isinstance(rule, (list, tuple)):
            for value in rule:
                if value is not None and not isinstance(value, (str, int, float, bool)):
                    raise InvalidInputError(
                        f"allowed values of the filter on {column!r} must be numbers or "
                        f"strings, not {value!r}")
            out[column] = list(rule)
        else:
            raise InvalidInputError(
                f"the filter on {column!r} must be a list of allowed values or "
                f"{{'min': x, 'max': y}}, not {rule!r}")
    return out


@dataclass(frozen=True)
class DefaultView:
    """The view a dataset opens with.

    ``objectives`` are the objectives switched on, ``focus`` a subset of them (the COPA
    focus set F), ``alpha`` in [0, 1], ``p`` in [1, inf] (the string "inf" is accepted),
    ``filters`` maps a column to a list of allowed values or to ``{"min": x, "max": y}``.
    ``filters`` is left out of the hash (a dict is not hashable).
    """

    objectives: tuple[str, ...]
    focus: tuple[str, ...] = ()
    alpha: float = 0.5
    p: float = math.inf
    filters: dict = field(default_factory=dict, hash=False)

    def __post_init__(self):
        for attr in ("objectives", "focus"):
            value = getattr(self, attr)
            if isinstance(value, str) or not isinstance(value, Sequence):
                raise InvalidInputError(f"'{attr}' must be a list of objective names")
            names = tuple(_name(v, f"an entry of '{attr}'") for v in value)
            duplicates = sorted({n for n in names if names.count(n) > 1})
            if duplicates:
                raise InvalidInputError(f"'{attr}' lists {', '.join(map(repr, duplicates))} twice")
            object.__setattr__(self, attr, names)
        if not self.objectives:
            raise InvalidInputError("'objectives' of the default view must not be empty")
        outside = [f for f in self.focus if f not in self.objectives]
        if outside:
            raise InvalidInputError(
                f"focus {', '.join(map(repr, outside))} is not among the view's objectives "
                f"({', '.join(self.objectives)})")
        try:
            alpha = float(self.alpha)
        except (TypeError, ValueError):
            raise InvalidInputError(
                f"'alpha' must be a number in [0, 1], not {self.alpha!r}") from None
        if not 0.0 <= alpha <= 1.0:
            raise InvalidInputError(f"'alpha' must be in [0, 1], but it is {alpha}")
        object.__setattr__(self, "alpha", alpha)
        object.__setattr__(self, "p", check_p(self.p))
        object.__setattr__(self, "filters", _check_filters(self.filters))

    def check_against(self, roles: Roles) -> None:
        """Raise InvalidInputError if the view names an objective that ``roles`` lacks."""
        missing = [o for o in self.objectives if o not in roles.objective_names]
        if missing:
            raise InvalidInputError(
                f"the default view names {', '.join(map(repr, missing))}, which "
                f"{'is not an objective' if len(missing) == 1 else 'are not objectives'}; "
                f"objectives: {', '.join(roles.objective_names)}")

    def to_dict(self) -> dict:
        """JSON-safe dict; an infinite ``p`` is written as the string ``"inf"``."""
        return {"objectives": list(self.objectives), "focus": list(self.focus),
                "alpha": self.alpha, "p": "inf" if math.isinf(self.p) else self.p,
                "filters": _check_filters(self.filters)}

    @classmethod
    def from_dict(cls, d) -> DefaultView:
        """Inverse of :meth:`to_dict`; only ``objectives`` is required."""
        _check_keys(d, ("objectives", "focus", "alpha", "p", "filters"), "the default view")
        if "objectives" not in d:
            raise InvalidInputError("the default view needs 'objectives'")
        return cls(objectives=d["objectives"], focus=d.get("focus", ()),
                   alpha=d.get("alpha", 0.5), p=d.get("p", math.inf),
                   filters=d.get("filters") or {})


def _is_numeric(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series.dtype) and not pd.api.types.is_bool_dtype(
        series.dtype)


@dataclass(frozen=True, eq=False, init=False)
class EvalTable:
    """An evaluation table: a frame plus the role of its columns.

    Build it with :func:`copa_dash.data.io.build_eval_table`, which converts and checks
    the user's columns. The constructor checks only the invariants every consumer relies
    on: the role columns exist, the objectives are numeric, ids are present and unique,
    and there are at least 2 rows.

    The frame is never copied needlessly and never handed out for mutation: ``frame``
    returns a shallow copy, which pandas' copy-on-write turns into a real copy only if
    the caller writes to it; :meth:`matrix` always returns a new array.

    Examples
    --------
    >>> import pandas as pd
    >>> roles = Roles("model", (Objective("err", "min"), Objective("acc", "max")))
    >>> t = EvalTable(pd.DataFrame({"model": ["a", "b"], "err": [0.1, 0.2],
    ...                             "acc": [0.9, None]}), roles)
    >>> t.ids.tolist(), t.directions
    (['a', 'b'], ('min', 'max'))
    >>> t.matrix()
    array([[0.1, 0.9],
           [0.2, nan]])
    """

    _frame: pd.DataFrame = field(repr=False)
    roles: Roles

    def __init__(self, frame: pd.DataFrame, roles: Roles):
        if not isinstance(frame, pd.DataFrame):
            raise InvalidInputError(
                f"'frame' must be a pandas DataFrame, not {type(frame).__name__}")
        if not isinstance(roles, Roles):
            raise InvalidInputError(f"'roles' must be Roles, not {type(roles).__name__}")
        missing = [c for c in roles.columns if c not in frame.columns]
        if missing:
            raise InvalidInputError(
                f"{'column' if len(missing) == 1 else 'columns'} {', '.join(map(repr, missing))} "
                f"named in the roles {'is' if len(missing) == 1 else 'are'} not in the table")
        if len(frame) < 2:
            raise InvalidInputError(f"the table needs at least 2 rows, but it has {len(frame)}")
        for name in roles.objective_names:
            if not _is_numeric(frame[name]):
                raise InvalidInputError(
                    f"objective {name!r} must be a numeric column, but its dtype is "
                    f"{frame[name].dtype}; build the table with build_eval_table")
        ids = frame[roles.id]
        if ids.isna().any() or not ids.astype(str).is_unique:
            raise InvalidInputError(
                f"id column {roles.id!r} must be present and unique in every row; "
                "build the table with build_eval_table to see which rows")
        object.__setattr__(self, "_frame", frame.copy(deep=False))
        object.__setattr__(self, "roles", roles)

    @property
    def frame(self) -> pd.DataFrame:
        """The table (a copy-on-write shallow copy: writing to it never changes this table)."""
        return self._frame.copy(deep=False)

    @property
    def n_rows(self) -> int:
        """Number of rows."""
        return len(self._frame)

    def __len__(self) -> int:
        return len(self._frame)

    @property
    def ids(self) -> np.ndarray:
        """Row ids as a new numpy array of ``str``."""
        return self._frame[self.roles.id].astype(str).to_numpy(dtype=str)

    @property
    def objective_names(self) -> tuple[str, ...]:
        """Names of the objective columns, in order."""
        return self.roles.objective_names

    @property
    def directions(self) -> tuple[str, ...]:
        """``"min"``/``"max"`` per objective, in the order of :attr:`objective_names`."""
        return tuple(o.direction for o in self.roles.objectives)

    def objective(self, name: str) -> Objective:
        """The :class:`Objective` called ``name``."""
        for o in self.roles.objectives:
            if o.name == name:
                return o
        raise InvalidInputError(
            f"{name!r} is not an objective; objectives: {', '.join(self.objective_names)}")

    def _names(self, names) -> tuple[str, ...]:
        if names is None:
            return self.objective_names
        if isinstance(names, str):
            names = (names,)
        names = tuple(names)
        for name in names:
            self.objective(name)
        return names

    def matrix(self, names=None) -> np.ndarray:
        """Raw objective values as a new C-contiguous float64 array (N, K), NaN where missing.

        Parameters
        ----------
        names : sequence of str, optional
            Objectives to return, in this order (default: all, in role order).
        """
        names = self._names(names)
        out = np.empty((len(self._frame), len(names)), dtype=np.float64)
        for k, name in enumerate(names):
            out[:, k] = self._frame[name].to_numpy(dtype=np.float64, na_value=np.nan)
        return out

    def missing_counts(self, names=None) -> dict[str, int]:
        """Number of missing values per objective."""
        return {name: int(self._frame[name].isna().sum()) for name in self._names(names)}

    def complete_mask(self, names=None) -> np.ndarray:
        """Boolean row mask: True where every objective in ``names`` has a value."""
        return ~np.isnan(self.matrix(names)).any(axis=1)
