"""Property tests: whatever bytes arrive, the reader returns a table or InvalidInputError.

Any other exception is a bug (the UI would show a generic error instead of a reason).
Each input goes through the whole upload path: read_table, guess_roles, build_eval_table.
"""

import csv
import gzip
import io
import json
import os

import numpy as np
import openpyxl
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from copa_dash.core.errors import InvalidInputError
from copa_dash.data.io import Limits, build_eval_table, guess_roles, read_table
from copa_dash.data.schema import Objective, Roles

# COPA_FUZZ_EXAMPLES=5000 turns the file into a longer fuzzing campaign
EXAMPLES = int(os.environ.get("COPA_FUZZ_EXAMPLES", "60"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
SMALL = Limits(max_bytes=64 * 1024, max_rows=200, max_columns=20, max_cells=2_000,
               max_uncompressed_bytes=256 * 1024)
EXTENSIONS = ["csv", "tsv", "txt", "json", "parquet", "xlsx", "csv.gz", "json.gz", "xls", "bin"]


def upload_path(data: bytes, filename: str):
    """read -> guess -> build, the way the upload page does; None where it stops with a reason."""
    try:
        frame = read_table(data, filename=filename, limits=SMALL)
    except InvalidInputError:
        return None
    assert isinstance(frame, pd.DataFrame) and isinstance(frame.index, pd.RangeIndex)
    assert 2 <= len(frame) <= SMALL.max_rows and frame.shape[1] <= SMALL.max_columns
    assert all(isinstance(c, str) and c == c.strip() and c for c in frame.columns)
    assert frame.columns.is_unique
    try:
        roles = guess_roles(frame)
        table = build_eval_table(frame, roles)
    except InvalidInputError:
        return frame
    matrix = table.matrix()
    assert matrix.dtype == np.float64 and matrix.flags.c_contiguous
    assert matrix.shape == (len(frame), len(roles.objectives))
    assert not np.isinf(matrix).any()
    assert len(set(table.ids.tolist())) == len(frame)
    return frame


@SETTINGS
@given(data=st.binary(max_size=2048), ext=st.sampled_from(EXTENSIONS),
       prefix=st.sampled_from([b"", b"PAR1", b"PK\x03\x04", b"\x1f\x8b", b"\xef\xbb\xbf",
                               b"\xff\xfe", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"]))
def test_random_bytes(data, ext, prefix):
    upload_path(prefix + data, f"upload.{ext}")


CSV_ALPHABET = st.sampled_from(list("ab1.0-e,;\t\n\r\" x%") + ["NA", "inf", "1,234", "é", "007"])


@SETTINGS
@given(text=st.lists(CSV_ALPHABET, max_size=300).map("".join),
       ext=st.sampled_from(["csv", "tsv", "txt", "csv.gz"]),
       encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "latin-1"]))
def test_random_csv_like_text(text, ext, encoding):
    data = text.encode(encoding, errors="replace")
    upload_path(gzip.compress(data) if ext.endswith(".gz") else data, f"upload.{ext}")


CELLS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-10**20, 10**20).map(str),
    st.sampled_from(["", "NA", "n/a", "abc", "1,5", "85%", " 3 ", "1e999", "-", "007", "a,b",
                     '"q"', "x\ny", "True"]),
    st.text(max_size=6),
)


@SETTINGS
@given(rows=st.lists(st.lists(CELLS, min_size=1, max_size=5), min_size=0, max_size=12),
       header=st.lists(st.sampled_from(["id", "loss", "acc", "", " acc ", "seed", "x"]),
                       min_size=1, max_size=5))
def test_random_malformed_tables(rows, header):
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    writer.writerows(rows)
    data = buffer.getvalue().encode("utf-8", errors="surrogatepass")
    try:
        frame = read_table(data, filename="t.csv", limits=SMALL)
    except InvalidInputError:
        return
    # every column as an objective, the first as id: must return or explain
    names = list(frame.columns)
    if len(names) >= 2:
        roles = Roles(names[0], tuple(Objective(n, "min") for n in names[1:]))
        try:
            table = build_eval_table(frame, roles)
        except InvalidInputError:
            return
        assert table.matrix().shape == (len(frame), len(names) - 1)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                 max_size=4),
    max_leaves=30)
TABLE_LIKE_JSON = st.one_of(
    st.lists(st.dictionaries(st.sampled_from(["id", "loss", "acc", "", "x"]), JSON_VALUES,
                             max_size=4), max_size=8),
    st.dictionaries(st.sampled_from(["id", "loss", "acc", " ", "x"]),
                    st.lists(JSON_VALUES, max_size=6), max_size=4),
    JSON_VALUES,
)


