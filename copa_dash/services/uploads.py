"""Uploads in two steps: stage the file and propose roles, then save it with the user's roles.

Between the two steps the page holds only a token (the SHA-256 of the bytes); the bytes wait
in the store's ``staging/`` (so any instance sharing the store can finish the upload) and are
parsed again, by the same reader, when the user saves. Nothing already stored is touched
until the final, atomic save of the store.
"""

from __future__ import annotations

import base64
import binascii
import logging
import re
from dataclasses import dataclass
from pathlib import PurePosixPath

import pandas as pd

from ..core.errors import InvalidInputError
from ..data import io
from ..data.proposal import Proposal, prepare_frame, propose
from ..data.read_limits import uncompressed_bound
from ..data.runs import average_runs
from ..data.schema import Objective, Roles
from . import pending_work
from .cache import get_cache
from .objectives import TWO_OBJECTIVES
from .store import SavedDataset, open_store

logger = logging.getLogger(__name__)
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
    #: time or amount columns whose 0s were read as missing, and whether 0s are kept
    zeros_missing: tuple[str, ...] = ()
    keep_zeros: bool = False
    #: the columns whose 0s were kept as values (the box names them once ticked)
    zeros_kept: tuple[str, ...] = ()

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


def read_and_propose(data: bytes, filename: str, limits: io.Limits, *, keep_zeros: bool = False):
    """The shared reader and the proposal: ``(TableRead, Proposal)``; ``keep_zeros`` keeps a 0
    in a time or amount column as a value (the CLI's ``--keep-zeros``)."""
    read = io.read_table_report(data, filename=filename, limits=limits, keep_zeros=keep_zeros)
    return read, propose(read.frame, units=read.units, labels=read.labels)


def limits_from(settings) -> io.Limits:
    """The configured upload limits."""
    return io.Limits(max_bytes=settings.max_upload_bytes, max_rows=settings.max_rows,
                     max_columns=settings.max_columns,
                     max_memory_bytes=settings.max_upload_memory_bytes,
                     max_uncompressed_bytes=uncompressed_bound(
                         settings.max_upload_memory_bytes))


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


def _suffix(filename: str) -> str:
    name = PurePosixPath(str(filename).replace("\\", "/")).name.lower()
    for suffix in (".csv.gz",) + _SAFE_SUFFIXES:
        if name.endswith(suffix):
            return suffix
    return ""


def stage_upload(settings, filename: str, data: bytes, *,
                 client: str | None = None) -> StagedUpload:
    """Parse ``data`` with the shared reader, keep the bytes for the save step, propose roles.

    When no column can name the rows (:func:`~copa_dash.data.io.guess_id`), the proposed
    id is ``row_ids``: the rows are numbered ``row 1``, ``row 2``, ... at save.

    Raises
    ------
    InvalidInputError
        Whatever the reader finds wrong, with the row and column.
    """
    read, proposal = read_and_propose(data, filename, limits_from(settings))
    token, evicted = open_store(settings).stage_within(
        data, _suffix(filename), client=client, total_bytes=settings.staged_quota_bytes,
        client_bytes=settings.staged_client_quota_bytes)
    quota_note = () if not evicted else (evicted_note(evicted, settings),)
    return _staged(token, filename, read, proposal, quota_note, keep_zeros=False)


def restage_upload(settings, token: str, filename: str, *, keep_zeros: bool) -> StagedUpload:
    """The staged upload ``token`` read again, keeping (or not) a 0 in a time or amount
    column as a value: what the page shows when its "Keep 0 as a value" box changes.

    Raises
    ------
    InvalidInputError
        If the staged upload expired (choose the file again).
    """
    data = open_store(settings).staged(token, _suffix(filename))
    read, proposal = read_and_propose(data, filename, limits_from(settings),
                                      keep_zeros=keep_zeros)
    return _staged(token, filename, read, proposal, (), keep_zeros=keep_zeros)


def _staged(token, filename, read, proposal, first_notes, *, keep_zeros) -> StagedUpload:
    return StagedUpload(token=token, filename=filename, frame=read.frame,
                        proposed=proposal.directed_roles(), row_ids=proposal.row_ids,
                        proposal=proposal, notes=first_notes + read.notes + proposal.notes,
                        zeros_missing=read.zeros_missing, keep_zeros=keep_zeros,
                        zeros_kept=read.zeros_kept)


def evicted_note(evicted: int, settings) -> str:
    """What the page says when staging this upload removed older unsaved ones."""
    many = evicted > 1
    return (f"To make room, {evicted} older upload{'s' if many else ''} waiting to be saved "
            f"{'were' if many else 'was'} removed (uploads not yet saved may take "
            f"{settings.staged_client_quota_bytes / 2**20:.0f} MB per person and "
            f"{settings.staged_quota_bytes / 2**20:.0f} MB in all; the oldest go first): "
            "choose such a file again to save it.")


