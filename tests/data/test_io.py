"""read_table and build_eval_table: every bad input gets an exact message naming where."""

import datetime
import gzip
import io
import json
import pathlib
import re

import numpy as np
import openpyxl
import pandas as pd
import pytest

from copa_dash.core.errors import InvalidInputError
from copa_dash.data.io import Limits, build_eval_table, read_table, read_table_report
from copa_dash.data.schema import Objective, Roles

NOTE = "(rows count data rows from 1, below the header)"
GOOD_CSV = b"model,err,acc\na,0.1,0.9\nb,0.2,\nc,0.3,0.7\n"


def error_of(call, *args, **kwargs) -> str:
    with pytest.raises(InvalidInputError) as info:
        call(*args, **kwargs)
    return str(info.value)


def xlsx_bytes(rows) -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(list(row))
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def parquet_bytes(frame: pd.DataFrame) -> bytes:
    buffer = io.BytesIO()
    frame.to_parquet(buffer)
    return buffer.getvalue()


def roles(id_="model", objectives=(("err", "min"), ("acc", "max")), **single):
    return Roles(id_, tuple(Objective(n, d) for n, d in objectives), **single)


# ----------------------------------------------------------------------------- good input
def test_csv_types_columns_and_strips_names():
    frame = read_table(b"model , err,acc\na,0.1,0.9\nb,0.2,NA\n\" c,d \",1e-3,\n", filename="r.csv")
    assert frame.columns.tolist() == ["model", "err", "acc"]
    assert frame["model"].tolist() == ["a", "b", "c,d"]
    assert frame["err"].dtype == np.float64 and frame["err"].tolist() == [0.1, 0.2, 0.001]
    assert frame["acc"].isna().tolist() == [False, True, True]
    assert isinstance(frame.index, pd.RangeIndex)


def test_integers_stay_integers_and_leading_zeros_stay_text():
    frame = read_table(b"id,seed\n007,1\n010,2\n", filename="r.csv")
    assert frame["id"].tolist() == ["007", "010"] and frame["seed"].dtype == np.int64


def test_quoted_newlines_and_blank_lines():
    frame = read_table(b'm,e\n"a\nb",1\n\nc,2\n', filename="r.csv")
    assert frame["m"].tolist() == ["a\nb", "c"] and frame["e"].tolist() == [1, 2]


@pytest.mark.parametrize(("data", "filename"), [
    (b"model;err\na;1\nb;2\n", "r.csv"),
    (b"model\terr\na\t1\nb\t2\n", "r.tsv"),
    (b"model|err\na|1\nb|2\n", "r.txt"),
    ("model\terr\na\t1\nb\t2\n".encode("utf-16"), "excel-unicode.txt"),
    (b"\xef\xbb\xbfmodel,err\na,1\nb,2\n", "bom.csv"),
    (b"model,err\r\na,1\r\nb,2\r\n", "crlf.csv"),
    (gzip.compress(b"model,err\na,1\nb,2\n", mtime=0), "r.csv.gz"),
    (b'[{"model": "a", "err": 1}, {"model": "b", "err": 2}]', "records.json"),
    (b'{"model": ["a", "b"], "err": [1, 2]}', "columns.json"),
    (b'{"model": {"0": "a", "1": "b"}, "err": {"0": 1, "1": 2}}', "pandas.json"),
    (b'{"columns": ["model", "err"], "data": [["a", 1], ["b", 2]]}', "split.json"),
    (gzip.compress(b'{"model": ["a", "b"], "err": [1, 2]}', mtime=0), "r.JSON.GZ"),
])
def test_every_format_gives_the_same_frame(data, filename):
    frame = read_table(data, filename=filename)
    assert frame["model"].tolist() == ["a", "b"] and frame["err"].tolist() == [1, 2]


def test_xlsx_reads_cached_values_and_never_evaluates_formulas():
    data = xlsx_bytes([["model", "err", "acc", "when"],
                       ["a", 0.1, "=1+1", datetime.datetime(2024, 1, 2)],
                       ["b", 0.2, 3, datetime.datetime(2024, 1, 3)], [], [None, None]])
    frame = read_table(data, filename="book.xlsx")
    assert frame.columns.tolist() == ["model", "err", "acc", "when"] and len(frame) == 2
    assert frame["acc"].isna().tolist() == [True, False]  # no cached value: not computed
    assert frame["when"].dtype.kind == "M"


