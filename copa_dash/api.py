"""HTTP API of an instance: health, dataset upload, listing, CSV download, rename, deletion.

=======  ============================  ===============================================
method   path                          answer
=======  ============================  ===============================================
GET      /healthz                      200 {"status": "ok"|"degraded", "store": ...,
                                       "cache": ..., "version", "datasets": n,
                                       "damaged_objects": n}; 503 only when the
                                       dataset store cannot be read
POST     /api/datasets                 201 {"id", "owner_token", "name", "n_rows"};
                                       multipart fields ``file`` (CSV/TSV/Parquet/JSON/
                                       Excel), ``roles`` (JSON, see below; optional:
                                       the upload page's guesses are used without it),
                                       optional ``name``, ``shared`` (true/false)
GET      /api/datasets                 200 {"datasets": [shared uploads], "bundled": [...]}
GET      /api/datasets/<id>            200 the dataset's public fields
GET      /api/datasets/<id>/csv        the table as spreadsheet-safe CSV
PATCH    /api/datasets/<id>            200 the new fields; JSON {"name"?, "shared"?};
                                       needs the owner token
DELETE   /api/datasets/<id>            200 {"deleted": id}; needs the owner token; its
                                       cached results go too
=======  ============================  ===============================================

The ``roles`` field says which column plays which part (:class:`Roles`, ``to_dict``)::

    {"id": "model",                                   # the column naming each row
     "objectives": [{"name": "error", "direction": "min"},
                    {"name": "speed", "direction": "max", "unit": "tokens/s"}],
     "system": "method", "seed": "seed",              # optional single columns: system,
                                                      # seed, task, split, config, budget
     "metadata": ["family", "licence"]}               # optional: other columns to filter on

Every objective needs ``name`` and ``direction`` (``"min"``: lower is better, ``"max"``);
``unit`` and ``label`` are optional. A column may play one role only; unknown keys are an
error. A wrong ``roles`` gets a 400 whose message ends with this format and an example
(:data:`ROLES_FORMAT`).

Ownership: every upload gets its own record id (128 random bits: the link that lets anyone
who holds it read the dataset) and an owner token, returned once in the upload's answer.
``PATCH`` and ``DELETE`` need that token (or ``COPA_ADMIN_TOKEN``) in the header
``X-Copa-Owner-Token``. Behind an authenticating proxy (``COPA_TRUSTED_USER_HEADER`` and
``COPA_TRUSTED_PROXY``) an upload also belongs to the signed-in user, who may change or
delete it from any browser without the token, and ``PATCH {"groups": [...]}`` lists it for
the members of those groups (the proxy's ``COPA_TRUSTED_GROUPS_HEADER``). Two uploads of the same bytes are two datasets.

Errors are JSON ``{"error": message}``: 400 for input a user can fix (the message says
what), 403 without the owner token, 404 for an unknown dataset, 410 for a dataset whose
stored table is damaged, 413 for an upload too large (in bytes or once expanded), 500 with
a generic text for bugs (the traceback goes to the log, never to the client).
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from hmac import compare_digest

from flask import Blueprint, Flask, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from .client_identity import current_client
from .core.errors import InvalidInputError
from .data.bundled import list_datasets as bundled_datasets
from .data.io import Limits, build_eval_table
from .data.proposal import prepare_frame
from .data.read_limits import UploadTooLargeError, check_json_depth, uncompressed_bound
from .data.schema import Roles
from .services import pending_work
from .services.cache import AnalysisCache, get_cache
from .services.export import safe_csv
from .services.first_view import first_view, prepare_in_background
from .services.store import (
    DatasetDamagedError,
    DatasetNotFoundError,
    DatasetStore,
    NotOwnerError,
    clean_name,
    open_store,
)
from .services.uploads import dataset_name_from, read_and_propose, with_units
from .version import __version__

logger = logging.getLogger(__name__)

api_blueprint = Blueprint("copa_api", __name__)

#: Room for the multipart boundaries and the small form fields around the file.
FORM_OVERHEAD_BYTES = 64 * 1024
#: The header that carries a dataset's owner token (or the admin token).
OWNER_TOKEN_HEADER = "X-Copa-Owner-Token"
#: Deepest nesting accepted in a JSON form field (``roles`` needs 4).
MAX_JSON_DEPTH = 16
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
    server.extensions[_EXTENSION] = ApiServices(settings, open_store(settings))
    server.register_blueprint(api_blueprint)


def _services() -> ApiServices:
    return current_app.extensions[_EXTENSION]


# ---- errors ---------------------------------------------------------------------------

def _error(message: str, status: int) -> Response:
    response = jsonify(error=message)
    response.status_code = status
    return response


#: The HTTP status of each known error, the most specific first (all are InvalidInputError).
_STATUS_OF_ERROR = (
    (DatasetNotFoundError, 404),
    (DatasetDamagedError, 410),
    (NotOwnerError, 403),
    (UploadTooLargeError, 413),
    (InvalidInputError, 400),
)


def _known_error(error):
    """A user's error: its message, with the status of its most specific listed class."""
    status = next(code for kind, code in _STATUS_OF_ERROR if isinstance(error, kind))
    return _error(str(error), status)


