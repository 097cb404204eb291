"""Bytes for analysis results kept in Redis, without pickle.

Redis is a network service another party may write to, so what comes back from it is
never unpickled. A value is written as a JSON tree in which arrays, tables and result
dataclasses are tagged, followed by binary blobs:

* ``numpy.ndarray`` of a plain dtype: ``np.save(..., allow_pickle=False)``; text (object)
  arrays as a JSON list;
* numpy scalars: a 0-d array;
* ``pandas.DataFrame`` / ``Series``: Parquet;
* frozen result dataclasses defined in ``copa_dash`` (``SweepResult``, ...): their fields;
  the class is looked up only inside the ``copa_dash`` package and rebuilt field by field
  without calling any code of the payload;
* ``None``, ``bool``, ``int``, ``float`` (NaN and infinities included), ``str``, lists,
  tuples, sets, dicts (any encodable keys).

Anything else raises ``TypeError`` when it is stored, not when it is read.
"""

from __future__ import annotations

import dataclasses
import importlib
import io
import json

import numpy as np
import pandas as pd

_MAGIC = b"COPA-CODEC-1\n"
_PACKAGE = "copa_dash"


def _encode(value, blobs: list[bytes]):
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, np.generic):
        return value
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            return {"__objarray__": [_encode(v, blobs) for v in value.ravel().tolist()],
                    "shape": list(value.shape)}
        buffer = io.BytesIO()
        np.save(buffer, value, allow_pickle=False)
        blobs.append(buffer.getvalue())
        return {"__ndarray__": len(blobs) - 1}
    if isinstance(value, np.generic):
        return {"__npscalar__": _encode(np.asarray(value), blobs)}
    if isinstance(value, (pd.DataFrame, pd.Series)):
        kind = "frame" if isinstance(value, pd.DataFrame) else "series"
        frame = value if kind == "frame" else value.to_frame(name="__values__")
        buffer = io.BytesIO()
        frame.to_parquet(buffer)
        blobs.append(buffer.getvalue())
        return {"__pandas__": len(blobs) - 1, "kind": kind,
                "name": _encode(value.name, blobs) if kind == "series" else None}
    if isinstance(value, list):
        return [_encode(v, blobs) for v in value]
    if isinstance(value, tuple) and not dataclasses.is_dataclass(value):
        return {"__tuple__": [_encode(v, blobs) for v in value]}
    if isinstance(value, (set, frozenset)):
        return {"__set__": [_encode(v, blobs) for v in value],
                "frozen": isinstance(value, frozenset)}
    if isinstance(value, dict):
        return {"__dict__": [[_encode(k, blobs), _encode(v, blobs)] for k, v in value.items()]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        if not (cls.__module__ == _PACKAGE or cls.__module__.startswith(_PACKAGE + ".")):
            raise TypeError(f"cannot store a {cls.__module__}.{cls.__qualname__} in Redis: "
                            f"only dataclasses of {_PACKAGE} are allowed")
        fields = {f.name: _encode(getattr(value, f.name), blobs)
                  for f in dataclasses.fields(value)}
        return {"__dataclass__": f"{cls.__module__}:{cls.__qualname__}", "fields": fields}
    raise TypeError(f"cannot store a value of type {type(value).__name__} in Redis")


def _resolve_dataclass(path: str) -> type:
    module_name, _, qualname = path.partition(":")
    if not (module_name == _PACKAGE or module_name.startswith(_PACKAGE + ".")):
        raise ValueError(f"refusing to rebuild {path!r}: not a {_PACKAGE} class")
    target = importlib.import_module(module_name)
    for part in qualname.split("."):
        target = getattr(target, part)
    if not (isinstance(target, type) and dataclasses.is_dataclass(target)):
        raise ValueError(f"{path!r} is not a dataclass")
    return target


def _decode(node, blobs: list[bytes]):
    if isinstance(node, list):
        return [_decode(v, blobs) for v in node]
    if not isinstance(node, dict):
        return node
    if "__ndarray__" in node:
        return np.load(io.BytesIO(blobs[node["__ndarray__"]]), allow_pickle=False)
    if "__objarray__" in node:
        flat = np.empty(len(node["__objarray__"]), dtype=object)
        flat[:] = [_decode(v, blobs) for v in node["__objarray__"]]
        return flat.reshape(node["shape"])
    if "__npscalar__" in node:
        return _decode(node["__npscalar__"], blobs)[()]
    if "__pandas__" in node:
        frame = pd.read_parquet(io.BytesIO(blobs[node["__pandas__"]]))
        if node["kind"] == "frame":
            return frame
        return frame["__values__"].rename(_decode(node["name"], blobs))
    if "__tuple__" in node:
        return tuple(_decode(v, blobs) for v in node["__tuple__"])
    if "__set__" in node:
        items = (_decode(v, blobs) for v in node["__set__"])
        return frozenset(items) if node["frozen"] else set(items)
    if "__dict__" in node:
        return {_decode(k, blobs): _decode(v, blobs) for k, v in node["__dict__"]}
    if "__dataclass__" in node:
        cls = _resolve_dataclass(node["__dataclass__"])
        value = object.__new__(cls)  # no __init__ / __post_init__: restore the state as stored
        for name, field_node in node["fields"].items():
            object.__setattr__(value, name, _decode(field_node, blobs))
        return value
    raise ValueError(f"unknown node in a cached value: {sorted(node)}")


def encode(value) -> bytes:
    """Serialise ``value`` (see the module docstring for what is accepted).

    Raises
    ------
    TypeError
        If the value, or something inside it, is of a type the codec does not know.

    Examples
    --------
    >>> decode(encode({"front": np.array([0, 2]), "p": float("inf")}))
    {'front': array([0, 2]), 'p': inf}
    """
    blobs: list[bytes] = []
    tree = json.dumps(_encode(value, blobs), separators=(",", ":")).encode("utf-8")
    parts = [_MAGIC, len(tree).to_bytes(8, "little"), tree, len(blobs).to_bytes(8, "little")]
    for blob in blobs:
        parts += [len(blob).to_bytes(8, "little"), blob]
    return b"".join(parts)


def decode(data: bytes):
    """Rebuild a value written by :func:`encode`; never runs pickle.

    Raises
    ------
    ValueError
        If ``data`` was not written by :func:`encode`.
    """
    view = memoryview(data)
    if bytes(view[:len(_MAGIC)]) != _MAGIC:
        raise ValueError("not a copa-dash cached value")
    position = len(_MAGIC)

    def take(size: int) -> bytes:
        nonlocal position
        if position + size > len(view):
            raise ValueError("truncated cached value")
        chunk = bytes(view[position:position + size])
        position += size
        return chunk

    tree = json.loads(take(int.from_bytes(take(8), "little")))
    blobs = [take(int.from_bytes(take(8), "little"))
             for _ in range(int.from_bytes(take(8), "little"))]
    return _decode(tree, blobs)
