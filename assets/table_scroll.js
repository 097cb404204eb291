/* Say in words when a ranked table is wider than its panel (issue 33).
 *
 * Explore's ranked table scrolls inside its own box (.ranked-table, overflow-x: auto) when
 * its columns do not fit: at 1024 x 768 always, at 1400 x 1000 with many objectives. A
 * shadow at the right edge was the only sign, so the columns off screen went unseen. This
 * marks such a box with data-scrolls="yes" while it is wider inside than outside, and
 * assets/explore_table.css shows a line of text above the table for it.
 *
 * Cheap on every slider move: a ResizeObserver reads the sizes after the browser's own
 * layout (no forced layout), and the page-wide MutationObserver only looks for new boxes.
 */
(function () {
    'use strict';

    const watched = new WeakSet();

    function mark(box) {
        const scrolls = box.scrollWidth > box.clientWidth + 1;
        if ((box.dataset.scrolls === 'yes') !== scrolls) {
            if (scrolls) {
                box.dataset.scrolls = 'yes';
            } else {
                delete box.dataset.scrolls;
            }
        }
    }

    const sizes = new ResizeObserver(function (entries) {
        for (const entry of entries) {
            const box = entry.target.closest('.ranked-table');
            if (box) {
                mark(box);
            }
        }
    });

    const tables = new WeakMap();       // box -> the table observed in it

    function watchTable(box) {
        const table = box.querySelector('table');
        const old = tables.get(box);
        if (old === table) {
            return;
        }
        if (old) {
            sizes.unobserve(old);       // replaced: let it go
        }
        if (table) {
            sizes.observe(table);       // a new page of rows may be wider at the same box size
            tables.set(box, table);
        } else {
            tables.delete(box);
        }
    }

    function watch(box) {
        if (watched.has(box)) {
            return;
        }
        watched.add(box);
        sizes.observe(box);
        watchTable(box);
        // the table is replaced (innerHTML) on every change of the view; a newly observed
        // table is reported once after the next layout, which marks the box then (reading
        // its sizes here would force a layout of its own)
        new MutationObserver(function () { watchTable(box); })
            .observe(box, {childList: true});
    }

    // a live collection: reading it after a mutation costs no new query of the page
    const boxes = document.getElementsByClassName('ranked-table');

    function scan() {
        for (let i = 0; i < boxes.length; i++) {
            watch(boxes[i]);
        }
    }

    new MutationObserver(scan).observe(document.documentElement, {childList: true, subtree: true});
    scan();
}());
