"""Manifest entries of the bundled datasets and the checks every entry must pass.

Every cleaning module (``datasets_*.py``) returns :class:`BuiltDataset` objects: a cleaned
``pandas.DataFrame`` plus the manifest entry that describes it. ``build_datasets.py`` writes
the frames to ``datasets/<name>.csv`` and the entries to ``datasets/manifest.json``.

The manifest keys are fixed by ``docs/architecture.md``: name, title, description, source,
licence, file, id, objectives (name, direction, unit, label), roles (system, seed, task,
split, config, budget), metadata, default_view (objectives, focus, alpha, p, filters),
paired_metrics and n_rows.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import pandas as pd

ROLE_KEYS = ("system", "seed", "task", "split", "config", "budget")
DIRECTIONS = ("min", "max")


@dataclass(frozen=True)
class BuiltDataset:
    """A cleaned table and its manifest entry (``file`` and ``n_rows`` are filled in here)."""

    frame: pd.DataFrame
    entry: dict


def objective(name: str, direction: str, *, unit: str | None = None,
              label: str | None = None) -> dict:
    """Return one manifest objective; ``label`` defaults to ``name``."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction of {name!r} must be 'min' or 'max', not {direction!r}")
    return {"name": name, "direction": direction, "unit": unit, "label": label or name}


def default_view(objectives, focus, *, alpha: float = 0.5, p: float | str = "inf",
                 filters: dict | None = None) -> dict:
    """Return a manifest ``default_view``; ``p`` may be the string ``"inf"``."""
    return {"objectives": list(objectives), "focus": list(focus), "alpha": float(alpha),
            "p": p, "filters": dict(filters or {})}


def manifest_entry(*, name: str, title: str, description: str, source: str, licence: str,
                   id_column: str, objectives: list[dict], roles: dict | None = None,
                   metadata=(), view: dict, paired_metrics=None) -> dict:
    """Assemble a manifest entry in the key order of ``docs/architecture.md``.

    ``file`` is ``<name>.csv`` and ``n_rows`` is filled in by :func:`finish_entry`.
    """
    roles = dict(roles or {})
    unknown = set(roles) - set(ROLE_KEYS)
    if unknown:
        raise ValueError(f"{name}: unknown roles {sorted(unknown)}")
    return {
        "name": name,
        "title": title,
        "description": " ".join(description.split()),
        "source": source,
        "licence": licence,
        "file": f"{name}.csv",
        "id": id_column,
        "objectives": objectives,
        "roles": {key: roles.get(key) for key in ROLE_KEYS},
        "metadata": list(metadata),
        "default_view": view,
        "paired_metrics": list(paired_metrics) if paired_metrics else [],
        "n_rows": None,
    }


def finish_entry(built: BuiltDataset) -> BuiltDataset:
    """Check ``built`` against its entry, put the columns in role order and set ``n_rows``.

    Raises
    ------
    ValueError
        If a named column is absent, an objective is not numeric, ids are not unique,
        or the default view names columns that are not objectives / metadata.
    """
    entry = dict(built.entry)
    frame = built.frame
    name = entry["name"]
    objective_names = [o["name"] for o in entry["objectives"]]
    role_columns = [c for c in (entry["roles"][k] for k in ROLE_KEYS) if c]
    columns = [entry["id"], *role_columns, *objective_names, *entry["metadata"]]
    seen = set()
    ordered = [c for c in columns if not (c in seen or seen.add(c))]
    missing = [c for c in ordered if c not in frame.columns]
    if missing:
        raise ValueError(f"{name}: columns {missing} are not in the table")
    frame = frame.loc[:, ordered].reset_index(drop=True)
    ids = frame[entry["id"]]
    if ids.isna().any() or ids.duplicated().any():
        dup = ids[ids.duplicated(keep=False)].head(5).tolist()
        raise ValueError(f"{name}: ids must be unique and present, e.g. {dup}")
    for col in objective_names:
        if not pd.api.types.is_numeric_dtype(frame[col]):
            raise ValueError(f"{name}: objective {col!r} is not numeric")
        values = frame[col].dropna()
        if values.map(math.isinf).any():
            raise ValueError(f"{name}: objective {col!r} holds infinite values")
    view = entry["default_view"]
    for col in [*view["objectives"], *view["focus"]]:
        if col not in objective_names:
            raise ValueError(f"{name}: default view names {col!r}, not an objective")
    if not set(view["focus"]) <= set(view["objectives"]):
        raise ValueError(f"{name}: focus must be among the default objectives")
    for col in view["filters"]:
        if col not in frame.columns:
            raise ValueError(f"{name}: default filter on unknown column {col!r}")
    entry["n_rows"] = len(frame)
    return BuiltDataset(frame, entry)


def slug(text: str) -> str:
    """Lower-case ``text`` and join its alphanumeric runs with ``_``.

    >>> slug("NaturalQuestions (closed-book) - F1")
    'naturalquestions_closed_book_f1'
    """
    return "_".join(re.findall(r"[a-z0-9]+", text.lower()))
