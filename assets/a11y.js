/* Accessibility repairs of Dash 4's own markup, applied after every render (a MutationObserver),
 * so that screen readers and keyboards get names and a sane tab order. The project's own markup
 * is fixed in the layouts (html.Label(htmlFor=...), visually-hidden labels); what is here lives
 * inside Dash's components, which take no aria-* props. tests/e2e/test_accessibility.py audits
 * every page with axe-core. What Dash 4.4 does and what this script changes:
 *  - dcc.Dropdown renders an aria-hidden, read-only <input class="dash-dropdown-focus-target">
 *    with tabindex 0 that forwards focus to the real trigger <button tabindex=-1>: a focusable
 *    element hidden from screen readers. Here the trigger button takes the Tab stop itself and
 *    the hidden input leaves the tab order.
 *  - The trigger button is named by aria-labelledby="ID-value-count ID-value" only (empty when
 *    nothing is chosen); a <label for=ID> of the layout is put first in that list.
 *  - dcc.RadioItems / dcc.Checklist render role="listbox" with role="option" labels around
 *    native radios / checkboxes (an interactive control nested in another): the roles go, so the
 *    native inputs (named by their label's text) are what is announced; the group becomes a
 *    radiogroup / group named by its <label for=ID> when there is one.
 *  - dcc.Slider's thumb (role="slider") and its number box carry no name: they take the
 *    <label for=ID> of the slider, or the name of the slider when the box has none.
 *  - dcc.Upload's hidden <input type="file"> is named by the drop zone's text.
 *  - DataTable's pager buttons hold only an icon: they get "first page", "previous page", ...
 *  - dcc.Tabs' tabs are plain divs out of the tab order: they become focusable role="tab"s
 *    that Enter or Space picks.
 *  - DataTable keeps Tab on its filter case toggle and page box (a keyboard trap) and swallows
 *    Enter on its pager buttons: those keys are let through to the browser.
 */
