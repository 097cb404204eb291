"""The page scripts in assets/ that make Dash and Plotly cheaper, checked in headless Chromium:
the trim that replaces core-js's (``assets/native_trim.js``) against the built-in trim of a
fresh frame, and the resize that skips a redraw at an unchanged size
(``assets/plotly_resize.js``) on the explorer's front figure."""

from __future__ import annotations

import pytest

from tests.e2e.app_under_test import make_app, wait_until

pytestmark = pytest.mark.browser

# Every UTF-16 code unit at the start, at the end, at both ends and inside a word, trimmed by
# the page's trim and by the built-in trim of a frame the polyfill never ran in.
COMPARE_TRIM = """
const frame = document.createElement('iframe');
document.body.appendChild(frame);
const builtIn = frame.contentWindow.String.prototype.trim;
const differ = [];
for (let code = 0; code <= 0xFFFF; code++) {
  const c = String.fromCharCode(code);
  for (const text of [c, c + 'a', 'a' + c, c + 'a b' + c, c + c + 'x' + c + c, 'x' + c + 'y']) {
    if (text.trim() !== builtIn.call(text)) { differ.push(code); break; }
  }
}
frame.remove();
let threw = '';
try { String.prototype.trim.call(null); } catch (e) { threw = e.constructor.name; }
return {differ: differ.slice(0, 20), count: differ.length, threw,
        boxed: String.prototype.trim.call(new String('  x y\\n')),
        numeric: String.prototype.trim.call(12.5), empty: ''.trim(), spaces: ' \\t\\n'.trim(),
        u180e: '\\u180e'.trim().length};
"""

# Plots.resize of the drawn front figure, first at its size, then in a narrower box: Plotly
# makes a new _fullLayout when it relayouts, so the same object means nothing was redrawn.
RESIZE = """
const done = arguments[arguments.length - 1];
const gd = document.querySelector('#explore-front .js-plotly-plot');
const drawn = gd._fullLayout;
const width = drawn.width;
Plotly.Plots.resize(gd).then(() => {
  const same = gd._fullLayout === drawn;
  gd.parentElement.style.width = (width - 200) + 'px';
  return Plotly.Plots.resize(gd).then(() => {
    done({same, redrawn: gd._fullLayout !== drawn, before: width, after: gd._fullLayout.width,
          points: gd.querySelectorAll('.scatterlayer .point').length});
  });
}).catch(e => done({error: String(e)}));
"""


@pytest.fixture(scope="module")
def app():
    return make_app()


def test_the_page_trim_is_the_built_in_trim_and_a_same_size_resize_redraws_nothing(dash_duo, app):
    dash_duo.start_server(app)
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/explore?dataset=open-llm-leaderboard-v2",
                           timeout=30)
    dash_duo.wait_for_element("#pick-id", timeout=30)
    driver = dash_duo.driver
    trim = driver.execute_script(COMPARE_TRIM)
    assert trim["count"] == 0, f"trim differs from the built-in at code units {trim['differ']}"
    assert trim["threw"] == "TypeError"
    assert (trim["boxed"], trim["numeric"], trim["empty"], trim["spaces"]) == ("x y", "12.5", "", "")
    assert trim["u180e"] == 1     # not white space since Unicode 6.3: the built-in keeps it

    wait_until(lambda: driver.execute_script(
        "const gd = document.querySelector('#explore-front .js-plotly-plot');"
        "return gd && gd._fullLayout && gd.querySelectorAll('.scatterlayer .point').length > 0"
        " && !gd.classList.contains('dash-graph--pending');"), timeout=30)
    driver.set_script_timeout(30)
    resized = driver.execute_async_script(RESIZE)
    assert "error" not in resized, resized
    assert resized["same"], "a resize at the drawn size redrew the figure"
    assert resized["redrawn"] and abs(resized["after"] - (resized["before"] - 200)) <= 1, resized
    assert resized["points"] > 2000
    assert dash_duo.get_logs() == []
