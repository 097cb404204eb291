"""Component ids of the Datasets page (the landing page)."""

from __future__ import annotations


class DatasetsIds:
    """Ids of the catalogue, the "Your uploads" section and the delete confirmation."""

    NAV = "datasets-nav"                # dcc.Location: a clicked row opens the explorer
    SEARCH = "datasets-search"
    COUNT = "datasets-count"
    TABLE = "datasets-table"
    MINE = "datasets-mine"
    DELETE = "datasets-delete"          # pattern-matching: {"type": DELETE, "index": id}
    CONFIRM = "datasets-delete-confirm"
    PENDING = "datasets-delete-pending"  # the upload the open confirmation is about
    MESSAGE = "datasets-mine-message"
