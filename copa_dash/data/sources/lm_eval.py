"""A folder of lm-evaluation-harness results as a table: one row per model, one column per metric.

lm-eval (``lm_eval --output_path DIR``) writes ``DIR/<model_name_sanitized>/results_<date>.json``;
each holds ``"results": {task: {"alias": ..., "acc,none": 0.61, "acc_stderr,none": 0.012, ...}}``
(a metric key is ``METRIC,FILTER``; its standard error ``METRIC_stderr,FILTER``, ``"N/A"``
when not computed), ``"higher_is_better": {task: {metric: true}}``, and the model under
``"model_name"`` (newer versions) or ``"config": {"model_args": "pretrained=NAME,..."}``.
No extra is needed: the files are JSON.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

from ...core.errors import InvalidInputError
from . import SourceTable

ID_COLUMN = "model"
STDERR = "_stderr"


def metric_column(task: str, metric: str, filter_name: str) -> str:
    """``("hellaswag", "acc_norm", "none")`` -> ``"hellaswag/acc_norm"``; a filter other than
    ``none`` is kept: ``"gsm8k/exact_match/strict-match"``."""
    return f"{task}/{metric}" + ("" if filter_name == "none" else f"/{filter_name}")


def model_name(data: dict, path: Path) -> str:
    """The evaluated model: ``model_name``, else ``pretrained=`` (or ``model=``) in the model
    arguments, else the folder the file sits in (lm-eval names it after the model)."""
    name = data.get("model_name")
    if isinstance(name, str) and name.strip():
        return name.strip()
    args = (data.get("config") or {}).get("model_args")
    if isinstance(args, dict):
        args = ",".join(f"{k}={v}" for k, v in args.items())
    for part in str(args or "").split(","):
        key, _, value = part.partition("=")
        if key.strip() in ("pretrained", "model", "path", "engine") and value.strip():
            return value.strip()
    return path.parent.name


def _number(value) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None  # "N/A", lists, text
    return float(value) if math.isfinite(value) else None


def read_results_file(path: Path) -> tuple[str, dict, dict, dict]:
    """``(model, {column: value}, {column: stderr}, {column: direction or None})`` of one file.

    Raises
    ------
    InvalidInputError
        If the file is not JSON or has no ``"results"`` mapping.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInputError(f"{path}: not a readable lm-eval results file ({exc})") from exc
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, dict):
        raise InvalidInputError(f"{path}: no \"results\" mapping - is it an lm-eval results "
                                "file (results_<date>.json)?")
    better = data.get("higher_is_better") or {}
    values, errors, directions = {}, {}, {}
    groups = data.get("groups") if isinstance(data.get("groups"), dict) else {}
    # a group's aggregate (mmlu) sits in "results" too in most versions, in "groups" only
    # in some: both are read, "results" winning
    for task, metrics in {**groups, **results}.items():
        if not isinstance(metrics, dict):
            continue
        for key, value in metrics.items():
            metric, _, filter_name = key.partition(",")
            if key == "alias" or metric.endswith(STDERR):
                continue
            number = _number(value)
            if number is None:
                continue
            column = metric_column(task, metric, filter_name or "none")
            values[column] = number
            error = _number(metrics.get(f"{metric}{STDERR},{filter_name}" if filter_name
                                        else f"{metric}{STDERR}"))
            if error is not None:
                errors[column] = error
            flag = (better.get(task) or {}).get(metric)
            directions[column] = None if not isinstance(flag, bool) else \
                ("max" if flag else "min")
    return model_name(data, Path(path)), values, errors, directions


def read_lm_eval(folder: str) -> SourceTable:
    """Every ``results_*.json`` under ``folder``, one row per model.

    Parameters
    ----------
    folder : str
        lm-eval's ``--output_path`` (searched recursively), or one results file.

    Returns
    -------
    SourceTable
        Columns ``model``, then per task metric ``TASK/METRIC`` (direction from
        ``higher_is_better``, else guessed from the name) followed by its standard error
        ``TASK/METRIC_stderr`` where lm-eval computed one (paired in
        :attr:`SourceTable.uncertainty`). When several files hold the same model and
        metric, the newest file (by the date in its name) wins, and that is said.

    Raises
    ------
    InvalidInputError
        If the folder does not exist, holds no results file, or a file is not one.
    """
    root = Path(folder)
    if root.is_file():
        paths = [root]
    elif root.is_dir():
        paths = sorted(root.rglob("results_*.json"), key=lambda p: (p.name, str(p)))
    else:
        raise InvalidInputError(f"no folder {folder!r}: give lm-eval's --output_path folder")
    if not paths:
        raise InvalidInputError(f"no lm-eval results file (results_*.json) under {folder!r}")
    rows: dict[str, dict] = {}
    errors: dict[str, dict] = {}
    directions: dict[str, str | None] = {}
    replaced = 0
    for path in paths:  # oldest first: a newer file's value replaces an older one
        model, values, stderrs, found = read_results_file(path)
        row = rows.setdefault(model, {})
        replaced += sum(column in row for column in values)
        row.update(values)
        errors.setdefault(model, {}).update(stderrs)
        for column, direction in found.items():
            if directions.get(column) is None:
                directions[column] = direction
    metrics = sorted(directions)
    data = {ID_COLUMN: pd.Series(list(rows), dtype="str")}
    uncertainty = {}
    for column in metrics:
        data[column] = pd.Series([rows[m].get(column) for m in rows], dtype="float64")
        if any(column in errors[m] for m in rows):
            uncertainty[column] = column + STDERR
            data[column + STDERR] = pd.Series([errors[m].get(column) for m in rows],
                                              dtype="float64")
    notes = [(f"{len(paths)} results file{'s' if len(paths) != 1 else ''}, {len(rows)} "
              f"model{'s' if len(rows) != 1 else ''}, {len(metrics)} task metrics; standard "
              "errors kept beside their metric (not objectives)")]
    if replaced:
        notes.append(f"{replaced} values were in an older file too: the newest file's value "
                     "is used")
    return SourceTable(frame=pd.DataFrame(data), id=ID_COLUMN, directions=directions,
                       uncertainty=uncertainty, origin=f"lm-eval results in {folder}",
                       notes=tuple(notes), name=root.name or "lm-eval")