def test_parquet_keeps_types_and_turns_a_named_index_into_a_column():
    source = pd.DataFrame({"model": ["a", "b"], "err": [0.1, None],
                           "n": pd.array([1, None], dtype="Int64"),
                           "kind": pd.Categorical(["x", "y"])}).set_index("model")
    frame = read_table(parquet_bytes(source), filename="t.parquet")
    assert frame.columns.tolist() == ["model", "err", "n", "kind"]
    assert frame["n"].isna().tolist() == [False, True] and frame["kind"].tolist() == ["x", "y"]


def test_path_source_uses_the_base_name(tmp_path):
    path = tmp_path / "runs.csv"
    path.write_bytes(GOOD_CSV)
    assert read_table(path)["model"].tolist() == ["a", "b", "c"]
    assert read_table(str(path), filename="runs.csv").shape == (3, 3)


# ----------------------------------------------------------------------------- bad files
def test_size_limit_is_checked_on_bytes_before_parsing():
    data = b"\x00" * 2000  # would be "not a text file" if it were parsed
    assert error_of(read_table, data, filename="big.csv", limits=Limits(max_bytes=1000)) == \
        "big.csv: the file is 2,000 bytes, over the limit of 1,000 bytes"


def test_size_limit_is_checked_on_the_file_size_before_reading(tmp_path):
    path = tmp_path / "huge.csv"
    with open(path, "wb") as handle:  # sparse: 60 MiB on paper, nothing on disk
        handle.truncate(60 * 2**20)
    assert error_of(read_table, path) == \
        "huge.csv: the file is 60.0 MiB, over the limit of 50.0 MiB"


@pytest.mark.parametrize(("data", "filename", "message"), [
    (b"", "e.csv", "e.csv: the file is empty"),
    (b"  \n\n", "e.csv", "e.csv: the file holds only blank space"),
    (b"a,b\n", "h.csv", "h.csv: the table has a header but no data rows"),
    (b"a,b\n1,2\n", "one.csv",
     "one.csv: the table has only 1 data row; comparing models needs at least 2"),
    (b"abc", "t.xls",
     ("t.xls: old binary Excel files (.xls) are not accepted; open the file in Excel or "
     "LibreOffice and save it as .xlsx or CSV (UTF-8)")),
    (b"\x80\x04abc", "t.pkl",
     ("t.pkl: pickle files are never read: loading one can run arbitrary code; save the "
     "table as CSV or Parquet")),
    (b"abc", "table.dat",
     ("table.dat: cannot tell the format from the name; supported: .csv, .tsv, .txt, .md, .tex, .json "
     "(each optionally .gz), .parquet, .xlsx")),
    (b"PAR1\x00\x00PAR1", "p.csv",
     ("p.csv: the name says CSV text but the file is a Parquet file; rename it with the right "
     "extension or export it as text")),
    (b"ab\x00cd", "b.csv",
     ("b.csv: not a text file (byte offset 2 is a NUL byte); the name says CSV - is it a "
     "binary file, or UTF-16 without a byte-order mark?")),
    (b"a,b\n1,2\n", "t.parquet",
     ("t.parquet: not a Parquet file (it starts with b'a,b\\n1,2\\n'); Parquet files start and "
     "end with 'PAR1'")),
    (b"a,b\n1,2\n", "t.xlsx",
     ("t.xlsx: not an .xlsx workbook (it starts with b'a,b\\n1,2\\n'); an .xlsx file is a zip "
     "archive")),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 20, "t.xlsx",
     ("t.xlsx: this is an old binary .xls file or a password-protected workbook; save it as "
     "an unprotected .xlsx or as CSV (UTF-8)")),
    (b"PK\x03\x04garbage", "t.xlsx", ("t.xlsx: not a valid .xlsx workbook (its zip archive cannot "
                                      "be read); open it and save it again as .xlsx or CSV")),
    (b"a,b\n1,2\n", "t.csv.gz", "t.csv.gz: the name ends in .gz but the file is not gzip"),
])
def test_bad_files(data, filename, message):
    assert error_of(read_table, data, filename=filename) == message


