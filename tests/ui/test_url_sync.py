"""The share box's link: the origin the browser sees, the page's path and the view's query."""

from __future__ import annotations

import pytest
from dash import no_update
from flask import Flask

from copa_dash.ui.common.url_sync import share_url, valid_origin, view_link

QUERY = "dataset=open-llm-leaderboard-v2&alpha=0.5"


@pytest.fixture
def server():
    return Flask(__name__)


def test_the_link_takes_the_origin_the_browser_sent(server):
    # behind a TLS-terminating proxy the request reaches the app as plain http
    with server.test_request_context("/_dash-update-component", base_url="http://10.0.0.5:8050",
                                     headers={"Origin": "https://copa.example.org"}):
        assert share_url("/explore", QUERY) == f"https://copa.example.org/explore?{QUERY}"


def test_without_an_origin_header_the_link_takes_the_host_the_request_reached(server):
    with server.test_request_context("/", base_url="http://127.0.0.1:8050"):
        assert share_url("/rankings", "dataset=x") == "http://127.0.0.1:8050/rankings?dataset=x"


@pytest.mark.parametrize("origin", ["null", "https://a.example/path", "javascript:alert(1)",
                                    "https://a.example\n", "https://a.example\r\nX: y", " ",
                                    "ftp://a.example"])
def test_an_origin_that_is_not_scheme_and_host_is_not_used(server, origin):
    assert not valid_origin(origin)
    if "\n" not in origin:  # a header cannot carry a line break
        with server.test_request_context("/", base_url="http://127.0.0.1:8050",
                                         headers={"Origin": origin}):
            assert share_url("/explore", QUERY) == f"http://127.0.0.1:8050/explore?{QUERY}"


@pytest.mark.parametrize("origin", ["https://a.example", "http://127.0.0.1:8050",
                                    "http://[::1]:8050"])
def test_origins_as_browsers_send_them_are_valid(origin):
    assert valid_origin(origin)


def test_outside_a_request_the_link_is_relative():
    assert share_url("/explore", QUERY) == f"/explore?{QUERY}"
    assert share_url("/explore", "") == "/explore"


def test_view_link_gives_the_query_and_its_link_or_leaves_both():
    assert view_link("/posets", "dataset=x") == ("dataset=x", "/posets?dataset=x")
    assert view_link("/posets", no_update) == (no_update, no_update)
