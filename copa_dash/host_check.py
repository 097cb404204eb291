"""The ``Host`` header must name this instance (DNS rebinding).

A page on ``evil.example`` whose DNS name is re-pointed at 127.0.0.1 can make a browser on
the instance's machine send requests that the browser believes are same-origin with the
attacker's page; only the ``Host`` header (``evil.example``) tells them apart. Every
request whose host (without its port) is not allowed is refused with 400 and a message
naming the setting:

- ``COPA_ALLOWED_HOSTS`` (comma list): the names allowed; ``*.example.org`` allows the
  sub-domains, ``*`` allows any host (for an instance behind a proxy that checks it);
- unset, without a login (the default: gunicorn listens on 127.0.0.1): the loopback names
  ``localhost``, ``127.0.0.1`` and ``::1``;
- unset, with a login (``COPA_AUTH_USER`` + ``COPA_AUTH_PASSWORD`` or
  ``COPA_TRUSTED_USER_HEADER``): any host, since a rebound page has no credentials.

``/healthz`` answers every host (probes of container platforms use the pod's address).
"""

from __future__ import annotations

import logging

from flask import jsonify, request

logger = logging.getLogger(__name__)

LOOPBACK = ("localhost", "127.0.0.1", "::1")


def host_name(host: str) -> str:
    """The name of a ``Host`` header, lower-case, without its port.

    Examples
    --------
    >>> host_name("Example.org:8050"), host_name("[::1]:8050"), host_name("localhost")
    ('example.org', '::1', 'localhost')
    """
    host = (host or "").strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def allowed(name: str, patterns) -> bool:
    """Whether ``name`` matches one of ``patterns`` (exact, ``*.domain`` or ``*``).

    Examples
    --------
    >>> allowed("copa.team.example", ["*.team.example"]), allowed("team.example", ["*.team.example"])
    (True, False)
    """
    for pattern in patterns:
        pattern = pattern.strip().lower()
        if pattern == "*" or pattern == name:
            return True
        if pattern.startswith("*.") and name.endswith(pattern[1:]):
            return True
    return False


def effective_hosts(settings) -> tuple[str, ...]:
    """The host patterns this instance answers to (see the module docstring)."""
    if settings.allowed_hosts:
        return tuple(settings.allowed_hosts)
    if settings.auth_enabled or getattr(settings, "trusted_user_header", None):
        return ("*",)
    return LOOPBACK


def apply_host_check(server, settings) -> None:
    """Refuse requests whose ``Host`` is not one of :func:`effective_hosts`."""
    patterns = effective_hosts(settings)
    if "*" in patterns:
        return

    @server.before_request
    def refuse_other_hosts():
        if request.path == "/healthz":
            return None
        name = host_name(request.host)
        if allowed(name, patterns):
            return None
        logger.warning("refused a request for host %r", name[:100])
        response = jsonify(error=f"this instance does not answer to the host {name[:100]!r}; "
                                 "its administrator can add it to COPA_ALLOWED_HOSTS")
        response.status_code = 400
        return response
