"""The role tables a page at a time over one store of the mapping (issue 33): a wide export
puts only a page of role rows in the layout, every column's role lives in the store, and a
change in a shown row reaches the store without touching the rows not shown."""

from __future__ import annotations

from pathlib import Path

from dash import no_update

from copa_dash.config import Settings
from copa_dash.services.uploads import stage_upload
from copa_dash.ui.features.upload.ids import UploadIds, UploadTableIds
from copa_dash.ui.features.upload.mapping_check import roles_from_mapping
from copa_dash.ui.features.upload.proposal_form import proposal_controls
from copa_dash.ui.features.upload.role_callbacks import _patch, shown_over
from copa_dash.ui.features.upload.role_table import PAGE_SIZE, mapping_lists, page_of
from tests.ui.dash_tree import find

WIDE = Path(__file__).parents[1] / "data" / "messy" / "fairness_adult_sex.csv"


def _walk(node):
    yield node
    children = getattr(node, "children", None)
    for child in children if isinstance(children, list | tuple) else [children]:
        if child is not None and not isinstance(child, str | int | float):
            yield from _walk(child)


def _pattern_ids(form, kind: str) -> list[str]:
    return [n.id["column"] for n in _walk(form)
            if isinstance(getattr(n, "id", None), dict) and n.id.get("type") == kind]


def _wide(tmp_path):
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    return stage_upload(settings, WIDE.name, WIDE.read_bytes())


def test_a_wide_export_puts_a_page_of_rows_in_the_layout_and_every_column_in_the_store(tmp_path):
    staged = _wide(tmp_path)
    form = proposal_controls(staged)
    columns = [g.name for g in staged.proposal.columns]
    more = [g.name for g in staged.proposal.columns if g.more]
    assert len(columns) == 215 and len(more) == 115
    # one page of the short set and one of "More columns": 60 rows, not 215 (~650 pattern
    # components the renderer went through on every click)
    for kind in (UploadIds.ROLE, UploadIds.DIRECTION, UploadIds.DIRECTION_CELL):
        assert len(_pattern_ids(form, kind)) == 2 * PAGE_SIZE
    mapping = find(form, UploadTableIds.MAPPING).data
    assert sorted(mapping["columns"]) == sorted(columns)
    assert mapping["columns"][-len(more):] == more          # the save's order: short set first
    assert mapping["roles"][more[-1]] == "metadata"         # a row never shown has its role
    where = find(form, {"type": UploadTableIds.WHERE, "table": "more"}).children
    assert where == "columns 1-30 of 115"


def test_the_store_saves_what_the_proposal_says_for_rows_never_shown(tmp_path):
    staged = _wide(tmp_path)
    mapping = find(proposal_controls(staged), UploadTableIds.MAPPING).data
    proposed = staged.proposed
    roles = roles_from_mapping(proposed.id or staged.row_ids, *mapping_lists(mapping))
    assert set(roles.objective_names) == set(proposed.objective_names)
    assert set(roles.metadata) == set(proposed.metadata)


def test_a_shown_row_changes_the_store_and_the_others_keep_theirs():
    mapping = {"columns": ["a", "b", "c"], "roles": {"a": "objective", "b": "metadata",
                                                     "c": "objective"},
               "directions": {"a": "max", "b": None, "c": "min"}}
    new = shown_over(mapping, [{"column": "b"}], ["objective"], [{"column": "b"}], ["max"])
    assert new["roles"] == {"a": "objective", "b": "objective", "c": "objective"}
    assert new["directions"] == {"a": "max", "b": "max", "c": "min"}
    patch = _patch(mapping, new)
    assert patch is not no_update
    assert {tuple(op["location"]): op["params"]["value"] for op in patch.to_plotly_json()[
        "operations"]} == {("roles", "b"): "objective", ("directions", "b"): "max"}
    assert _patch(mapping, mapping) is no_update


def test_pages_and_the_find_box():
    columns = [f"race-{k}" for k in range(40)] + [f"sex-{k}" for k in range(40)]
    shown, page, words = page_of(columns, None, 1)
    assert shown == columns[30:60] and page == 1 and words == "columns 31-60 of 80"
    assert page_of(columns, None, 9)[1:] == (2, "columns 61-80 of 80")   # kept in range
    assert page_of(columns, None, -3)[1] == 0
    shown, page, words = page_of(columns, "SEX-1", 0)
    assert shown == ["sex-1", *(f"sex-{k}" for k in range(10, 20))]
    assert words == "11 of 80 columns hold 'SEX-1'"
