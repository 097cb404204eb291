"""The one function that writes a page's link: ``/PAGE?QUERY`` from a view.

Every front end (the pages' share boxes and lists, the upload's "Open in Explore", the decision
report's share link, ``copa-dash serve``'s first address, the notebook) builds its links here,
so a page's link format lives in its view (``to_query``) and nowhere else.
"""

from __future__ import annotations

from urllib.parse import quote

PAGES = ("explore", "rankings", "systems", "generalization", "posets")


def link(view, *, base: str = "") -> str:
    """The link that opens ``view`` on its page: ``/explore?dataset=...`` (``base``, an
    address like ``https://host/``, in front when given).

    Examples
    --------
    >>> from copa_dash.services.views.explore import ExploreView
    >>> link(ExploreView("d", (("a", "max"),), focus=("a",)), base="http://h/")
    'http://h/explore?dataset=d&obj=a:max&focus=a&alpha=0.5&p=inf&axes=raw&log=none'
    """
    return f"{base.rstrip('/')}/{view.PAGE}?{view.to_query()}"


def dataset_link(page: str, dataset: str, *, base: str = "") -> str:
    """The link that opens ``dataset`` on ``page`` in the page's default view (the link
    names only the dataset: the page fills in the rest, see each view's ``default_for``).

    Examples
    --------
    >>> dataset_link("rankings", "decodingtrust")
    '/rankings?dataset=decodingtrust'
    """
    if page not in PAGES:
        raise ValueError(f"unknown page {page!r}; pages: {', '.join(PAGES)}")
    # quoted as a path is (a space as %20, "/" kept): safe inside a Markdown link too
    return f"{base.rstrip('/')}/{page}?dataset={quote(str(dataset))}"
