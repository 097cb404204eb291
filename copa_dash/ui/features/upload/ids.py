"""Component ids of the upload page, one place."""

from __future__ import annotations


class UploadIds:
    """Ids of the upload page."""

    FILE = "upload-file"
    ALERT = "upload-alert"
    PREVIEW = "upload-preview"
    MAPPING = "upload-mapping"
    ID_COLUMN = "upload-id-column"
    ID_NOTE = "upload-id-note"
    ROLE = "upload-role"              # pattern: {"type": ROLE, "column": name}
    DIRECTION = "upload-direction"    # pattern
    DIRECTION_CELL = "upload-direction-cell"  # pattern: holds DIRECTION, shown for objectives
    NAME = "upload-name"
    SHARED = "upload-shared"
    CHECK = "upload-check"            # live: how many objectives the mapping has
    SAVE = "upload-save"
    SAVE_ERROR = "upload-save-error"  # apart from RESULT: a refused save keeps an earlier link
    STAGED = "upload-staged"
    RESULT = "upload-result"


class UploadReadIds:
    """Ids of what issue 16 added: the paste box, the "What we read" panel, the runs choice,
    and the navigation to the explorer after a save."""

    PASTE_TEXT = "upload-paste-text"
    PASTE_READ = "upload-paste-read"
    READ_NOTES = "upload-read-notes"
    RUNS = "upload-runs"
    GO = "upload-go"                  # dcc.Location: "Save and explore" goes to the explorer