def test_not_utf8_names_the_byte_offset_and_line():
    data = "model,err\nb,1\ncaf\u00e9,2\n".encode("latin-1")
    assert error_of(read_table, data, filename="latin.csv") == (
        "latin.csv: not UTF-8 text: byte 0xe9 at byte offset 17 (line 3) cannot be decoded. "
        "Save the file as UTF-8 (in Excel: 'CSV UTF-8'); a byte like this usually means "
        "Latin-1 / Windows-1252")


def test_ragged_rows_name_their_lines():
    data = b'a,b,c\n1,2,3\n\n4,5\n"x\ny",1,2\n6,7,8,9\n'
    assert error_of(read_table, data, filename="r.csv") == (
        "r.csv: rows with the wrong number of fields: line 4 has 2 fields; line 7 has 4 "
        "fields; the header has 3 fields separated by commas. Check for unquoted commas "
        "inside values")


def test_ragged_rows_list_at_most_five():
    data = b"a,b\n" + b"1,2,3\n" * 8
    message = error_of(read_table, data, filename="r.csv")
    assert "line 2 has 3 fields; line 3" in message and "line 6 has 3 fields (and 3 more rows)" \
        in message and "line 7" not in message


def test_unclosed_quote_names_its_line():
    assert error_of(read_table, b'a,b\n1,2\n"x,1\n2,3\n', filename="q.csv") == (
        "q.csv: rows with the wrong number of fields: the quoted value starting on line 3 is "
        "never closed; the header has 2 fields separated by commas. Check for unquoted commas "
        "inside values")


@pytest.mark.parametrize(("data", "names", "note"), [
    (b"a,b,a\n1,2,3\n4,5,6\n", ["a", "b", "a (2)"],
     ("The header repeats 1 name; the later copies were renamed: 'a' (columns 1 and 3) -> "
      "'a (2)'.")),
    (b"a, a ,a (2)\n1,2,3\n4,5,6\n", ["a", "a (3)", "a (2)"],
     ("The header repeats 1 name; the later copies were renamed: 'a' (columns 1 and 2) -> "
      "'a (3)'.")),
    (b"a,,c\n1,2,3\n4,5,6\n", ["a", "column 2", "c"],
     "The header has no name for column 2 (counting from 1); called it 'column 2'."),
])
def test_repeated_header_names_are_renamed_and_said(data, names, note):
    read = read_table_report(data, filename="h.csv")
    assert read.frame.columns.tolist() == names and note in read.notes


def test_a_header_without_names_is_refused_where_nothing_can_be_noted():
    from copa_dash.data.upload_checks import check_header

    assert error_of(check_header, ["a", ""], "h.csv", Limits()) == (
        "h.csv: the header has no name for column 2 (counting from 1); give every column a name")


@pytest.mark.parametrize(("limits", "message"), [
    (Limits(max_rows=2), "t.csv: the table has 3 rows, over the limit of 2"),
    (Limits(max_columns=2), "t.csv: the table has 3 columns, over the limit of 2"),
    (Limits(max_cells=8), "t.csv: the table has 3 rows x 3 columns, over the limit of 8 cells"),
])
def test_shape_limits(limits, message):
    assert error_of(read_table, GOOD_CSV, filename="t.csv", limits=limits) == message


def test_gzip_bomb_stops_at_the_uncompressed_limit():
    bomb = gzip.compress(b"0" * 5_000_000)
    assert error_of(read_table, bomb, filename="b.csv.gz",
                    limits=Limits(max_uncompressed_bytes=1_000_000)) == \
        "b.csv.gz: decompressed, the file is over 1,000,000 bytes, the limit"


def test_path_errors(tmp_path):
    assert error_of(read_table, tmp_path / "nope.csv") == f"{tmp_path / 'nope.csv'}: no such file"
    assert error_of(read_table, tmp_path, filename="x.csv") == \
        f"{tmp_path}: is a directory, not a file"
    assert error_of(read_table, b"a", filename=None) == \
        "'filename' is required when 'source' is bytes"
    assert error_of(read_table, 3, filename="x.csv") == \
        "'source' must be a file path or bytes, not int"


