"""Staged uploads (read, roles not yet chosen) are bounded in all and per client; the oldest
go first, and the page's notes say so. One anonymous client staged 67 MB in 8 s before."""

from __future__ import annotations

import os
import time

import pytest

from copa_dash.config import Settings
from copa_dash.core.errors import InvalidInputError
from copa_dash.services.store import DatasetStore
from copa_dash.services.uploads import stage_upload

KB = 1024


def _table(i: int, padding: int = 0) -> bytes:
    rows = "".join(f"m{j},{(i * 7 + j) % 11},{j % 5}\n" for j in range(padding // 8 + 2))
    return f"model,error,speed\n{rows}".encode()


def _staged_bytes(root) -> int:
    return sum(p.stat().st_size for p in (root / "staging").glob("*.upload"))


def _age(root, seconds_ago):
    for path in (root / "staging").glob("*.upload"):
        stamp = time.time() - seconds_ago
        os.utime(path, (stamp, stamp))


def test_one_client_is_bounded_and_its_oldest_go_first(tmp_path):
    store = DatasetStore(tmp_path)
    first, evicted = store.stage_within(b"a" * 40 * KB, client="addr:10.0.0.1",
                                        client_bytes=100 * KB, total_bytes=10**6)
    assert evicted == 0
    _age(tmp_path, 60)
    store.stage_within(b"b" * 40 * KB, client="addr:10.0.0.1", client_bytes=100 * KB,
                       total_bytes=10**6)
    # someone else's staged file is not this client's to lose
    store.stage_within(b"z" * 40 * KB, client="addr:10.0.0.2", client_bytes=100 * KB,
                       total_bytes=10**6)
    third, evicted = store.stage_within(b"c" * 40 * KB, client="addr:10.0.0.1",
                                        client_bytes=100 * KB, total_bytes=10**6)
    assert evicted == 1
    with pytest.raises(InvalidInputError, match="expired"):
        store.staged(first)
    assert store.staged(third) == b"c" * 40 * KB
    assert _staged_bytes(tmp_path) == 120 * KB


def test_the_total_is_bounded_across_clients(tmp_path):
    store = DatasetStore(tmp_path)
    for i in range(10):
        store.stage_within(bytes([i]) * 30 * KB, client=f"addr:10.0.0.{i}",
                           client_bytes=10**6, total_bytes=100 * KB)
        assert _staged_bytes(tmp_path) <= 100 * KB


def test_a_file_larger_than_the_quota_is_refused(tmp_path):
    store = DatasetStore(tmp_path)
    with pytest.raises(InvalidInputError, match="larger than the space"):
        store.stage_within(b"x" * 200 * KB, client="c", client_bytes=100 * KB)


def test_the_page_notes_say_what_was_removed(tmp_path):
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache",
                        staged_quota_bytes=10**7, staged_client_quota_bytes=12 * KB)
    first = stage_upload(settings, "a.csv", _table(1, 6 * KB), client="user:ana")
    assert not any("To make room" in n for n in first.notes)
    second = stage_upload(settings, "b.csv", _table(2, 6 * KB), client="user:ana")
    assert second.notes[0].startswith("To make room, 1 older upload waiting to be saved "
                                       "was removed")
    assert "12 MB" not in second.notes[0] and "0 MB per person" in second.notes[0]
