"""The bundled datasets: read ``datasets/manifest.json`` and load its tables.

Bundled tables go through the same reader as uploads (:func:`copa_dash.data.io.read_table`
and :func:`copa_dash.data.io.build_eval_table`), so they obey the same rules.

Where the datasets live
-----------------------
The environment variable ``COPA_DATASETS_DIR`` names the folder holding ``manifest.json``
and the tables. Without it, the repository's ``datasets/`` folder next to the package is
used (``<repo>/datasets`` for a checkout or an editable install, ``pip install -e .``, whose
copy the Docker image holds too; the copy inside the package for an installed wheel, see
:mod:`copa_dash.data.package_files`). The manifest is read on every call: it is small, and a
module-level cache would not be shared between gunicorn workers anyway.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import InvalidInputError
from .io import build_eval_table, read_table
from .package_files import shipped_folder
from .schema import SINGLE_ROLES, DefaultView, EvalTable, Objective, Roles

ENV_VAR = "COPA_DATASETS_DIR"
MANIFEST = "manifest.json"
_REQUIRED = ("name", "title", "description", "source", "licence", "file", "id", "objectives",
             "default_view", "n_rows")


@dataclass(frozen=True)
class DatasetInfo:
    """What the manifest says about one bundled table.

    ``n_rows`` is None only for an entry whose table has not been generated yet;
    ``paired_metrics`` lists the metrics ``m`` with ``val_m`` / ``test_m`` columns.
    """

    name: str
    title: str
    description: str
    source: str
    licence: str
    file: str
    n_rows: int | None
    roles: Roles
    default_view: DefaultView
    paired_metrics: tuple[str, ...] = field(default=())

    @property
    def path(self) -> Path:
        """Absolute path of the table in the current datasets folder."""
        return datasets_dir() / self.file


def datasets_dir() -> Path:
    """The folder of the bundled datasets: ``$COPA_DATASETS_DIR``, else the shipped one.

    Returns
    -------
    pathlib.Path
        A folder that holds ``manifest.json``.

    Raises
    ------
    InvalidInputError
        If the folder has no ``manifest.json``.
    """
    configured = os.environ.get(ENV_VAR)
    folder = Path(configured) if configured else shipped_folder("datasets")
    if not (folder / MANIFEST).is_file():
        hint = f"{ENV_VAR}={configured!r}" if configured else \
            f"set {ENV_VAR} to the folder holding {MANIFEST}"
        raise InvalidInputError(f"no bundled datasets: {folder / MANIFEST} does not exist ({hint})")
    return folder


def _info(entry: dict) -> DatasetInfo:
    name = entry.get("name", "?") if isinstance(entry, dict) else "?"
    if not isinstance(entry, dict):
        raise InvalidInputError("every manifest entry must be a JSON object")
    missing = [k for k in _REQUIRED if k not in entry]
    if missing:
        raise InvalidInputError(f"manifest entry {name!r} lacks {', '.join(missing)}")
    single = {role: (entry.get("roles") or {}).get(role) for role in SINGLE_ROLES}
    roles = Roles(id=entry["id"],
                  objectives=tuple(Objective.from_dict(o) for o in entry["objectives"]),
                  metadata=tuple(entry.get("metadata") or ()), **single)
    view = DefaultView.from_dict(entry["default_view"])
    view.check_against(roles)
    return DatasetInfo(name=name, title=entry["title"], description=entry["description"],
                       source=entry["source"], licence=entry["licence"], file=entry["file"],
                       n_rows=entry["n_rows"], roles=roles, default_view=view,
                       paired_metrics=tuple(entry.get("paired_metrics") or ()))


def _manifest() -> list[DatasetInfo]:
    path = datasets_dir() / MANIFEST
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))["datasets"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InvalidInputError(f"{path} is not a valid manifest: {exc}") from None
    return [_info(e) for e in entries]


def list_datasets(*, include_missing: bool = False) -> list[DatasetInfo]:
    """The bundled datasets, in manifest order.

    Parameters
    ----------
    include_missing : bool, default False
        Also list entries whose table file is absent (a generated table that has not
        been generated yet); by default only loadable datasets are listed.

    Returns
    -------
    list of DatasetInfo

    Raises
    ------
    InvalidInputError
        If the datasets folder or its manifest is missing or malformed.

    Examples
    --------
    >>> "copa-synthetic" in [d.name for d in list_datasets()]
    True
    """
    infos = _manifest()
    if include_missing:
        return infos
    folder = datasets_dir()
    return [i for i in infos if (folder / i.file).is_file()]


def load_bundled(name: str, /) -> tuple[EvalTable, DatasetInfo]:
    """Load the bundled dataset ``name`` through the upload reader.

    Parameters
    ----------
    name : str
        A manifest name, e.g. ``"open-llm-leaderboard-v2"``.

    Returns
    -------
    (EvalTable, DatasetInfo)
        The table with the manifest's roles, and the manifest entry.

    Raises
    ------
    InvalidInputError
        If ``name`` is not in the manifest (the message lists the known names), its
        file is missing, or the table breaks the reader's rules.

    Notes
    -----
    Reads the file with :func:`copa_dash.data.io.read_table` (same limits and parsing as
    an upload) and assigns roles with :func:`copa_dash.data.io.build_eval_table`.
    Cost: one CSV parse, O(rows x columns).

    Examples
    --------
    >>> table, info = load_bundled("copa-synthetic")
    >>> table.directions, info.default_view.focus
    (('min', 'min'), ('y1',))
    """
    infos = {i.name: i for i in _manifest()}
    if not isinstance(name, str) or name not in infos:
        path_like = isinstance(name, str) and ("/" in name or "\\" in name or "." in name)
        raise InvalidInputError(
            f"unknown bundled dataset {name!r}; known datasets: {', '.join(infos)}"
            + (". A file of your own is read from its path, given without --dataset (the "
               "command line) or dropped on the Upload page." if path_like else ""))
    info = infos[name]
    path = datasets_dir() / info.file
    if not path.is_file():
        raise InvalidInputError(
            f"bundled dataset {name!r}: its file {info.file} is missing from {path.parent}")
    # curated: failures are flagged by the table's own rule (PROVENANCE.md), not left out
    frame = read_table(path, filename=info.file, leave_out_failed=False)
    return build_eval_table(frame, info.roles), info
