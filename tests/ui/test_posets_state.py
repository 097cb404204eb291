"""Posets' depth mode in the link: automatic by default, old exact/approx links unchanged."""

from __future__ import annotations

from urllib.parse import parse_qs

from copa_dash.ui.features.posets.state import EXACT_OF_MODE, parse_query, to_query


def test_default_mode_is_automatic_and_keeps_its_tolerance_in_the_link():
    state = parse_query({"dataset": "amlb-2022"})
    assert state.mode == "auto" and EXACT_OF_MODE[state.mode] is None
    query = parse_qs(to_query(state))
    assert query["mode"] == ["auto"] and query["tol"] == ["0.01"]


def test_exact_and_approximate_links_read_as_before():
    assert EXACT_OF_MODE[parse_query({"mode": "exact"}).mode] is True
    approx = parse_query({"mode": "approx", "tol": "0.05"})
    assert EXACT_OF_MODE[approx.mode] is False and approx.tolerance == 0.05
    assert "tol" not in parse_qs(to_query(parse_query({"mode": "exact"})))
    assert parse_query({"mode": "bogus"}).mode == "auto"
