"""Uploaded datasets on disk, addressed by a hash of their content and roles.

Layout of ``root`` (one flat directory, shared by every gunicorn worker)::

    <id>.parquet     the validated table (no index)
    <id>.json        the sidecar: roles, name, shared, created, n_rows, columns
    .tmp-*           files being written; never read, removed on failure
    .metadata.lock   serialises read-modify-write of sidecars across processes

A dataset exists exactly when its sidecar exists. Saving writes the table first and the
sidecar last, each to a temporary file in ``root`` that is flushed, fsynced and moved
into place with :func:`os.replace` (atomic on POSIX), so a reader in another process
sees either nothing or a complete dataset, never a partial file. Nothing is ever
unpickled: tables are Parquet, metadata is JSON.

The id is the SHA-256 (64 hex digits) of a canonical serialisation of the validated
table (column names, dtypes and values in order; the index is ignored) and of the role
mapping, so it cannot be guessed without the content, and saving the same content twice
returns the same id without rewriting anything. Ids are checked against ``[0-9a-f]{64}``
before any path is built from them.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from ..core.errors import InvalidInputError
from ..data.io import build_eval_table
from ..data.schema import EvalTable, Roles
from .recent import RecentValues

try:  # POSIX; on other systems metadata updates are atomic but not serialised
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

_ID_PATTERN = re.compile(r"[0-9a-f]{64}")
_FORMAT = 1
MAX_NAME_LENGTH = 200


class DatasetNotFoundError(InvalidInputError):
    """The id is well formed but no dataset in the store has it (the API answers 404)."""


def check_dataset_id(dataset_id) -> str:
    """Return ``dataset_id`` if it is 64 lower-case hex digits, else raise InvalidInputError.

    Examples
    --------
    >>> check_dataset_id("0" * 64) == "0" * 64
    True
    """
    if not isinstance(dataset_id, str) or not _ID_PATTERN.fullmatch(dataset_id):
        shown = str(dataset_id)[:80]
        raise InvalidInputError(
            f"'dataset_id' must be 64 lower-case hexadecimal characters, not {shown!r}")
    return dataset_id


def _check_name(name) -> str | None:
    if name is None:
        return None
    if not isinstance(name, str):
        raise InvalidInputError(f"'name' must be text, not {type(name).__name__}")
    name = " ".join(name.split())  # no newlines or control whitespace in a label
    if len(name) > MAX_NAME_LENGTH:
        raise InvalidInputError(
            f"'name' must have at most {MAX_NAME_LENGTH} characters, but it has {len(name)}")
    return name or None


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


def _fsync_directory(directory: Path) -> None:
    with contextlib.suppress(OSError):  # not supported everywhere; durability only
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_parquet(frame: pd.DataFrame, handle) -> None:
    try:
        frame.to_parquet(handle, index=False)
    except (pa.ArrowException, ValueError) as error:  # e.g. a column mixing text and numbers
        raise InvalidInputError(f"the table cannot be stored: {error}") from error


def _write_atomically(target: Path, write) -> None:
    """Call ``write(file)`` on a temporary file beside ``target``, then move it in place."""
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=target.suffix)
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    _fsync_directory(target.parent)


# A slider move opens its dataset again; for an upload that re-read Parquet and re-validated
# the table (about 10 ms for 3,000 rows) on every move. The last few tables read are kept,
# keyed by their file (path, mtime, size) and roles: a dataset's file never changes under its
# content id, and ``load`` checks the file still exists before looking here. EvalTable hands
# out copies of its frame, so sharing one between requests is safe.
_recently_loaded = RecentValues(entries=4, share=0.4, name="uploaded tables")


class DatasetStore:
    """Content-addressed store of uploaded tables, safe under several processes.

    Parameters
    ----------
    root : pathlib.Path
        Directory of the store; created when missing.

    Examples
    --------
    >>> import tempfile
    >>> store = DatasetStore(Path(tempfile.mkdtemp()))
    >>> store.list()
    []
    """

    def __init__(self, root: Path):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)

    # paths: only ever built from a checked id
    def _table_path(self, dataset_id: str) -> Path:
        return self.root / f"{check_dataset_id(dataset_id)}.parquet"

    def _sidecar_path(self, dataset_id: str) -> Path:
        return self.root / f"{check_dataset_id(dataset_id)}.json"

    @contextlib.contextmanager
    def _metadata_lock(self):
        if fcntl is None:  # pragma: no cover - Windows
            yield
            return
        with open(self.root / ".metadata.lock", "a+b") as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    def _read_sidecar(self, dataset_id: str) -> dict:
        path = self._sidecar_path(dataset_id)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise DatasetNotFoundError(f"no dataset has the id {dataset_id!r}") from None
        return json.loads(text)

    def _write_sidecar(self, sidecar: dict) -> None:
        data = json.dumps(sidecar, indent=1, sort_keys=True, default=str).encode("utf-8")
        _write_atomically(self._sidecar_path(sidecar["id"]), lambda handle: handle.write(data))

    def save(self, frame: pd.DataFrame, roles: Roles, *, name: str | None = None,
             shared: bool = False) -> str:
        """Validate a table, store it once, and return its content id.

        Parameters
        ----------
        frame : pandas.DataFrame
            The table as read (``read_table``); validated with ``build_eval_table``.
        roles : Roles
            Which column is the id, which are objectives (with directions), and so on.
        name : str, optional
            A label shown in the dataset picker (at most 200 characters).
        shared : bool
            Whether every user of the instance sees the dataset in the picker.

        Returns
        -------
        str
            The dataset id (64 hex digits). Saving the same table with the same roles
            again returns the same id and leaves the stored files, name and sharing as
            they are (use :meth:`rename` and :meth:`set_shared` to change those).

        Raises
        ------
        InvalidInputError
            If the table does not fit the roles, or the name is not acceptable.

        Notes
        -----
        Cost: validation, one hashing pass O(N K), and one Parquet write.
        """
        name = _check_name(name)
        table = build_eval_table(frame, roles)
        stored = table.frame.reset_index(drop=True)
        dataset_id = content_id(stored, table.roles)
        sidecar_path = self._sidecar_path(dataset_id)
        if sidecar_path.exists():
            return dataset_id
        table_path = self._table_path(dataset_id)
        table_existed = table_path.exists()  # e.g. another process is saving it right now
        try:
            # Identical content gives identical bytes, so rewriting a table another process
            # just wrote is harmless; each replace is atomic.
            _write_atomically(table_path, lambda handle: _write_parquet(stored, handle))
            with self._metadata_lock():
                if not sidecar_path.exists():
                    self._write_sidecar({
                        "format": _FORMAT, "id": dataset_id, "name": name,
                        "shared": bool(shared),
                        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                        "n_rows": int(stored.shape[0]),
                        "columns": [str(c) for c in stored.columns],
                        "roles": table.roles.to_dict(),
                    })
        except BaseException:
            # Leave nothing behind, unless another process completed the same dataset.
            if not table_existed and not sidecar_path.exists():
                with contextlib.suppress(FileNotFoundError):
                    table_path.unlink()
            raise
        return dataset_id

    def load(self, dataset_id: str, /) -> EvalTable:
        """The stored table with its roles.

        Raises
        ------
        InvalidInputError
            If the id is malformed; :class:`DatasetNotFoundError` if it is unknown.
        """
        sidecar = self._read_sidecar(dataset_id)
        path = self._table_path(dataset_id)
        try:
            stamp = path.stat()
        except FileNotFoundError:  # deleted between the two reads
            raise DatasetNotFoundError(f"no dataset has the id {dataset_id!r}") from None
        key = (str(path.resolve()), stamp.st_mtime_ns, stamp.st_size, json.dumps(sidecar["roles"]))
        table = _recently_loaded.get(key)
        if table is None:
            try:
                frame = pd.read_parquet(path)
            except FileNotFoundError:
                raise DatasetNotFoundError(f"no dataset has the id {dataset_id!r}") from None
            roles = Roles.from_dict(sidecar["roles"])
            table = _recently_loaded.put(key, EvalTable(frame=frame, roles=roles),
                                         nbytes=int(frame.memory_usage(deep=True).sum()))
        return table

    def info(self, dataset_id: str, /) -> dict:
        """The sidecar: ``id, name, shared, created, n_rows, columns, roles, format``."""
        return self._read_sidecar(dataset_id)

    def exists(self, dataset_id: str, /) -> bool:
        """True when a dataset has this id (False for a malformed id)."""
        try:
            return self._sidecar_path(dataset_id).exists()
        except InvalidInputError:
            return False

    def list(self, *, shared_only: bool = False) -> list[dict]:
        """Sidecars of the stored datasets, newest first."""
        entries = []
        for path in self.root.glob("*.json"):
            if not _ID_PATTERN.fullmatch(path.stem):
                continue
            try:
                sidecar = json.loads(path.read_text(encoding="utf-8"))
            except FileNotFoundError:  # deleted meanwhile
                continue
            if sidecar.get("shared") or not shared_only:
                entries.append(sidecar)
        entries.sort(key=lambda s: (s.get("created") or "", s["id"]), reverse=True)
        return entries

    def count(self) -> int:
        """How many datasets the store holds."""
        return sum(1 for path in self.root.glob("*.json") if _ID_PATTERN.fullmatch(path.stem))

    def _update(self, dataset_id: str, **changes) -> dict:
        with self._metadata_lock():
            sidecar = self._read_sidecar(dataset_id)
            sidecar.update(changes)
            self._write_sidecar(sidecar)
        return sidecar

    def rename(self, dataset_id: str, /, name: str | None) -> dict:
        """Give the dataset a new label; returns the updated sidecar."""
        return self._update(dataset_id, name=_check_name(name))

    def set_shared(self, dataset_id: str, /, shared: bool) -> dict:
        """Show the dataset to every user (True) or only to holders of its id (False)."""
        if not isinstance(shared, (bool, np.bool_)):
            raise InvalidInputError(f"'shared' must be true or false, not {shared!r}")
        return self._update(dataset_id, shared=bool(shared))

    def delete(self, dataset_id: str, /) -> None:
        """Remove the dataset (the sidecar first, so it disappears at once)."""
        with self._metadata_lock():
            sidecar_path = self._sidecar_path(dataset_id)
            try:
                sidecar_path.unlink()
            except FileNotFoundError:
                raise DatasetNotFoundError(f"no dataset has the id {dataset_id!r}") from None
            with contextlib.suppress(FileNotFoundError):
                self._table_path(dataset_id).unlink()
        _fsync_directory(self.root)
