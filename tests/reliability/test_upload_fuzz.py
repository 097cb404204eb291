"""Hypothesis throws malformed uploads at the API: never a 5xx, never a traceback."""

from __future__ import annotations

import gzip
import io
import json

import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import ROLES, upload

EXTENSIONS = [".csv", ".tsv", ".txt", ".json", ".parquet", ".xlsx", ".csv.gz", ".exe", "",
              ".pkl", ".xls"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=20)

cells = st.one_of(st.integers(-10**6, 10**6).map(str), st.floats().map(str),
                  st.text(max_size=12), st.sampled_from(["", "NaN", "=cmd()", '"', ",", "\n"]))


@st.composite
def tables(draw) -> bytes:
    n_columns = draw(st.integers(1, 5))
    header = draw(st.lists(st.text(max_size=8), min_size=n_columns, max_size=n_columns))
    rows = draw(st.lists(st.lists(cells, min_size=0, max_size=n_columns + 1), max_size=8))
    text = "\n".join(",".join(row) for row in [header, *rows])
    return text.encode("utf-8", "surrogatepass")


@st.composite
def parquet_bytes(draw) -> bytes:
    frame = pd.DataFrame({"model": ["a", "b", "c"], "error": [0.1, 0.2, 0.3],
                          "speed": [3.0, 1.0, 2.0]})
    buffer = io.BytesIO()
    frame.to_parquet(buffer)
    data = buffer.getvalue()
    cut = draw(st.integers(0, len(data)))
    flip = draw(st.integers(0, len(data) - 1))
    data = data[:cut] + bytes([data[flip] ^ 0xFF]) + data[cut + 1:] if cut < len(data) else data
    return data


contents = st.one_of(
    st.binary(max_size=300), tables(), parquet_bytes(),
    tables().map(gzip.compress),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.just(b"model,error,speed\na,0.1,3\nb,0.2,5\n"),
)
roles_fields = st.one_of(st.just(json.dumps(ROLES)), json_values.map(json.dumps),
                         st.text(max_size=40), st.none())


@settings(max_examples=80, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(content=contents, stem=st.text(max_size=20), extension=st.sampled_from(EXTENSIONS),
       roles=roles_fields, name=st.none() | st.text(max_size=30),
       shared=st.none() | st.text(max_size=6))
def test_no_upload_gets_a_5xx_or_a_traceback(client, content, stem, extension, roles, name,
                                             shared):
    fields = {}
    if name is not None:
        fields["name"] = name
    if shared is not None:
        fields["shared"] = shared
    answer = upload(client, content, filename=(stem + extension) or "x", roles=roles,
                    **fields)
    body = answer.get_data(as_text=True)
    assert answer.status_code < 500, body
    assert "Traceback" not in body and 'File "' not in body
    if answer.status_code == 201:
        created = answer.get_json()
        # "view": the default view the upload opens on (services/default_view.py)
        assert set(created) == {"id", "owner_token", "name", "n_rows", "view"}
        name_shown = created["name"] or ""
        assert not any(ord(c) < 32 or c == "\x7f" for c in name_shown)
