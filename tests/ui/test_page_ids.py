"""Page ids declared through ui.common.ids, and the view state two pages share."""

from __future__ import annotations

from types import SimpleNamespace

from copa_dash.services.views.tabbed import TabbedView
from copa_dash.ui.common.ids import PageIds, ViewPageIds
from copa_dash.ui.features.explore.choose_panel import ChooseIds
from copa_dash.ui.features.explore.ids import ExploreIds
from copa_dash.ui.features.generalization.ids import GeneralizationIds
from copa_dash.ui.features.posets.ids import PosetsIds
from copa_dash.ui.features.rankings.ids import RankingsIds
from copa_dash.ui.features.rankings.state import RankingsState
from copa_dash.ui.features.systems.ids import SystemsIds
from copa_dash.ui.features.systems.state import SystemsState, parse_query
from copa_dash.ui.features.upload.ids import UploadIds, UploadReadIds
from copa_dash.ui.features.upload.owner_panel import MineIds

NAMESPACES = (ExploreIds, ChooseIds, GeneralizationIds, PosetsIds, RankingsIds, SystemsIds,
              UploadIds, UploadReadIds, MineIds)


def test_a_declared_name_gets_the_pages_prefix_and_a_spelt_id_stays():
    class Ids(ViewPageIds, prefix="page"):
        TABLE_NOTE: str
        OLD = "kept-as-is"

    assert (Ids.TABLE_NOTE, Ids.OLD, Ids.NAV, Ids.QUERY) == (
        "page-table-note", "kept-as-is", "page-nav", "page-query")
    assert Ids.ids()["SHARE"] == "page-share"
    assert not hasattr(ViewPageIds, "NAV")          # the base waits for a page's prefix


def test_ids_the_pages_had_before_are_unchanged():
    # links, tests and the browser benchmark use these spellings
    assert (ExploreIds.PICK_ID, ExploreIds.P_INPUT, ExploreIds.SET_FILTER, ExploreIds.SHARE,
            ExploreIds.REF) == ("pick-id", "explore-p", "explore-set", "explore-share", "explore-ref")
    assert (SystemsIds.THREE_D, MineIds.LIST, GeneralizationIds.REF_STORE) == (
        "systems-3d", "upload-mine-list", "generalization-dataset-ref")


def test_no_two_components_of_the_app_share_an_id():
    ids = [value for namespace in NAMESPACES for value in namespace.ids().values()]
    assert len(ids) > 200 and len(ids) == len(set(ids))
    assert all(issubclass(namespace, PageIds) for namespace in NAMESPACES)


def test_a_tab_the_page_does_not_have_opens_its_first():
    assert RankingsState(tab="benchmark").tab == "benchmark"
    assert RankingsState(tab="nonsense").tab == RankingsState().tab == "ranks"
    assert parse_query({"tab": "significance"}).tab == "significance"
    assert parse_query({"tab": "ranks"}).tab == "indicators"      # the rankings' tab, not ours


def test_the_shared_fields_read_the_dataset_tab_and_each_objective_once():
    fields = TabbedView.shared_fields({"dataset": "d", "tab": "t", "obj": ["a", "b", "a"]})
    assert fields == {"dataset": "d", "tab": "t", "objectives": ("a", "b")}


def test_the_chosen_objectives_fall_back_to_the_default_view_then_to_all():
    import pandas as pd

    from copa_dash.data.schema import EvalTable, Objective, Roles

    table = EvalTable(pd.DataFrame({"m": ["x", "y"], "a": [1.0, 2.0], "b": [2.0, 1.0],
                                    "c": [1.0, 3.0]}),
                      Roles("m", tuple(Objective(n, "max") for n in "abc")))

    def opened(default):
        return SimpleNamespace(table=table, default_view=SimpleNamespace(objectives=default))

    assert SystemsState(objectives=("c", "zz", "a")).objectives_in(opened(("b",))) == ("c", "a")
    assert SystemsState(objectives=("c", "zz")).objectives_in(opened(("b", "a")), 2) == ("a", "b")
    assert SystemsState(objectives=("zz",)).objectives_in(opened(("b",)), 2) == ("a", "b", "c")
    assert RankingsState().objectives_in(opened(())) == ("a", "b", "c")
