"""Sharing an upload with one of its owner's groups (services/upload_groups.py): only the owner,
only with a group they are in; the catalogue lists it for the group's members and nobody else;
unsharing takes it back."""

from __future__ import annotations

import pandas as pd
import pytest

from copa_dash.config import Settings
from copa_dash.core.errors import InvalidInputError
from copa_dash.data.schema import Objective, Roles
from copa_dash.services.catalog import catalog
from copa_dash.services.store import NotOwnerError, open_store
from copa_dash.services.upload_groups import (
    share_with_group,
    shared_groups,
    shared_with_text,
    unshare_group,
)

ROLES = Roles(id="model", objectives=(Objective("accuracy", "max"), Objective("cost", "min")))


@pytest.fixture
def settings(tmp_path):
    return Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")


def _upload(settings, *, user=None):
    frame = pd.DataFrame({"model": ["a", "b", "c"], "accuracy": [0.9, 0.8, 0.7],
                          "cost": [3.0, 2.0, 1.0]})
    return open_store(settings).save(frame, ROLES, name="runs", owner_user=user)


def _listed(settings, groups) -> set:
    return {entry.ref for entry in catalog(settings, groups=groups)}


def test_the_owner_shares_with_a_group_they_are_in_and_only_its_members_see_it(settings):
    saved = _upload(settings, user="ana")
    assert saved.id not in _listed(settings, ("ml-team",))
    info = share_with_group(settings, saved.id, "ml-team", owner_token=None, user="ana",
                            groups=("ml-team", "staff"))
    assert info["groups"] == ["ml-team"] and shared_groups(settings, saved.id) == ["ml-team"]
    assert saved.id in _listed(settings, ("ml-team",))
    assert saved.id in _listed(settings, ("sales", "ml-team"))
    assert saved.id not in _listed(settings, ("sales",))
    assert saved.id not in _listed(settings, ())
    share_with_group(settings, saved.id, "staff", owner_token=None, user="ana",
                     groups=("ml-team", "staff"))
    assert shared_groups(settings, saved.id) == ["ml-team", "staff"]
    assert shared_with_text(shared_groups(settings, saved.id)) == \
        "Shared with the groups ml-team, staff."


def test_unsharing_takes_it_back_from_that_group_only(settings):
    saved = _upload(settings, user="ana")
    for group in ("ml-team", "staff"):
        share_with_group(settings, saved.id, group, owner_token=None, user="ana",
                         groups=("ml-team", "staff"))
    info = unshare_group(settings, saved.id, "ml-team", owner_token=None, user="ana")
    assert info["groups"] == ["staff"]
    assert saved.id not in _listed(settings, ("ml-team",))
    assert saved.id in _listed(settings, ("staff",))
    with pytest.raises(InvalidInputError, match="not shared with 'ml-team'.*shared with staff"):
        unshare_group(settings, saved.id, "ml-team", owner_token=None, user="ana")
    unshare_group(settings, saved.id, "staff", owner_token=None, user="ana")
    assert shared_with_text(shared_groups(settings, saved.id)) == "Shared with no group."


def test_only_the_owner_and_only_with_their_own_groups(settings):
    saved = _upload(settings, user="ana")
    with pytest.raises(InvalidInputError, match="only with a group you are in.*not in 'sales'"):
        share_with_group(settings, saved.id, "sales", owner_token=None, user="ana",
                         groups=("ml-team",))
    with pytest.raises(InvalidInputError, match="choose one of your groups"):
        share_with_group(settings, saved.id, None, owner_token=None, user="ana",
                         groups=("ml-team",))
    with pytest.raises(NotOwnerError):      # bob is in the group but does not own the upload
        share_with_group(settings, saved.id, "ml-team", owner_token=None, user="bob",
                         groups=("ml-team",))
    share_with_group(settings, saved.id, "ml-team", owner_token=None, user="ana",
                     groups=("ml-team",))
    with pytest.raises(NotOwnerError):
        unshare_group(settings, saved.id, "ml-team", owner_token=None, user="bob")
    assert shared_groups(settings, saved.id) == ["ml-team"]


def test_an_owner_token_works_as_the_signed_in_owner(settings):
    saved = _upload(settings)                   # uploaded before signing in: a token
    share_with_group(settings, saved.id, "ml-team", owner_token=saved.owner_token, user="ana",
                     groups=("ml-team",))
    assert saved.id in _listed(settings, ("ml-team",))
    with pytest.raises(NotOwnerError):
        unshare_group(settings, saved.id, "ml-team", owner_token="wrong", user="ana")
