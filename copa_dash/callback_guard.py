"""Malformed bodies of ``POST /_dash-update-component`` answer 400, not 500 with a traceback.

Dash reads a callback request's JSON without checking its shape: a body that is a list, a
callback name that does not exist, inputs that are not a list of ``{"id", "property"}``
items, or fewer inputs than the callback has, each raised deep in Dash and gave a 500 with a
traceback in the log (100 of 570 crafted bodies in the issue's probe). The renderer
never sends such bodies, so they are refused before Dash with 400 and one log line:

- the body is a JSON object; ``output`` is the name of a registered callback;
- ``outputs`` is an object or a list; ``inputs`` (and ``state``, when present) are lists
  whose items are ``{"id": str | object, "property": str, ...}`` or lists of them
  (pattern-matching ``ALL``), as many as the callback declares;
- ``changedPropIds``, when present, is a list of strings.

Whatever still fails inside Dash's dispatch (not in a callback: those go to the app's
``on_error``) is answered 400 with a generic text and logged as a warning without the
exception's text.
"""

from __future__ import annotations

import logging

from flask import jsonify, request

logger = logging.getLogger(__name__)

CALLBACK_PATH = "/_dash-update-component"
MALFORMED = "malformed callback request: reload the page"


def _is_item(item) -> bool:
    return (isinstance(item, dict) and isinstance(item.get("property"), str)
            and isinstance(item.get("id"), (str, dict)))


def _is_items(items, expected: int) -> bool:
    if not isinstance(items, list) or len(items) != expected:
        return False
    return all(_is_item(item) or (isinstance(item, list) and all(_is_item(i) for i in item))
               for item in items)


def problem_of(body, callback_map) -> str | None:
    """What is wrong with a callback request body, or None when Dash can take it.

    Examples
    --------
    >>> callbacks = {"..a.children..": {"inputs": [{"id": "b", "property": "value"}],
    ...                                 "state": []}}
    >>> problem_of([], callbacks)
    'the body is not a JSON object'
    >>> problem_of({"output": "..x.y..", "outputs": {}, "inputs": []}, callbacks)
    'no such callback'
    >>> ok = {"output": "..a.children..", "outputs": {"id": "a", "property": "children"},
    ...       "inputs": [{"id": "b", "property": "value", "value": 1}],
    ...       "changedPropIds": ["b.value"]}
    >>> problem_of(ok, callbacks) is None
    True
    >>> problem_of({**ok, "inputs": []}, callbacks)
    'inputs do not match the callback'
    """
    if not isinstance(body, dict):
        return "the body is not a JSON object"
    output = body.get("output")
    if not isinstance(output, str) or output not in callback_map:
        return "no such callback"
    spec = callback_map[output]
    if not isinstance(body.get("outputs"), (dict, list)):
        return "outputs are not an object or a list"
    if not _is_items(body.get("inputs"), len(spec.get("inputs", ()))):
        return "inputs do not match the callback"
    if not _is_items(body.get("state", []), len(spec.get("state", ()))):
        return "state does not match the callback"
    changed = body.get("changedPropIds", [])
    if not isinstance(changed, list) or not all(isinstance(c, str) for c in changed):
        return "changedPropIds is not a list of names"
    return None


def apply_callback_guard(app) -> None:
    """Check every callback request's shape before Dash dispatches it (see the module)."""
    server = app.server

    @server.before_request
    def refuse_malformed_callbacks():
        if request.path != CALLBACK_PATH or request.method != "POST":
            return None
        body = request.get_json(silent=True)
        problem = problem_of(body, app.callback_map)
        if problem is None:
            return None
        logger.warning("refused a callback request: %s", problem)
        response = jsonify(error=MALFORMED)
        response.status_code = 400
        return response

    @server.errorhandler(Exception)
    def malformed_dispatch(error):
        from werkzeug.exceptions import HTTPException, InternalServerError

        if isinstance(error, HTTPException):
            return error
        if request.path != CALLBACK_PATH:
            logger.error("unexpected error in %s %s", request.method, request.path,
                         exc_info=error)
            return InternalServerError()
        logger.warning("a callback request failed in Dash's dispatch (%s); answered 400",
                       type(error).__name__)
        response = jsonify(error=MALFORMED)
        response.status_code = 400
        return response
