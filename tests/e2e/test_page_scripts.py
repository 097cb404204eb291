"""The page scripts in assets/ that make Dash and Plotly cheaper, checked in headless Chromium:
the trim that replaces core-js's (``assets/native_trim.js``) against the built-in trim of a
fresh frame; the resize that skips a redraw at an unchanged size (``assets/plotly_resize.js``)
on the explorer's front figure; the partial plotly.js bundle (``assets/plotly-*-copa.min.js``,
tools/plotly_bundle) being the Plotly the page uses, with its colour memo drawing what the
browser's own CSS parsing makes of each colour; and the first draw of a graph below the
first screen waiting for the next paint (``assets/plotly_offscreen.js``)."""

from __future__ import annotations

import pytest
from plotly.offline import get_plotlyjs_version

from tests.e2e.app_under_test import wait_until
from tests.ui.test_plotly_bundle import bundled_trace_types

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


# The Plotly the page runs, and whether the full bundle dcc.Graph falls back to was fetched.
BUNDLE = """
return {version: Plotly.version, traces: Object.keys(Plotly.PlotSchema.get().traces).sort(),
        full: performance.getEntriesByType('resource').map(e => e.name)
              .filter(n => /plotly(\\.min)?\\.js/.test(n))};
"""

# Colour specifiers drawn as marker fills and as line strokes (each twice: the second draw
# reads the memo), against what the browser's CSS makes of the same specifier.
COLOURS = """
const done = arguments[arguments.length - 1];
const specs = arguments[0];
const box = document.createElement('div');
box.style.cssText = 'position:fixed;top:0;left:0;width:500px;height:300px;z-index:9999';
document.body.appendChild(box);
const traces = [];
for (const round of [0, 1]) {
  specs.forEach((spec, i) => {
    traces.push({type: 'scatter', mode: 'markers', x: [i], y: [round], marker: {color: spec, size: 8}});
    traces.push({type: 'scatter', mode: 'lines', x: [i, i + 0.5], y: [round, round + 0.5],
                 line: {color: spec}});
  });
}
const probe = document.createElement('span');
document.body.appendChild(probe);
function css(spec) {
  probe.style.color = '';
  probe.style.color = spec;
  const m = getComputedStyle(probe).color.match(/[\\d.]+/g).map(Number);
  return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
}
function channels(rgb, opacity) {
  const m = rgb.match(/[\\d.]+/g).map(Number);
  return [m[0], m[1], m[2], Number(opacity)];
}
Plotly.newPlot(box, traces, {showlegend: false}).then(() => {
  const points = box.querySelectorAll('.scatterlayer .trace .point');
  const lines = box.querySelectorAll('.scatterlayer .trace .js-line');
  const rows = [];
  specs.forEach((spec, i) => {
    for (const round of [0, 1]) {
      const point = points[round * specs.length + i];
      const line = lines[round * specs.length + i];
      rows.push({spec, round, css: css(spec),
                 fill: channels(point.style.fill, point.style.fillOpacity),
                 stroke: channels(line.style.stroke, line.style.strokeOpacity)});
    }
  });
  Plotly.purge(box);
  box.remove();
  probe.remove();
  done(rows);
}).catch(e => done({error: String(e)}));
"""

# A graph below the window: its first draw waits for the next paint, a second call waits for
# the first; a graph on the screen is drawn at once.
OFFSCREEN = """
const done = arguments[arguments.length - 1];
const below = document.createElement('div');
below.style.cssText = 'position:absolute;left:0;width:400px;height:300px;top:'
  + (window.scrollY + window.innerHeight + 400) + 'px';
document.body.appendChild(below);
const first = Plotly.react(below, [{x: [1, 2], y: [1, 2]}], {});
const drawnAtOnce = !!below._fullLayout;
const second = Plotly.react(below, [{x: [1, 2, 3], y: [3, 2, 1]}], {});
let drawnBeforePaint = null;
requestAnimationFrame(() => { drawnBeforePaint = !!below._fullLayout; });
const top = document.createElement('div');
top.style.cssText = 'position:fixed;top:0;left:0;width:300px;height:200px';
document.body.appendChild(top);
Plotly.react(top, [{x: [1], y: [1]}], {});
const onScreenAtOnce = !!top._fullLayout;
Promise.all([first, second]).then(([a, b]) => {
  const result = {drawnAtOnce, drawnBeforePaint, onScreenAtOnce, points: below._fullData[0].x.length,
                  resolvesToGraph: a === below && b === below, pending: 'copaPendingDraw' in below};
  Plotly.purge(below); Plotly.purge(top); below.remove(); top.remove();
  done(result);
}).catch(e => done({error: String(e)}));
"""

