"""Component ids of the rankings page, one place."""

from __future__ import annotations

from copa_dash.ui.common.ids import ViewPageIds


class RankingsIds(ViewPageIds, prefix="rankings"):
    """Ids of the rankings page."""

    TABS: str
    RANKS_PANEL: str
    BENCH_PANEL: str
    RANKS_CONTROLS: str
    BENCH_NOTE: str
    CRITERIA: str
    OBJECTIVES: str
    FOCUS: str
    ALPHA: str
    TIES: str
    GROUP: str
    TOP: str
    BY: str
    PINS: str
    SET_FILTER = "rankings-set"            # pattern: {"type": SET_FILTER, "column": name}
    ALERT: str
    HEADLINE: str
    CHART_NOTE: str
    BUMP: str
    TABLE: str
    TABLE_COUNT: str
    DOWNLOAD_BUTTON: str
    DOWNLOAD: str
    BENCH_ALERT: str
    METRIC: str
    REFERENCE: str
    TIME: str
    TASK_TYPE: str
    SIGNIFICANCE: str
    BOXES: str
    FRIEDMAN: str
    CD: str
    TRADEOFF: str


ID = RankingsIds
