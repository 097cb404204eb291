"""Uploaded datasets: records with owners over content-addressed tables, on any fsspec URL.

Layout under the store's URL (``COPA_DATA_URL``; by default the local directory
``COPA_DATA_DIR``; ``s3://bucket/copa``, ``gs://...``, ``memory://...`` work alike)::

    objects/<content id>.parquet  a validated table, named by the SHA-256 of its content
                                  and roles; written once, never changed
    records/<record id>.json      one upload: its object, the hash of its owner token,
                                  name, shared, created, n_rows, columns, roles
    staging/<sha256>.upload       bytes of an upload waiting for its roles (a day at most)
    .metadata.lock                local directories only: serialises read-modify-write

Two ids, two jobs. The *content id* deduplicates bytes: two uploads of the same table
share one object. The *record id* (32 hex digits, 128 bits from :mod:`secrets`) is the
dataset as one user made it: two users who upload the same table get two records and see
nothing of each other. Whoever holds a record id can read the dataset (it is the link);
deleting, renaming and sharing need the record's *owner token* (256 bits, returned once by
:meth:`DatasetStore.save`; the store keeps only its SHA-256) or the instance's admin
token (``COPA_ADMIN_TOKEN``).

A dataset exists exactly when its record exists. Saving writes the object first (unless
it is already there, intact) and the record last; on a local directory each file is written to a
temporary file, fsynced and moved into place with :func:`os.replace`, and on an object
store each file is one PUT, so a reader in another process or on another host sees
either nothing or a complete dataset.

Damage heals: beside each object the store keeps the SHA-256 of its bytes
(``objects/<id>.sha256``). An object whose bytes no longer match it (truncated, changed
in place, or an object of an older version whose Parquet footer cannot be read) is
*damaged*: loading it says so (410 in the API), :meth:`DatasetStore.damaged_objects`
counts it for ``/healthz``, and the next upload of the same table rewrites it, which
repairs every record that points to it. Nothing is ever unpickled: tables are Parquet,
records are JSON.

Datasets stored by older versions (``<content id>.json`` + ``.parquet`` in the root) are
moved into this layout the first time a process opens the store; their record id stays
their old id, so old links keep working, and they have no owner (only the admin token
can delete them).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import logging
import os
import re
import secrets
import tempfile
import threading
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timezone
from hmac import compare_digest
from pathlib import Path

import fsspec
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from fsspec.implementations.local import LocalFileSystem

from ..core.errors import InvalidInputError
from ..data.io import build_eval_table
from ..data.schema import EvalTable, Roles
from .recent import RecentValues

try:  # POSIX; elsewhere record updates are atomic but not serialised
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

logger = logging.getLogger(__name__)

_RECORD_ID = re.compile(r"[0-9a-f]{32}|[0-9a-f]{64}")  # new ids | ids of format 1
_CONTENT_ID = re.compile(r"[0-9a-f]{64}")
_STAGING_TOKEN = re.compile(r"[0-9a-f]{64}")
_FORMAT = 2
MAX_NAME_LENGTH = 200
STAGING_TTL_SECONDS = 24 * 3600
#: Terminal escape sequences (CSI ``ESC [ ... letter``, OSC ``ESC ] ... BEL``, or ESC + one char).
_ESCAPES = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|.)?",
                      re.DOTALL)


class DatasetNotFoundError(InvalidInputError):
    """The id is well formed but no dataset in the store has it (the API answers 404)."""


class DatasetDamagedError(InvalidInputError):
    """The dataset's record or table cannot be read (the API answers 410)."""


class NotOwnerError(InvalidInputError):
    """The request lacks the dataset's owner token (the API answers 403)."""


@dataclass(frozen=True)
class SavedDataset:
    """What :meth:`DatasetStore.save` returns: the link, and the secret shown once."""

    id: str
    owner_token: str
    object_id: str


def check_dataset_id(dataset_id) -> str:
    """Return ``dataset_id`` if it is 32 (or, from older versions, 64) lower-case hex digits.

    Raises
    ------
    InvalidInputError
        Otherwise, before any path is built from it.

    Examples
    --------
    >>> check_dataset_id("0" * 32) == "0" * 32
    True
    """
    if not isinstance(dataset_id, str) or not _RECORD_ID.fullmatch(dataset_id):
        shown = str(dataset_id)[:80]
        raise InvalidInputError(
            "'dataset_id' must be 32 (or 64) lower-case hexadecimal characters, "
            f"not {shown!r}")
    return dataset_id


