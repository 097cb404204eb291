"""Posets: a link never carries an exact depth that is not computed (issue 33: 'exact' chosen
and cancelled stayed in the URL, so a reload or a shared link restarted a job predicted to
take 75 years)."""

from __future__ import annotations

from urllib.parse import parse_qs

from copa_dash.ui.features.posets import callbacks as page
from copa_dash.ui.features.posets.state import PosetsState, parse_query


def test_a_running_exact_depth_is_not_in_the_link_a_computed_one_is():
    state = PosetsState(dataset="amlb-2022", criteria=("a", "b"), mode="exact", k=4)
    running = page.link_query(state, computed=False)
    assert parse_qs(running)["mode"] == ["auto"]
    # everything else of the view is kept, and the link opens the view with 'automatic'
    assert parse_query(parse_qs(running)) == PosetsState(
        dataset="amlb-2022", criteria=("a", "b"), mode="auto", k=4, tolerance=0.01)
    assert parse_qs(page.link_query(state, computed=True))["mode"] == ["exact"]
    approx = PosetsState(dataset="amlb-2022", mode="approx")
    assert parse_qs(page.link_query(approx, computed=False))["mode"] == ["approx"]