# ----------------------------------------------------------------------------- JSON
@pytest.mark.parametrize(("text", "message"), [
    ('[{"m": 1}, {"m": 2', "j.json: not valid JSON: Expecting ',' delimiter at line 1, column 19"),
    ('{"m": ["a", "b"], "e": [1, 2, 3]}',
     "j.json: column 'e' has 3 values but column 'm' has 2; every column needs one value per row"),
    ('[{"m": "a", "e": [1, 2]}, {"m": "b", "e": 3}]',
     ("j.json: column 'e', row 1: a cell holds a list ([1, 2]), but a table cell must be a "
     "number, text, a date or empty")),
    ('[{"m": "a"}, 3]', "j.json: record 2 is a number, not an object {\"col\": value, ...}"),
    ('"just text"',
     ("j.json: the JSON must be a list of records [{\"col\": value, ...}, ...] or an object of "
     "columns {\"col\": [values], ...}; it is a string")),
    ("[" * 100_000, "j.json: the JSON is nested too deeply"),
    ("[]", "j.json: the table has a header but no data rows"),
    ('{"m": 1, "e": [1]}',
     ("j.json: the JSON must be a list of records [{\"col\": value, ...}, ...] or an object of "
     "columns {\"col\": [values], ...}; it is an object mixing lists and other values")),
])
def test_bad_json(text, message):
    assert error_of(read_table, text.encode(), filename="j.json") == message


def test_json_huge_integer_is_an_input_error():
    message = error_of(read_table, b'{"m": ["a", "b"], "e": [1, ' + b"9" * 5000 + b"]}",
                       filename="j.json")
    assert message.startswith("j.json: not valid JSON (Exceeds the limit")


def test_json_records_with_missing_keys_have_missing_values():
    frame = read_table(b'[{"m": "a", "e": 1}, {"m": "b"}, {"e": 3, "m": "c", "x": true}]',
                       filename="r.json")
    assert frame.columns.tolist() == ["m", "e", "x"]
    assert frame["e"].isna().tolist() == [False, True, False]


# ----------------------------------------------------------------------------- Excel
def test_xlsx_zip_bomb_guard_runs_before_parsing():
    data = xlsx_bytes([["m", "e"], ["a", 1], ["b", 2]])
    message = error_of(read_table, data, filename="b.xlsx",
                       limits=Limits(max_uncompressed_bytes=1000))
    assert re.fullmatch(r"b\.xlsx: the workbook expands to [\d,]+ bytes, over the limit of "
                        r"1,000 bytes", message)


def test_xlsx_value_right_of_the_header_names_its_cell():
    data = xlsx_bytes([["m", "e"], ["a", 1], ["b", 2, "stray"]])
    assert error_of(read_table, data, filename="s.xlsx") == (
        "s.xlsx: data row 2 (sheet row 3) has a value in column 3 (C), right of the last "
        "named column (2); give that column a header name")


def test_xlsx_empty_sheet_and_too_many_columns():
    assert error_of(read_table, xlsx_bytes([]), filename="e.xlsx") == \
        "e.xlsx: the first sheet 'Sheet' is empty"
    wide = xlsx_bytes([list("abcdef"), list(range(6)), list(range(6))])
    assert error_of(read_table, wide, filename="w.xlsx", limits=Limits(max_columns=4)) == \
        "w.xlsx: the table has more than 4 columns, the limit"


# ----------------------------------------------------------------------------- Parquet
def test_parquet_row_limit_is_read_from_the_footer():
    data = parquet_bytes(pd.DataFrame({"m": list("abc"), "e": [1, 2, 3]}))
    assert error_of(read_table, data, filename="t.parquet", limits=Limits(max_rows=2)) == \
        "t.parquet: the table has 3 rows, over the limit of 2"


def test_parquet_nested_cells_are_named():
    data = parquet_bytes(pd.DataFrame({"m": ["a", "b"], "l": [[1], [2]]}))
    assert error_of(read_table, data, filename="n.parquet") == (
        "n.parquet: column 'l', row 1: a cell holds a ndarray (array([1])), but a table cell "
        "must be a number, text, a date or empty")