def clean_name(name) -> str | None:
    """A label fit to show: terminal escapes and control characters removed, spaces collapsed.

    Raises
    ------
    InvalidInputError
        If ``name`` is not text or longer than 200 characters once cleaned.

    Examples
    --------
    >>> clean_name("a\\x00b \\x1b[31mred\\x1b[0m\\n  table\\u202e")
    'a b red table'
    """
    if name is None:
        return None
    if not isinstance(name, str):
        raise InvalidInputError(f"'name' must be text, not {type(name).__name__}")
    name = _ESCAPES.sub("", name)
    # Cc: NUL, newlines, ...; Cf: bidi overrides that disguise a name; Cs/Co/Cn: no glyph
    name = "".join(" " if unicodedata.category(c).startswith("C") else c for c in name)
    name = " ".join(name.split())
    if len(name) > MAX_NAME_LENGTH:
        raise InvalidInputError(
            f"'name' must have at most {MAX_NAME_LENGTH} characters, but it has {len(name)}")
    return name or None


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _text_parts(series: pd.Series) -> tuple[np.ndarray, np.ndarray, bytes]:
    """Null mask, UTF-8 byte lengths (0 for nulls) and the concatenated bytes of a column.

    Columns of text go through Arrow (one C pass); any other column (numbers mixed with
    text, nullable integers, ...) goes value by value through ``str``. Both give the
    same parts for the same texts.
    """
    try:
        array = pa.array(series, from_pandas=True)  # zero-copy for Arrow-backed text
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
        array = None
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    if array is not None and pa.types.is_dictionary(array.type):
        array = array.dictionary_decode()
    if array is not None and (pa.types.is_string(array.type)
                              or pa.types.is_large_string(array.type)):
        array = array.cast(pa.large_string())
        missing = array.is_null().to_numpy(zero_copy_only=False)
        _, offsets_buffer, data_buffer = array.buffers()
        offsets = np.frombuffer(offsets_buffer, dtype=np.int64)[
            array.offset:array.offset + len(array) + 1]
        lengths = np.diff(offsets)
        if not lengths[missing].any():  # nulls hold no bytes (always so when built here)
            data = b"" if data_buffer is None else data_buffer.to_pybytes()
            return missing, lengths, data[offsets[0]:offsets[-1]]
    return _text_parts_by_value(series)


def _text_parts_by_value(series: pd.Series) -> tuple[np.ndarray, np.ndarray, bytes]:
    missing = series.isna().to_numpy(dtype=bool)
    texts = [b"" if gone else str(value).encode("utf-8")
             for value, gone in zip(series.tolist(), missing)]
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    return missing, lengths, b"".join(texts)


def _update_with_column(digest, name, series: pd.Series) -> None:
    """Feed one column into ``digest`` unambiguously (length-prefixed parts)."""

    def part(data: bytes) -> None:
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)

    part(str(name).encode("utf-8"))
    dtype = series.dtype
    part(str(dtype).encode("utf-8"))
    if isinstance(dtype, np.dtype) and dtype.kind in "biufcmM":
        values = np.ascontiguousarray(series.to_numpy())
        if dtype.kind in "fc":
            values = values.copy()
            values[np.isnan(values)] = np.nan  # one bit pattern for every NaN
        part(values.tobytes())
        return
    # Text, categorical, nullable and mixed columns: each value as text, plus a null mask.
    missing, lengths, data = _text_parts(series)
    part(np.packbits(missing).tobytes())
    part(lengths.astype("<i8").tobytes())
    part(data)


def content_id(frame: pd.DataFrame, roles: Roles) -> str:
    """SHA-256 hex digest of a table's columns, dtypes and values and of its roles.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table; its index is ignored.
    roles : Roles
        The role mapping, hashed through ``roles.to_dict()`` as canonical JSON.

    Returns
    -------
    str
        64 lower-case hex digits.

    Notes
    -----
    Every part is length-prefixed, so no two different tables serialise alike; NaN is
    canonicalised. Cost: one pass over the values, O(N K).
    """
    digest = hashlib.sha256(b"copa-dash dataset v1\0")
    roles_json = json.dumps(roles.to_dict(), sort_keys=True, separators=(",", ":"),
                            ensure_ascii=True, default=str)
    digest.update(len(roles_json).to_bytes(8, "little"))
    digest.update(roles_json.encode("ascii"))
    digest.update(int(frame.shape[0]).to_bytes(8, "little"))
    digest.update(int(frame.shape[1]).to_bytes(8, "little"))
    for position, name in enumerate(frame.columns):
        _update_with_column(digest, name, frame.iloc[:, position])
    return digest.hexdigest()


