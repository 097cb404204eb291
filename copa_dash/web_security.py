"""Security rules of every response and every state-changing request of an instance.

:func:`apply_web_security` adds three things to the Flask server under a Dash app:

Cross-site request forgery
    A ``POST``, ``PUT``, ``PATCH`` or ``DELETE`` (the API's uploads, renames and deletions,
    and Dash's own callbacks, ``/_dash-update-component``, which run the upload page's
    save) is refused with 403 when the browser says it comes from another site: its
    ``Origin`` (or, without one, its ``Referer``) must be this instance's own origin or
    one listed in ``COPA_TRUSTED_ORIGINS``. Browsers send ``Origin`` on every such
    request (Fetch standard), so a forged form or script on ``evil.example`` is always
    caught; a request with neither header is not from a browser page (curl, scripts)
    and has no saved credentials to abuse. An API request that carries a custom header
    (``X-Copa-Owner-Token`` or ``X-Copa-CSRF``) passes too: a browser sends a custom
    header cross-site only after a CORS preflight, which this instance never grants.
Security headers
    ``Content-Security-Policy`` (scripts only from the instance itself plus the hashes of
    Dash's own inline scripts, no plugins, no framing, forms and connections to the
    instance only), ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: same-origin``
    (a dataset's link never leaves for another site), ``X-Frame-Options: DENY`` and
    ``Cross-Origin-Opener-Policy: same-origin``.
Path tricks
    A request for a Dash component file outside its package (``/_dash-component-suites/
    ../../app.py``) or with ``..`` in its path is a 404, not a 500.

Why not a library: flask-talisman sets the same headers but also redirects to HTTPS and
marks cookies secure by default, which breaks an instance served over plain HTTP on
loopback or behind a TLS proxy, and it has no Origin check; flask-seasurf's cookie +
token scheme would need every Dash callback to carry its token. The rules here are the
OWASP "verify origin with standard headers" check and five fixed headers.
"""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

import dash.exceptions
from flask import Response, jsonify, request

logger = logging.getLogger(__name__)

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: Headers a cross-site page cannot send without a CORS preflight (API clients only).
TOKEN_HEADERS = ("X-Copa-Owner-Token", "X-Copa-CSRF")

_FIXED_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def origin_of(url: str | None) -> str | None:
    """``scheme://host[:port]`` of a URL, lower-cased; None when it has no host.

    Examples
    --------
    >>> origin_of("https://Example.org:8443/page?x=1")
    'https://example.org:8443'
    >>> origin_of("null") is None
    True
    """
    if not url:
        return None
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def _own_hosts() -> set[str]:
    """The host[:port] this request was addressed to (and the proxy's, if it says)."""
    hosts = {request.host.lower()}
    forwarded = request.headers.get("X-Forwarded-Host")
    if forwarded:  # a cross-site page cannot set this header; a proxy in front does
        hosts.add(forwarded.split(",")[0].strip().lower())
    return hosts


def is_cross_site(trusted_origins=()) -> bool:
    """True when the current request's ``Origin``/``Referer`` names another site.

    The scheme is not compared with this request's: behind a TLS proxy the app sees
    ``http`` while the browser says ``https``; the host and port are what identify the
    instance.
    """
    claimed = request.headers.get("Origin")
    if claimed is None:
        claimed = request.headers.get("Referer")
        if claimed is None:
            return False  # not a browser page: no ambient credentials to abuse
    origin = origin_of(claimed)
    if origin is None:  # "null" (sandboxed frame, file://) or garbage
        return True
    if origin in trusted_origins:
        return False
    return urlsplit(origin).netloc not in _own_hosts()


def content_security_policy(script_hashes) -> str:
    """The CSP of every page: own scripts plus the given inline-script hashes."""
    quoted = (h if h.startswith("'") else f"'{h}'" for h in script_hashes)
    scripts = " ".join(["'self'", *quoted])
    return "; ".join([
        "default-src 'self'",
        f"script-src {scripts}",
        "style-src 'self' 'unsafe-inline'",  # plotly.js and React set style attributes
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "worker-src 'self' blob:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ])


def apply_web_security(app, settings) -> None:
    """Add the origin check, the security headers and the path rules to ``app``.

    Parameters
    ----------
    app : dash.Dash
        The application; its inline-script hashes go into the CSP (computed at the first
        response, after every clientside callback is registered).
    settings : copa_dash.config.Settings
        ``trusted_origins`` lists other origins allowed to send state-changing requests.
    """
    server = app.server
    trusted = frozenset(origin_of(o) for o in settings.trusted_origins if origin_of(o))
    policy: list[str] = []

    @server.before_request
    def refuse_cross_site_writes():
        if ".." in request.path.split("/"):
            return Response("Not found.\n", status=404, mimetype="text/plain")
        if request.method not in UNSAFE_METHODS or not is_cross_site(trusted):
            return None
        if request.path.startswith("/api/") and any(h in request.headers
                                                      for h in TOKEN_HEADERS):
            return None
        logger.warning("refused a cross-site %s %s from %r", request.method, request.path,
                       request.headers.get("Origin") or request.headers.get("Referer"))
        response = jsonify(error="cross-site request refused: this instance accepts changes "
                                 "only from its own pages (or API clients without an "
                                 "Origin header)")
        response.status_code = 403
        return response

    @server.after_request
    def add_security_headers(response):
        if not policy:
            policy.append(content_security_policy(app.csp_hashes()))
        response.headers.setdefault("Content-Security-Policy", policy[0])
        for name, value in _FIXED_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    @server.errorhandler(dash.exceptions.DependencyException)
    def unknown_component_file(error):
        return Response("Not found.\n", status=404, mimetype="text/plain")
