"""JSON shapes people export besides plain records and columns: objects keyed by name, and
nested metric objects.

Leaderboards often write one object per model keyed by its name, with the scores nested by
task (``{"model-a": {"params": 7, "score": {"task1": 0.5}}}``). Such a file is read with
one row per key (the key in a column ``name``, or ``key`` when a record has its own
``name``) and nested objects flattened to dotted column names (``score.task1``). The same
flattening applies to a list of records with nested objects.

pandas' ``to_json`` default (``{column: {row label: value}}``) is told apart by its row
labels: whole numbers (``"0"``, ``"1"``, ...), the labels of a default index.
"""

from __future__ import annotations

from ..core.errors import InvalidInputError

MAX_DEPTH = 8


def flatten(record: dict, /, *, prefix: str = "", depth: int = 0) -> dict:
    """One level of keys: nested objects become dotted names, other values stay.

    Raises
    ------
    InvalidInputError
        If objects nest more than ``MAX_DEPTH`` levels deep (not a table).

    Examples
    --------
    >>> flatten({"params": 7, "score": {"task1": 0.5, "task2": {"acc": 1}}})
    {'params': 7, 'score.task1': 0.5, 'score.task2.acc': 1}
    """
    if depth > MAX_DEPTH:
        raise InvalidInputError(
            f"objects nest more than {MAX_DEPTH} levels deep under {prefix.rstrip('.')!r}: "
            "that is not a table; export one object per model with its scores")
    out = {}
    for key, value in record.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            out.update(flatten(value, prefix=name + ".", depth=depth + 1))
        else:
            out[name] = value
    return out


def is_nested(records) -> bool:
    """True when some record holds an object (a nested metric dict)."""
    return any(isinstance(v, dict) for r in records if isinstance(r, dict) for v in r.values())


def is_keyed_by_name(obj: dict, /) -> bool:
    """Whether an object of objects is one record per key (``{"model-a": {...}}``) rather
    than pandas' ``{column: {row label: value}}``.

    Keyed by name when a record nests objects, or when the inner keys are not the whole
    numbers of a default index.

    Examples
    --------
    >>> is_keyed_by_name({"acc": {"0": 0.5, "1": 0.7}})
    False
    >>> is_keyed_by_name({"model-a": {"acc": 0.5}, "model-b": {"acc": 0.7}})
    True
    """
    inner = [v for v in obj.values() if isinstance(v, dict)]
    if is_nested(inner):
        return True
    return not all(str(k).isdigit() for record in inner for k in record)


def keyed_records(obj: dict, /) -> tuple[list[dict], str]:
    """Records from an object keyed by name: each with its key, flattened.

    Returns
    -------
    (records, key column)
        The key column is ``name``, or ``key`` when a record already has a ``name``.

    Examples
    --------
    >>> keyed_records({"m-a": {"score": {"t1": 1}}, "m-b": {"score": {"t1": 2}}})
    ([{'name': 'm-a', 'score.t1': 1}, {'name': 'm-b', 'score.t1': 2}], 'name')
    """
    flat = {str(key): flatten(value) for key, value in obj.items()}
    taken = {k for record in flat.values() for k in record}
    key_column = next((c for c in ("name", "key", "model_key") if c not in taken), "model_key")
    return [{key_column: key, **record} for key, record in flat.items()], key_column
