"""Uploads in two steps: stage the file and propose roles, then save it with the user's roles.

Between the two steps the page holds only a token (the SHA-256 of the bytes); the bytes wait
in ``<data dir>/staging/`` and are parsed again, by the same reader, when the user saves.
Nothing already stored is touched until the final, atomic save of the store.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import pandas as pd

from ..core.errors import InvalidInputError
from ..data import io
from ..data.proposal import Proposal, prepare_frame, propose
from ..data.runs import average_runs
from ..data.schema import Objective, Roles
from .objectives import TWO_OBJECTIVES
from .store import DatasetStore

STAGING_TTL_SECONDS = 24 * 3600
MIN_OBJECTIVES = 2  # the explorer and the systems page need a front: two things to trade off
_TOKEN = re.compile(r"^[0-9a-f]{64}$")
_SAFE_SUFFIXES = (".csv", ".tsv", ".txt", ".parquet", ".json", ".xlsx", ".md", ".tex", ".gz")
PASTED_FILENAME = "pasted.txt"  # a table pasted as text is staged under this name
PREVIEW_ROWS = 8


@dataclass(frozen=True)
class StagedUpload:
    """A parsed upload waiting for the user's role mapping.

    ``proposal`` is the full guess (directions may be None: the page asks);
    ``notes`` the "What we read" sentences (reading, then guessing); ``proposed`` the
    same as :class:`Roles`, with undecided objectives left out (or maximised when no
    objective has a direction) for forms that need a direction on every objective.
    """

    token: str
    filename: str
    frame: pd.DataFrame  # as read: without the row-name column
    proposed: Roles
    row_ids: str         # the id to choose for "row number" (never a column of the frame)
    proposal: Proposal | None = None
    notes: tuple[str, ...] = ()

    @property
    def preview(self) -> pd.DataFrame:
        return self.frame.head(PREVIEW_ROWS)

    @property
    def suggested_name(self) -> str:
        """The dataset's name proposed from the file name (editable on the page)."""
        return dataset_name_from(self.filename)


def dataset_name_from(filename: str) -> str:
    """``"results/EU export.csv.gz"`` -> ``"EU export"``; a paste is called "pasted table".

    Examples
    --------
    >>> dataset_name_from("runs/llm_perf_lb.csv"), dataset_name_from("pasted.txt")
    ('llm_perf_lb', 'pasted table')
    """
    name = PurePosixPath(str(filename).replace("\\", "/")).name
    if name == PASTED_FILENAME:
        return "pasted table"
    for suffix in (".gz",) + _SAFE_SUFFIXES + (".md", ".markdown", ".tex"):
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
    return name.strip()[:80] or "uploaded table"


def read_and_propose(data: bytes, filename: str, limits: io.Limits):
    """The shared reader and the proposal: ``(TableRead, Proposal)``."""
    read = io.read_table_report(data, filename=filename, limits=limits)
    return read, propose(read.frame, units=read.units, labels=read.labels)


def limits_from(settings) -> io.Limits:
    """The configured upload limits."""
    return io.Limits(max_bytes=settings.max_upload_bytes, max_rows=settings.max_rows,
                     max_columns=settings.max_columns)


def decode_data_url(contents: str, max_bytes: int) -> bytes:
    """Bytes of a browser upload (``data:...;base64,...``), size checked before decoding.

    Raises
    ------
    InvalidInputError
        If the payload is larger than ``max_bytes`` or is not base64.
    """
    if not contents or "," not in contents:
        raise InvalidInputError("the upload arrived empty: choose the file again")
    payload = contents.split(",", 1)[1]
    if len(payload) * 3 // 4 > max_bytes + 3:
        raise InvalidInputError(
            f"the file is larger than the limit of {max_bytes / 2**20:.0f} MB "
            f"(about {len(payload) * 3 / 4 / 2**20:.1f} MB); upload a smaller table")
    try:
        return base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        raise InvalidInputError("the upload could not be decoded: choose the file again") from None


def _staging_dir(settings) -> Path:
    path = Path(settings.data_dir) / "staging"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _suffix(filename: str) -> str:
    name = PurePosixPath(str(filename).replace("\\", "/")).name.lower()
    for suffix in (".csv.gz",) + _SAFE_SUFFIXES:
        if name.endswith(suffix):
            return suffix
    return ""


def _clean_old(directory: Path) -> None:
    now = time.time()
    for path in directory.glob("*.upload"):
        try:
            if now - path.stat().st_mtime > STAGING_TTL_SECONDS:
                path.unlink()
        except OSError:
            pass


