"""HTTP API of an instance: health, dataset upload, listing, CSV download, deletion.

=======  ============================  ===============================================
method   path                          answer
=======  ============================  ===============================================
GET      /healthz                      200 {"status": "ok", "version", "datasets": n}
POST     /api/datasets                 201 {"id", "name", "n_rows"}; multipart fields
                                       ``file`` (CSV/TSV/Parquet/JSON/Excel), ``roles``
                                       (JSON of :class:`Roles`), optional ``name``,
                                       ``shared`` (true/false)
GET      /api/datasets                 200 {"datasets": [shared uploads], "bundled": [...]}
GET      /api/datasets/<id>            200 the dataset's metadata
GET      /api/datasets/<id>/csv        the table as spreadsheet-safe CSV
DELETE   /api/datasets/<id>            200 {"deleted": id}; its cached results go too
=======  ============================  ===============================================

Errors are JSON ``{"error": message}``: 400 for input a user can fix (the message says
what), 404 for an unknown dataset, 500 with a generic text for bugs (the traceback goes
to the log, never to the client).

An uploaded dataset is reachable by anyone who holds its id (64 hex digits, a hash of
the content: unguessable); ``shared`` only lists it for everyone.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from hmac import compare_digest

from flask import Blueprint, Flask, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from . import __version__
from .core.errors import InvalidInputError
from .services.cache import AnalysisCache, get_cache
from .services.export import safe_csv
from .services.store import DatasetNotFoundError, DatasetStore

logger = logging.getLogger(__name__)

api_blueprint = Blueprint("copa_api", __name__)

#: Room for the multipart boundaries and the small form fields around the file.
FORM_OVERHEAD_BYTES = 64 * 1024
_EXTENSION = "copa_dash"
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("", "0", "false", "no", "off")


@dataclass(frozen=True)
class ApiServices:
    """What the routes use, kept in ``server.extensions["copa_dash"]``."""

    settings: object
    store: DatasetStore

    @property
    def cache(self) -> AnalysisCache:
        return get_cache(self.settings)  # opened lazily in each worker process


def register_api(server: Flask, settings) -> None:
    """Attach the store and cache for ``settings`` to ``server`` and register the routes."""
    server.extensions[_EXTENSION] = ApiServices(settings, DatasetStore(settings.data_dir))
    server.register_blueprint(api_blueprint)


def _services() -> ApiServices:
    return current_app.extensions[_EXTENSION]


# ---- errors ---------------------------------------------------------------------------

def _error(message: str, status: int) -> Response:
    response = jsonify(error=message)
    response.status_code = status
    return response


@api_blueprint.errorhandler(DatasetNotFoundError)
def _not_found(error):
    return _error(str(error), 404)


@api_blueprint.errorhandler(InvalidInputError)
def _invalid_input(error):
    return _error(str(error), 400)


@api_blueprint.errorhandler(HTTPException)
def _http_error(error):
    return _error(error.description or error.name, error.code or 500)


@api_blueprint.errorhandler(Exception)
def _unexpected(error):
    logger.exception("unexpected error in %s %s", request.method, request.path)
    return _error("internal error: the request could not be completed; "
                  "the server log has the details", 500)


# ---- routes ---------------------------------------------------------------------------

@api_blueprint.get("/healthz")
def healthz():
    from .data.bundled import list_datasets

    # "datasets" counts the uploads in the store (a worker that cannot read it is unhealthy)
    return jsonify(status="ok", version=__version__, datasets=_services().store.count(),
                   bundled_datasets=len(list_datasets()))


def _parse_roles(text):
    """Roles from the form's JSON, or None when not sent (the guesses are used then)."""
    from .data.schema import Roles

    if not text:
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidInputError(f"'roles' is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise InvalidInputError("'roles' must be a JSON object such as "
                                '{"id": "model", "objectives": [{"name": "error", '
                                '"direction": "min"}]}')
    try:
        return Roles.from_dict(data)
    except InvalidInputError:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidInputError(f"'roles' does not describe the columns: {error}") from None


def _parse_bool(text, field: str) -> bool:
    value = (text or "").strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise InvalidInputError(f"'{field}' must be true or false, not {text!r}")


def _too_large(limit: int) -> InvalidInputError:
    size = f"{limit / 2**20:.3g} MB" if limit >= 2**20 else f"{limit / 1024:.3g} kB"
    return InvalidInputError(f"the upload is larger than the limit of {size}")


