"""An MLflow experiment as a table: one row per finished run (needs ``copa-dash[mlflow]``)."""

from __future__ import annotations

import os
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import pandas as pd

from ...core.errors import InvalidInputError
from . import SourceTable, cannot_open, parameter_columns, require, unique_names

ID_COLUMN = "run"
PARAM_PREFIX = "params."  # as mlflow.search_runs() names them
PAGE = 1000


def read_mlflow(tracking_uri: str, experiment: str) -> SourceTable:
    """The finished runs of an MLflow experiment.

    Parameters
    ----------
    tracking_uri : str
        The tracking URI, as ``mlflow ui --backend-store-uri`` takes it: a SQLite
        database (``sqlite:///mlflow.db``), a server (``http://host:5000``) or a file store
        folder (``./mlruns`` or ``file:///...``).
    experiment : str
        The experiment's name (or its id).

    Returns
    -------
    SourceTable
        Columns ``run`` (the run name; repeated names get `` (2)``, a run without a name
        its id), one per metric (its last logged value) - candidate objectives whose
        directions are guessed from their names as for any table - then
        ``params.NAME`` per param and ``config`` (the params in one text). Runs not
        ``FINISHED`` (running, failed, killed) are left out and counted in the notes;
        deleted runs are not read.

    Raises
    ------
    InvalidInputError
        MLflow not installed, the tracking URI cannot be opened, the experiment is
        unknown (the known ones are named), or no run finished with a metric.
    """
    require("mlflow", "mlflow", "an MLflow experiment")
    from mlflow.tracking import MlflowClient

    with _quick_failure():
        return _read(MlflowClient(tracking_uri=_checked_uri(tracking_uri)), tracking_uri,
                     experiment)


@contextmanager
def _quick_failure():
    """A tracking server that does not answer fails in seconds, not after MLflow's seven
    retries with backoff (minutes): its retry and timeout settings, unless the user set them."""
    quick = {"MLFLOW_HTTP_REQUEST_MAX_RETRIES": "1", "MLFLOW_HTTP_REQUEST_BACKOFF_FACTOR": "1",
             "MLFLOW_HTTP_REQUEST_TIMEOUT": "20"}
    added = [k for k in quick if k not in os.environ]
    os.environ.update({k: quick[k] for k in added})
    try:
        yield
    finally:
        for key in added:
            os.environ.pop(key, None)


def _read(client, tracking_uri: str, experiment: str) -> SourceTable:
    from mlflow.entities import ViewType

    try:
        found = client.get_experiment_by_name(experiment)
        if found is None and str(experiment).isdigit():
            found = client.get_experiment(str(experiment))
    except Exception as exc:  # any backend error: "cannot open"
        if "RESOURCE_DOES_NOT_EXIST" not in str(exc):
            raise cannot_open("MLflow tracking URI", tracking_uri, exc) from exc
        found = None
    if found is None:
        known = [e.name for e in client.search_experiments(view_type=ViewType.ALL)]
        raise InvalidInputError(f"no MLflow experiment {experiment!r} in {tracking_uri!r}; "
                                f"its experiments: {', '.join(map(repr, known)) or 'none'}")
    runs, token = [], None
    while True:
        page = client.search_runs([found.experiment_id], run_view_type=ViewType.ACTIVE_ONLY,
                                  max_results=PAGE, order_by=["attributes.start_time ASC"],
                                  page_token=token)
        runs.extend(page)
        token = page.token
        if not token:
            break
    origin = f"MLflow experiment {found.name!r} in {tracking_uri}"
    finished = [r for r in runs if r.info.status == "FINISHED" and r.data.metrics]
    if not finished:
        raise InvalidInputError(f"{origin} has no finished run with a metric ({len(runs)} runs)")
    names = pd.Series([r.info.run_name or r.info.run_id for r in finished], dtype="str")
    frame = pd.DataFrame({ID_COLUMN: unique_names(names)})
    metrics = sorted({k for r in finished for k in r.data.metrics})
    for name in metrics:
        frame[name] = pd.Series([r.data.metrics.get(name) for r in finished], dtype="float64")
    params, config = parameter_columns([dict(r.data.params) for r in finished], PARAM_PREFIX)
    frame = pd.concat([frame, params.drop(columns=metrics + [ID_COLUMN], errors="ignore")],
                      axis=1)
    notes = []
    left = Counter(r.info.status.lower() for r in runs if r.info.status != "FINISHED")
    empty = sum(r.info.status == "FINISHED" and not r.data.metrics for r in runs)
    if left or empty:
        parts = [f"{n} {status}" for status, n in sorted(left.items())]
        parts += [f"{empty} finished without a metric"] if empty else []
        notes.append(f"{len(runs) - len(finished)} of {len(runs)} runs left out ("
                     + ", ".join(parts) + ")")
    if (names.duplicated()).any():
        notes.append("runs sharing a name are told apart as 'name (2)', 'name (3)', ... in "
                     "the order they started")
    return SourceTable(frame=frame, id=ID_COLUMN, directions=dict.fromkeys(metrics),
                       config=tuple(c for c in config if c in frame), origin=origin,
                       notes=tuple(notes), name=found.name)


def _checked_uri(uri: str) -> str:
    """The URI, refused when it names a local database or folder that does not exist
    (MLflow would create an empty one there)."""
    if not isinstance(uri, str) or not uri.strip():
        raise InvalidInputError("give the MLflow tracking URI, e.g. sqlite:///mlflow.db")
    scheme, sep, rest = uri.partition("://")
    if not sep:
        path = Path(uri)
    elif scheme.split("+")[0] == "sqlite" and rest.startswith("/"):
        path = Path(rest[1:])
    elif scheme == "file":
        path = Path(rest)
    else:
        return uri
    if not path.exists():
        raise InvalidInputError(f"no MLflow store at {str(path)!r} (from {uri!r}): check the "
                                "path (sqlite:///relative.db, sqlite:////absolute.db, or the "
                                "mlruns folder)")
    return uri