def test_damaged_parquet():
    data = parquet_bytes(pd.DataFrame({"m": ["a", "b"], "e": [1.0, 2.0]}))
    damaged = data[:4] + b"\xff" * (len(data) - 8) + data[-4:]
    # pyarrow's own words (internal text) stay in the log, not in the message
    assert error_of(read_table, damaged, filename="d.parquet") == (
        "d.parquet: not a valid Parquet file (its footer or schema cannot be read); save it "
        "again from the program that wrote it")


# ----------------------------------------------------------------------------- build_eval_table
def test_build_eval_table_types_ids_and_objectives():
    frame = read_table(b"model,err,acc\n1,0.1,0.9\n2.5,\" 0.2 \",\n", filename="r.csv")
    before = frame.copy()
    table = build_eval_table(frame, roles())
    assert table.ids.tolist() == ["1", "2.5"]
    np.testing.assert_array_equal(table.matrix(), [[0.1, 0.9], [0.2, np.nan]])
    assert table.missing_counts() == {"err": 0, "acc": 1}
    pd.testing.assert_frame_equal(frame, before)


def test_integral_numeric_ids_become_plain_text():
    frame = pd.DataFrame({"model": [1.0, 2.0], "err": [1, 2], "acc": [True, False]})
    table = build_eval_table(frame, roles())
    assert table.ids.tolist() == ["1", "2"] and table.matrix()[:, 1].tolist() == [1.0, 0.0]


def test_missing_role_column_lists_the_available_columns():
    frame = read_table(GOOD_CSV, filename="r.csv")
    assert error_of(build_eval_table, frame, roles(objectives=(("loss", "min"),), system="sys")) \
        == ("columns 'loss' (objective), 'sys' (system) are not in the table; available "
            "columns: 'model', 'err', 'acc'")


def test_non_numeric_objective_cells_are_listed_with_rows():
    frame = pd.DataFrame({"model": list("abcdefgh"),
                          "err": ["1", "abc", "2", "n.a.", "x", "y", "z", "w"],
                          "acc": [1.0] * 8})
    assert error_of(build_eval_table, frame, roles()) == (
        "objective 'err' has 6 values that are not numbers: row 2: 'abc', row 4: 'n.a.', "
        f"row 5: 'x', row 6: 'y', row 7: 'z' and 1 more {NOTE}; leave a missing value empty")


@pytest.mark.parametrize(("cell", "hint"), [
    ("1,234", "remove thousands separators (write 1234, not 1,234)"),
    ("0,5", "use '.' as the decimal point (write 0.5, not 0,5)"),
    ("85%", "write percentages as plain numbers (85, not 85%)"),
])
def test_number_format_hints(cell, hint):
    frame = pd.DataFrame({"model": ["a", "b"], "err": ["1", cell], "acc": [1.0, 2.0]})
    assert error_of(build_eval_table, frame, roles()) == (
        f"objective 'err' has 1 value that is not a number: row 2: {cell!r} {NOTE}; {hint}; "
        "leave a missing value empty")


def test_every_objective_problem_is_reported_at_once():
    frame = pd.DataFrame({"model": ["a", "b"], "err": [np.nan, np.nan], "acc": [1.0, np.inf]})
    assert error_of(build_eval_table, frame, roles()) == (
        "objective 'err' has no values (all 2 rows are empty); objective 'acc' has infinite "
        f"values in row 2 {NOTE}")


def test_date_objective():
    frame = pd.DataFrame({"model": ["a", "b"], "err": pd.to_datetime(["2024-01-01"] * 2),
                          "acc": [1.0, 2.0]})
    assert error_of(build_eval_table, frame, roles()) == \
        "objective 'err' holds dates or durations, not numbers"


def test_duplicate_ids_name_the_ids_and_rows():
    frame = pd.DataFrame({"model": ["a", "b", "a", "c", "b", "a"], "err": range(6),
                          "acc": range(6)})
    assert error_of(build_eval_table, frame, roles()) == (
        "the id column 'model' has repeated values: 'a' in rows 1, 3, 6; 'b' in rows 2, 5 "
        f"{NOTE}; ids must be unique - choose another id column or add one (e.g. model + seed)")


