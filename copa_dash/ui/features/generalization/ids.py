"""Component ids of the validation -> test page, one place."""

from __future__ import annotations


class GeneralizationIds:
    """Ids of the validation -> test page."""

    NAV = "generalization-nav"
    QUERY = "generalization-query"
    REF_STORE = "generalization-dataset-ref"
    DIRECTIONS = "generalization-directions"
    DATASET = "generalization-dataset"
    METRICS = "generalization-metrics"
    REF = "generalization-ref"
    SYSTEM = "generalization-system"
    BUDGET = "generalization-budget"
    SEED = "generalization-seed"
    A = "generalization-a"
    B = "generalization-b"
    ALERT = "generalization-alert"
    SEARCH_TITLE = "generalization-search-title"
    PANELS = "generalization-panels"
    PANELS_HELP = "generalization-panels-help"
    FRONT_TABLE = "generalization-front-table"
    VERDICTS = "generalization-verdicts"
    SYSTEMS = "generalization-systems"
    SUMMARY = "generalization-summary"
    BUDGET_CHART = "generalization-budget-chart"
    SHARE = "generalization-share"


ID = GeneralizationIds