for _kind, _ in _STATUS_OF_ERROR:
    api_blueprint.register_error_handler(_kind, _known_error)


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
    """The store and the cache, each "ok" or not; 503 only when the store cannot be read.

    A damaged or unavailable cache makes the instance slower, not wrong (every result is
    recomputed), so it is reported as "degraded" with a 200.
    """
    services = _services()
    try:
        datasets = services.store.count()
        store_state = "ok"
    except Exception:  # any failure to list the store: the instance cannot serve uploads
        logger.exception("health check: the dataset store cannot be read")
        datasets, store_state = None, "unavailable"
    damaged = None
    if store_state == "ok":
        try:
            damaged = services.store.damaged_objects()
        except Exception:
            logger.exception("health check: the stored objects cannot be checked")
            store_state = "objects not checked"
        if damaged:  # some uploads answer 410 until the same table is uploaded again
            store_state = "damaged objects"
    try:
        cache_state = services.cache.health()
    except Exception:
        logger.warning("health check: the analysis cache cannot be opened", exc_info=True)
        cache_state = "degraded"
    status = "ok" if store_state == cache_state == "ok" else "degraded"
    response = jsonify(status=status, store=store_state, cache=cache_state,
                       version=__version__, datasets=datasets, damaged_objects=damaged,
                       bundled_datasets=len(bundled_datasets()))
    response.status_code = 503 if store_state == "unavailable" else 200
    return response


ROLES_FORMAT = (
    "'roles' is a JSON object: {\"id\": COLUMN, \"objectives\": [{\"name\": COLUMN, "
    "\"direction\": \"min\" or \"max\", \"unit\": optional text, \"label\": optional text}, ...], "
    "optional \"system\", \"seed\", \"task\", \"split\", \"config\", \"budget\": COLUMN, "
    "optional \"metadata\": [COLUMN, ...]}; for example "
    "{\"id\": \"model\", \"objectives\": [{\"name\": \"error\", \"direction\": \"min\"}, "
    "{\"name\": \"speed\", \"direction\": \"max\", \"unit\": \"tokens/s\"}], "
    "\"metadata\": [\"family\"]}")
"""What a wrong ``roles`` field is told (the format and an example); README, "HTTP API"."""


def _parse_roles(text):
    """Roles from the form's JSON, or None when not sent (the guesses are used then).

    Every error about the field's shape ends with :data:`ROLES_FORMAT`, so the client
    learns the format from the 400 itself."""
    if not text:
        return None
    try:
        return _roles_from_json(text)
    except InvalidInputError as error:
        raise InvalidInputError(f"{str(error).rstrip('.')}. {ROLES_FORMAT}") from None


