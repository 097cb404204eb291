"""Component ids of the upload page, one place."""

from __future__ import annotations

from copa_dash.ui.common.ids import PageIds


class UploadIds(PageIds, prefix="upload"):
    """Ids of the upload page."""

    FILE: str
    ALERT: str
    PREVIEW: str
    PREVIEW_NOTE: str                 # how many columns the preview leaves out
    MAPPING: str
    ID_COLUMN: str
    ID_NOTE: str
    ROLE: str                         # pattern: {"type": ROLE, "column": name}
    DIRECTION: str                    # pattern
    DIRECTION_CELL: str               # pattern: holds DIRECTION, shown for objectives
    NAME: str
    SHARED: str
    CHECK: str                        # live: how many objectives the mapping has
    SAVE: str
    SAVE_ERROR: str                   # apart from RESULT: a refused save keeps an earlier link
    STAGED: str
    RESULT: str


class UploadReadIds(PageIds, prefix="upload"):
    """Ids of what issue 16 added: the paste box, the "What we read" panel, the runs choice,
    and the navigation to the explorer after a save."""

    PASTE_TEXT: str
    PASTE_READ: str
    READ_NOTES: str
    RUNS: str
    GO: str                           # dcc.Store: "Save and explore" goes to the explorer
    SAVED: str                        # the saved upload's summary (/upload?saved=ID)
    KEEP_ZEROS: str                   # "Keep 0 as a value" in time or amount columns


class UploadSourceIds(PageIds, prefix="upload"):
    """Ids of the form that reads a table where results live (Optuna, MLflow, lm-eval)."""

    SOURCE_KIND: str
    SOURCE_LOCATION: str
    SOURCE_NAME: str
    SOURCE_READ: str
class UploadMoreIds(PageIds, prefix="upload"):
    """Ids of a wide table's "More columns" section (issue 29)."""

    MORE: str                         # html.Details holding the columns past the short set
    MORE_SUMMARY: str                 # its heading: how many, and what they are taken as
    MORE_ROLE: str                    # one control: all of them metadata or objectives
    FAMILIES: str                     # the column families (race-*) taken as objectives
    GROUPS: str                       # dcc.Store: {"more": [...], "families": {...}}


class UploadTableIds(PageIds, prefix="upload-table"):
    """Ids of the role tables shown a page at a time (role_table), over one store of the
    mapping; the patterned ones are ``{"type": ..., "table": "short" or "more"}``."""

    MAPPING: str                      # dcc.Store: every column's role and direction
    NOTES: str                        # dcc.Store: how sure / why per column, the tables' columns
    ROWS: str                         # pattern: the shown page's rows (a Tbody)
    FIND: str                         # pattern: find a column by its name
    PREVIOUS: str                     # pattern
    NEXT: str                         # pattern
    WHERE: str                        # pattern: "columns 31-60 of 115"
    PAGE: str                         # pattern: dcc.Store, the page shown (from 0)