SPECS = ["#d62728", "#ABC", "rgb(10, 20, 30)", "rgba(160,160,160,0.35)", "RGBA(90, 110, 140, 0.55)",
         "hsl(120, 50%, 40%)", "hsla(200, 60%, 50%, 0.3)", "steelblue", "white", "transparent"]


def _open_explorer(dash_duo, app, graph: str):
    """Start the app, open the leaderboard's explorer and wait until the figure in ``graph``
    (a CSS selector) is drawn; the driver, with a 30 s script timeout."""
    dash_duo.start_server(app, navigate=False)
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/explore?dataset=open-llm-leaderboard-v2",
                           timeout=30)
    dash_duo.wait_for_element("#pick-id", timeout=30)
    driver = dash_duo.driver
    wait_until(lambda: driver.execute_script(
        "const gd = document.querySelector(arguments[0] + ' .js-plotly-plot');"
        "return gd && gd._fullLayout && gd.querySelector('.scatterlayer .trace') !== null"
        " && !gd.classList.contains('dash-graph--pending');", graph), timeout=30)
    driver.set_script_timeout(30)
    return driver


def test_the_page_trim_is_the_built_in_trim_and_a_same_size_resize_redraws_nothing(dash_duo, app):
    driver = _open_explorer(dash_duo, app, "#explore-front")
    trim = driver.execute_script(COMPARE_TRIM)
    assert trim["count"] == 0, f"trim differs from the built-in at code units {trim['differ']}"
    assert trim["threw"] == "TypeError"
    assert (trim["boxed"], trim["numeric"], trim["empty"], trim["spaces"]) == ("x y", "12.5", "", "")
    assert trim["u180e"] == 1     # not white space since Unicode 6.3: the built-in keeps it

    resized = driver.execute_async_script(RESIZE)
    assert "error" not in resized, resized
    assert resized["same"], "a resize at the drawn size redrew the figure"
    assert resized["redrawn"] and abs(resized["after"] - (resized["before"] - 200)) <= 1, resized
    assert resized["points"] > 2000
    assert dash_duo.get_logs() == []


def test_the_partial_bundle_draws_css_colours_and_graphs_below_the_screen_wait_a_paint(dash_duo, app):
    driver = _open_explorer(dash_duo, app, "#explore-parallel")
    bundle = driver.execute_script(BUNDLE)
    assert bundle["version"] == get_plotlyjs_version()
    assert bundle["traces"] == sorted(bundled_trace_types())
    assert bundle["full"] == [], "the full plotly.js bundle was fetched besides the partial one"

    rows = driver.execute_async_script(COLOURS, SPECS)
    assert "error" not in rows, rows
    assert len(rows) == 2 * len(SPECS)
    for row in rows:
        for drawn in (row["fill"], row["stroke"]):
            assert all(abs(a - b) <= 1 for a, b in zip(drawn[:3], row["css"][:3])), row
            assert abs(drawn[3] - row["css"][3]) <= 0.005, row

    result = driver.execute_async_script(OFFSCREEN)
    assert result == {"drawnAtOnce": False, "drawnBeforePaint": False, "onScreenAtOnce": True,
                      "points": 3, "resolvesToGraph": True, "pending": False}, result
    # the explorer's own parallel figure, below the first screen at 1400 x 1000, was drawn
    assert driver.execute_script(
        "return document.querySelectorAll('#explore-parallel .scatterlayer .js-line').length") > 100
    assert dash_duo.get_logs() == []
