"""The uploads this browser owns: their owner tokens live in the browser's localStorage.

The upload page writes ``{record id: owner token}`` into the store below when a table is
saved; the upload page (to rename or delete) and the Datasets page (to list them) read it.
Tokens never travel in a link: only Dash callbacks of this instance's own pages send them.
"""

from __future__ import annotations

from dash import dcc, html

from copa_dash.services.views.links import dataset_link

#: Id of the dcc.Store (storage_type="local") holding {record id: owner token}.
MY_UPLOADS = "my-uploads"

OWNER_TOKEN_HELP = (
    "This browser keeps an owner token for each table you upload here (in its local storage, "
    "never in a link). Anyone with a dataset's link can open it; only its owner token can "
    "rename or delete it. Clearing this site's data in the browser forgets the tokens, and "
    "then only the instance's administrator can delete those uploads.")


def delete_question(name: str) -> str:
    """What the confirmation asks before an upload is deleted (the Datasets page's list and
    the Upload page's panel ask the same).

    >>> delete_question("sweep")[:16]
    "Delete 'sweep'? "
    """
    return (f"Delete {name!r}? Its table is removed from this instance for everyone who has "
            "its link; this cannot be undone.")


def my_uploads_store() -> dcc.Store:
    """The browser-side store of owned uploads (one per page that uses it, same id)."""
    return dcc.Store(id=MY_UPLOADS, storage_type="local")


def uploads_list(infos: list[dict], *, empty: str) -> html.Div:
    """One line per owned upload: its name as a link to the explorer, rows, date."""
    if not infos:
        return html.P(empty, className="help")
    return html.Ul(className="my-uploads", children=[
        html.Li([
            dcc.Link(info.get("name") or f"upload {info['id'][:8]}",
                     href=dataset_link("explore", info["id"])),
            html.Span(f" · {int(info.get('n_rows') or 0):,} rows · uploaded "
                      f"{str(info.get('created') or '')[:10]}"
                      + (" · listed for everyone" if info.get("shared") else
                         f" · shared with {', '.join(info['groups'])}" if info.get("groups")
                         else " · private"),
                      className="help"),
        ]) for info in infos])
