"""Who sends a request: the signed-in user named by a trusted proxy, else the client's address.

Behind an authenticating proxy (oauth2-proxy, or nginx with ``auth_request``) the proxy
names the user in a header (``COPA_TRUSTED_USER_HEADER``, e.g. ``X-Forwarded-User``) and
their groups in another (``COPA_TRUSTED_GROUPS_HEADER``). Those headers are believed only
when the request comes straight from one of the ``COPA_TRUSTED_PROXY`` addresses: anyone
else who sends them is ignored (and logged), so a client that reaches the app around the
proxy cannot claim to be someone. The same rule decides whether ``X-Forwarded-For`` names
the client's address (for quotas), else the connection's peer is the client.
"""

from __future__ import annotations

import ipaddress
import logging
from dataclasses import dataclass

from flask import has_request_context, request

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Client:
    """The sender of the current request.

    ``user`` is the signed-in user (None without a trusted proxy header); ``groups`` their
    groups; ``address`` the client's IP address as far as it is known.
    """

    user: str | None
    groups: tuple[str, ...]
    address: str

    @property
    def key(self) -> str:
        """A stable name for quotas: ``user:<name>`` or ``addr:<address>``."""
        return f"user:{self.user}" if self.user else f"addr:{self.address}"


def _in(address: str, networks) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    for network in networks:
        try:
            if ip in ipaddress.ip_network(network, strict=False):
                return True
        except ValueError:
            continue
    return False


def from_trusted_proxy(settings) -> bool:
    """True when the current request comes straight from a configured proxy."""
    peer = request.remote_addr or ""
    return bool(settings.trusted_proxy) and _in(peer, settings.trusted_proxy)


def current_client(settings) -> Client:
    """The :class:`Client` of the current request (an anonymous local one outside a request)."""
    if not has_request_context():
        return Client(user=None, groups=(), address="local")
    peer = request.remote_addr or "unknown"
    trusted = from_trusted_proxy(settings)
    address = peer
    if trusted:
        forwarded = [part.strip() for part in
                     (request.headers.get("X-Forwarded-For") or "").split(",") if part.strip()]
        if forwarded:
            address = forwarded[-1]  # what the proxy itself saw
    user, groups = None, ()
    header = settings.trusted_user_header
    if header:
        claimed = (request.headers.get(header) or "").strip()
        if claimed and trusted:
            user = claimed[:200]
            if settings.trusted_groups_header:
                raw = request.headers.get(settings.trusted_groups_header) or ""
                groups = tuple(sorted({g.strip()[:200] for g in raw.split(",") if g.strip()}))
        elif claimed:
            logger.warning("ignored %s from %s: not a trusted proxy (COPA_TRUSTED_PROXY)",
                           header, peer)
    return Client(user=user, groups=groups, address=address)