class _Files:
    """The few file operations the store needs, on a local directory or any fsspec URL.

    fsspec gives one interface over local disks and object stores; what it does not give
    is an atomic replace on a local disk (its ``pipe_file`` writes in place), so local
    writes go through a temporary file and :func:`os.replace` here. Object stores make a
    single PUT visible all at once, which is the same guarantee.
    """

    def __init__(self, url):
        self.url = str(url)
        fs, root = fsspec.core.url_to_fs(self.url)
        self.fs = fs
        self.local = isinstance(fs, LocalFileSystem)
        self.root = root.rstrip("/") or "/"
        for folder in ("objects", "records", "staging"):
            fs.makedirs(self.path(folder), exist_ok=True)

    def path(self, *parts: str) -> str:
        return "/".join((self.root.rstrip("/"), *parts))

    def read(self, path: str) -> bytes:
        return self.fs.cat_file(path)  # FileNotFoundError when missing

    def write(self, path: str, data: bytes) -> None:
        if not self.local:
            self.fs.pipe_file(path, data)
            return
        target = Path(path)
        fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=".tmp-",
                                         suffix=target.suffix)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            raise
        with contextlib.suppress(OSError):  # durability of the rename; not everywhere
            directory = os.open(target.parent, os.O_RDONLY)
            try:
                os.fsync(directory)
            finally:
                os.close(directory)

    def exists(self, path: str) -> bool:
        return self.fs.exists(path)

    def remove(self, path: str) -> None:
        self.fs.rm_file(path)  # FileNotFoundError when missing

    def names(self, folder: str, suffix: str) -> list[str]:
        """Stems of the files ``<folder>/<stem><suffix>`` (no temporary files)."""
        try:
            paths = self.fs.ls(self.path(folder) if folder else self.root, detail=False)
        except FileNotFoundError:
            return []
        names = (p.rstrip("/").rsplit("/", 1)[-1] for p in paths)
        return [n[:-len(suffix)] for n in names
                if n.endswith(suffix) and not n.startswith(".")]

    def age_seconds(self, path: str) -> float:
        modified = self.fs.modified(path)
        if modified.tzinfo is None:
            modified = modified.replace(tzinfo=timezone.utc)
        return (datetime.now(timezone.utc) - modified).total_seconds()

    @contextlib.contextmanager
    def lock(self):
        """Serialise read-modify-write of records between processes sharing a local disk.

        On an object store there is no lock: a record update is one PUT, and two owners
        renaming the same record at the same instant keep the last name.
        """
        if not self.local or fcntl is None:
            yield
            return
        with open(self.path(".metadata.lock"), "a+b") as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _parquet_bytes(frame: pd.DataFrame) -> bytes:
    buffer = io.BytesIO()
    try:
        frame.to_parquet(buffer, index=False)
    except (pa.ArrowException, ValueError) as error:  # e.g. a column mixing text and numbers
        raise InvalidInputError(f"the table cannot be stored: {error}") from error
    return buffer.getvalue()


#: Public fields of a record; the owner's token hash and the object id stay inside.
PUBLIC_FIELDS = ("id", "name", "shared", "created", "n_rows", "columns", "roles", "format",
                 "groups")

# A slider move opens its dataset again; for an upload that re-read Parquet and re-validated
# the table (about 10 ms for 3,000 rows) on every move. The last few tables read are kept,
# keyed by their object (its content id names its bytes for good) and roles. ``load``
# reads the record before looking here, so a deleted dataset is never served from memory.
# EvalTable hands out copies of its frame, so sharing one between requests is safe.
#: (store url, object id) -> (size and mtimes seen, damaged?): what damaged_objects checked
_verified_objects: dict[tuple[str, str], tuple[str, bool]] = {}
_recently_loaded = RecentValues(entries=4, share=0.4, name="uploaded tables")
_migrated: set[str] = set()
_reported: set[str] = set()


def _log_once(key: str, message: str, *args, **kwargs) -> None:
    """Log a damaged file once per process: a broken file is not a log flood."""
    if key not in _reported:
        _reported.add(key)
        logger.warning(message, *args, **kwargs)


