/* A graph below the first screen is drawn for the first time after the next frame is painted.
 *
 * When a page's callback brings several figures at once, dcc.Graph draws them one after the
 * other in the same task, so nothing appears until the last is drawn. On the explorer's first
 * open at 100,000 rows the parallel-coordinates figure (2,787 lines), which sits below the
 * first screen, took 0.4 s of that task after the front figure: the figure the user looks at
 * waited for one they cannot see yet. Here a first draw (the graph has never been drawn)
 * into a graph whose top is below the window waits until the browser has painted the next
 * frame; everything else is drawn at once, as before. A call for a graph whose deferred first
 * draw is still waiting is chained after it, so draws keep their order. The promise dcc.Graph
 * gets resolves when the deferred draw is done, as Plotly's own does.
 *
 * Plotly is window.Plotly, defined by the bundle in assets/ (plotly-*-copa.min.js, loaded
 * before this file). Without it nothing is deferred.
 */
(function () {
    'use strict';
    const plotly = window.Plotly;
    if (!plotly || typeof plotly.react !== 'function' || plotly.react.copaOffscreen) {
        return;
    }

    function graphOf(gd) {
        return typeof gd === 'string' ? document.getElementById(gd) : gd;
    }

    function belowFirstScreen(graph) {
        return graph instanceof HTMLElement && graph.isConnected && !graph._fullLayout
            && graph.getBoundingClientRect().top >= window.innerHeight;
    }

    function afterNextPaint() {
        // a requestAnimationFrame callback runs before its frame is painted; the task it
        // queues runs after
        return new Promise(function (resolve) {
            requestAnimationFrame(function () { setTimeout(resolve, 0); });
        });
    }

    function deferring(draw) {
        const wrapped = function (gd) {
            const graph = graphOf(gd);
            const args = Array.prototype.slice.call(arguments, 1);
            const self = this;
            const drawNow = function () { return draw.apply(self, [graph].concat(args)); };
            let waitFor = graph && graph.copaPendingDraw;
            if (!waitFor) {
                if (!belowFirstScreen(graph)) {
                    return draw.apply(this, arguments);
                }
                waitFor = afterNextPaint();
            }
            const drawn = waitFor.then(drawNow, drawNow);
            graph.copaPendingDraw = drawn;
            const settled = function () {
                if (graph.copaPendingDraw === drawn) {
                    delete graph.copaPendingDraw;
                }
            };
            drawn.then(settled, settled);
            return drawn;
        };
        wrapped.copaOffscreen = true;
        return wrapped;
    }

    plotly.react = deferring(plotly.react);
    plotly.newPlot = deferring(plotly.newPlot);
}());
