"""Uploading through the file input: a real table is mapped, saved and explored; a table that
no column names gets row numbers; one objective is refused before saving; broken files each get
a message that says what is wrong and where."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from copa_dash.cli import main
from tests.e2e.app_under_test import choose_role, count_of, screenshot, wait_until

pytestmark = pytest.mark.browser

GOOD_CSV = """model,accuracy,training_time,family
m1,0.91,120,tree
m2,0.88,30,linear
m3,0.93,400,tree
m4,0.85,10,linear
m5,0.90,60,knn
m6,0.80,5,linear
"""

# No column names the rows: family repeats, accuracy and latency_ms are unique measurements
# (the old guess proposed latency_ms, a unique integer column, as the id).
NUMBERS_CSV = """accuracy,latency_ms,family
0.91,120,tree
0.88,30,linear
0.93,400,tree
0.85,10,linear
0.90,60,knn
"""

BROKEN = {
    "ragged.csv": (b"model,accuracy,time\nm1,0.9,10\nm2,0.8\n", "line 3 has 2 fields"),
    "empty.csv": (b"", "empty"),
    "fake.parquet": (b"model,accuracy\nm1,0.9\n", "not a Parquet file"),
    "binary.csv": (bytes(range(256)) * 4, "not a text file"),
    "latin.csv": ("model,accuracy\nmod\xe8le,0.9\nb,0.8\n".encode("latin-1"), "not UTF-8"),
    "one-row.csv": (b"model,accuracy\nm1,0.9\n", "only 1 data row"),
}


def _upload(dash_duo, path: Path) -> None:
    file_input = dash_duo.driver.find_element(By.CSS_SELECTOR, "#upload-file input[type=file]")
    file_input.send_keys(str(path))


def _open_and_upload(dash_duo, app, path: Path) -> None:
    """Start the app, open the upload page and drop the file ``path`` on it."""
    dash_duo.start_server(app, navigate=False)
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/upload", timeout=30)
    dash_duo.wait_for_element("#upload-file", timeout=30)
    _upload(dash_duo, path)


def test_a_real_table_is_mapped_saved_and_explored(dash_duo, app, tmp_path):
    path = tmp_path / "sweep.csv"
    path.write_text(GOOD_CSV)
    _open_and_upload(dash_duo, app, path)
    dash_duo.wait_for_contains_text("#upload-alert", "6 rows", timeout=30)
    dash_duo.wait_for_element("#upload-save", timeout=10)
    # min/max only on the objectives' rows, not on the id's nor the metadata's
    assert {c: _direction_shown(dash_duo, c) for c in ("model", "accuracy", "training_time",
                                                       "family")} == {
        "model": False, "accuracy": True, "training_time": True, "family": False}
    screenshot(dash_duo, "upload-mapping")
    dash_duo.find_element("#upload-save").click()
    dash_duo.wait_for_element("#pick-id", timeout=30)  # "Save and explore" goes there
    assert "/explore?dataset=" in dash_duo.driver.current_url
    # accuracy (max) and training_time (min) are guessed; equal weights at p = inf:
    # u(acc): m3 0, m1 1/6, m5 2/6, m2 3/6, m4 4/6, m6 5/6; u(time): m6 0, m4 1/6, m2 2/6,
    # m5 3/6, m1 4/6, m3 5/6. max(u) is 3/6 for m2 and m5 only; they tie at p = 8 and in
    # sum u, so table order picks m2 - and so does the CLI on the same file.
    dash_duo.wait_for_text_to_equal("#pick-id", "m2", timeout=30)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["select", str(path), "--id", "model", "--objective", "accuracy:max",
              "--objective", "training_time:min", "--json"])
    assert json.loads(out.getvalue())["id"] == "m2"
    screenshot(dash_duo, "upload-explored")
    # Back lands on the saved upload's summary, not on an empty upload page (issue 33)
    dataset_id = dash_duo.driver.current_url.split("dataset=")[1].split("&")[0]
    dash_duo.driver.back()
    wait_until(lambda: "/upload" in dash_duo.driver.current_url)
    assert dash_duo.driver.current_url.endswith(f"/upload?saved={dataset_id}")
    wait_until(lambda: dash_duo.driver.find_elements(By.CSS_SELECTOR, ".drop-zone"), timeout=30)
    dash_duo.wait_for_contains_text("#upload-saved", "Saved: sweep", timeout=30)
    assert "6 rows" in dash_duo.find_element("#upload-saved").text
    assert dash_duo.find_element("#upload-saved-link").get_attribute("href").endswith(
        f"/explore?dataset={dataset_id}")
    screenshot(dash_duo, "upload-back-after-save")
    assert dash_duo.get_logs() == []


def _direction_shown(dash_duo, column: str) -> bool:
    dom_id = json.dumps({"column": column, "type": "upload-direction"}, separators=(",", ":"))
    return dash_duo.find_element(f"[id='{dom_id}']").is_displayed()


def test_a_table_no_column_names_gets_row_numbers_and_needs_two_objectives(dash_duo, app,
                                                                          tmp_path):
    path = tmp_path / "numbers.csv"
    path.write_text(NUMBERS_CSV)
    _open_and_upload(dash_duo, app, path)
    dash_duo.wait_for_contains_text("#upload-id-note", "numbered 'row 1', 'row 2'", timeout=30)
    assert "names made from the rows" in dash_duo.find_element("#upload-id-column").text
    dash_duo.wait_for_contains_text("#upload-check", "2 objectives: accuracy, latency_ms")
    screenshot(dash_duo, "upload-row-numbers")

    assert _direction_shown(dash_duo, "latency_ms") and not _direction_shown(dash_duo, "family")
    choose_role(dash_duo, "latency_ms", "metadata (filter on it)")
    dash_duo.wait_for_contains_text("#upload-check", "Choose at least two objectives")
    wait_until(lambda: not _direction_shown(dash_duo, "latency_ms"))
    assert count_of(dash_duo, "#upload-explore-link") == 0
    dash_duo.find_element("#upload-save").click()
    dash_duo.wait_for_contains_text(
        "#upload-save-error", "give another numeric column the role 'objective' "
        "('latency_ms'). Nothing was saved.", timeout=30)
    dash_duo.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})",
                                   dash_duo.find_element("#upload-save-error"))
    screenshot(dash_duo, "upload-one-objective")

    choose_role(dash_duo, "latency_ms", "objective (compare on it)")
    dash_duo.wait_for_contains_text("#upload-check", "2 objectives")
    wait_until(lambda: _direction_shown(dash_duo, "latency_ms"))
    dash_duo.find_element("#upload-save").click()
    dash_duo.wait_for_element("#pick-id", timeout=30)
    # the rows are named by their number in the file. accuracy (max) u: row 3 0, row 1 1/5,
    # row 5 2/5, row 2 3/5, row 4 4/5; latency_ms (min) u: row 4 0, row 2 1/5, row 5 2/5,
    # row 1 3/5, row 3 4/5. Equal weights at p = inf: row 5 alone has the smallest max(u).
    dash_duo.wait_for_text_to_equal("#pick-id", "row 5", timeout=30)
    screenshot(dash_duo, "upload-row-numbers-explored")
    assert dash_duo.get_logs() == []


def test_broken_files_each_get_a_message(dash_duo, app, tmp_path):
    """The broken files dropped one after another on one Upload page (a page load each cost
    more than the uploads, session 20): each gets its own message, and a message shown for the
    file before never counts for the next (checked absent before each upload)."""
    shown = ""
    for number, name in enumerate(sorted(BROKEN)):
        content, expected = BROKEN[name]
        path = tmp_path / name
        path.write_bytes(content)
        assert expected not in shown, f"{name}: {expected!r} is already shown"
        if number == 0:
            _open_and_upload(dash_duo, app, path)
        else:
            _upload(dash_duo, path)
        dash_duo.wait_for_contains_text("#upload-alert", expected, timeout=30)
        shown = dash_duo.find_element("#upload-alert").text
        assert shown.startswith(f"{name}: "), shown       # the message names the file it read
        screenshot(dash_duo, f"upload-broken-{name}")
    assert dash_duo.get_logs() == []