class DatasetStore:
    """Uploaded tables with their owners, safe under several processes and hosts.

    Parameters
    ----------
    url : str or pathlib.Path
        A local directory (created when missing) or an fsspec URL such as
        ``s3://bucket/copa`` or ``memory://copa``.
    admin_token : str, optional
        A token that may delete, rename and share every dataset (``COPA_ADMIN_TOKEN``).

    Examples
    --------
    >>> store = DatasetStore("memory://doctest-store")
    >>> store.list()
    []
    """

    def __init__(self, url, *, admin_token: str | None = None):
        self.files = _Files(url)
        self.url = self.files.url
        self.admin_token = admin_token or None
        key = f"{os.getpid()}:{self.files.fs.protocol}:{self.files.root}"
        if key not in _migrated:
            self._migrate_format_1()
            _migrated.add(key)

    @property
    def root(self) -> Path:
        """The local directory of the store (only for a local store)."""
        return Path(self.files.root)

    # paths: only ever built from checked ids
    def _record_path(self, dataset_id: str) -> str:
        return self.files.path("records", f"{check_dataset_id(dataset_id)}.json")

    def _object_path(self, object_id: str) -> str:
        if not _CONTENT_ID.fullmatch(object_id or ""):
            raise DatasetDamagedError(f"the record points to a malformed object {object_id!r}")
        return self.files.path("objects", f"{object_id}.parquet")

    def _digest_path(self, object_id: str) -> str:
        self._object_path(object_id)  # checks the id
        return self.files.path("objects", f"{object_id}.sha256")

    def _write_object(self, object_id: str, data: bytes) -> None:
        """The object, then the digest of its bytes (a crash between: see _intact)."""
        self.files.write(self._object_path(object_id), data)
        self.files.write(self._digest_path(object_id),
                         hashlib.sha256(data).hexdigest().encode("ascii"))

    def _intact(self, object_id: str, data: bytes) -> bool:
        """True when ``data`` are the bytes stored for ``object_id``: they match its digest,
        or (no digest: written by an older version, or a crash before the digest) their
        Parquet footer reads."""
        try:
            expected = self.files.read(self._digest_path(object_id)).decode("ascii").strip()
        except (FileNotFoundError, UnicodeDecodeError):
            expected = ""
        if _CONTENT_ID.fullmatch(expected):
            return compare_digest(hashlib.sha256(data).hexdigest(), expected)
        try:
            pq.read_metadata(io.BytesIO(data))
        except (pa.ArrowException, OSError, ValueError):
            return False
        return True

    def _object_state(self, object_id: str) -> str:
        """``"ok"``, ``"missing"`` or ``"damaged"``: reads the object's bytes."""
        try:
            data = self.files.read(self._object_path(object_id))
        except FileNotFoundError:
            return "missing"
        return "ok" if self._intact(object_id, data) else "damaged"

    def damaged_objects(self) -> int:
        """How many stored objects are damaged (each object's bytes are hashed once per
        size and modification time in a process; later calls check only what changed)."""
        damaged = 0
        for stem in self.files.names("objects", ".parquet"):
            if not _CONTENT_ID.fullmatch(stem):
                continue
            path = self._object_path(stem)
            try:
                info = self.files.fs.info(path)
                digest_info = self.files.fs.info(self._digest_path(stem))
            except FileNotFoundError:
                digest_info = None
                try:
                    info = self.files.fs.info(path)
                except FileNotFoundError:  # deleted meanwhile
                    continue
            stamp = repr((info.get("size"), info.get("mtime") or info.get("LastModified"),
                          digest_info and (digest_info.get("size"),
                                           digest_info.get("mtime")
                                           or digest_info.get("LastModified"))))
            known = _verified_objects.get((self.url, stem))
            if known is None or known[0] != stamp:
                state = self._object_state(stem)
                known = (stamp, state == "damaged")
                _verified_objects[(self.url, stem)] = known
            damaged += known[1]
        return damaged

    def _read_record(self, dataset_id: str) -> dict:
        path = self._record_path(dataset_id)
        try:
            record = json.loads(self.files.read(path))
        except FileNotFoundError:
            raise DatasetNotFoundError(f"no dataset has the id {dataset_id!r}") from None
        except (ValueError, UnicodeDecodeError):
            _log_once(path, "dataset record %s cannot be read (damaged JSON)", path)
            raise DatasetDamagedError(
                f"the dataset {dataset_id!r} is damaged on the server and cannot be opened; "
                "upload the table again") from None
        if not isinstance(record, dict) or not isinstance(record.get("object"), str):
            _log_once(path, "dataset record %s has no object", path)
            raise DatasetDamagedError(
                f"the dataset {dataset_id!r} is damaged on the server and cannot be opened; "
                "upload the table again")
        return record

    def _damaged_record(self, dataset_id: str) -> dict:
        """What can be told of a record that does not parse: its owner's hash, when its
        text still holds it (so the owner can delete it), else nothing (the admin can)."""
        try:
            text = self.files.read(self._record_path(dataset_id)).decode("utf-8", "replace")
        except FileNotFoundError:
            raise DatasetNotFoundError(f"no dataset has the id {dataset_id!r}") from None
        owner = re.search(r'"owner":\s*"([0-9a-f]{64})"', text)
        stored = re.search(r'"object":\s*"([0-9a-f]{64})"', text)
        return {"id": dataset_id, "object": stored and stored.group(1),
                "owner": owner and owner.group(1), "damaged": True}

    def _write_record(self, record: dict) -> None:
        data = json.dumps(record, indent=1, sort_keys=True, default=str).encode("utf-8")
        self.files.write(self._record_path(record["id"]), data)

    def _referenced_objects(self) -> set[str]:
        objects = set()
        for stem in self.files.names("records", ".json"):
            with contextlib.suppress(Exception):  # a damaged record holds nothing
                objects.add(json.loads(self.files.read(self.files.path(
                    "records", f"{stem}.json")))["object"])
        return objects

    # ---- writing ---------------------------------------------------------------------

    def save(self, frame: pd.DataFrame, roles: Roles, *, name: str | None = None,
             shared: bool = False, owner_user: str | None = None) -> SavedDataset:
        """Validate a table, store its object once, and create a new record for it.

        Parameters
        ----------
        frame : pandas.DataFrame
            The table as read (``read_table``); validated with ``build_eval_table``.
        roles : Roles
            Which column is the id, which are objectives (with directions), and so on.
        name : str, optional
            A label shown in the dataset picker (cleaned by :func:`clean_name`).
        shared : bool
            Whether every user of the instance sees the dataset in the picker.
        owner_user : str, optional
            The signed-in user named by a trusted proxy (:mod:`copa_dash.client_identity`):
            they may change and delete the dataset from any browser, as the token allows.

        Returns
        -------
        SavedDataset
            The new record id (the link) and the owner token. The token is not kept
            (only its SHA-256): it is the caller's to hand to the uploader, once.

        Raises
        ------
        InvalidInputError
            If the table does not fit the roles, or the name is not acceptable.

        Notes
        -----
        Cost: validation, one hashing pass O(N K), one Parquet write when the content
        is new. Every call makes a new record, also for content already stored.
        """
        name = clean_name(name)
        table = build_eval_table(frame, roles)
        stored = table.frame.reset_index(drop=True)
        object_id = content_id(stored, table.roles)
        object_path = self._object_path(object_id)
        data = None
        wrote_object = False
        state = self._object_state(object_id)
        if state != "ok":
            if state == "damaged":
                logger.warning("the stored object %s was damaged: rewritten from an upload of "
                               "the same table", object_id)
            data = _parquet_bytes(stored)
            self._write_object(object_id, data)
            wrote_object = True
        token = secrets.token_urlsafe(32)
        record = {
            "format": _FORMAT, "id": secrets.token_hex(16), "object": object_id,
            "owner": _token_hash(token), "name": name, "shared": bool(shared),
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "n_rows": int(stored.shape[0]), "columns": [str(c) for c in stored.columns],
            "roles": table.roles.to_dict(), "owner_user": owner_user or None, "groups": [],
        }
        try:
            with self.files.lock():
                if not self.files.exists(object_path):  # its last other record went meanwhile
                    self._write_object(object_id, data or _parquet_bytes(stored))
                    wrote_object = True
                self._write_record(record)
        except BaseException:
            if wrote_object:
                with self.files.lock(), contextlib.suppress(Exception):
                    if object_id not in self._referenced_objects():
                        self._remove_object(object_id)
            raise
        return SavedDataset(id=record["id"], owner_token=token, object_id=object_id)

    def authorize(self, dataset_id: str, /, owner_token: str | None, *,
                  user: str | None = None) -> dict:
        """The record if ``owner_token`` is its owner's token or the admin token, or ``user``
        (named by a trusted proxy) is the user who uploaded it.

        Raises
        ------
        NotOwnerError
            If the token is missing or wrong (the message does not say which).
        """
        try:
            record = self._read_record(dataset_id)
        except DatasetDamagedError:
            record = self._damaged_record(dataset_id)
        token = owner_token if isinstance(owner_token, str) else ""
        owner_user = record.get("owner_user")
        if user and isinstance(owner_user, str) and compare_digest(user.encode(),
                                                                   owner_user.encode()):
            return record
        if token:
            if self.admin_token and compare_digest(token.encode(), self.admin_token.encode()):
                return record
            owner = record.get("owner")
            if isinstance(owner, str) and compare_digest(_token_hash(token), owner):
                return record
        raise NotOwnerError(
            "only the owner of this dataset can change or delete it: send the owner token "
            "you received when you uploaded it (header X-Copa-Owner-Token)")

    def _update(self, dataset_id: str, owner_token: str | None, *, user: str | None = None,
                **changes) -> dict:
        self.authorize(dataset_id, owner_token, user=user)
        with self.files.lock():
            record = self._read_record(dataset_id)
            record.update(changes)
            self._write_record(record)
        return _public(record)

    def rename(self, dataset_id: str, /, name: str | None, *, owner_token: str | None,
               user: str | None = None) -> dict:
        """Give the dataset a new label; returns its public fields."""
        return self._update(dataset_id, owner_token, user=user, name=clean_name(name))

    def set_shared(self, dataset_id: str, /, shared: bool, *,
                   owner_token: str | None, user: str | None = None) -> dict:
        """List the dataset for every user (True) or only for holders of its id (False)."""
        if not isinstance(shared, (bool, np.bool_)):
            raise InvalidInputError(f"'shared' must be true or false, not {shared!r}")
        return self._update(dataset_id, owner_token, user=user, shared=bool(shared))

    def set_groups(self, dataset_id: str, /, groups, *, owner_token: str | None,
                   user: str | None = None) -> dict:
        """List the dataset for the members of ``groups`` (as a trusted proxy names them)."""
        if not isinstance(groups, (list, tuple)) or not all(
                isinstance(g, str) and 0 < len(g.strip()) <= 200 for g in groups):
            raise InvalidInputError(
                f"'groups' must be a list of group names, such as [\"ml-team\"], not {groups!r}")
        return self._update(dataset_id, owner_token, user=user,
                            groups=sorted({g.strip() for g in groups}))

    def owned_by(self, user: str) -> list[dict]:
        """Public fields of the datasets ``user`` uploaded (signed in), newest first."""
        if not user:
            return []
        return [entry for entry in self.list(user=user) if entry.get("_mine")]

    def delete(self, dataset_id: str, /, *, owner_token: str | None,
               user: str | None = None) -> dict:
        """Remove the record (at once), then its object unless another record uses it.

        Returns the public fields of the removed record.
        """
        self.authorize(dataset_id, owner_token, user=user)
        with self.files.lock():
            try:
                record = self._read_record(dataset_id)
            except DatasetDamagedError:  # its owner (or the admin) removes what is left
                record = self._damaged_record(dataset_id)
            try:
                self.files.remove(self._record_path(dataset_id))
            except FileNotFoundError:
                raise DatasetNotFoundError(f"no dataset has the id {dataset_id!r}") from None
            if record["object"] and record["object"] not in self._referenced_objects():
                with contextlib.suppress(DatasetDamagedError):
                    self._remove_object(record["object"])
        return _public(record)

    def _remove_object(self, object_id: str) -> None:
        for path in (self._object_path(object_id), self._digest_path(object_id)):
            with contextlib.suppress(FileNotFoundError):
                self.files.remove(path)

    # ---- reading ---------------------------------------------------------------------

    def load(self, dataset_id: str, /) -> EvalTable:
        """The stored table with its roles.

        Raises
        ------
        InvalidInputError
            If the id is malformed; :class:`DatasetNotFoundError` if it is unknown;
            :class:`DatasetDamagedError` (naming the dataset) if its record or table
            cannot be read.
        """
        return self._load(self._read_record(dataset_id), dataset_id)

    def load_with_info(self, dataset_id: str, /) -> tuple[EvalTable, dict]:
        """:meth:`load` and :meth:`info` from one read of the record (what opening an
        upload needs on every request)."""
        record = self._read_record(dataset_id)
        return self._load(record, dataset_id), _public(record)

    def _load(self, record: dict, dataset_id: str) -> EvalTable:
        path = self._object_path(record["object"])
        key = (self.url, path, json.dumps(record.get("roles"), sort_keys=True))
        table = _recently_loaded.get(key)
        if table is not None:
            return table
        shown = record.get("name") or dataset_id
        try:
            data = self.files.read(path)
            if not self._intact(record["object"], data):
                raise ValueError("the object's bytes do not match its digest")
            frame = pd.read_parquet(io.BytesIO(data))
            roles = Roles.from_dict(record["roles"])
        except FileNotFoundError:
            _log_once(path, "the table %s of dataset %s is missing", path, dataset_id)
            raise DatasetDamagedError(
                f"the table of dataset {shown!r} is missing on the server; "
                "upload it again") from None
        except (pa.ArrowException, OSError, ValueError, KeyError, TypeError):
            _log_once(path, "the table %s of dataset %s cannot be read", path, dataset_id,
                      exc_info=True)
            raise DatasetDamagedError(
                f"the table of dataset {shown!r} is damaged on the server and cannot be "
                "read; upload it again") from None
        return _recently_loaded.put(key, EvalTable(frame=frame, roles=roles),
                                    nbytes=int(frame.memory_usage(deep=True).sum()))

    def info(self, dataset_id: str, /) -> dict:
        """Public fields: ``id, name, shared, created, n_rows, columns, roles, format``."""
        return _public(self._read_record(dataset_id))

    def exists(self, dataset_id: str, /) -> bool:
        """True when a dataset has this id (False for a malformed id)."""
        try:
            return self.files.exists(self._record_path(dataset_id))
        except InvalidInputError:
            return False

    def list(self, *, shared_only: bool = False, user: str | None = None,
             groups=()) -> list[dict]:
        """Public fields of the stored datasets, newest first; damaged records skipped.

        With ``shared_only``: those shared with everyone, shared with one of ``groups``, or
        uploaded by ``user``. With ``user``, each entry also says ``_mine``.
        """
        groups = set(groups or ())
        entries = []
        for stem in self.files.names("records", ".json"):
            if not _RECORD_ID.fullmatch(stem):
                continue
            try:
                record = self._read_record(stem)
            except (DatasetNotFoundError, DatasetDamagedError):  # deleted meanwhile; damaged
                continue
            mine = bool(user) and record.get("owner_user") == user
            in_group = bool(groups.intersection(record.get("groups") or ()))
            if record.get("shared") is True or mine or in_group or not shared_only:
                entry = _public(record)
                if user:
                    entry["_mine"] = mine
                entries.append(entry)
        entries.sort(key=lambda s: (str(s.get("created") or ""), s["id"]), reverse=True)
        return entries

    def count(self) -> int:
        """How many datasets the store holds (reads the listing: raises if it cannot)."""
        self.files.fs.ls(self.files.path("records"), detail=False)
        return sum(1 for stem in self.files.names("records", ".json")
                   if _RECORD_ID.fullmatch(stem))

    # ---- staged uploads ------------------------------------------------------------

    def stage(self, data: bytes, suffix: str = "", *, client: str | None = None,
              total_bytes: int | None = None, client_bytes: int | None = None) -> str:
        """Keep the bytes of an upload until its roles are chosen; returns their SHA-256.

        The bytes live in the store, not on one host, so the save can reach any instance.
        Staged files older than a day are removed here. With quotas, see
        :meth:`stage_within`.
        """
        return self.stage_within(data, suffix, client=client, total_bytes=total_bytes,
                                 client_bytes=client_bytes)[0]

    def stage_within(self, data: bytes, suffix: str = "", *, client: str | None = None,
                     total_bytes: int | None = None,
                     client_bytes: int | None = None) -> tuple[str, int]:
        """:meth:`stage` within quotas: ``(token, how many older staged files went)``.

        Parameters
        ----------
        client : str, optional
            Who stages (a user or an address, :mod:`copa_dash.client_identity`); kept
            as 12 hex digits of its hash in the file's name.
        total_bytes, client_bytes : int, optional
            Most bytes staged in all, and by this client; the oldest staged files (of
            this client first, then of anyone) are removed to make room.

        Raises
        ------
        InvalidInputError
            If ``data`` alone is larger than a quota.
        """
        for quota in (total_bytes, client_bytes):
            if quota is not None and len(data) > quota:
                raise InvalidInputError(
                    f"the file ({len(data) / 2**20:.1f} MB) is larger than the space for "
                    f"uploads waiting to be saved ({quota / 2**20:.0f} MB); upload a smaller "
                    "table")
        token = hashlib.sha256(data).hexdigest()
        tag = hashlib.sha256((client or "").encode("utf-8")).hexdigest()[:12]
        path = self._staging_path(token, suffix, tag)
        self._clean_staging()
        evicted = 0
        with self.files.lock():
            staged = self._staged_files()
            staged = [entry for entry in staged if entry[0] != path]
            if client_bytes is not None:
                mine = [entry for entry in staged if entry[0].endswith(f".{tag}.upload")]
                evicted += self._evict(mine, len(data), client_bytes, staged)
            if total_bytes is not None:
                evicted += self._evict(list(staged), len(data), total_bytes, staged)
            if not self.files.exists(path):
                self.files.write(path, data)
        if evicted:
            logger.info("staging quota: removed %d older staged upload(s)", evicted)
        return token, evicted

    def _staged_files(self) -> list[tuple[str, int, float]]:
        """``(path, size, modified)`` of every staged file, oldest first."""
        entries = []
        for stem in self.files.names("staging", ".upload"):
            path = self.files.path("staging", f"{stem}.upload")
            try:
                info = self.files.fs.info(path)
                modified = self.files.fs.modified(path).timestamp()
            except (FileNotFoundError, OSError):  # removed meanwhile
                continue
            entries.append((path, int(info.get("size") or 0), modified))
        entries.sort(key=lambda entry: entry[2])
        return entries

    def _evict(self, candidates, incoming: int, quota: int, staged: list) -> int:
        """Remove the oldest of ``candidates`` until ``incoming`` more bytes fit ``quota``
        (counted over ``candidates``); removed entries leave ``staged`` too."""
        used = sum(size for _, size, _ in candidates)
        removed = 0
        for entry in candidates:
            if used + incoming <= quota:
                break
            with contextlib.suppress(FileNotFoundError):
                self.files.remove(entry[0])
            used -= entry[1]
            removed += 1
            if entry in staged:
                staged.remove(entry)
        return removed

    def staged(self, token: str, suffix: str = "") -> bytes:
        """The staged bytes; :class:`InvalidInputError` if they expired (or were evicted)."""
        expired = InvalidInputError("the upload expired: choose the file again")
        if not isinstance(token, str) or not _STAGING_TOKEN.fullmatch(token):
            raise expired
        try:
            return self.files.read(self._staging_path(token, suffix))
        except FileNotFoundError:
            pass
        head = self._staging_path(token, suffix).rsplit("/", 1)[-1][:-len(".upload")]
        for stem in self.files.names("staging", ".upload"):
            if stem.startswith(head + ".") and len(stem) == len(head) + 13:
                with contextlib.suppress(FileNotFoundError):
                    return self.files.read(self.files.path("staging", f"{stem}.upload"))
        raise expired

    def _staging_path(self, token: str, suffix: str, tag: str | None = None) -> str:
        tail = re.sub(r"[^a-z0-9]", "-", (suffix or "").lower())[:12]
        client = f".{tag}" if tag else ""
        return self.files.path("staging", f"{token}{tail}{client}.upload")

    def _clean_staging(self) -> None:
        for stem in self.files.names("staging", ".upload"):
            path = self.files.path("staging", f"{stem}.upload")
            with contextlib.suppress(Exception):  # another process removed it; no mtime
                if self.files.age_seconds(path) > STAGING_TTL_SECONDS:
                    self.files.remove(path)

    # ---- migration -----------------------------------------------------------------

    def _migrate_format_1(self) -> None:
        """Move datasets of format 1 (``<id>.json`` + ``<id>.parquet`` in the root) into
        ``objects/`` and ``records/``, keeping their id; they get no owner.

        Each step is safe to repeat: the object is placed first, the record written,
        the old sidecar removed last, so a crash midway is finished by the next start.
        """
        legacy = [stem for stem in self.files.names("", ".json")
                  if _CONTENT_ID.fullmatch(stem)]
        if not legacy:
            return
        with self.files.lock():
            for old_id in legacy:
                old_sidecar = self.files.path(f"{old_id}.json")
                old_table = self.files.path(f"{old_id}.parquet")
                try:
                    sidecar = json.loads(self.files.read(old_sidecar))
                except FileNotFoundError:  # migrated by another process meanwhile
                    continue
                except (ValueError, UnicodeDecodeError):
                    _log_once(old_sidecar, "cannot migrate the damaged sidecar %s",
                              old_sidecar)
                    continue
                target = self._object_path(old_id)
                if not self.files.exists(target):
                    if not self.files.exists(old_table):
                        _log_once(old_sidecar, "cannot migrate %s: its table is missing",
                                  old_sidecar)
                        continue
                    self._write_object(old_id, self.files.read(old_table))
                record = {key: sidecar.get(key) for key in PUBLIC_FIELDS}
                record.update(format=_FORMAT, id=old_id, object=old_id, owner=None,
                              shared=bool(sidecar.get("shared")))
                self._write_record(record)
                for path in (old_sidecar, old_table):
                    with contextlib.suppress(FileNotFoundError):
                        self.files.remove(path)
                logger.info("moved dataset %s to the store format %d", old_id, _FORMAT)


