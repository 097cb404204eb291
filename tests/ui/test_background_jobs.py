"""The background-callback manager: diskcache by default, Celery on Redis when configured."""

from __future__ import annotations

import dash
import pytest

from copa_dash.config import Settings
from copa_dash.services.jobs import celery_app_for
from copa_dash.ui.background import background_callback_manager


def test_diskcache_manager_in_the_jobs_directory(tmp_path):
    manager = background_callback_manager(Settings(cache_dir=tmp_path / "cache"))
    assert isinstance(manager, dash.DiskcacheManager)
    assert manager.cache_by is None  # results are handed over once, not cached by inputs
    assert (tmp_path / "cache" / "jobs").is_dir()
    assert manager.handle.directory == str(tmp_path / "cache" / "jobs")


def test_celery_manager_on_redis_without_connecting():
    pytest.importorskip("celery")
    settings = Settings(redis_url="redis://127.0.0.1:1/0")  # nothing listens there
    manager = background_callback_manager(settings)
    assert isinstance(manager, dash.CeleryManager)
    app = celery_app_for(settings)
    assert manager.handle is app and celery_app_for(settings) is app
    assert app.conf.broker_url == "redis://127.0.0.1:1/0"
    assert app.conf.accept_content == ["json"]  # workers never unpickle messages


def test_celery_needs_a_redis_url():
    with pytest.raises(ValueError, match="COPA_REDIS_URL"):
        celery_app_for(Settings())
