"""The notebook's tables from where results live: an Optuna study, an MLflow experiment, an
lm-eval folder.

Each function returns the :class:`~copa_dash.data.schema.EvalTable` that every notebook
function takes in place of a DataFrame, with the roles the source knows (the study's
directions, lm-eval's ``higher_is_better``) or guesses as ``copa-dash`` does for a file::

    >>> import copa_dash                                                 # doctest: +SKIP
    >>> study = copa_dash.from_optuna("sqlite:///study.db", "mo")        # doctest: +SKIP
    >>> copa_dash.select(study, focus="latency").pick                    # doctest: +SKIP
    'trial 12'

``objectives=`` and ``id=`` of the other functions still choose (``copa_dash.front(runs,
objectives={"widgets": "min", "accuracy": "max"})``). The column roles it was given are in
``table.roles``; the table itself in ``table.frame``.
"""

from __future__ import annotations

import warnings

from .data.schema import EvalTable
from .data.sources import SourceTable


def _table(source: SourceTable, verbose: bool) -> EvalTable:
    said: list[str] = []
    table = source.eval_table(say=said.append)
    if verbose and said:
        warnings.warn("; ".join(said), stacklevel=3)
    return table


def from_optuna(storage: str, study: str | None = None, *, verbose: bool = True) -> EvalTable:
    """The completed trials of an Optuna study (needs ``copa-dash[optuna]``).

    Parameters
    ----------
    storage : str
        The storage URL (``sqlite:///study.db``), as ``optuna-dashboard`` takes it.
    study : str, optional
        The study's name; may be left out when the storage holds one study.
    verbose : bool
        Warn what was read and left out (failed or pruned trials).

    Returns
    -------
    EvalTable
        Id ``trial`` (``"trial 0"``, ...), the study's objectives (its metric names, else
        ``values_0``, ...) with its directions, the parameters as ``params_NAME`` and one
        ``config`` column.

    Raises
    ------
    InvalidInputError
        Optuna missing, the storage or study not found, no completed trial.
    """
    from .data.sources.optuna import read_optuna

    return _table(read_optuna(storage, study), verbose)


def from_mlflow(tracking_uri: str, experiment: str, *, verbose: bool = True) -> EvalTable:
    """The finished runs of an MLflow experiment (needs ``copa-dash[mlflow]``).

    Metrics whose direction a word in the name gives (``accuracy`` max, ``val_loss`` min)
    are the objectives; the others are left out, and said so: name them with
    ``objectives=`` in the function you call.

    Raises
    ------
    InvalidInputError
        MLflow missing, the URI or experiment not found, no finished run with a metric.
    """
    from .data.sources.mlflow import read_mlflow

    return _table(read_mlflow(tracking_uri, experiment), verbose)


def from_lm_eval(folder: str, *, verbose: bool = True) -> EvalTable:
    """An lm-evaluation-harness output folder: one row per model, one objective per task
    metric (direction from ``higher_is_better``); the standard errors are metadata columns
    ``TASK/METRIC_stderr`` beside their metric.

    Raises
    ------
    InvalidInputError
        No folder, no ``results_*.json`` in it, or a file that is not one.
    """
    from .data.sources.lm_eval import read_lm_eval

    return _table(read_lm_eval(folder), verbose)