def _public(record: dict) -> dict:
    return {key: record.get(key) for key in PUBLIC_FIELDS}


# Every request that opens an upload used to build its own store handle: fsspec's set-up,
# three makedirs (object-store requests on S3) and the format check, on every slider move. The
# handle holds no dataset state (each read goes to the records), so one per store location
# and process serves every request; a local store whose folders were removed is opened anew.
_OPEN_STORES: OrderedDict = OrderedDict()
_OPEN_STORES_KEPT = 8
_open_stores_guard = threading.Lock()


def open_store(settings) -> DatasetStore:
    """The dataset store of an instance: ``settings.store_url`` and its admin token (one
    handle per location in this process, see :func:`forget_open_stores`)."""
    key = (os.getpid(), str(settings.store_url), settings.admin_token or None)
    with _open_stores_guard:
        kept = _OPEN_STORES.get(key)
        if kept is not None:
            _OPEN_STORES.move_to_end(key)
    if kept is not None and (not kept.files.local
                             or os.path.isdir(kept.files.path("records"))):
        return kept
    kept = DatasetStore(settings.store_url, admin_token=settings.admin_token)
    with _open_stores_guard:
        _OPEN_STORES[key] = kept
        while len(_OPEN_STORES) > _OPEN_STORES_KEPT:
            _OPEN_STORES.popitem(last=False)
    return kept


def forget_open_stores() -> None:
    """Drop the kept store handles (the next :func:`open_store` builds a new one)."""
    with _open_stores_guard:
        _OPEN_STORES.clear()
