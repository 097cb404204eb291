"""The decision report's "How sure is this pick?" section: the numbers of ``copa-dash
robustness`` on the same view, and its reproduce line runs and prints them."""

from __future__ import annotations

import datetime
import html
import json
import re
import shlex

from copa_dash.cli import main
from copa_dash.reports import DecisionView, decision_report
from copa_dash.services.catalog import open_dataset

STAMP = datetime.datetime(2026, 1, 31, 12, 0, 0, tzinfo=datetime.timezone.utc)
DATASET = "chatbot-arena-price"


def _text(page: str) -> str:
    page = re.sub(r"<script.*?</script>", " ", page, flags=re.DOTALL)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def test_report_section_states_the_clis_acceptability_and_leave_one_out(capsys):
    page = decision_report(open_dataset(DATASET), DecisionView(dataset=DATASET),
                           generated_at=STAMP).decode()
    text = _text(page)
    line = next(line for line in html.unescape(page).splitlines()
                if "copa-dash robustness" in line)
    argv = shlex.split(re.sub(r"<[^>]+>", "", line).strip())[1:]
    capsys.readouterr()
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert "How sure is this pick? Random weightings and leave one out" in text
    for row in out["acceptability"][:10]:
        assert (f"{row['id']} {100 * row['rank1']:.1f}% {100 * row['rank1_se']:.1f}% "
                f"{100 * row['top3']:.1f}%") in text
    for name, pick in out["leave_one_out"].items():
        assert f"without {name} : {pick}" in text
    for flip in out["flips"]:
        assert flip["text"] in text
