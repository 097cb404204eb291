/* plotly.js as copa-dash uses it: the core and only the trace types the pages draw.
 *
 * Why: Dash loads plotly.js's full bundle (4.8 MB, every trace type) when the first graph
 * appears. In a browser that has not seen the page before, compiling and initialising it was
 * the largest part of the explorer's first open (about 0.9 s of main-thread time in a CPU
 * profile of the 100,000-row table; benchmarks/bench_explore_browser.py). This bundle is
 * 2.2 MB. dcc.Graph uses window.Plotly when a page defines it (Dash serves this file from
 * assets/, before the renderer starts), so the full bundle is never fetched.
 *
 * The trace types: keep this list equal to what copa_dash/ui draws
 * (tests/ui/test_plotly_bundle.py compares them).
 */
'use strict';

var Plotly = require('plotly.js/lib/core');

Plotly.register([
    require('plotly.js/lib/bar'),           // posets: depth per task
    require('plotly.js/lib/box'),           // rankings (benchmark spread), systems (run HV)
    require('plotly.js/lib/heatmap'),       // posets: pairwise dominance
    require('plotly.js/lib/histogram'),     // systems: permutation null distribution
    require('plotly.js/lib/parcoords'),     // generalization: validation vs test
    require('plotly.js/lib/scatter3d'),     // systems: fronts in three objectives
    require('plotly.js/lib/scattergl'),     // explore: above 10,000 drawn points
    require('plotly.js/lib/scatterpolar'),  // systems: radar of front indicators
]);

/* Colour strings resolved once. Plotly styles every SVG point and line one at a time, and
 * each Color.fill / Color.stroke parses the same CSS colour string again (culori, trying
 * several syntaxes) and formats it back: on the explorer's first open at 100,000 rows
 * (4,788 points, 2,787 lines) that was 0.3-0.4 s of a 1.6 s draw in a CPU profile. The
 * functions are pure in their string argument, so their results are kept per string (at
 * most LIMIT strings, then the memo starts over); anything else goes to Plotly as before.
 * Callers reach them through the module object (Color.fill(...)), so replacing the
 * properties is enough. tests/e2e/test_page_scripts.py compares drawn colours with the
 * browser's own CSS parsing.
 */
var Color = require('plotly.js/src/components/color');
var LIMIT = 4096;
var resolvedColors = new Map();
var toRgb = Color.rgb;
var toOpacity = Color.opacity;

function resolved(color) {
    var hit = resolvedColors.get(color);
    if (hit === undefined) {
        if (resolvedColors.size >= LIMIT) {
            resolvedColors.clear();
        }
        hit = [toRgb(color), Color.parse(color).alpha];
        resolvedColors.set(color, hit);
    }
    return hit;
}

function resolvedAny(color) {
    return typeof color === 'string' ? resolved(color) : [toRgb(color), Color.parse(color).alpha];
}

Color.rgb = function (color) {
    return typeof color === 'string' ? resolved(color)[0] : toRgb(color);
};
Color.opacity = function (color) {
    return typeof color === 'string' && color ? resolved(color)[1] : toOpacity(color);
};
Color.stroke = function (selection, color) {
    var rgbAlpha = resolvedAny(color);
    selection.style({stroke: rgbAlpha[0], 'stroke-opacity': rgbAlpha[1]});
};
Color.fill = function (selection, color) {
    var rgbAlpha = resolvedAny(color);
    selection.style({fill: rgbAlpha[0], 'fill-opacity': rgbAlpha[1]});
};

module.exports = Plotly;