def test_missing_ids_name_the_rows():
    frame = pd.DataFrame({"model": ["a", None, " ", "d"], "err": range(4), "acc": range(4)})
    assert error_of(build_eval_table, frame, roles()) == \
        f"the id column 'model' is empty in rows 2, 3 {NOTE}; every row needs an id"


def test_single_row_and_wrong_types():
    one = pd.DataFrame({"model": ["a"], "err": [1.0], "acc": [1.0]})
    assert error_of(build_eval_table, one, roles()) == \
        "the table has 1 row; comparing models needs at least 2"
    assert error_of(build_eval_table, {"model": ["a"]}, roles()) == \
        "'frame' must be a pandas DataFrame, not dict"
    assert error_of(build_eval_table, one, {"id": "model"}) == "'roles' must be Roles, not dict"


def test_empty_role_column():
    frame = pd.DataFrame({"model": ["a", "b"], "err": [1, 2], "acc": [1, 2], "sys": [None, None]})
    assert error_of(build_eval_table, frame, roles(system="sys")) == \
        "the system column 'sys' has no values (every row is empty)"


def test_repeated_column_names_in_a_frame():
    frame = pd.DataFrame([[1, 2, 3], [4, 5, 6]], columns=["model", "err", "err"])
    assert error_of(build_eval_table, frame, roles()) == \
        "the table has repeated column names: 'err'"


# ----------------------------------------------------------------------------- safety
def test_the_data_layer_never_unpickles_or_evaluates():
    package = pathlib.Path(__file__).parents[2] / "copa_dash" / "data"
    forbidden = re.compile(r"\bimport pickle|read_pickle|pickle\.loads?\b|\beval\(|\bexec\(|"
                           r"allow_pickle=True")
    for name in ("io.py", "schema.py", "cell_parsing.py", "upload_checks.py",
                 "table_formats.py", "role_guess.py"):
        assert not forbidden.search((package / name).read_text()), name


def test_json_round_trip_of_a_table_written_by_pandas():
    source = pd.DataFrame({"model": ["a", "b", "c"], "err": [0.1, 0.25, np.nan],
                           "acc": [0.5, 0.75, 1.0]})
    for orient in ("records", "columns", "split"):
        text = source.to_json(orient=orient)
        frame = read_table(text.encode(), filename="t.json")
        np.testing.assert_array_equal(frame[["err", "acc"]].to_numpy(),
                                      source[["err", "acc"]].to_numpy())
        assert json.loads(text)  # really JSON


# ----------------------------------------------------------------------------- number grammar
@pytest.mark.parametrize(("cell", "number"), [
    ("1", 1.0), ("+3", 3.0), ("-0.5", -0.5), (".5", 0.5), ("5.", 5.0), ("1e-3", 0.001),
    ("1E5", 1e5), (" 2.5 ", 2.5), ("1e999", np.inf), ("-Infinity", -np.inf),
])
def test_numbers_that_are_read_as_numbers(cell, number):
    frame = read_table(f"m,x\na,{cell}\nb,1\n".encode(), filename="n.csv")
    assert frame["x"].dtype.kind in "fi" and frame["x"][0] == number


@pytest.mark.parametrize("cell", ["0x1A", "1_000", "1 000", "1d", "\u0661\u0662", "e5", ".",
                                  "12ms", "True"])
def test_cells_that_are_not_numbers(cell):
    frame = read_table(f"m,x\na,{cell}\nb,1\n".encode(), filename="n.csv")
    assert frame["x"].tolist() == [cell, "1"]


@pytest.mark.parametrize("cell", ["", "NA", "n/a", "NaN", "null", "None", "#N/A", "-", " na "])
def test_missing_tokens(cell):
    frame = read_table(f"m,x\na,{cell}\nb,1\n".encode(), filename="n.csv")
    assert frame["x"].isna().tolist() == [True, False] and frame["x"].dtype.kind in "fi"


def test_limits_must_be_positive_integers():
    assert error_of(Limits, max_rows=0) == "'max_rows' must be a positive integer, not 0"
    assert error_of(read_table, GOOD_CSV, filename="t.csv", limits={"max_rows": 3}) == \
        "'limits' must be a Limits, not dict"