@SETTINGS
@given(obj=TABLE_LIKE_JSON, gz=st.booleans())
def test_random_json(obj, gz):
    data = json.dumps(obj).encode()
    upload_path(gzip.compress(data) if gz else data, "t.json.gz" if gz else "t.json")


def _valid_files():
    frame = pd.DataFrame({"model": ["a", "b", "c"], "loss": [0.5, 0.25, np.nan],
                          "acc": [0.75, 0.5, 1.0]})
    book = openpyxl.Workbook()
    for row in [list(frame.columns), *frame.astype(object).where(frame.notna(), None).values]:
        book.active.append(list(row))
    xlsx = io.BytesIO()
    book.save(xlsx)
    parquet = io.BytesIO()
    frame.to_parquet(parquet)
    return {"xlsx": xlsx.getvalue(), "parquet": parquet.getvalue()}


VALID = _valid_files()


@SETTINGS
@given(ext=st.sampled_from(sorted(VALID)), flips=st.lists(
    st.tuples(st.floats(0, 1, exclude_max=True), st.integers(0, 255)), min_size=1, max_size=6))
def test_damaged_binary_files(ext, flips):
    data = bytearray(VALID[ext])
    for where, value in flips:
        data[int(where * len(data))] = value
    upload_path(bytes(data), f"t.{ext}")


@SETTINGS
@given(values=st.lists(st.tuples(st.floats(-1e300, 1e300, allow_nan=False, width=64),
                                 st.one_of(st.none(), st.floats(-1e6, 1e6))),
                       min_size=2, max_size=30),
       fmt=st.sampled_from(["csv", "json", "parquet", "xlsx"]))
def test_round_trip_preserves_values(values, fmt):
    frame = pd.DataFrame({"model": [f"m{i}" for i in range(len(values))],
                          "loss": [v[0] for v in values],
                          "acc": [np.nan if v[1] is None else v[1] for v in values]})
    if frame["acc"].isna().all():
        frame.loc[0, "acc"] = 1.0
    # a row with loss and acc both 0 is a failed run's placeholder, left out (failed_rows)
    frame.loc[(frame["loss"] == 0) & (frame["acc"] == 0), "acc"] = 0.5
    buffer = io.BytesIO()
    if fmt == "csv":
        buffer.write(frame.to_csv(index=False).encode())
    elif fmt == "json":  # json.dumps writes the shortest exact repr (pandas rounds)
        records = frame.astype(object).where(frame.notna(), None).to_dict(orient="records")
        buffer.write(json.dumps(records).encode())
    elif fmt == "parquet":
        frame.to_parquet(buffer)
    else:
        book = openpyxl.Workbook()
        book.active.append(list(frame.columns))
        for row in frame.itertuples(index=False):
            book.active.append([None if isinstance(v, float) and np.isnan(v) else v for v in row])
        book.save(buffer)
    table = build_eval_table(read_table(buffer.getvalue(), filename=f"t.{fmt}"),
                             Roles("model", (Objective("loss", "min"), Objective("acc", "max"))))
    expected = frame[["loss", "acc"]].to_numpy()
    if fmt == "xlsx":  # openpyxl writes floats with "%.16g": the writer rounds, not the reader
        np.testing.assert_allclose(table.matrix(), expected, rtol=1e-15, atol=0)
    else:
        np.testing.assert_array_equal(table.matrix(), expected)
    assert table.ids.tolist() == frame["model"].tolist()


def test_a_table_whose_rows_are_all_empty_is_refused_with_a_reason():
    """Found by test_random_json: a JSON object of nulls read as a table of 0 rows."""
    try:
        read_table(b'{"": {"": null, "0": null}}', filename="t.json", limits=SMALL)
    except InvalidInputError as exc:
        assert "needs at least 2" in str(exc)
    else:
        raise AssertionError("a table with no values was accepted")


def test_a_parquet_file_with_damaged_text_bytes_is_refused_in_words():
    """The input hypothesis found: one byte of the Parquet text changed to 0x80 made the text
    invalid UTF-8, and arrow's ArrowInvalid escaped the reader instead of a user error."""
    data = bytearray(VALID["parquet"])
    data[int(0.0093 * len(data))] = 128
    with pytest.raises(InvalidInputError, match="not valid UTF-8"):
        read_table(bytes(data), filename="t.parquet", limits=SMALL)
    assert upload_path(bytes(data), "t.parquet") is None      # stops with a reason
