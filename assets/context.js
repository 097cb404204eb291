/* The working context in the browser (copa_dash/ui/common/context.py and working_context.py
 * say what it is): which dataset the user has open and, from Explore's link, its objectives
 * and constraints. Kept in a dcc.Store in localStorage ("context-last-dataset"):
 *   {dataset: NAME, query: "ctx_obj=...&ctx_range=...&ctx_in=...", explore: "<Explore's query>"}
 * The server hands its constants in (config: pages, prefix, keys, source) through the
 * clientside callbacks' State, so nothing of the codec is written twice; the Python codec reads
 * the ctx_ keys back (working_context.read_context). */
(function () {
    const state = {config: null, written: null, key: null, timer: null};

    // dcc.Store (storage_type "local") keeps its data as JSON under its id; on a page's first
    // load the initial callbacks may run before the store has read it back, so the follower
    // reads it itself rather than reset the context to nothing
    function remembered(stored, config) {
        if (stored !== null && stored !== undefined) {
            return stored;
        }
        try {
            return JSON.parse(window.localStorage.getItem(config.store));
        } catch (error) {
            return null;
        }
    }

    function normalise(stored) {
        // a plain string: the store of an older version, which kept the dataset alone
        if (typeof stored === 'string') {
            return {dataset: stored, query: '', explore: ''};
        }
        return Object.assign({dataset: '', query: '', explore: ''}, stored || {});
    }

    // the context keys of a link's query, prefixed ("obj=a:max" -> "ctx_obj=a%3Amax")
    function contextOf(params, config) {
        const out = new URLSearchParams();
        config.keys.forEach(key => params.getAll(key).forEach(v => out.append(config.prefix + key, v)));
        return out.toString();
    }

    function ownSettings(params, config) {
        return Array.from(params.keys()).some(k => k !== 'dataset' && !k.startsWith(config.prefix));
    }

    function carriesContext(params, config) {
        return Array.from(params.keys()).some(k => k.startsWith(config.prefix));
    }

    // The link completed in place (history.replaceState), not as a new history entry: pushed,
    // Back would land on the bare link, which is completed again - the user could never leave
    // the page by Back. Dash's dcc.Location only pushes, so the address is replaced here and
    // the Locations told to read it, with the event a callback navigation sends them.
    function completeLink(search) {
        const url = window.location.pathname + search + window.location.hash;
        window.history.replaceState(window.history.state, '', url);
        window.dispatchEvent(new CustomEvent('_dashprivate_pushstate'));
        return window.dash_clientside.no_update;
    }

    // pathname, search, stored, config -> [search, stored, bar style, dataset ref, link note]; the
    // server names the dataset from its ref (context.py: a title, never an upload's hex id)
    function follow(pathname, search, stored, config) {
        state.config = config;
        const nu = window.dash_clientside.no_update;
        const hidden = {display: 'none'};
        const page = (pathname || '').replace(/\/+$/, '');
        if (!config.pages.includes(page)) {
            return [nu, nu, hidden, '', ''];
        }
        const context = normalise(remembered(stored, config));
        const params = new URLSearchParams(search || '');
        const named = params.get('dataset');
        const own = ownSettings(params, config);
        if (named && named !== context.dataset) {
            // another dataset: the objectives and constraints of the old one do not follow
            return [nu, {dataset: named, query: '', explore: ''}, {}, named, ''];
        }
        if (named) {
            const mine = contextOf(params, config);
            const note = (own && context.query && mine !== context.query)
                ? 'This link carries its own settings: they are shown here instead of your ' +
                  'working context.' : '';
            if (!own && !carriesContext(params, config) && context.query) {
                return [completeLink('?' + params.toString() + '&' + context.query), nu, {}, named, ''];
            }
            return [nu, nu, {}, named, note];
        }
        if (context.dataset) {
            params.set('dataset', context.dataset);
            const extra = (!own && context.query) ? '&' + context.query : '';
            return [completeLink('?' + params.toString() + extra), nu, {}, context.dataset, ''];
        }
        // no dataset: the server's callback names the page's example (context.py)
        return [nu, nu, {}, '', ''];
    }

    // stored, ids, config -> the header links' hrefs
    function navHrefs(stored, ids, config) {
        state.config = config;
        const context = normalise(remembered(stored, config));
        return ids.map(id => {
            if (!context.dataset || !config.pages.includes(id.path)) {
                return id.path;
            }
            if (id.path === config.source && context.explore) {
                return id.path + '?' + context.explore;
            }
            const base = id.path + '?dataset=' + encodeURIComponent(context.dataset);
            return context.query ? base + '&' + context.query : base;
        });
    }

    // The header's links follow the store without being a callback's outputs: a callback's
    // outputs are marked loading while it runs (data-dash-is-loading set and removed), and
    // Dash runs the callback the context's write starts only after the answer's render and the
    // figures' draw (~80 ms after, docs/benchmarks.md session 22 (2)). Each link whose href
    // differs is set (set_props); the rest are left alone, so a callback that finds them right
    // changes nothing in the document.
    function setNavHrefs(stored, ids, current, config, set) {
        const hrefs = navHrefs(stored, ids, config);
        ids.forEach((id, i) => {
            if (current[i] !== hrefs[i]) {
                set(id, {href: hrefs[i]});
            }
        });
    }

    // stored, ids, current hrefs, config -> nothing (a clientside callback without outputs):
    // the header's links set from the store, on every change of it (context.py)
    function syncNav(stored, ids, current, config) {
        state.config = config;
        const set = window.dash_clientside && window.dash_clientside.set_props;
        if (set) {
            setNavHrefs(stored, ids || [], current || [], config, set);
        }
    }

    // the header's links as the document has them (their ids are Dash's JSON of a dict id)
    function shownNav() {
        const ids = [];
        const hrefs = [];
        document.querySelectorAll('a.nav-link[id]').forEach(link => {
            try {
                const id = JSON.parse(link.id);
                if (id && typeof id.path === 'string') {
                    ids.push(id);
                    hrefs.push(link.getAttribute('href'));
                }
            } catch (error) {
                // not a header link of context.py's
            }
        });
        return {ids: ids, hrefs: hrefs};
    }

    // url_sync.js calls this with the link of the view on show; Explore's becomes the context
    function capture(link) {
        const config = state.config;
        const set = window.dash_clientside && window.dash_clientside.set_props;
        if (!config || !set || link.pathname.replace(/\/+$/, '') !== config.source) {
            return;
        }
        const params = new URLSearchParams(link.search);
        const dataset = params.get('dataset');
        if (!dataset) {
            return;
        }
        const next = {dataset: dataset, query: contextOf(params, config),
                      explore: link.search.replace(/^\?/, '')};
        // alpha, p and the axes move Explore's link on every step of a slider: the context
        // (dataset, objectives, directions, constraints) is written at once when it changes,
        // the rest of Explore's view (for the header's Explore link) once the view has been
        // still for a second, so a slider's drag costs no store update per step
        const key = next.dataset + '\n' + next.query;
        const json = JSON.stringify(next);
        window.clearTimeout(state.timer);
        if (json === state.written) {
            return;
        }
        const write = () => {
            state.written = json;
            state.key = key;
            // the links first: the store's write then finds them right (syncNav)
            const shown = shownNav();
            setNavHrefs(next, shown.ids, shown.hrefs, config, set);
            set(config.store, {data: next});
        };
        if (key !== state.key) {
            write();
        } else {
            state.timer = window.setTimeout(write, 1000);
        }
    }

    // the page's notes on the context -> the bar's text
    function pageNotes(notes) {
        return (notes || []).join(' ');
    }

    window.copaContext = {capture: capture};
    window.dash_clientside = Object.assign({}, window.dash_clientside);
    window.dash_clientside.copa_context = {follow: follow, syncNav: syncNav, navHrefs: navHrefs,
                                           pageNotes: pageNotes};
}());