def stage_pasted(settings, text: str, *, client: str | None = None) -> StagedUpload:
    """:func:`stage_upload` for a table pasted as text (Markdown, LaTeX, spreadsheet cells)."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidInputError("the paste box is empty: paste a table (Markdown, LaTeX, or "
                                "cells copied from a spreadsheet)")
    return stage_upload(settings, PASTED_FILENAME, text.encode("utf-8"), client=client)


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


def save_upload(settings, token: str, filename: str, roles: Roles, *, name: str | None,
                shared: bool, average: bool = False,
                owner_user: str | None = None, keep_zeros: bool = False) -> SavedDataset:
    """Parse the staged bytes again, validate them against ``roles`` and save them.

    If ``roles.id`` is the staged ``row_ids`` name (never a column of the file), the saved
    table gets that column first, naming each row as the proposal says (``row 1``, or
    ``SVM · seed 0`` for runs); a proposed id column with repeated names gets ``name (2)``
    for the later copies. With ``average`` the runs of each system become one row
    (:func:`~copa_dash.data.runs.average_runs`). ``name`` defaults to the file's name.
    With ``keep_zeros`` a 0 in a time or amount column is saved as a value, not as missing
    (as the page showed it once its "Keep 0 as a value" box was ticked).

    Returns
    -------
    SavedDataset
        The new record id and the owner token (to hand to the uploader, once).

    Raises
    ------
    InvalidInputError
        If the upload expired, fewer than two objectives are chosen
        (:func:`check_objective_count`) or the table does not fit the roles (repeated or
        missing ids are named with their rows); nothing is stored then.
    """
    store = open_store(settings)
    data = store.staged(token, _suffix(filename))
    read, proposal = read_and_propose(data, filename, limits_from(settings),
                                      keep_zeros=keep_zeros)
    frame = prepare_frame(read.frame, proposal, roles)
    roles = with_units(roles, read)
    if average:
        frame, roles, _ = average_runs(frame, roles)
    check_objective_count(frame, roles)
    io.build_eval_table(frame, roles)  # every role error before anything is stored
    name = name.strip() if isinstance(name, str) and name.strip() else dataset_name_from(filename)
    return store.save(frame, roles, name=name, shared=shared, owner_user=owner_user)


def finalize_upload(settings, token: str, filename: str, roles: Roles, *, name: str | None,
                    shared: bool, average: bool = False) -> str:
    """:func:`save_upload` returning only the record id (callers without an owner token)."""
    return save_upload(settings, token, filename, roles, name=name, shared=shared,
                       average=average).id


def my_uploads(settings, owned: dict | None, *, user: str | None = None) -> list[dict]:
    """Public fields of the uploads whose owner tokens a browser holds, newest first.

    ``owned`` maps record id to owner token (what the upload page keeps in the browser's
    localStorage). Entries whose dataset is gone, or whose token no longer fits, are left
    out: the caller drops them from the browser too. With ``user`` (signed in behind a
    trusted proxy) the uploads of that user are listed too, from any browser.
    """
    store = open_store(settings)
    found = []
    if user:
        found = [{k: v for k, v in info.items() if k != "_mine"}
                 for info in store.owned_by(user)]
    seen = {info["id"] for info in found}
    for dataset_id, token in (owned or {}).items():
        if dataset_id in seen:
            continue
        try:
            store.authorize(dataset_id, token)
            found.append(store.info(dataset_id))
        except InvalidInputError:  # deleted, damaged, malformed, or not this owner's
            continue
    found.sort(key=lambda info: (str(info.get("created") or ""), info["id"]), reverse=True)
    return found


def rename_upload(settings, dataset_id: str, owner_token: str | None, name: str | None, *,
                  user: str | None = None) -> dict:
    """Rename an upload with its owner token (or as its signed-in owner); its fields."""
    return open_store(settings).rename(dataset_id, name, owner_token=owner_token, user=user)


def delete_upload(settings, dataset_id: str, owner_token: str | None, *,
                  user: str | None = None) -> dict:
    """Delete an upload with its owner token (or as its signed-in owner), and its cached
    results; returns its fields."""
    removed = open_store(settings).delete(dataset_id, owner_token=owner_token, user=user)
    # its first view's results, if being computed, go too
    pending_work.wait_for(dataset_id, lock_dir=pending_work.lock_dir(settings))
    try:
        get_cache(settings).evict_dataset(dataset_id)
    except Exception:
        logger.warning("could not evict cached results of %s", dataset_id, exc_info=True)
    return removed


def with_units(roles: Roles, read) -> Roles:
    """``roles`` with each objective's unit and label from the reader, where it has none."""
    objectives = tuple(
        o if o.unit or o.name not in read.units else
        Objective(o.name, o.direction, read.units[o.name], o.label or read.labels.get(o.name))
        for o in roles.objectives)
    return Roles(**{**{f: getattr(roles, f) for f in roles.__dataclass_fields__},
                    "objectives": objectives})
