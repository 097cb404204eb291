/* The address bar follows the view: every page's own callback writes its view's link into
 * its share box (a read-only dcc.Textarea with class "share-link", common/url_sync.share_box,
 * which writes a new link in the same render as the answer); when the box changes, the address bar
 * is replaced with that link's path and query (history.replaceState: no navigation, no new
 * history entry). Only a link to the page on show is followed. */
(function () {
    // the value each box had when last followed: a box is followed when it appears and when
    // its value changes, never because something else on the page changed (after the Back
    // button, the old page's box must not pull the address forward again)
    const seen = new WeakMap();

    function follow() {
        const box = document.querySelector('textarea.share-link, .share-link input, input.share-link');
        if (!box || !box.value || seen.get(box) === box.value) {
            return;
        }
        seen.set(box, box.value);
        let link;
        try {
            link = new URL(box.value, window.location.href);
        } catch (error) {
            return;
        }
        // "/explore/" shows the same page as "/explore"
        const page = (path) => path.replace(/\/+$/, '');
        if (page(link.pathname) !== page(window.location.pathname)) {
            return;
        }
        // Explore's view is the working context the other pages open with (assets/context.js)
        if (window.copaContext) {
            window.copaContext.capture(link);
        }
        if (link.search !== window.location.search) {
            window.history.replaceState(window.history.state, '',
                                        window.location.pathname + link.search);
        }
    }

    function start() {
        // React writes a textarea's new value into its text as well as the property (childList,
        // characterData), an input's into its value attribute; a new page brings a new box
        new MutationObserver(follow).observe(document.body, {
            subtree: true, childList: true, characterData: true, attributes: true,
            attributeFilter: ['value'],
        });
        follow();
    }

    if (document.readyState === 'loading') {
        document.addEventListener('DOMContentLoaded', start);
    } else {
        start();
    }
}());
