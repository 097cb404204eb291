"""Rankings on the Open LLM leaderboard: the rank table's pages, header sort and filter row
answered by the server (issue 33), each shown page checked against the service's ranks
sorted and filtered with pandas, and the page back at 1 when the view changes."""

from __future__ import annotations

import time
from dataclasses import replace

import pandas as pd
import pytest
from selenium.webdriver.common.keys import Keys

from copa_dash.services import rankings
from copa_dash.services.catalog import open_dataset
from copa_dash.services.inputs import RowFilter
from copa_dash.ui.features.rankings.state import parse_query, with_defaults
from tests.e2e.app_under_test import open_page, screenshot, texts_of, wait_until

pytestmark = pytest.mark.browser
DATASET = "open-llm-leaderboard-v2"


def _expected(ties: str) -> pd.DataFrame:
    """Entries and first-criterion ranks of the default view, largest rank changes first,
    from the ranking service (not the page's table code)."""
    opened = open_dataset(DATASET)
    state = replace(with_defaults(parse_query({"dataset": DATASET}), opened), ties=ties)
    view = rankings.rank_view(
        opened.table, criteria=state.criteria, objectives=state.objectives, focus=state.focus,
        alpha=state.alpha, row_filter=RowFilter(sets={c: list(v) for c, v in state.sets}),
        group=state.group)
    ranks, order = view.ranks(ties), rankings.change_order(view, ties=ties)
    return pd.DataFrame({"entry": [str(view.ids[i]) for i in order], "r0": ranks[order, 0]})


def _shown(dash_duo) -> list[str]:
    return texts_of(dash_duo, "#rankings-table td[data-dash-column='entry']")


def _page(dash_duo) -> str:
    return dash_duo.find_element("#rankings-table .current-page-shadow").text


def _wait_rows(dash_duo, rows: list[str], what: str):
    try:
        wait_until(lambda: _shown(dash_duo) == rows, timeout=30)
    except AssertionError:
        raise AssertionError(
            f"{what}: shown {_shown(dash_duo)[:3]}..., expected {rows[:3]}...") from None


def test_pages_sort_and_filter_match_pandas_and_a_new_view_starts_at_page_1(dash_duo, app):
    kept, broken = _expected("keep"), _expected("break")
    open_page(dash_duo, app, f"/rankings?dataset={DATASET}")
    _wait_rows(dash_duo, list(broken["entry"][:15]), "first page")
    assert dash_duo.find_element("#rankings-table-count").text == f"{len(broken)} entries."
    dash_duo.find_element("#rankings-table .next-page").click()
    _wait_rows(dash_duo, list(broken["entry"][15:30]), "second page")

    # the first criterion's header sort: ascending, back at page 1
    dash_duo.find_element("#rankings-table th[data-dash-column='r0'] .column-header--sort").click()
    ordered = broken.sort_values("r0", kind="stable")
    _wait_rows(dash_duo, list(ordered["entry"][:15]), "sorted by r0")
    assert _page(dash_duo) == "1"

    # the filter row: what is typed in the entry column (dash-table writes "contains")
    box = dash_duo.find_element("#rankings-table th[data-dash-column='entry'] input")
    box.send_keys("Qwen" + Keys.ENTER)
    chosen = ordered[ordered["entry"].str.contains("Qwen", regex=False)]
    assert 30 < len(chosen) < len(broken)
    _wait_rows(dash_duo, list(chosen["entry"][:15]), "filtered on Qwen")
    wait_until(lambda: dash_duo.find_element("#rankings-table-count").text
               == f"{len(chosen)} of {len(broken)} entries match the filter.", timeout=10)
    dash_duo.find_element("#rankings-table .next-page").click()
    _wait_rows(dash_duo, list(chosen["entry"][15:30]), "filtered, second page")

    # a new view (raw ties): the same sort and filter, from page 1
    dash_duo.find_element("#rankings-ties input[value=keep]").click()
    kept_chosen = kept.sort_values("r0", kind="stable")
    kept_chosen = kept_chosen[kept_chosen["entry"].str.contains("Qwen", regex=False)]
    _wait_rows(dash_duo, list(kept_chosen["entry"][:15]), "raw ties, page 1")
    assert _page(dash_duo) == "1"
    time.sleep(0.5)
    screenshot(dash_duo, "rankings-table-paged")
    assert dash_duo.get_logs() == []
