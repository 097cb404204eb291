"""Component ids of the posets page, one place."""

from __future__ import annotations

from copa_dash.ui.common.ids import ViewPageIds


class PosetsIds(ViewPageIds, prefix="posets"):
    """Ids of the posets page."""

    METHOD: str
    TASK: str
    CRITERIA: str
    TIES: str
    MISSING: str
    MODE: str
    FORECAST: str
    FORECAST_BAR: str
    TOLERANCE: str
    K: str
    RESULT: str
    JOB: str
    DRAWN: str
    RESTORED: str
    PROGRESS_ROW: str
    PROGRESS: str
    PROGRESS_TEXT: str
    CANCEL: str
    ALERT: str
    NOTES: str
    HEADLINE: str
    TIED: str
    DEPTH: str
    HASSE_CENTRAL: str
    HASSE_OUTLYING: str
    BEATS: str
    AGREEMENT: str
    RESULTS: str
    FIGURES: str


ID = PosetsIds
