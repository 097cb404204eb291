"""Stage a table read from a tracker (Optuna, MLflow, lm-eval) as the upload page stages a file.

The table is written as Parquet into the store's staging area, so the save step (and any
instance sharing the store) reads it back with the same reader as an uploaded file; the
proposal shown carries what the source knows (ids, directions, config, standard errors).

Reading a tracker opens a URL or a path *on the server*, so the form is offered only where
``Settings.read_sources`` allows it (``COPA_READ_SOURCES=1``; ``copa-dash serve`` turns it
on when it listens on loopback only - your own machine; off otherwise, since a server run by
gunicorn on 0.0.0.0 need not say its host).
"""

from __future__ import annotations

import importlib.util
import io as _bytes_io
from dataclasses import dataclass

from ..core.errors import InvalidInputError
from ..data.sources import SourceTable
from .store import open_store
from .uploads import StagedUpload, save_upload


@dataclass(frozen=True)
class SourceKind:
    """One kind of source the form offers: what to type where, and the extra it needs."""

    value: str
    label: str
    location: str          # placeholder of the location box
    name: str | None       # placeholder of the name box (None: no name)
    module: str | None     # the optional package it needs (None: none)


KINDS = (
    SourceKind("optuna", "Optuna study", "storage URL, e.g. sqlite:///study.db",
               "study name (optional when the storage holds one)", "optuna"),
    SourceKind("mlflow", "MLflow experiment", "tracking URI, e.g. sqlite:///mlflow.db",
               "experiment name", "mlflow"),
    SourceKind("lm-eval", "lm-evaluation-harness folder",
               "the --output_path folder (results_*.json inside)", None, None),
)


def available_kinds(settings) -> tuple[SourceKind, ...]:
    """The kinds this instance can read: none unless ``settings.read_sources``; Optuna and
    MLflow only when their extra is installed."""
    if not getattr(settings, "read_sources", False):
        return ()
    return tuple(k for k in KINDS
                 if k.module is None or importlib.util.find_spec(k.module) is not None)


def read_source(kind: str, location: str, name: str | None = None) -> SourceTable:
    """The :class:`SourceTable` of one kind at ``location`` (``name``: study or experiment).

    Raises
    ------
    InvalidInputError
        An unknown kind, an empty location, or what the reader says.
    """
    location = (location or "").strip()
    name = (name or "").strip() or None
    if not location:
        raise InvalidInputError("give where the results are: a storage URL, tracking URI or "
                                "folder")
    if kind == "optuna":
        from ..data.sources.optuna import read_optuna

        return read_optuna(location, name)
    if kind == "mlflow":
        if name is None:
            raise InvalidInputError("give the MLflow experiment's name")
        from ..data.sources.mlflow import read_mlflow

        return read_mlflow(location, name)
    if kind == "lm-eval":
        from ..data.sources.lm_eval import read_lm_eval

        return read_lm_eval(location)
    raise InvalidInputError(f"unknown source {kind!r}; one of "
                            f"{', '.join(k.value for k in KINDS)}")


def stage_source(settings, kind: str, location: str, name: str | None = None, *,
                 operator: bool = False) -> StagedUpload:
    """Read a source and stage it like an uploaded file, with the source's proposal.

    ``operator`` says the source was named by whoever runs the instance (``copa-dash serve
    --from-optuna ...``), not by a visitor of the page: then ``read_sources`` is not needed.

    Raises
    ------
    InvalidInputError
        Sources are off on this instance (``COPA_READ_SOURCES``), the kind's extra is
        missing, or what the reader says; nothing is staged then.
    """
    if not operator and not getattr(settings, "read_sources", False):
        raise InvalidInputError("this instance does not read trackers (it would open URLs and "
                                "files on the server); set COPA_READ_SOURCES=1 where that is "
                                "safe, or export the table and upload it")
    source = read_source(kind, location, name)
    if len(source.frame) > settings.max_rows or source.frame.shape[1] > settings.max_columns:
        raise InvalidInputError(f"{source.origin} has {len(source.frame):,} rows and "
                                f"{source.frame.shape[1]:,} columns; this instance takes at most "
                                f"{settings.max_rows:,} rows and {settings.max_columns:,} "
                                "columns")
    buffer = _bytes_io.BytesIO()
    source.frame.to_parquet(buffer, index=False)
    token = open_store(settings).stage(buffer.getvalue(), ".parquet")
    proposal = source.proposal()
    return StagedUpload(token=token, filename=f"{source.name.replace('/', '_')}.parquet", frame=source.frame,
                        proposed=proposal.directed_roles(), row_ids=proposal.row_ids,
                        proposal=proposal, notes=(f"Read from {source.origin}.",
                                                  *proposal.notes))


def save_source(settings, kind: str, location: str, name: str | None = None, *,
                shared: bool = False):
    """Read a source named by the operator and store it at once under the roles it proposes
    (what ``copa-dash serve --from-optuna ...`` opens, whatever ``read_sources`` says):
    undecided metrics stay metadata. Returns the
    :class:`~copa_dash.services.store.SavedDataset` (its ``id`` opens
    ``/explore?dataset=ID``).

    Raises
    ------
    InvalidInputError
        What the reader says, or fewer than two objectives with a direction.
    """
    staged = stage_source(settings, kind, location, name, operator=True)
    return save_upload(settings, staged.token, staged.filename, staged.proposed,
                       name=staged.suggested_name, shared=shared)
