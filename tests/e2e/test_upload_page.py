"""Uploading through the file input: a real table is mapped, saved and explored; broken files
each get a message that says what is wrong and where."""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from tests.e2e.app_under_test import make_app, screenshot

pytestmark = pytest.mark.browser

GOOD_CSV = """model,accuracy,training_time,family
m1,0.91,120,tree
m2,0.88,30,linear
m3,0.93,400,tree
m4,0.85,10,linear
m5,0.90,60,knn
m6,0.80,5,linear
"""

BROKEN = {
    "ragged.csv": (b"model,accuracy,time\nm1,0.9,10\nm2,0.8\n", "line 3 has 2 fields"),
    "empty.csv": (b"", "empty"),
    "fake.parquet": (b"model,accuracy\nm1,0.9\n", "not a Parquet file"),
    "binary.csv": (bytes(range(256)) * 4, "not a text file"),
    "latin.csv": ("model,accuracy\nmod\xe8le,0.9\nb,0.8\n".encode("latin-1"), "not UTF-8"),
    "one-row.csv": (b"model,accuracy\nm1,0.9\n", "only 1 data row"),
}


@pytest.fixture(scope="module")
def app():
    return make_app()


def _upload(dash_duo, path: Path) -> None:
    file_input = dash_duo.driver.find_element(By.CSS_SELECTOR, "#upload-file input[type=file]")
    file_input.send_keys(str(path))


def test_a_real_table_is_mapped_saved_and_explored(dash_duo, app, tmp_path):
    path = tmp_path / "sweep.csv"
    path.write_text(GOOD_CSV)
    dash_duo.start_server(app)
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/upload", timeout=30)
    dash_duo.wait_for_element("#upload-file", timeout=30)
    _upload(dash_duo, path)
    dash_duo.wait_for_contains_text("#upload-alert", "6 rows", timeout=30)
    dash_duo.wait_for_element("#upload-save", timeout=10)
    screenshot(dash_duo, "upload-mapping")
    dash_duo.find_element("#upload-save").click()
    link = dash_duo.wait_for_element("#upload-explore-link", timeout=30)
    href = link.get_attribute("href")
    assert "/explore?dataset=" in href
    dash_duo.driver.get(href)
    dash_duo.wait_for_element("#pick-id", timeout=30)
    # accuracy (max) and training_time (min) are guessed; equal weights at p = inf:
    # u(acc): m3 0, m1 1/6, m5 2/6, m2 3/6, m4 4/6, m6 5/6; u(time): m6 0, m4 1/6, m2 2/6,
    # m5 3/6, m1 4/6, m3 5/6. max(u) is 3/6 for m2 and m5 only; they tie at p = 8 and in
    # sum u, so table order picks m2 - and so does the CLI on the same file.
    dash_duo.wait_for_text_to_equal("#pick-id", "m2", timeout=30)
    from copa_dash.cli import main
    import contextlib, io, json
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["select", str(path), "--id", "model", "--objective", "accuracy:max",
              "--objective", "training_time:min", "--json"])
    assert json.loads(out.getvalue())["id"] == "m2"
    screenshot(dash_duo, "upload-explored")
    assert dash_duo.get_logs() == []


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_files_each_get_a_message(dash_duo, app, tmp_path, name):
    content, expected = BROKEN[name]
    path = tmp_path / name
    path.write_bytes(content)
    dash_duo.start_server(app)
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/upload", timeout=30)
    dash_duo.wait_for_element("#upload-file", timeout=30)
    _upload(dash_duo, path)
    dash_duo.wait_for_contains_text("#upload-alert", expected, timeout=30)
    screenshot(dash_duo, f"upload-broken-{name}")
    assert dash_duo.get_logs() == []
