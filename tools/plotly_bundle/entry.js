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

/* A class set on one element at a time, without a regular expression per call. d3 v3's
 * selection.classed(name, value) splits ``name`` and builds a RegExp for each class on every
 * call; Plotly's scatter calls it once per point it draws (``plotly-customdata`` on every point
 * with hover data), and on the explorer's y-axis tick (2,921 points of the Open LLM
 * leaderboard) that was about a fifth of drawing the points (a CPU profile; docs/benchmarks.md,
 * session 23). For one class name and a constant value the result is d3's own (it uses the
 * element's classList when there is one); every other form goes to d3 as before.
 * tests/e2e/test_explore_plotly_passes.py checks the classes drawn.
 */
var d3 = require('@plotly/d3');
var ONE_CLASS = /^[^\s]+$/;
var classed = d3.selection.prototype.classed;

d3.selection.prototype.classed = function (name, value) {
    if (arguments.length !== 2 || typeof name !== 'string' || typeof value === 'function' ||
            !ONE_CLASS.test(name)) {
        return classed.apply(this, arguments);
    }
    return this.each(function () {
        var list = this.classList;
        if (!list) {
            classed.call(d3.select(this), name, value);
        } else if (value) {
            list.add(name);
        } else {
            list.remove(name);
        }
    });
};

/* Points styled once per draw, not twice. After a full draw (subroutines.drawData) Plotly
 * calls every trace module's style pass; for the scatter family that pass restyles every
 * point with the same Drawing.singlePointStyle, the same trace and the same per-point data the
 * draw has just used on each of them (traces/scatter/plot.js makePoints). Inside drawData only,
 * the scatter style pass runs without its point styling (the groups' opacity, the text, lines
 * and fills are still styled); a style pass of its own (a restyle, a legend click, a
 * selection) styles the points as before. It was about a seventh of the explorer's y-axis
 * tick in Plotly (the profile above). tests/e2e/test_explore_plotly_passes.py checks that
 * Plotly's own style pass, run after such a draw, changes nothing in the points.
 */
var Registry = require('plotly.js/src/registry');
var subroutines = require('plotly.js/src/plot_api/subroutines');
var Drawing = require('plotly.js/src/components/drawing');
var scatterStyle = require('plotly.js/src/traces/scatter/style').style;
var drawing = 0;

function noPointStyle() {}

function scatterStyleAfterDraw(gd) {
    if (!drawing) {
        return scatterStyle(gd);
    }
    var pointStyle = Drawing.pointStyle;
    Drawing.pointStyle = noPointStyle;
    try {
        return scatterStyle(gd);
    } finally {
        Drawing.pointStyle = pointStyle;
    }
}

Object.keys(Registry.modules).forEach(function (type) {
    var traceModule = Registry.modules[type]._module;
    if (traceModule.style === scatterStyle) {
        traceModule.style = scatterStyleAfterDraw;
    }
});

var drawData = subroutines.drawData;
subroutines.drawData = function (gd) {
    drawing += 1;
    try {
        return drawData(gd);
    } finally {
        drawing -= 1;
    }
};

module.exports = Plotly;
