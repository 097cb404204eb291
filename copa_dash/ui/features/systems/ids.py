"""Component ids of the systems page, one place."""

from __future__ import annotations

from copa_dash.ui.common.ids import ViewPageIds


class SystemsIds(ViewPageIds, prefix="systems"):
    """Ids of the systems page."""

    TABS: str
    OBJECTIVES: str
    NORMALIZE: str
    SIGMA: str
    SHOWN: str
    ALERT: str
    NOTES: str                        # the indicators' notes, under the radar (not above it)
    EXAMPLE_LINK: str                 # the empty state's link to a dataset with systems
    TABLE: str
    HV_NOTE: str                 # which HVs are Monte-Carlo estimates, above the table
    RADAR: str
    X: str
    Y: str
    Z: str
    THREE_D = "systems-3d"
    FRONT: str
    BASELINE: str
    CANDIDATE: str
    PERMUTATIONS: str
    SEED: str
    REF_RULE: str
    RUN: str
    CANCEL: str
    PROGRESS_ROW: str
    PROGRESS: str
    PROGRESS_TEXT: str
    TEST_ALERT: str
    TEST_BLOCKED: str
    WORKING: str
    RESULT: str
    VERDICT: str
    NULL: str
    SPREAD: str
    POWER_SEEDS: str
    POWER_EFFECT: str
    POWER_NOISE: str
    POWER_POINTS: str
    POWER_FILL: str
    POWER_RUN: str
    POWER_RESULT: str


ID = SystemsIds
