"""The version of the analysis code that cached results depend on.

``copa_dash.__version__`` alone did not change when a kernel did, so a kept cache directory
could serve results of older code. The key now also holds a hash of every source file of
``copa_dash/core``: editing a kernel, a criterion or a validation changes it, and the old
entries are simply never read again (the cache's size bound evicts them).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from ..version import __version__

CORE_DIR = Path(__file__).resolve().parent.parent / "core"


def source_hash(root: Path) -> str:
    """SHA-256 (hex) of the relative paths and bytes of every ``*.py`` under ``root``."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


@lru_cache(maxsize=1)  # one value per process: the source does not change while it runs
def core_version() -> str:
    """``"<package version>+core.<first 16 hex digits of the core's source hash>"``."""
    return f"{__version__}+core.{source_hash(CORE_DIR)[:16]}"