def _roles_from_json(text):
    check_json_depth(text, MAX_JSON_DEPTH, what="'roles'")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidInputError(f"'roles' is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise InvalidInputError("'roles' must be a JSON object")
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
    return Limits(max_bytes=settings.max_upload_bytes, max_rows=settings.max_rows,
                  max_columns=settings.max_columns,
                  max_memory_bytes=settings.max_upload_memory_bytes,
                  max_uncompressed_bytes=uncompressed_bound(settings.max_upload_memory_bytes))


@api_blueprint.post("/api/datasets")
def upload_dataset():
    services = _services()
    settings = services.settings
    filename, data, form = _read_upload(settings.max_upload_bytes)
    roles = _parse_roles(form.get("roles"))
    shared = _parse_bool(form.get("shared"), "shared")
    name = clean_name(form.get("name") or dataset_name_from(filename))
    read, proposal = read_and_propose(data, filename, _limits(settings))
    roles = with_units(roles if roles is not None else proposal.roles(), read)
    frame = prepare_frame(read.frame, proposal, roles)
    saved = services.store.save(frame, roles, name=name, shared=shared,
                                owner_user=current_client(settings).user)
    prepare_in_background(settings, saved.id)     # its first Explore view, before it is asked
    info = services.store.info(saved.id)
    # The owner token is in this answer and nowhere else: the store keeps only its hash.
    # the view the page opens it on (and the CLI and notebook use for its file): said here
    view = first_view(build_eval_table(frame, roles)).to_dict()
    response = jsonify(id=saved.id, owner_token=saved.owner_token, name=info.get("name"),
                       n_rows=info["n_rows"], view=view)
    response.status_code = 201
    response.headers["Location"] = f"/api/datasets/{saved.id}"
    response.headers["Cache-Control"] = "no-store"
    return response


@api_blueprint.get("/api/datasets")
def list_datasets():
    client = current_client(_services().settings)
    shared = [{key: entry.get(key) for key in ("id", "name", "n_rows", "created")}
              for entry in _services().store.list(shared_only=True, user=client.user,
                                                  groups=client.groups)]
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


def _owner_token() -> str | None:
    return request.headers.get(OWNER_TOKEN_HEADER) or None


def _user() -> str | None:
    """The signed-in user a trusted proxy names (None otherwise)."""
    return current_client(_services().settings).user


@api_blueprint.patch("/api/datasets/<dataset_id>")
def update_dataset(dataset_id: str):
    store = _services().store
    token, user = _owner_token(), _user()
    store.authorize(dataset_id, token, user=user)  # a stranger learns nothing below
    body = request.get_data(cache=False, as_text=True)
    check_json_depth(body, MAX_JSON_DEPTH, what="the request body")
    try:
        changes = json.loads(body or "{}")
    except json.JSONDecodeError as error:
        raise InvalidInputError(f"the request body is not valid JSON: {error}") from None
    if not isinstance(changes, dict) or not changes or set(changes) - {"name", "shared",
                                                                        "groups"}:
        raise InvalidInputError('send a JSON object with "name", "shared" and/or "groups", '
                                'such as {"name": "my table", "shared": false, '
                                '"groups": ["ml-team"]}')
    info = store.info(dataset_id)
    if "name" in changes:
        info = store.rename(dataset_id, changes["name"], owner_token=token, user=user)
    if "shared" in changes:
        info = store.set_shared(dataset_id, changes["shared"], owner_token=token, user=user)
    if "groups" in changes:
        info = store.set_groups(dataset_id, changes["groups"], owner_token=token, user=user)
    return jsonify(info)


@api_blueprint.delete("/api/datasets/<dataset_id>")
def delete_dataset(dataset_id: str):
    services = _services()
    services.store.delete(dataset_id, owner_token=_owner_token(), user=_user())
    # its first view's results, if being computed, go too
    pending_work.wait_for(dataset_id, lock_dir=pending_work.lock_dir(services.settings))
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
