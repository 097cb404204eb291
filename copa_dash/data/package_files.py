"""The folders copa-dash ships beside its code: the bundled ``datasets`` and the app's ``assets``.

The repository keeps them at its top level (``datasets/``, ``assets/``: the one copy that is
edited). A built wheel carries a copy of each inside the package, ``copa_dash/_shipped/NAME``
(copied there by ``setup.py`` at build time), found with :mod:`importlib.resources`; a
checkout or an editable install (``pip install -e .``) has no such copy and reads the
repository's folder.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ..core.errors import InvalidInputError

SHIPPED = "_shipped"
FOLDERS = ("datasets", "assets")


def shipped_folder(name: str) -> Path:
    """The folder ``name`` ("datasets" or "assets") of this installation.

    Parameters
    ----------
    name : str
        One of :data:`FOLDERS`.

    Returns
    -------
    pathlib.Path
        ``<site-packages>/copa_dash/_shipped/<name>`` for an installed wheel, else the
        repository's ``<name>/`` beside the package.

    Raises
    ------
    InvalidInputError
        If neither exists (a wheel built without its data, or a checkout without the folder).

    Examples
    --------
    >>> (shipped_folder("datasets") / "manifest.json").is_file()
    True
    """
    if name not in FOLDERS:
        raise ValueError(f"'name' must be one of {FOLDERS}, not {name!r}")
    packaged = resources.files("copa_dash") / SHIPPED / name
    if packaged.is_dir():
        # a wheel installs as plain files, so the traversable is a real folder that Flask
        # (assets) and the table readers (datasets) can open by path
        return Path(str(packaged))
    checkout = Path(__file__).resolve().parents[2] / name
    if checkout.is_dir():
        return checkout
    raise InvalidInputError(
        f"copa-dash's {name} folder is missing: neither {packaged} (an installed wheel) nor "
        f"{checkout} (a checkout) exists; reinstall copa-dash")
