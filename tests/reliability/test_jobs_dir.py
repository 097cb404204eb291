"""Removing the cache directory under a running instance: background jobs go on working.

A job runs in its own process, which opens ``COPA_CACHE_DIR/jobs`` by its path and writes
its result there; the worker that follows the page reads it through the cache it opened at
start-up. Before, that worker kept reading the deleted database and never saw a result.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

from copa_dash.config import Settings
from copa_dash.ui.background import background_callback_manager

WRITE_RESULT = """
import sys, diskcache
cache = diskcache.Cache(sys.argv[1])
cache.set(sys.argv[2], {"answer": 42})
"""


def _job_process_writes(directory, key) -> None:
    subprocess.run([sys.executable, "-c", WRITE_RESULT, str(directory), key], check=True,
                   timeout=60)


def test_a_removed_cache_directory_is_recreated_and_job_results_are_seen(tmp_path):
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    manager = background_callback_manager(settings)
    jobs = settings.cache_dir / "jobs"
    _job_process_writes(jobs, "before")
    assert manager.result_ready("before")

    shutil.rmtree(settings.cache_dir)
    assert not manager.result_ready("nothing-yet")  # the manager's next use recreates it
    assert (jobs / "cache.db").exists()
    _job_process_writes(jobs, "after")
    assert manager.result_ready("after")
    assert manager.handle.get("after") == {"answer": 42}


def test_a_replaced_jobs_database_is_reopened(tmp_path):
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    manager = background_callback_manager(settings)
    jobs = settings.cache_dir / "jobs"
    manager.handle.set("old", 1)
    shutil.rmtree(jobs)
    _job_process_writes(jobs, "new")  # a job process made the directory anew first
    assert manager.result_ready("new") and manager.handle.get("old") is None