def _read_upload(limit: int):
    """The file's name and bytes; the body is never read beyond ``limit`` plus the form."""
    length = request.content_length
    if length is not None and length > limit + FORM_OVERHEAD_BYTES:
        raise _too_large(limit)
    # Bounds the parser even without Content-Length (chunked transfer encoding).
    request.max_content_length = limit + FORM_OVERHEAD_BYTES
    try:
        upload = request.files.get("file")
        form = request.form
    except RequestEntityTooLarge:
        raise _too_large(limit) from None
    if upload is None or not upload.filename:
        raise InvalidInputError("send the table as the multipart form field 'file'")
    data = upload.stream.read(limit + 1)
    if len(data) > limit:
        raise _too_large(limit)
    if not data:
        raise InvalidInputError(f"the file {upload.filename!r} is empty")
    return upload.filename, data, form


def _limits(settings):
    from .data.io import Limits

    return Limits(max_bytes=settings.max_upload_bytes, max_rows=settings.max_rows,
                  max_columns=settings.max_columns)


@api_blueprint.post("/api/datasets")
def upload_dataset():
    from .data.proposal import prepare_frame
    from .services.uploads import dataset_name_from, read_and_propose, with_units

    services = _services()
    settings = services.settings
    filename, data, form = _read_upload(settings.max_upload_bytes)
    roles = _parse_roles(form.get("roles"))
    shared = _parse_bool(form.get("shared"), "shared")
    name = form.get("name") or dataset_name_from(filename)
    read, proposal = read_and_propose(data, filename, _limits(settings))
    roles = with_units(roles if roles is not None else proposal.roles(), read)
    frame = prepare_frame(read.frame, proposal, roles)
    dataset_id = services.store.save(frame, roles, name=name, shared=shared)
    info = services.store.info(dataset_id)
    response = jsonify(id=dataset_id, name=info.get("name"), n_rows=info["n_rows"])
    response.status_code = 201
    response.headers["Location"] = f"/api/datasets/{dataset_id}"
    return response


@api_blueprint.get("/api/datasets")
def list_datasets():
    from .data.bundled import list_datasets as bundled_datasets

    shared = [{key: entry.get(key) for key in ("id", "name", "n_rows", "created")}
              for entry in _services().store.list(shared_only=True)]
    bundled = [{"name": info.name, "title": info.title} for info in bundled_datasets()]
    return jsonify(datasets=shared, bundled=bundled)


@api_blueprint.get("/api/datasets/<dataset_id>")
def dataset_info(dataset_id: str):
    return jsonify(_services().store.info(dataset_id))


def _download_name(info: dict) -> str:
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", info.get("name") or "").strip("._")[:80]
    stem = re.sub(r"\.(csv|tsv|parquet|json|xlsx?)$", "", stem, flags=re.IGNORECASE)
    return f"{stem or info['id'][:12]}.csv"


@api_blueprint.get("/api/datasets/<dataset_id>/csv")
def dataset_csv(dataset_id: str):
    store = _services().store
    info = store.info(dataset_id)
    text = safe_csv(store.load(dataset_id).frame)
    return Response(text, mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{_download_name(info)}"',
        "X-Content-Type-Options": "nosniff",
    })


@api_blueprint.delete("/api/datasets/<dataset_id>")
def delete_dataset(dataset_id: str):
    services = _services()
    services.store.delete(dataset_id)
    try:
        services.cache.evict_dataset(dataset_id)
    except Exception:  # the dataset is gone; stale entries are unreachable and age out
        logger.warning("could not evict cached results of %s", dataset_id, exc_info=True)
    return jsonify(deleted=dataset_id)


# ---- authentication ---------------------------------------------------------------------

PUBLIC_PATHS = ("/healthz",)


def apply_auth(app, settings) -> None:
    """Ask for HTTP basic auth on every path of ``app`` except ``/healthz``.

    ``app`` is the Dash app or its Flask server. Nothing happens unless
    ``settings.auth_enabled`` (COPA_AUTH_USER and COPA_AUTH_PASSWORD set).

    Notes
    -----
    Werkzeug's parser of the Authorization header (malformed headers count as absent)
    and a constant-time comparison in one ``before_request`` hook that covers the Dash
    pages, its callbacks and assets, and this API. dash-auth 2.3 was not used: a
    malformed header makes its check raise (a 500 instead of a 401) and it compares
    passwords with ``==``.
    """
    if not settings.auth_enabled:
        return
    server = getattr(app, "server", app)
    expected_user = settings.auth_user.encode("utf-8")
    expected_password = settings.auth_password.encode("utf-8")

    @server.before_request
    def require_basic_auth():
        if request.path in PUBLIC_PATHS:
            return None
        auth = request.authorization
        if auth is not None and auth.type == "basic":
            user_ok = compare_digest((auth.username or "").encode("utf-8"), expected_user)
            password_ok = compare_digest((auth.password or "").encode("utf-8"),
                                         expected_password)
            if user_ok and password_ok:
                return None
        return Response("Login required.\n", status=401, mimetype="text/plain", headers={
            "WWW-Authenticate": 'Basic realm="copa-dash", charset="UTF-8"'})
