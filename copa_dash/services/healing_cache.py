"""A :class:`diskcache.Cache` that comes back when its directory is removed or replaced.

Dash's background-callback manager keeps one diskcache (``COPA_CACHE_DIR/jobs``) for the
life of a worker: the page's polls read job results from it and each job's process writes
them. SQLite goes on using a database file that was deleted under it, so after someone
removed the cache directory the worker read an orphaned file while every new job process
(which opens the cache by its path) created a fresh one: no result was ever seen again,
until a restart. :class:`SelfHealingCache` checks, before each use of a thread's
connection, that the database file is still the one it opened (one ``stat``); if the file
is gone it recreates the directory and the database, and if it was replaced it reconnects.
"""

from __future__ import annotations

import logging
import os
import threading

import diskcache

logger = logging.getLogger(__name__)


def _database_identity(directory: str):
    try:
        stamp = os.stat(os.path.join(directory, diskcache.core.DBNAME))
    except FileNotFoundError:
        return None
    return stamp.st_dev, stamp.st_ino


class SelfHealingCache(diskcache.Cache):
    """:class:`diskcache.Cache` that recreates its directory and database when removed.

    Parameters are those of :class:`diskcache.Cache`; the settings given are used again
    when the cache is recreated.

    Examples
    --------
    >>> import shutil, tempfile
    >>> root = tempfile.mkdtemp()
    >>> cache = SelfHealingCache(root + "/jobs")
    >>> cache.set("a", 1)
    True
    >>> shutil.rmtree(root)
    >>> cache.set("b", 2), cache.get("b"), os.path.isdir(root + "/jobs")
    (True, 2, True)
    >>> shutil.rmtree(root)
    """

    def __init__(self, directory=None, timeout=60, disk=diskcache.Disk, **settings):
        self._heal_settings = dict(settings)
        self._heal_lock = threading.RLock()
        self._initialising = True
        try:
            super().__init__(directory, timeout, disk, **settings)
        finally:
            self._initialising = False
        self._local.identity = _database_identity(self._directory)

    @property
    def _con(self):
        if not self._initialising:
            identity = _database_identity(self._directory)
            if identity is None:
                self._recreate()
                identity = _database_identity(self._directory)
            known = getattr(self._local, "identity", None)
            if known is not None and identity != known:
                super().close()  # this thread's connection points at the old file
            self._local.identity = identity
        return super()._con

    def _recreate(self) -> None:
        with self._heal_lock:
            if _database_identity(self._directory) is not None:  # another thread did
                return
            logger.warning("the cache at %s was removed; recreating it", self._directory)
            super().close()
            timeout = self._timeout
            self.__init__(self._directory, timeout, type(self._disk), **self._heal_settings)
