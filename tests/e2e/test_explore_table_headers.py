"""Explore's ranked table on DecodingTrust (issue 33): at 1400 x 1000 its eight objectives fit
the panel and every header wraps between words ("non_|toxicity", never "non_toxic|ity"); at
1024 x 768, where it cannot fit, a line above it says that it scrolls sideways."""

from __future__ import annotations

import pytest

from tests.e2e.app_under_test import open_page, screenshot, wait_until

pytestmark = pytest.mark.browser

# Each header: its text and where its lines start (a character whose top is below the one
# before it opens a new line), read from the rendered characters, not from the markup.
HEADERS = """
const box = document.querySelector('#explore-table');
const table = box && box.querySelector('table');
if (!table) { return null; }
box.scrollIntoView();
const heads = [...table.querySelectorAll('th')].map(th => {
  const text = th.textContent, range = document.createRange(), starts = [];
  let k = 0, last = null;
  const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i++, k++) {
      range.setStart(node, i); range.setEnd(node, i + 1);
      const r = range.getClientRects()[0];
      if (!r || text[k] === ' ') { continue; }
      if (last !== null && r.top > last + 2) { starts.push(k); }
      last = r.top;
    }
  }
  return [text, starts];
});
return {heads, table_right: table.getBoundingClientRect().right,
        panel_right: box.getBoundingClientRect().right,
        scrolls: box.dataset.scrolls || '',
        note: getComputedStyle(box, '::before').content};
"""


def _headers(dash_duo):
    seen = {}

    def read():
        seen.update(dash_duo.driver.execute_script(HEADERS) or {})
        return bool(seen)

    wait_until(read, timeout=120)
    return seen


def _mid_word(heads):
    """The headers with a line that starts inside a word (after a letter or digit)."""
    return [(text, starts) for text, starts in heads
            if any(text[k - 1].isalnum() for k in starts)]


def test_decodingtrust_table_fits_at_1400_and_says_it_scrolls_at_1024(dash_duo, app):
    open_page(dash_duo, app, "/explore?dataset=decodingtrust")
    seen = _headers(dash_duo)
    names = [text for text, _ in seen["heads"]]
    assert {"non_toxicity", "non_stereotype", "adv_glue_pp", "adv_demo"} <= set(names)
    wrapped = [text for text, starts in seen["heads"] if starts and "_" in text]
    assert wrapped, seen["heads"]           # some names do wrap, and only between words
    assert _mid_word(seen["heads"]) == []
    assert seen["table_right"] <= seen["panel_right"] + 0.5, seen
    assert seen["scrolls"] == "" and seen["note"] == "none"
    screenshot(dash_duo, "explore-table-headers-1400")
    dash_duo.driver.set_window_size(1024, 768)
    wait_until(lambda: dash_duo.driver.execute_script(HEADERS)["scrolls"] == "yes", timeout=20)
    seen = dash_duo.driver.execute_script(HEADERS)
    assert _mid_word(seen["heads"]) == []
    assert seen["table_right"] > seen["panel_right"]
    assert "scroll the table sideways" in seen["note"]
    screenshot(dash_duo, "explore-table-headers-1024")
