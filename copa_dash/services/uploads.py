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
from ..data.schema import Roles
from .objectives import TWO_OBJECTIVES
from .store import DatasetStore

STAGING_TTL_SECONDS = 24 * 3600
MIN_OBJECTIVES = 2  # the explorer and the systems page need a front: two things to trade off
_TOKEN = re.compile(r"^[0-9a-f]{64}$")
_SAFE_SUFFIXES = (".csv", ".tsv", ".txt", ".parquet", ".json", ".xlsx", ".gz")
PREVIEW_ROWS = 8


@dataclass(frozen=True)
class StagedUpload:
    """A parsed upload waiting for the user's role mapping."""

    token: str
    filename: str
    frame: pd.DataFrame  # as read: without the row-number column
    proposed: Roles
    row_ids: str         # the id to choose for "row number" (never a column of the frame)

    @property
    def preview(self) -> pd.DataFrame:
        return self.frame.head(PREVIEW_ROWS)


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
    frame = io.read_table(data, filename=filename, limits=limits_from(settings))
    token = hashlib.sha256(data).hexdigest()
    directory = _staging_dir(settings)
    _clean_old(directory)
    target = directory / f"{token}{_suffix(filename).replace('.', '-')}.upload"
    if not target.exists():
        temporary = directory / f".tmp-{token}-{os.getpid()}"
        temporary.write_bytes(data)
        os.replace(temporary, target)
    guessed = frame if io.guess_id(frame) is not None else io.add_row_ids(frame)
    return StagedUpload(token=token, filename=filename, frame=frame,
                        proposed=io.guess_roles(guessed), row_ids=io.row_id_name(frame))


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
                    shared: bool) -> str:
    """Parse the staged bytes again, validate them against ``roles`` and save them.

    If ``roles.id`` is the staged ``row_ids`` name (:func:`~copa_dash.data.io.row_id_name`,
    never a column of the file), the saved table gets that column first, holding
    ``row 1`` .. ``row N`` in the file's row order.

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
    frame = io.read_table(path.read_bytes(), filename=filename, limits=limits_from(settings))
    if roles.id == io.row_id_name(frame):
        frame = io.add_row_ids(frame)
    check_objective_count(frame, roles)
    io.build_eval_table(frame, roles)  # every role error before anything is stored
    store = DatasetStore(Path(settings.data_dir))
    return store.save(frame, roles, name=name, shared=shared)