def stage_upload(settings, filename: str, data: bytes) -> StagedUpload:
    """Parse ``data`` with the shared reader, keep the bytes for the save step, propose roles.

    When no column can name the rows (:func:`~copa_dash.data.io.guess_id`), the proposed
    id is ``row_ids``: the rows are numbered ``row 1``, ``row 2``, ... at save.

    Raises
    ------
    InvalidInputError
        Whatever the reader finds wrong, with the row and column.
    """
    read, proposal = read_and_propose(data, filename, limits_from(settings))
    token = hashlib.sha256(data).hexdigest()
    directory = _staging_dir(settings)
    _clean_old(directory)
    target = directory / f"{token}{_suffix(filename).replace('.', '-')}.upload"
    if not target.exists():
        temporary = directory / f".tmp-{token}-{os.getpid()}"
        temporary.write_bytes(data)
        os.replace(temporary, target)
    return StagedUpload(token=token, filename=filename, frame=read.frame,
                        proposed=proposal.directed_roles(), row_ids=proposal.row_ids,
                        proposal=proposal, notes=read.notes + proposal.notes)


def stage_pasted(settings, text: str) -> StagedUpload:
    """:func:`stage_upload` for a table pasted as text (Markdown, LaTeX, spreadsheet cells)."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidInputError("the paste box is empty: paste a table (Markdown, LaTeX, or "
                                "cells copied from a spreadsheet)")
    return stage_upload(settings, PASTED_FILENAME, text.encode("utf-8"))


def check_objective_count(frame: pd.DataFrame, roles: Roles) -> None:
    """Raise unless ``roles`` has at least two objectives, naming columns that could be one.

    One objective saves a table that the explorer and the systems page cannot show (a
    Pareto front needs something to trade off), so the upload page refuses it before
    anything is stored.
    """
    if len(roles.objectives) >= MIN_OBJECTIVES:
        return
    chosen = ", ".join(map(repr, roles.objective_names))
    candidates = [str(c) for c in frame.columns
                  if roles.role_of(c) in (None, "metadata")
                  and pd.api.types.is_numeric_dtype(frame[c].dtype)
                  and not pd.api.types.is_bool_dtype(frame[c].dtype) and frame[c].notna().any()]
    if candidates:
        shown = ", ".join(map(repr, candidates[:6])) + (", ..." if len(candidates) > 6 else "")
        advice = f"give another numeric column the role 'objective' ({shown})"
    else:
        advice = ("the table has no other numeric column: add a second measurement to the file "
                  "(e.g. cost, time or size) and upload it again")
    raise InvalidInputError(
        f"{TWO_OBJECTIVES}. Only {chosen} is one now; {advice}. Nothing was saved.")


def finalize_upload(settings, token: str, filename: str, roles: Roles, *, name: str | None,
                    shared: bool, average: bool = False) -> str:
    """Parse the staged bytes again, validate them against ``roles`` and save them.

    If ``roles.id`` is the staged ``row_ids`` name (never a column of the file), the saved
    table gets that column first, naming each row as the proposal says (``row 1``, or
    ``SVM · seed 0`` for runs); a proposed id column with repeated names gets ``name (2)``
    for the later copies. With ``average`` the runs of each system become one row
    (:func:`~copa_dash.data.runs.average_runs`). ``name`` defaults to the file's name.

    Returns
    -------
    str
        The dataset id (a hash of content and roles).

    Raises
    ------
    InvalidInputError
        If the upload expired, fewer than two objectives are chosen
        (:func:`check_objective_count`) or the table does not fit the roles (repeated or
        missing ids are named with their rows); nothing is stored then.
    """
    if not isinstance(token, str) or not _TOKEN.match(token):
        raise InvalidInputError("the upload expired: choose the file again")
    path = _staging_dir(settings) / f"{token}{_suffix(filename).replace('.', '-')}.upload"
    if not path.exists():
        raise InvalidInputError("the upload expired: choose the file again")
    read, proposal = read_and_propose(path.read_bytes(), filename, limits_from(settings))
    frame = prepare_frame(read.frame, proposal, roles)
    roles = with_units(roles, read)
    if average:
        frame, roles, _ = average_runs(frame, roles)
    check_objective_count(frame, roles)
    io.build_eval_table(frame, roles)  # every role error before anything is stored
    store = DatasetStore(Path(settings.data_dir))
    name = name.strip() if isinstance(name, str) and name.strip() else dataset_name_from(filename)
    return store.save(frame, roles, name=name, shared=shared)


def with_units(roles: Roles, read) -> Roles:
    """``roles`` with each objective's unit and label from the reader, where it has none."""
    objectives = tuple(
        o if o.unit or o.name not in read.units else
        Objective(o.name, o.direction, read.units[o.name], o.label or read.labels.get(o.name))
        for o in roles.objectives)
    return Roles(**{**{f: getattr(roles, f) for f in roles.__dataclass_fields__},
                    "objectives": objectives})
