"""What every page does with its URL: the dataset picker opens the new dataset's default
view, and the view's query string is written back to the address bar and the share box."""

from __future__ import annotations

from urllib.parse import urlencode

from dash import Input, Output, State
from dash.exceptions import PreventUpdate

# replaceState: the address bar follows the view without a navigation (no re-render)
_WRITE_URL = """function(query) {
    if (query === undefined || query === null) { return window.dash_clientside.no_update; }
    const url = window.location.pathname + '?' + query;
    window.history.replaceState(window.history.state, '', url);
    return window.location.origin + url;
}"""


def register_url_sync(app, *, path: str, nav: str, dataset: str, ref: str, query: str,
                      share: str) -> None:
    """Attach the two URL callbacks of a page.

    Parameters
    ----------
    path : str
        The page's path, e.g. ``"/rankings"``.
    nav, dataset, ref, query, share : str
        Ids of the page's ``dcc.Location`` (refresh="callback-nav"), dataset dropdown, store of
        the open dataset's reference, store of the view's query string, and share-link input.
    """

    @app.callback(Output(nav, "href"), Input(dataset, "value"), State(ref, "data"),
                  prevent_initial_call=True)
    def change_dataset(chosen, current):
        """Picking another dataset opens its default view."""
        if not chosen or chosen == current:
            raise PreventUpdate
        return f"{path}?{urlencode({'dataset': chosen})}"

    app.clientside_callback(_WRITE_URL, Output(share, "value"), Input(query, "data"))
