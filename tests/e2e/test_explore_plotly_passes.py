"""The two shortcuts of the partial plotly.js bundle (tools/plotly_bundle/entry.js) that make the
explorer's y-axis tick cheaper, checked on what the page draws in headless Chromium:

- after a full draw Plotly's scatter style pass no longer restyles the points the draw has just
  styled: running that pass (by a restyle, where it styles every point) over the front and parallel figures after a tick that moved every point changes nothing in
  them, and a restyle still restyles the points;
- d3's ``selection.classed`` for one class name and a constant value sets what classList sets,
  and its other forms (several names, a function, a read) still work.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from tests.e2e.app_under_test import open_page, wait_until

pytestmark = pytest.mark.browser
DATASET = "open-llm-leaderboard-v2"
BOXES = "input[type=checkbox][name*='explore-objectives']"
FIGURES = ("#explore-front .js-plotly-plot", "#explore-parallel .js-plotly-plot")

# every drawn point and line of a figure as the document holds it: class, path, place, style
SNAPSHOT = """
const gd = document.querySelector(arguments[0]);
return [...gd.querySelectorAll('.scatterlayer path.point, .scatterlayer path.js-line')].map(
  p => [p.getAttribute('class'), p.getAttribute('d'), p.getAttribute('transform'),
        p.getAttribute('style')]);
"""

# Plotly's style pass run outside a draw (where it styles every point): a restyle of each
# trace's opacity to the opacity it has, which Plotly answers with that pass alone
STYLE_PASS = """
const done = arguments[arguments.length - 1];
const gd = document.querySelector(arguments[0]);
const drawn = gd.calcdata;
Plotly.restyle(gd, {opacity: gd._fullData.map(t => t.opacity)})
  .then(() => done({recomputed: gd.calcdata !== drawn}))
  .catch(e => done({error: String(e)}));
"""

# the front figure's y-axis title and its number of drawn points
DRAWN = """
const gd = document.querySelector(arguments[0]);
if (!gd || !gd._fullLayout || gd.classList.contains('dash-graph--pending')) return null;
return [gd._fullLayout.yaxis.title.text, gd.querySelectorAll('.scatterlayer path.point').length,
        gd.querySelectorAll('.scatterlayer path.point.plotly-customdata').length];
"""

# a restyle of a figure of its own: the points take the new colour
RESTYLE = """
const done = arguments[arguments.length - 1];
const box = document.createElement('div');
box.style.cssText = 'position:fixed;top:0;left:0;width:400px;height:300px;z-index:9999';
document.body.appendChild(box);
Plotly.newPlot(box, [{type: 'scatter', mode: 'markers', x: [1, 2, 3], y: [3, 1, 2],
                      customdata: [1, null, 3], marker: {color: 'rgb(0, 0, 255)', size: 8}}])
  .then(() => {
    const fills = () => [...box.querySelectorAll('path.point')].map(p => p.style.fill);
    const marked = () => [...box.querySelectorAll('path.point')].map(
      p => p.classList.contains('plotly-customdata'));
    const drawn = {fills: fills(), marked: marked()};
    return Plotly.restyle(box, {'marker.color': 'rgb(255, 0, 0)'}).then(() => {
      const result = {drawn, restyled: fills()};
      Plotly.purge(box);
      box.remove();
      done(result);
    });
  }).catch(e => done({error: String(e)}));
"""

# selection.classed, reached through a figure's d3 selection (its _paper), on new elements
CLASSED = """
const gd = document.querySelector(arguments[0]);
const paper = gd._fullLayout._paper;
const g = paper.append('g').attr('class', 'copa-probe keep');
const out = {};
g.classed('one', true); out.added = g.attr('class');
g.classed('one', 0); out.removed = g.attr('class');
g.classed('two three', true); out.several = g.attr('class');
g.classed('two', () => false); out.byFunction = g.attr('class');
g.classed({four: true, three: false}); out.byObject = g.attr('class');
out.read = [g.classed('keep four'), g.classed('keep one')];
out.chained = g.classed('five', 'yes') === g;
const empty = paper.selectAll('.copa-no-such-node').classed('x', true);
out.emptyLength = empty.length;
g.remove();
return out;
"""


def test_a_draws_style_pass_leaves_the_points_as_drawn_and_a_restyle_restyles(dash_duo, app):
    open_page(dash_duo, app, f"/explore?dataset={DATASET}")
    driver = dash_duo.driver
    driver.set_script_timeout(30)
    wait_until(lambda: (driver.execute_script(DRAWN, FIGURES[0]) or [None, 0])[1] > 2000, 30)
    title, points, marked = driver.execute_script(DRAWN, FIGURES[0])
    assert marked == points     # every point carries its hover data
    # untick the y axis's objective: the y axis changes and every point is drawn anew
    driver.find_elements(By.CSS_SELECTOR, BOXES)[0].click()
    wait_until(lambda: (driver.execute_script(DRAWN, FIGURES[0]) or [title])[0] != title, 30)
    wait_until(lambda: driver.execute_script(
        "return !document.querySelector('.dash-graph--pending')"), 30)
    for figure in FIGURES:
        drawn = driver.execute_script(SNAPSHOT, figure)
        assert len(drawn) > 100
        assert all(style for _, _, _, style in drawn)     # every point and line styled
        assert driver.execute_async_script(STYLE_PASS, figure) == {"recomputed": False}
        assert driver.execute_script(SNAPSHOT, figure) == drawn, figure
    assert driver.execute_script(DRAWN, FIGURES[0])[2] == driver.execute_script(DRAWN, FIGURES[0])[1]

    restyle = driver.execute_async_script(RESTYLE)
    assert "error" not in restyle, restyle
    assert restyle["drawn"] == {"fills": ["rgb(0, 0, 255)"] * 3, "marked": [True, False, True]}
    assert restyle["restyled"] == ["rgb(255, 0, 0)"] * 3
    assert dash_duo.get_logs() == []


def test_classed_sets_one_class_as_class_list_does_and_keeps_its_other_forms(dash_duo, app):
    open_page(dash_duo, app, f"/explore?dataset={DATASET}")
    driver = dash_duo.driver
    wait_until(lambda: (driver.execute_script(DRAWN, FIGURES[0]) or [None, 0])[1] > 2000, 30)
    assert driver.execute_script(CLASSED, FIGURES[0]) == {
        "added": "copa-probe keep one", "removed": "copa-probe keep",
        "several": "copa-probe keep two three", "byFunction": "copa-probe keep three",
        "byObject": "copa-probe keep four", "read": [True, False], "chained": True,
        "emptyLength": 1}
    assert dash_duo.get_logs() == []
