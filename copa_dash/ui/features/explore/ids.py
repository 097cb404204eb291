"""Every component id of the pages, in one place."""

class ExploreIds:
    """Ids of the COPA explorer page."""

    NAV = "explore-nav"
    DATASET = "explore-dataset"
    DATASET_INFO = "explore-dataset-info"
    OBJECTIVES = "explore-objectives"
    DIRECTION = "explore-direction"          # pattern: {"type": DIRECTION, "column": name}
    MODE = "explore-mode"
    FOCUS = "explore-focus"
    ALPHA = "explore-alpha"
    WEIGHT = "explore-weight"                # pattern
    WEIGHT_SHARES = "explore-weight-shares"
    ALPHA_PANEL = "explore-alpha-panel"
    WEIGHT_PANEL = "explore-weight-panel"
    P_SLIDER = "explore-p-slider"
    P_INPUT = "explore-p"
    POPULATION = "explore-population"
    RANGE_MIN = "explore-range-min"          # pattern
    RANGE_MAX = "explore-range-max"          # pattern
    SET_FILTER = "explore-set"               # pattern
    AXES = "explore-axes"
    X = "explore-x"
    Y = "explore-y"
    LOG = "explore-log"                      # log scale on the raw-values axes
    COMPARE = "explore-compare"
    ALERT = "explore-alert"
    PICK = "explore-pick"
    PICK_ID = "pick-id"
    PICK_BODY = "explore-pick-body"
    FRONT = "explore-front"
    COMPARE_TABLE = "explore-compare-table"
    TABLE = "explore-table"                  # the page of ranked rows, as HTML
    TABLE_SEARCH = "explore-table-search"
    TABLE_SORT = "explore-table-sort"
    TABLE_PREV = "explore-table-prev"
    TABLE_NEXT = "explore-table-next"
    TABLE_PAGER = "explore-table-pager"      # "page 2 of 195"
    TABLE_PAGE = "explore-table-page"        # store: the shown page's index
    TABLE_NOTE = "explore-table-note"
    DOWNLOAD_BUTTON = "explore-download-button"
    DOWNLOAD = "explore-download"
    PARALLEL = "explore-parallel"
    QUERY = "explore-query"
    LINK_NOTES = "explore-link-notes"        # what a hand-edited link asked for in vain
    DRAWN = "explore-drawn"                  # what the drawn figures depend on (drawn_key)
    SHARE = "explore-share"
