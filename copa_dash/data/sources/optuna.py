"""An Optuna study as a table: one row per completed trial (needs ``copa-dash[optuna]``)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pandas as pd

from ...core.errors import InvalidInputError
from . import SourceTable, cannot_open, parameter_columns, require

ID_COLUMN = "trial"
PARAM_PREFIX = "params_"  # as optuna's own Study.trials_dataframe() names them


def objective_names(metric_names, n_objectives: int) -> list[str]:
    """The study's metric names, else ``values_0``, ``values_1``, ... (Optuna's own names).

    >>> objective_names(None, 2), objective_names(["acc", "latency"], 2)
    (['values_0', 'values_1'], ['acc', 'latency'])
    """
    if metric_names and len(metric_names) == n_objectives:
        return [str(n) for n in metric_names]
    return [f"values_{i}" for i in range(n_objectives)]


def read_optuna(storage: str, study: str | None = None) -> SourceTable:
    """The completed trials of an Optuna study.

    Parameters
    ----------
    storage : str
        The study's storage URL, as ``optuna-dashboard`` takes it (``sqlite:///study.db``,
        ``postgresql://...``) or a journal file (``*.log``, read with Optuna's journal
        storage).
    study : str, optional
        The study's name; may be left out when the storage holds one study.

    Returns
    -------
    SourceTable
        Columns ``trial`` (``"trial 0"``, ... - the trial number), one per objective
        (``study.metric_names``, else ``values_0``, ...) with the study's directions,
        ``params_NAME`` per parameter and ``config`` (the parameters in one text).
        Failed, pruned, running and waiting trials are left out, and counted in the notes.

    Raises
    ------
    InvalidInputError
        Optuna not installed, the storage cannot be opened, the study is unknown (the
        storage's studies are named), or no trial is complete.
    """
    optuna = require("optuna", "optuna", "an Optuna study")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage_obj = _storage(optuna, storage)
    try:
        names = optuna.get_all_study_names(storage_obj)  # summaries would find best trials
    except Exception as exc:  # any backend error: "cannot open"
        raise cannot_open("Optuna storage", storage, exc) from exc
    if study is None:
        if len(names) != 1:
            raise InvalidInputError(f"the Optuna storage {storage!r} holds "
                                    f"{len(names)} studies: give --study NAME"
                                    + (f" (one of {', '.join(map(repr, names))})" if names
                                       else ""))
        study = names[0]
    if study not in names:
        raise InvalidInputError(f"no Optuna study {study!r} in {storage!r}; its studies: "
                                f"{', '.join(map(repr, names)) or 'none'}")
    loaded = optuna.load_study(study_name=study, storage=storage_obj)
    directions = ["max" if d == optuna.study.StudyDirection.MAXIMIZE else "min"
                  for d in loaded.directions]
    objectives = objective_names(loaded.metric_names, len(directions))
    trials = loaded.get_trials(deepcopy=False)
    complete = [t for t in trials if t.state == optuna.trial.TrialState.COMPLETE]
    origin = f"Optuna study {study!r} in {storage}"
    if not complete:
        raise InvalidInputError(f"{origin} has no completed trial yet ({len(trials)} trials)")
    frame = pd.DataFrame({ID_COLUMN: pd.Series([f"trial {t.number}" for t in complete],
                                               dtype="str")})
    for i, name in enumerate(objectives):
        frame[name] = [float(t.values[i]) for t in complete]
    params, config = parameter_columns([dict(t.params) for t in complete], PARAM_PREFIX)
    frame = pd.concat([frame, params.drop(columns=objectives + [ID_COLUMN], errors="ignore")],
                      axis=1)
    notes = []
    left = Counter(t.state.name.lower() for t in trials
                   if t.state != optuna.trial.TrialState.COMPLETE)
    if left:
        notes.append(f"{sum(left.values())} of {len(trials)} trials left out (not complete: "
                     + ", ".join(f"{n} {state}" for state, n in sorted(left.items())) + ")")
    return SourceTable(frame=frame, id=ID_COLUMN, directions=dict(zip(objectives, directions)),
                       config=tuple(c for c in config if c in frame), origin=origin,
                       notes=tuple(notes), name=study)


def _storage(optuna, storage: str):
    """Optuna's storage object for a URL, or a journal file for a ``.log`` path."""
    if not isinstance(storage, str) or not storage.strip():
        raise InvalidInputError("give the Optuna storage URL, e.g. sqlite:///study.db")
    if "://" not in storage:
        if storage.endswith((".log", ".jsonl")):
            if not Path(storage).is_file():
                raise InvalidInputError(f"no Optuna journal file {storage!r}")
            try:
                from optuna.storages.journal import JournalFileBackend as backend
            except ImportError:  # Optuna 3.x
                from optuna.storages import JournalFileStorage as backend
            return optuna.storages.JournalStorage(backend(storage))
        raise InvalidInputError(f"{storage!r} is not a storage URL: write sqlite:///{storage} "
                                "for a SQLite file (or give a journal file ending in .log)")
    scheme, _, rest = storage.partition("://")
    if scheme.split("+")[0] == "sqlite" and rest.startswith("/") \
            and not Path(rest[1:]).is_file():  # SQLAlchemy would create an empty database
        raise InvalidInputError(f"no SQLite file {rest[1:]!r} (from {storage!r}): check the "
                                "path (sqlite:///relative.db, sqlite:////absolute.db)")
    try:
        return optuna.storages.RDBStorage(storage) \
            if scheme.split("+")[0] in ("sqlite", "postgresql", "mysql") else storage
    except Exception as exc:  # any backend error: "cannot open"
        raise cannot_open("Optuna storage", storage, exc) from exc
