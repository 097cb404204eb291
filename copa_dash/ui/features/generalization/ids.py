"""Component ids of the validation -> test page, one place."""

from __future__ import annotations

from copa_dash.ui.common.ids import PageIds


class GeneralizationIds(PageIds, prefix="generalization"):
    """Ids of the validation -> test page."""

    NAV: str
    QUERY: str
    REF_STORE = "generalization-dataset-ref"
    DIRECTIONS: str
    DATASET: str
    METRICS: str
    REF: str
    SYSTEM: str
    BUDGET: str
    SEED: str
    A: str
    B: str
    ALERT: str
    SEARCH_TITLE: str
    PANELS: str
    PANELS_HELP: str
    FRONT_TABLE: str
    VERDICTS: str
    SYSTEMS: str
    SUMMARY: str
    BUDGET_CHART: str
    SHARE: str


ID = GeneralizationIds
