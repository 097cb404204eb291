"""The catalogue's rows: each dataset's name is a Markdown link to the explorer (keyboard users
reach it with Tab), with Markdown's brackets escaped so a name cannot break or forge the link."""

from __future__ import annotations

import re
from dataclasses import replace

from copa_dash.services.catalog import catalog
from copa_dash.ui.features.datasets.catalogue import rows

LINK = re.compile(r"^\[(?P<text>(?:\\.|[^\\\]])*)\]\((?P<href>[^)\s]+)\)$")


def test_every_title_is_a_link_to_its_explorer():
    entries = catalog()
    data, _ = rows(entries)
    for entry, row in zip(entries, data):
        match = LINK.match(row["title"])
        assert match, row["title"]
        assert match["href"] == f"/explore?dataset={entry.ref}"
        assert re.sub(r"\\(.)", r"\1", match["text"]) == entry.title
        assert row["id"] == entry.ref


def test_brackets_in_a_name_are_escaped():
    entry = replace(catalog()[0], title="a [b](http://x) \\ c", ref="my data/1")
    (row,), _ = rows([entry])
    match = LINK.match(row["title"])
    assert match and match["href"] == "/explore?dataset=my%20data/1"
    assert re.sub(r"\\(.)", r"\1", match["text"]) == "a [b](http://x) \\ c"
