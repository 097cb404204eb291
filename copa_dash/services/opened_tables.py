"""A table handed to ``copa-dash serve`` on the command line: stored, then opened by link.

Any way of getting a table (a file here; a tracker source once ``copa_dash.data.sources``
hands over a frame and its roles) ends in :func:`store_table`, which saves it in the
instance's dataset store as the upload page would and returns the explorer's link.
"""

from __future__ import annotations

from pathlib import Path

from ..core.errors import InvalidInputError
from ..data import io
from ..data.proposal import prepare_frame
from ..data.schema import Roles
from .store import open_store
from .uploads import check_objective_count, dataset_name_from, limits_from, read_and_propose
from .uploads import with_units as roles_with_units
from .views.links import dataset_link


def store_table(settings, frame, roles: Roles, *, name: str) -> str:
    """Save ``frame`` with ``roles`` in the instance's store; return the explorer's path.

    Parameters
    ----------
    settings : Settings
        The instance (its store).
    frame : pandas.DataFrame
        The table, its columns named as ``roles`` says.
    roles : Roles
        Id, objectives with directions, and the other roles.
    name : str
        The name the dataset picker shows.

    Returns
    -------
    str
        ``/explore?dataset=ID``: the record is not shared in the picker, the link opens it.

    Raises
    ------
    InvalidInputError
        If fewer than two objectives are chosen or the table does not fit the roles.
    """
    check_objective_count(frame, roles)
    saved = open_store(settings).save(frame, roles, name=name, shared=False)
    return dataset_link("explore", saved.id)


def store_table_file(settings, path) -> str:
    """Read the table file ``path`` as the upload page would, with its guessed roles
    (objectives without a guessed direction are left out), and :func:`store_table` it.

    Raises
    ------
    InvalidInputError
        If the file cannot be read, or fewer than two objectives have a guessed direction
        (the message names them: choose their directions on the upload page instead).
    """
    path = Path(path)
    if not path.is_file():
        raise InvalidInputError(f"no such table file: {path}")
    data = path.read_bytes()
    read, proposal = read_and_propose(data, path.name, limits_from(settings))
    roles = proposal.roles(skip_undecided=True)
    frame = prepare_frame(read.frame, proposal, roles)
    roles = roles_with_units(roles, read)
    io.build_eval_table(frame, roles)  # every role error before anything is stored
    return store_table(settings, frame, roles, name=dataset_name_from(path.name))
