"""A bundled dataset's title counts what the catalogue's Objectives column counts (newcomer's
pass, session 18: "HELM Classic: 67 language models, 8 metric families" stood beside 131
objectives, and read as a contradiction)."""

from __future__ import annotations

import json
import re
from pathlib import Path

DATASETS = Path(__file__).resolve().parents[2] / "datasets"
MANIFEST = json.loads((DATASETS / "manifest.json").read_text(encoding="utf-8"))["datasets"]
# "131 metrics", "8 metric families", "7 objectives": a count of what is compared
COUNTED = re.compile(r"(\d[\d,]*) (?:metric|objective)")


def test_a_count_of_metrics_in_a_title_is_the_number_of_objectives():
    claims = {entry["name"]: (int(m.group(1).replace(",", "")), len(entry["objectives"]))
              for entry in MANIFEST for m in [COUNTED.search(entry["title"])] if m}
    assert "helm-classic" in claims
    assert {name: c for name, c in claims.items() if c[0] != c[1]} == {}
