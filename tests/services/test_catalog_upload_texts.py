"""What the catalogue says of an upload matches who sees it (issue 33: a shared upload of one's
own was described as "only this browser lists it")."""

from __future__ import annotations

from copa_dash.services.catalog import with_my_uploads


def _info(shared):
    return {"id": "a" * 32, "name": "t", "shared": shared, "created": "2026-11-28",
            "n_rows": 3, "roles": {"objectives": [["acc", "max"], ["cost", "min"]]}}


def test_own_shared_upload_says_everyone_sees_it():
    [entry] = with_my_uploads([], [_info(True)])
    assert entry.mine and "everyone" in entry.learn and "only" not in entry.learn


def test_own_private_upload_says_only_its_owner_lists_it():
    [entry] = with_my_uploads([], [_info(False)])
    assert "for you only" in entry.learn and "everyone" not in entry.learn