(function () {
    const PAGER = {'first-page': 'first page', 'previous-page': 'previous page',
                   'next-page': 'next page', 'last-page': 'last page'};

    function labelFor(id) {
        if (!id) {
            return null;
        }
        const label = document.querySelector('label[for="' + CSS.escape(id) + '"]');
        if (label && !label.id) {
            label.id = id + '--label';
        }
        return label;
    }

    function set(element, name, value) {
        if (element.getAttribute(name) !== value) {
            element.setAttribute(name, value);
        }
    }

    function repairDropdowns(root) {
        root.querySelectorAll('.dash-dropdown-focus-target').forEach(function (target) {
            set(target, 'tabindex', '-1');
            const button = target.nextElementSibling;
            if (button && button.tagName === 'BUTTON' && !button.disabled) {
                set(button, 'tabindex', '0');
            }
        });
        root.querySelectorAll('button.dash-dropdown[id]').forEach(function (button) {
            // the label, then what is shown in the order it is shown (Dash lists the count first)
            const label = labelFor(button.id);
            const ids = [button.id + '-value', button.id + '-value-count'];
            set(button, 'aria-labelledby', (label ? [label.id].concat(ids) : ids).join(' '));
        });
    }

    function unrollOption(option) {
        option.removeAttribute('role');
        option.removeAttribute('aria-selected');
    }

    function repairOptionLists(root) {
        root.querySelectorAll('.dash-options-list').forEach(function (list) {
            const radio = list.classList.contains('dash-radioitems');
            set(list, 'role', radio ? 'radiogroup' : 'group');
            const label = labelFor(list.id);
            if (label) {
                set(list, 'aria-labelledby', label.id);
            }
            list.querySelectorAll('[role="option"], [aria-selected]').forEach(unrollOption);
        });
    }

    // A click on a radio or a checkbox re-renders its group, and React puts aria-selected back
    // on the options whose state changed, at the click: it is taken off in the same moment, not
    // at the next coalesced repair, which waits for the page's answer to be drawn (after an
    // objective's tick on Explore it was the page's last change, docs/benchmarks.md, session
    // 24). Its own observer, told of aria-selected only: its records are the few elements
    // that changed it, not the thousands of a figure's draw; the document is not queried.
    function unrollChangedOptions(records) {
        records.forEach(function (record) {
            const option = record.target;
            if (option.hasAttribute('aria-selected') && option.parentElement
                    && option.parentElement.closest('.dash-options-list')) {
                unrollOption(option);
            }
        });
    }

    function repairSliders(root) {
        root.querySelectorAll('.dash-slider-container').forEach(function (slider) {
            const label = labelFor(slider.id);
            slider.querySelectorAll('[role="slider"], input.dash-range-slider-input')
                .forEach(function (control) {
                    if (label) {
                        set(control, 'aria-labelledby', label.id);
                    } else if (!control.getAttribute('aria-label')) {
                        set(control, 'aria-label', 'value');
                    }
                });
        });
    }

    function repairUploads(root) {
        root.querySelectorAll('input[type="file"]').forEach(function (input) {
            const zone = input.parentElement;
            const text = zone ? zone.textContent.replace(/\s+/g, ' ').trim() : '';
            if (!input.getAttribute('aria-label')) {
                set(input, 'aria-label', text || 'choose a file');
            }
        });
    }

    function repairPagers(root) {
        root.querySelectorAll('.previous-next-container button').forEach(function (button) {
            const name = Object.keys(PAGER).find(function (c) { return button.classList.contains(c); });
            if (name) {
                set(button, 'aria-label', PAGER[name]);
            }
        });
        root.querySelectorAll('.previous-next-container input.current-page').forEach(function (input) {
            set(input, 'aria-label', 'page number');
        });
    }

    // dcc.Tabs draws its tabs as plain <div class="tab">, which Tab never reaches: they become
    // role="tab" in a role="tablist", focusable unless disabled, and Enter or Space picks one.
    function repairTabs(root) {
        root.querySelectorAll('.tab-container').forEach(function (list) {
            set(list, 'role', 'tablist');
            Array.from(list.children).forEach(function (tab) {
                if (!tab.classList.contains('tab')) {
                    return;
                }
                const disabled = tab.classList.contains('tab--disabled');
                set(tab, 'role', 'tab');
                set(tab, 'aria-selected', String(tab.classList.contains('tab--selected')));
                set(tab, 'aria-disabled', String(disabled));
                set(tab, 'tabindex', disabled ? '-1' : '0');
            });
        });
    }

    function pickTabByKey(event) {
        if ((event.key === 'Enter' || event.key === ' ') && event.target instanceof Element
                && event.target.matches('.tab-container > .tab[role="tab"]')) {
            event.preventDefault();
            event.target.click();
        }
    }

    // Each dcc.Graph becomes a figure named by what its plotly layout says it shows (title and
    // axis titles), so a screen reader announces more than "graphics"; the layouts add a short
    // visually-hidden summary beside the main figures.
    function text(value) {
        const t = value && (typeof value === 'string' ? value : value.text);
        return t ? String(t).replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim() : '';
    }

    function nameGraph(graph) {
        const gd = graph.querySelector('.js-plotly-plot');
        const layout = (gd && gd.layout) || {};
        const parts = [];
        const title = text(layout.title);
        if (title) {
            parts.push(title);
        }
        const x = text(layout.xaxis && layout.xaxis.title);
        const y = text(layout.yaxis && layout.yaxis.title);
        if (x || y) {
            parts.push('x: ' + (x || 'unnamed') + '; y: ' + (y || 'unnamed'));
        }
        const kinds = Array.from(new Set(((gd && gd.data) || []).map(function (t) {
            return t.type || 'scatter';
        }).filter(function (k) { return k !== 'scattergl'; })));
        const kind = kinds.length ? kinds.join(' and ') + ' chart' : 'chart';
        set(graph, 'role', 'figure');
        set(graph, 'aria-label', kind + (parts.length ? ': ' + parts.join('. ') : ''));
    }

    // A graph is named again as soon as Plotly has drawn it (its plotly_afterplot, in the task
    // of the draw), not only at the next coalesced repair: an objective's tick on Explore
    // changes the front figure's axis titles, and renaming it 150 ms after the draw made the
    // name the page's last change of the tick (docs/benchmarks.md, session 24). Plotly's purge
    // drops its listeners: each repair listens again (removed first, so never twice).
    function nameOnDraw(graph) {
        const gd = graph.querySelector('.js-plotly-plot');
        if (!gd || typeof gd.on !== 'function') {
            return;
        }
        if (!gd.copaNameOnDraw) {
            gd.copaNameOnDraw = function () {
                const owner = gd.closest('.dash-graph[id]');
                if (owner) {
                    nameGraph(owner);
                }
            };
        }
        gd.removeListener('plotly_afterplot', gd.copaNameOnDraw);
        gd.on('plotly_afterplot', gd.copaNameOnDraw);
    }

    function repairGraphs(root) {
        root.querySelectorAll('.dash-graph[id]').forEach(function (graph) {
            nameGraph(graph);
            nameOnDraw(graph);
        });
    }

    let scheduled = false;

    function repair() {
        scheduled = false;
        const root = document.body;
        repairDropdowns(root);
        repairOptionLists(root);
        repairSliders(root);
        repairUploads(root);
        repairPagers(root);
        repairGraphs(root);
        repairTabs(root);
    }

    // coalesced: a slider drag redraws figures many times a second, the repair waits for a pause
    function schedule() {
        if (!scheduled) {
            scheduled = true;
            window.setTimeout(repair, 150);
        }
    }

    // DataTable's key handler takes Tab on its filter row's case toggle ("Aa") and on its pager's
    // page box and keeps the focus there (a keyboard trap), and swallows Enter on its pager
    // buttons (only Space pressed them). These keys go to the browser, as anywhere else.
    const TABLE_KEYS = {
        Tab: '.dash-filter--case, .previous-next-container input.current-page',
        Enter: '.previous-next-container button',
    };

    function freeKeysFromTable(event) {
        const selector = TABLE_KEYS[event.key];
        if (selector && event.target instanceof Element && event.target.matches(selector)) {
            event.stopPropagation();
        }
    }

    function start() {
        window.addEventListener('keydown', freeKeysFromTable, true);
        document.addEventListener('keydown', pickTabByKey);
        repair();
        new MutationObserver(unrollChangedOptions).observe(document.body, {
            subtree: true, attributes: true, attributeFilter: ['aria-selected'],
        });
        new MutationObserver(schedule).observe(document.body, {
            childList: true, subtree: true, attributes: true,
            attributeFilter: ['tabindex', 'role', 'aria-labelledby', 'aria-selected', 'class'],
        });
    }

    if (document.readyState === 'loading') {
        document.addEventListener('DOMContentLoaded', start);
    } else {
        start();
    }
})();
