"""Explore, Rankings and Systems say beside their answer when the rows come from several
tasks, with one-click restrictions kept in the page's link and a link to Posets (tester G2)."""

from __future__ import annotations

from dataclasses import replace
from urllib.parse import parse_qs, urlsplit

from copa_dash.services.catalog import open_dataset
from copa_dash.services.views.rankings import RankingsView
from copa_dash.ui.common.task_note import task_note
from copa_dash.ui.features.explore import callbacks, view_memo
from copa_dash.ui.features.explore.state import parse_query, with_defaults
from copa_dash.ui.features.rankings import callbacks as rankings_callbacks

AMLB = "amlb-2022"
TWO = ("Australian", "Amazon_employee_access")


def _walk(node):
    yield node
    children = getattr(node, "children", None)
    for child in children if isinstance(children, list) else [children]:
        if child is not None and not isinstance(child, str):
            yield from _walk(child)


def _text(node) -> str:
    return "".join(n if isinstance(n, str) else "" for m in _walk(node)
                   for n in (m.children if isinstance(getattr(m, "children", None), list)
                             else [getattr(m, "children", None)]))


def _task_notes(alerts):
    return [a for a in alerts if "task-note" in (getattr(a, "className", "") or "")]


def _explore_state(**changes):
    opened = open_dataset(AMLB)
    state = with_defaults(parse_query({"dataset": AMLB}), opened, given={"dataset"})
    return replace(state, **changes)


def test_explore_default_view_of_one_dataset_has_no_task_note():
    state = _explore_state()
    assert [c for c, _ in state.sets] == ["dataset"] and len(state.sets[0][1]) == 1
    drawn = callbacks.figure_outputs(view_memo.exploration(state), state, None)
    assert _task_notes(drawn["alert"]) == []


def test_explore_pick_over_two_datasets_says_so_with_a_restriction_in_the_link():
    state = _explore_state(sets=(("dataset", TWO),))
    drawn = callbacks.figure_outputs(view_memo.exploration(state), state, None)
    (note,) = _task_notes(drawn["alert"])
    text = _text(note)
    assert "These rows come from 2 tasks: " in text     # the names are the links below
    assert "the pick compares a run on one task with runs on others" in text
    links = {n.children: n.href for n in _walk(note) if getattr(n, "href", None)}
    assert links["Posets"] == f"/posets?dataset={AMLB}"
    restrict = urlsplit(links["Australian"])
    assert restrict.path == "/explore"
    query = parse_qs(restrict.query)
    assert query["in"] == ["dataset:Australian"]
    assert query["obj"] == [f"{n}:{d}" for n, d in state.objectives]  # the rest of the view kept
    # the link's view is one task: no note any more
    narrowed = parse_query(restrict.query)
    assert view_memo.exploration(narrowed).task_span is None


def test_rankings_over_all_datasets_says_the_means_mix_tasks():
    opened = open_dataset(AMLB)
    state = RankingsView(dataset=AMLB, sets=(("dataset", TWO),)).with_defaults(opened)
    from copa_dash.services import rankings

    view = rankings.rank_view(opened.table, criteria=state.criteria, objectives=state.objectives,
                              row_filter=rankings_callbacks.row_filter(state))
    note = task_note(view.task_span, "average", state)
    assert "a system's mean mixes its runs on different tasks" in _text(note)
    links = {n.children: n.href for n in _walk(note) if getattr(n, "href", None)}
    assert parse_qs(urlsplit(links["Australian"]).query)["in"] == ["dataset:Australian"]
    assert urlsplit(links["Australian"]).path == "/rankings"



def test_systems_says_where_one_task_can_be_chosen_instead_of_asking_for_a_restriction():
    """Newcomer's pass (session 18): Systems takes no constraints (the context bar says the
    one-task constraint made on Explore does not apply there), and its note asked the user to
    "restrict to one task", which they had done. It now says Rankings can and this page
    cannot, with the links to Rankings restricted to each task."""
    from copa_dash.services.task_span import task_span

    table = open_dataset(AMLB).table
    rankings_view = RankingsView(dataset=AMLB)
    note = task_note(task_span(table, pooled_by=table.roles.system), "systems", rankings_view,
                     restrict_in=rankings_view)
    text = _text(note)
    assert "compare on one task on Rankings, which can restrict its rows (this page cannot" in text
    assert "restrict to one task" not in text
    links = {n.children: n.href for n in _walk(note) if getattr(n, "href", None)}
    assert urlsplit(links["Australian"]).path == "/rankings"
    assert parse_qs(urlsplit(links["Australian"]).query)["in"] == ["dataset:Australian"]
