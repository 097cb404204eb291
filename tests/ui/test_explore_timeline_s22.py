"""The milestones benchmarks/profile_explore_timeline.py reads from a recorded Explore tick."""

from benchmarks.profile_explore_timeline import milestones

NAV = '{"path":"/rankings","type":"nav-link"}'


def _record():
    """A tick as the page's recorder gives it: ms from the arming, the click at 10 ms."""
    return {
        "click": 10.0,
        "requests": [[15.0, 60.0], [300.0, 320.0]],
        "changes": [
            [20.0, "attributes", "explore-front", "data-dash-is-loading"],
            [50.0, "childList", "explore-table", ""],
            [100.0, "attributes", "explore-front", "d"],
            [101.0, "attributes", "explore-parallel", "d"],
            [120.0, "attributes", "explore-share", "value"],
            [140.0, "attributes", NAV, "href"],
            [500.0, "attributes", "explore-front", "aria-label"],   # after the page settled
        ],
    }


def test_milestones_are_ms_after_the_click():
    found = milestones(_record(), settled_ms=200.0)
    assert {k: found[k] for k in ("sent", "read", "commit", "drawn", "share", "header")} == {
        "sent": 5.0, "read": 50.0, "commit": 40.0, "drawn": 90.0, "share": 110.0,
        "header": 130.0}


def test_the_last_change_is_the_last_one_the_watcher_timed():
    found = milestones(_record(), settled_ms=200.0)
    assert found["last"] == 130.0
    assert found["last was"] == f"attributes href #{NAV}"
    # a watcher that settled later counts the late change
    assert milestones(_record(), settled_ms=600.0)["last"] == 490.0


def test_a_milestone_the_tick_did_not_reach_is_left_out():
    record = _record()
    record["changes"] = [c for c in record["changes"] if c[2] != "explore-share"]
    record["requests"] = []
    found = milestones(record, settled_ms=200.0)
    assert "share" not in found and "sent" not in found and found["header"] == 130.0
