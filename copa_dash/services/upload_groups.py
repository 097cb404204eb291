"""Share an upload with one of its owner's groups, and take it back (the upload page's group box).

Behind an authenticating proxy that names the user's groups (``COPA_TRUSTED_GROUPS_HEADER``,
believed only from ``COPA_TRUSTED_PROXY``: :mod:`copa_dash.client_identity`), the owner of an
upload may list it for the members of a group they belong to; the catalogue then shows it to
every member (:func:`copa_dash.services.catalog.catalog` with their groups) and to nobody
else. The API's ``PATCH /api/datasets/<id> {"groups": [...]}`` sets the whole list; these
functions add or remove one group, as the page's buttons do.
"""

from __future__ import annotations

from copa_dash.core.errors import InvalidInputError
from copa_dash.services.store import open_store


def shared_groups(settings, dataset_id: str) -> list[str]:
    """The groups ``dataset_id`` is listed for (sorted; empty when none)."""
    return list(open_store(settings).info(dataset_id).get("groups") or [])


def share_with_group(settings, dataset_id: str, group: str | None, *,
                     owner_token: str | None, user: str | None, groups) -> dict:
    """List the upload for the members of ``group``; returns its public fields.

    Parameters
    ----------
    group : str
        One of ``groups``: an owner shares only with a group they are in.
    owner_token, user : str, optional
        Who asks: the upload's owner token, or its signed-in owner.
    groups : sequence of str
        The asker's groups, as the trusted proxy names them.

    Raises
    ------
    InvalidInputError
        No group chosen, or one the asker is not in; or the asker does not own the upload
        (:class:`copa_dash.services.store.NotOwnerError`).
    """
    groups = tuple(groups or ())
    if not group:
        raise InvalidInputError("choose one of your groups first")
    if group not in groups:
        listed = ", ".join(groups) if groups else "none, as your sign-in names them"
        raise InvalidInputError(f"you can share only with a group you are in ({listed}); "
                                f"you are not in {group!r}")
    store = open_store(settings)
    store.authorize(dataset_id, owner_token, user=user)
    current = store.info(dataset_id).get("groups") or []
    return store.set_groups(dataset_id, sorted({*current, group}), owner_token=owner_token,
                            user=user)


def unshare_group(settings, dataset_id: str, group: str | None, *,
                  owner_token: str | None, user: str | None) -> dict:
    """Stop listing the upload for ``group`` (any group it is listed for, even one the owner
    has left); returns its public fields.

    Raises
    ------
    InvalidInputError
        No group chosen, the upload is not listed for it, or the asker does not own it.
    """
    if not group:
        raise InvalidInputError("choose the group to stop sharing with first")
    store = open_store(settings)
    store.authorize(dataset_id, owner_token, user=user)
    current = store.info(dataset_id).get("groups") or []
    if group not in current:
        said = ", ".join(current) if current else "no group"
        raise InvalidInputError(f"this upload is not shared with {group!r} (it is shared "
                                f"with {said})")
    return store.set_groups(dataset_id, [g for g in current if g != group],
                            owner_token=owner_token, user=user)


def shared_with_text(groups) -> str:
    """``"Shared with the group ml-team."`` (or the groups), or that it is shared with none."""
    groups = list(groups or ())
    if not groups:
        return "Shared with no group."
    noun = "group" if len(groups) == 1 else "groups"
    return f"Shared with the {noun} {', '.join(groups)}."


__all__ = ["share_with_group", "shared_groups", "shared_with_text", "unshare_group"]
