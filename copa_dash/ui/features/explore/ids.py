"""Component ids of the explorer page, one place."""

from __future__ import annotations

from copa_dash.ui.common.ids import ViewPageIds


class ExploreIds(ViewPageIds, prefix="explore"):
    """Ids of the COPA explorer page."""

    DATASET_INFO: str
    OBJECTIVES: str
    DIRECTION: str                           # pattern: {"type": DIRECTION, "column": name}
    MODE: str
    FOCUS: str
    FOCUS_MEMORY: str                        # store: focus/x/y the user chose (focus_repair)
    FOCUS_NOTE: str                          # what moved while an objective is unticked
    ALPHA: str
    WEIGHT: str                              # pattern
    WEIGHT_SHARES: str
    ALPHA_PANEL: str
    WEIGHT_PANEL: str
    P_SLIDER: str
    P_INPUT = "explore-p"
    POPULATION: str
    RANGE_MIN: str                           # pattern
    RANGE_MAX: str                           # pattern
    RANGE_REMOVE: str                        # pattern: removes a non-objective's min/max row
    SET_FILTER = "explore-set"               # pattern
    RANGE_ROWS: str                          # the min/max rows shown (constraint_columns)
    ADD_CONSTRAINT: str                      # "add a constraint on..." the other columns
    ADD_CONSTRAINT_LABEL: str                # its label, with how many columns it offers
    ADD_CONSTRAINT_BOX: str                  # the list and its label (hidden while empty)
    AXES: str
    X: str
    Y: str
    LOG: str                                 # log scale on the raw-values axes
    COMPARE: str
    ALERT: str
    PICK: str
    PICK_ID = "pick-id"
    PICK_BODY: str
    PICK_LINE: str                           # one line above the figure: the pick, how sure
    PICK_LINE_ID: str
    FRONT: str
    COMPARE_TABLE: str
    TABLE: str                               # the page of ranked rows, as HTML
    TABLE_SEARCH: str
    TABLE_SORT: str
    TABLE_PREV: str
    TABLE_NEXT: str
    TABLE_PAGER: str                         # "page 2 of 195"
    TABLE_PAGE: str                          # store: the shown page's index
    TABLE_NOTE: str
    DOWNLOAD_BUTTON: str
    DOWNLOAD: str
    PARALLEL: str
    LINK_NOTES: str                          # what a hand-edited link asked for in vain
    DRAWN: str                               # what the drawn figures depend on (drawn_key)
