"""The signed-in user of the current request, as a trusted proxy names them (or None)."""

from __future__ import annotations

from copa_dash.client_identity import current_client
from copa_dash.ui.common.settings_access import current_settings


def signed_in_user() -> str | None:
    """The user named by ``COPA_TRUSTED_USER_HEADER`` from ``COPA_TRUSTED_PROXY``, else None."""
    return current_client(current_settings()).user


def signed_in_groups() -> tuple[str, ...]:
    """The signed-in user's groups (``COPA_TRUSTED_GROUPS_HEADER``), else none."""
    return current_client(current_settings()).groups
