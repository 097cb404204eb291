"""Where Dash background callbacks (long sweeps, significance tests) run: a diskcache under
``settings.cache_dir / "jobs"`` shared by the instance's workers, or Celery on Redis
(:func:`copa_dash.services.jobs.celery_app_for`)."""

from __future__ import annotations

from pathlib import Path

import dash
import diskcache

from copa_dash.services.jobs import RESULT_EXPIRY_SECONDS, celery_app_for


def background_callback_manager(settings):
    """The Dash background-callback manager for this instance.

    Parameters
    ----------
    settings : copa_dash.config.Settings
        ``redis_url`` selects Celery; otherwise ``cache_dir / "jobs"`` holds a diskcache.

    Returns
    -------
    dash.DiskcacheManager or dash.CeleryManager
        Results of abandoned jobs expire after :data:`RESULT_EXPIRY_SECONDS`.
    """
    # No ``cache_by``: a result is dropped once delivered. Analysis results are memoised
    # in the AnalysisCache under their dataset id, where they can be evicted per dataset.
    if settings.redis_url:
        return dash.CeleryManager(celery_app_for(settings), expire=RESULT_EXPIRY_SECONDS)
    directory = Path(settings.cache_dir) / "jobs"
    directory.mkdir(parents=True, exist_ok=True)
    return dash.DiskcacheManager(diskcache.Cache(str(directory)),
                                 expire=RESULT_EXPIRY_SECONDS)
