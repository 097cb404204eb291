"""The Help page's documentation links in headless Chromium: a click opens the page the app
serves itself (no internet needed), and a link inside it leads on to another page's section.
Screenshots: tests/e2e/screenshots/help-docs-*."""

from __future__ import annotations

import pytest

from tests.e2e.app_under_test import open_page, screenshot, wait_until

pytestmark = pytest.mark.browser


def test_help_links_to_the_docs_and_their_links_lead_on(dash_duo, app):
    open_page(dash_duo, app, "/help")
    link = dash_duo.wait_for_element("#help-docs-links a[href='/docs/pages']", timeout=30)
    assert link.text == "The pages"
    screenshot(dash_duo, "help-docs-links")
    link.click()
    wait_until(lambda: dash_duo.driver.current_url.endswith("/docs/pages"), timeout=20)
    assert dash_duo.driver.find_element("css selector", "main h1").text.startswith("The pages")
    screenshot(dash_duo, "help-docs-pages")
    onward = dash_duo.driver.find_element(
        "css selector", "main a[href='/docs/deploying#owner-tokens-and-what-the-instance-protects']")
    onward.click()
    wait_until(lambda: dash_duo.driver.current_url.endswith(
        "/docs/deploying#owner-tokens-and-what-the-instance-protects"), timeout=20)
    heading = dash_duo.driver.find_element("id", "owner-tokens-and-what-the-instance-protects")
    assert heading.text.startswith("Owner tokens")
    # the anchor scrolled the section into the window
    top = dash_duo.driver.execute_script("return arguments[0].getBoundingClientRect().top;",
                                         heading)
    assert 0 <= top < 200
    screenshot(dash_duo, "help-docs-deploying")
