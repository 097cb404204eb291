"""Build the Dash application: pages, background jobs, error handling, JIT warm-up."""

from __future__ import annotations

import logging
import threading

import dash
from flask import request

from .api import apply_auth, register_api
from .callback_guard import apply_callback_guard
from .config import Settings
from .core.jit import configure as configure_compiles
from .core.jit import submit as submit_compile
from .data.package_files import shipped_folder
from .host_check import apply_host_check
from .services.recent import set_memory_budget
from .services.warmup import warm_up_in_background, warm_up_kernels
from .slow_bodies import BodyDeadline
from .ui.app_shell import register_pages
from .ui.background import background_callback_manager
from .ui.common.errors import report_callback_error
from .ui.common.report_row import prime_reports
from .ui.features.help.docs_site import register_docs
from .web_security import apply_web_security
from .web_transport import apply_transport

logger = logging.getLogger("copa_dash")

# the repository's assets/ (checkout, editable install) or the wheel's copy in the package
ASSETS_DIR = shipped_folder("assets")


def create_app(settings: Settings | None = None) -> dash.Dash:
    """Create the copa-dash application.

    Parameters
    ----------
    settings : Settings, optional
        Instance configuration; read from the environment when omitted.

    Returns
    -------
    dash.Dash
        The app; ``app.server`` is the Flask server gunicorn serves.
    """
    settings = settings or Settings.from_env()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    settings.cache_dir.mkdir(parents=True, exist_ok=True)
    set_memory_budget(settings.memory_cache_bytes)

    app = dash.Dash(
        __name__,
        use_pages=True,
        pages_folder="",
        assets_folder=str(ASSETS_DIR),
        title="copa-dash",
        suppress_callback_exceptions=True,
        background_callback_manager=background_callback_manager(settings),
        on_error=report_callback_error,
        update_title=None,
    )
    app.server.config["COPA_SETTINGS"] = settings
    apply_host_check(app.server, settings)  # first: a foreign Host gets nothing else
    # the page's language, for screen readers and the axe audit (tests/e2e/test_accessibility.py)
    app.index_string = app.index_string.replace("<html>", '<html lang="en">', 1)
    # uploads arrive base64-encoded in a callback: 4/3 of the file plus the request around it
    app.server.config["MAX_CONTENT_LENGTH"] = settings.max_upload_bytes * 4 // 3 + 4 * 2**20

    register_api(app.server, settings)
    register_docs(app.server)  # docs/*.md at /docs/<page>, the Help page's links

    register_pages(app, settings)

    apply_web_security(app, settings)  # origin check on writes, CSP and friends
    apply_callback_guard(app)  # malformed callback bodies: 400, no traceback

    if settings.auth_enabled:
        apply_auth(app, settings)

    _let_browsers_keep_the_icon(app.server, shared=not settings.auth_enabled)
    # compressed answers; fingerprinted scripts and assets cached for a year
    apply_transport(app.server, shared=not settings.auth_enabled)

    # a trickling request body holds its thread until this deadline, not for ever
    app.server.wsgi_app = BodyDeadline(app.server.wsgi_app, base_seconds=settings.body_seconds,
                                       min_bytes_per_second=settings.min_upload_kbps * 1000)

    _set_up_dash_once(app)
    _serve_as_this_app(app)
    if settings.jit_mode == "background":
        _warm_up_after_first_request(app.server, lambda: _warm_up_then_prime(settings))
    else:
        warm_up_kernels()
    return app


def _set_up_dash_once(app) -> None:
    """Run Dash's first-request set-up under a lock, before any other request hook.

    Why: Dash's own hook (``Dash._setup_server``, private) checks and sets its "done" flag
    without a lock, so two first requests on a gthread worker both ran it, and one failed
    with a 500 ("dictionary changed size during iteration" in
    ``validate_background_callbacks``) while the other added the cancel callbacks. Here the
    first request runs it and the others wait for it; Dash's hook then finds it done.
    """
    lock = threading.Lock()
    done = []

    def set_up_dash():
        if done:
            return
        with lock:
            if not done:
                app._setup_server()
                done.append(True)

    app.server.before_request_funcs.setdefault(None, []).insert(0, set_up_dash)


def _serve_as_this_app(app) -> None:
    """Every request of ``app`` runs with Dash's current app set to ``app``.

    Why: Dash's callback dispatch reads ``dash.get_app()``, which outside its own wrappers is
    the last app created in the process, to sign a background job's handle, while the cancel
    callback verifies the handle with its own app's secret. With two apps in one process (the
    notebook API called twice, the tests) the handles were signed with the other app's
    secret and Cancel was dropped without a word: the job ran on and Run stayed greyed.
    Dash's ``with_app_context`` sets the same context variable for its layout routes. It runs
    first of all hooks, so Dash's first-request set-up sees this app too.
    """
    try:  # no public setter; the variable get_app reads (Dash 3 on)
        from dash._get_app import app_context
    except ImportError:  # an older Dash: get_app() has no per-request app, nothing to set
        return

    def set_current_app():
        app_context.set(app)

    app.server.before_request_funcs.setdefault(None, []).insert(0, set_current_app)


def _warm_up_then_prime(settings) -> None:
    """The kernels' warm-up, then one small report in this process, so the report jobs
    forked from it do not each load the report's code again (ui/common/report_row)."""
    warm_up_in_background()
    submit_compile("reports", lambda: prime_reports(settings), priority=2)


def _warm_up_after_first_request(server, start) -> None:
    """Compile in the background from the first request on: numpy twins answer until the
    kernels are ready, and the imports before the first page (most of a cold start's CPU)
    do not share the interpreter with a compiling thread."""
    configure_compiles(mode="background", progress=True)
    started = []

    @server.before_request
    def start_warm_up():
        if not started:
            started.append(True)
            start()


def _let_browsers_keep_the_icon(server, *, shared: bool) -> None:
    """Serve Dash's ``_favicon.ico`` (its URL carries Dash's version) as cacheable for a day;
    by shared caches too unless ``shared`` is False (an instance behind a login).

    Without caching headers Chromium fetches the icon again whenever the page replaces its
    address (the explorer's address bar follows every slider move), a request that competes
    with the next move's callback.
    """
    @server.after_request
    def cache_icon(response):
        if request.path.endswith("/_favicon.ico") and response.status_code == 200:
            if shared:
                response.cache_control.public = True
            else:
                response.cache_control.private = True
            response.cache_control.max_age = 86400
        return response
