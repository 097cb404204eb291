"""docs/examples/notebook_api.ipynb runs top to bottom in a real kernel (nbclient), and its
outputs say what an independent computation says; the explorer it starts serves the view."""

import os
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest
import requests
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).parents[2] / "docs" / "examples" / "notebook_api.ipynb"


def _text(cell) -> str:
    parts = []
    for output in cell.get("outputs", []):
        if "text" in output:
            parts.append(output["text"])
        data = output.get("data", {})
        parts.append(data.get("text/html", "") + data.get("text/plain", ""))
    return "\n".join(parts)


def _brute_force_pick() -> str:
    """COPA by hand on the notebook's table: u = share of strictly better models,
    w = (0.25, 0.5, 0.25) with focus co2 and alpha 0.5, p = inf, argmin (no ties here)."""
    acc = np.array([0.91, 0.89, 0.86, 0.84, 0.80, 0.78, 0.71, 0.65])
    co2 = np.array([9.0, 6.5, 3.1, 2.2, 2.9, 0.9, 0.7, 0.3])
    latency = np.array([120, 80, 95, 40, 60, 35, 20, 15])
    u = np.column_stack([[(acc > a).mean() for a in acc], [(co2 < c).mean() for c in co2],
                         [(latency < t).mean() for t in latency]])
    criterion = (u * [0.25, 0.5, 0.25]).max(axis=1)
    assert np.sum(criterion == criterion.min()) == 1
    names = ["giant", "large", "medium-a", "medium-b", "small-a", "small-b", "tiny", "micro"]
    return names[int(np.argmin(criterion))]


@pytest.mark.slow
def test_the_example_notebook_runs_and_its_outputs_hold(tmp_path):
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    with client.setup_kernel(env=dict(os.environ)):
        for index, cell in enumerate(notebook.cells):
            client.execute_cell(cell, index)
        codes = [c for c in notebook.cells if c.cell_type == "code"]
        outputs = [_text(c) for c in codes]
        url = re.search(r"http://127\.0\.0\.1:\d+/explore\?\S+", outputs[-1]).group(0)
        page = requests.get(url, timeout=30)
        layout = requests.get(url.split("/explore")[0] + "/_dash-layout", timeout=30)
    pick = _brute_force_pick()
    assert "COPA pick: " + pick in outputs[1]
    assert outputs[2].splitlines()[0] == pick
    assert "<iframe" in outputs[-1]                         # shown inline, in the notebook
    assert "dataset=notebook-" in url and "focus=co2" in url
    assert page.status_code == 200 and layout.status_code == 200
    report = (tmp_path / "decision-report.html").read_text()
    assert f"Decision report: <code>{pick}</code>" in report
    hv = float(outputs[4].strip().splitlines()[-1])
    assert hv > 0
    errors = [o for c in codes for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
