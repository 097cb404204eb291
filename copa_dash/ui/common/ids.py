"""The base of every page's id namespace.

A page declares its component ids as annotated names of a :class:`PageIds` subclass; each gets
the id ``"<prefix>-<name>"`` (lower case, ``_`` as ``-``), so the page's prefix is written once
and an id cannot drift from its name. An id that keeps another spelling (one that links or
tests already use) is assigned as usual.

>>> class DemoIds(PageIds, prefix="demo"):
...     ALERT: str
...     TABLE_PAGE: str
...     LEGACY = "old-id"
>>> DemoIds.ALERT, DemoIds.TABLE_PAGE, DemoIds.LEGACY
('demo-alert', 'demo-table-page', 'old-id')
>>> sorted(DemoIds.ids().values())
['demo-alert', 'demo-table-page', 'old-id']
>>> class DemoViewIds(ViewPageIds, prefix="demo"):
...     TABLE: str
>>> DemoViewIds.QUERY, DemoViewIds.TABLE
('demo-query', 'demo-table')
"""

from __future__ import annotations

import inspect


class PageIds:
    """A page's component ids: ``NAME: str`` declares ``"<prefix>-<name>"``; ``NAME = "id"``
    an id spelt otherwise."""

    def __init_subclass__(cls, *, prefix: str | None = None, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if prefix is None:       # a base of namespaces (ViewPageIds): its names wait for a prefix
            return
        for klass in cls.__mro__:
            for name in inspect.get_annotations(klass):
                if not any(name in vars(k) for k in cls.__mro__):
                    setattr(cls, name, f"{prefix}-{name.lower().replace('_', '-')}")

    @classmethod
    def ids(cls) -> dict[str, str]:
        """Every id of the namespace, by its name."""
        return {name: value for name, value in vars(cls).items()
                if name.isupper() and isinstance(value, str)}


class ViewPageIds(PageIds):
    """The ids of a page whose view lives in its URL, which :mod:`.page_frame` and
    :mod:`.url_sync` wire up the same way on every such page."""

    NAV: str             # dcc.Location: the address bar
    REF: str             # store: the open dataset's reference
    DATASET: str         # the dataset picker
    QUERY: str           # store: the view's query string
    SHARE: str           # the share box: the view's link
