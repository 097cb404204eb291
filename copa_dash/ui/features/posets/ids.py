"""Component ids of the posets page, one place."""

from __future__ import annotations


class PosetsIds:
    """Ids of the posets page."""

    NAV = "posets-nav"
    REF = "posets-ref"
    QUERY = "posets-query"
    SHARE = "posets-share"
    RESULTS = "posets-results"
    DATASET = "posets-dataset"
    METHOD = "posets-method"
    TASK = "posets-task"
    CRITERIA = "posets-criteria"
    TIES = "posets-ties"
    MISSING = "posets-missing"
    MODE = "posets-mode"
    TOLERANCE = "posets-tolerance"
    K = "posets-k"
    RESULT = "posets-result"
    PROGRESS_ROW = "posets-progress-row"
    PROGRESS = "posets-progress"
    CANCEL = "posets-cancel"
    ALERT = "posets-alert"
    NOTES = "posets-notes"
    HEADLINE = "posets-headline"
    TIED = "posets-tied"
    DEPTH = "posets-depth"
    HASSE_CENTRAL = "posets-hasse-central"
    HASSE_OUTLYING = "posets-hasse-outlying"
    BEATS = "posets-beats"
    AGREEMENT = "posets-agreement"


ID = PosetsIds
