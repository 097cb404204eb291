"""Component ids of the rankings page, one place."""

from __future__ import annotations


class RankingsIds:
    """Ids of the rankings page."""

    NAV = "rankings-nav"
    REF = "rankings-ref"
    QUERY = "rankings-query"
    SHARE = "rankings-share"
    DATASET = "rankings-dataset"
    TABS = "rankings-tabs"
    CRITERIA = "rankings-criteria"
    OBJECTIVES = "rankings-objectives"
    FOCUS = "rankings-focus"
    ALPHA = "rankings-alpha"
    TIES = "rankings-ties"
    GROUP = "rankings-group"
    TOP = "rankings-top"
    BY = "rankings-by"
    PINS = "rankings-pins"
    SET_FILTER = "rankings-set"            # pattern: {"type": SET_FILTER, "column": name}
    ALERT = "rankings-alert"
    HEADLINE = "rankings-headline"
    CHART_NOTE = "rankings-chart-note"
    BUMP = "rankings-bump"
    TABLE = "rankings-table"
    DOWNLOAD_BUTTON = "rankings-download-button"
    DOWNLOAD = "rankings-download"
    BENCH_ALERT = "rankings-bench-alert"
    METRIC = "rankings-metric"
    REFERENCE = "rankings-reference"
    TIME = "rankings-time"
    TASK_TYPE = "rankings-task-type"
    SIGNIFICANCE = "rankings-significance"
    BOXES = "rankings-boxes"
    FRIEDMAN = "rankings-friedman"
    CD = "rankings-cd"
    TRADEOFF = "rankings-tradeoff"


ID = RankingsIds
