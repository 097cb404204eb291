/* No full redraw of a Plotly figure for a "resize" that does not change its size.
 *
 * dcc.Graph calls Plotly.Plots.resize after the first draw of every figure (always) and
 * again when its resize detector fires; Plotly then relayouts with {autosize: true}, which
 * redraws every trace even when the graph's size is the one it was just drawn at. On the
 * explorer that is a second full draw of both figures on every page load: 0.9-2.2 s of CPU
 * on the 100,000-row table's front figure (4,788 SVG points; a CPU profile of a reload put
 * 1.66 s of 4.9 s of Plotly's time under that relayout), and the sizes were equal (the graph
 * 1003 px wide before and after, headless Chromium at 1440 x 1000).
 *
 * This wraps Plots.resize of window.Plotly (the bundle in assets/, plotly-*-copa.min.js,
 * loaded before this file): a graph whose computed size is within a pixel of the size it was
 * drawn at (the test Plotly's own plotAutoSize applies before it changes the size) resolves
 * at once; any other call goes to Plotly as before, so a real change of the window or the
 * page still redraws at the new size. Without window.Plotly nothing is wrapped.
 */
(function () {
    'use strict';

    function sameSize(gd) {
        const full = gd && gd._fullLayout;
        if (!full || !gd.isConnected || !gd.layout) {
            return false;
        }
        const style = window.getComputedStyle(gd);
        const width = parseFloat(style.width);
        const height = parseFloat(style.height);
        return Math.abs(full.width - width) <= 1 && Math.abs(full.height - height) <= 1;
    }

    function wrapResize(value) {
        const plots = value && value.Plots;
        if (!plots || typeof plots.resize !== 'function' || plots.resize.copaSameSize) {
            return;
        }
        const resize = plots.resize;
        const skipping = function (gd) {
            const graph = typeof gd === 'string' ? document.getElementById(gd) : gd;
            if (sameSize(graph)) {
                return Promise.resolve(graph);
            }
            return resize.apply(this, arguments);
        };
        skipping.copaSameSize = true;
        plots.resize = skipping;
    }

    wrapResize(window.Plotly);
}());
