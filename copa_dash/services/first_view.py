"""An upload's first Explore view, computed in the background right after it is saved.

The first open of a freshly uploaded table used to compute, inside the page's callbacks,
what every later open of it reads from the caches: the table read back from the store, the
CDF ranks (u) of its objectives, the front and the alpha sweep over it (on a warm app at
1,000,000 rows x 4 about 2 s of server CPU against 0.25 s for a reload;
``benchmarks/bench_first_open_server.py``). :func:`prepare_in_background` starts that work
as soon as the upload is saved (the upload page's "Save", ``POST /api/datasets``), through
the explorer service itself (:func:`explorer.explore` on :func:`default_view`, the view
``/explore?dataset=ID`` shows for an upload), so that it fills exactly the entries the page
reads: the store's recently loaded tables, the selection's kept problems and masks, and the
analysis cache (u, front, sweep).

A first open that arrives meanwhile waits for it (``catalog.open_dataset`` calls
:func:`pending_work.wait_for` for an upload) instead of computing the same a second time;
one that arrives while the work is still queued behind another upload's takes it over.
A failure of this work is logged and changes nothing: the first open computes as before.
"""

from __future__ import annotations

from ..data.filters import RowFilter
from ..data.schema import EvalTable
from . import pending_work
from .cache import get_cache
from .catalog import open_dataset
from .default_view import FirstView, first_view
from .explorer import Exploration, explore
from .selection import Preferences
from .views.explore import ExploreView

__all__ = ["FirstView", "default_view", "first_view", "prepare", "prepare_in_background"]


def default_view(table: EvalTable) -> tuple[Preferences, RowFilter]:
    """The preferences and constraints of the Explore view ``/explore?dataset=ID`` opens for
    an upload (:meth:`ExploreView.default_for <copa_dash.services.views.explore.ExploreView.\
default_for>`, built on :func:`first_view`): what the background work prepares.

    ``tests/ui/test_first_view_defaults.py`` checks that the page, the CLI and the notebook
    use this same view.
    """
    view = ExploreView.default_for(table)
    return view.preferences(), view.row_filter()


def prepare(settings, dataset_id: str) -> Exploration:
    """Open the upload ``dataset_id`` and explore its default view now, with the instance's
    caches (what the first open then finds)."""
    opened = open_dataset(dataset_id, settings)
    preferences, row_filter = default_view(opened.table)
    return explore(opened, preferences, row_filter, cache=get_cache(settings))


def prepare_in_background(settings, dataset_id: str):
    """Queue :func:`prepare` for a just-saved upload; returns its future (see
    :func:`pending_work.submit`)."""
    return pending_work.submit(dataset_id, lambda: prepare(settings, dataset_id),
                               lock_dir=pending_work.lock_dir(settings))
