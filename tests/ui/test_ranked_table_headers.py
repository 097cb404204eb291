"""Explore's ranked table: an objective's name in a header wraps only between its words
(issue 33: "co2_co|st", "non_toxic|ity" at 1400 x 1000), while what the reader sees, copies
and exports is the real name."""

from __future__ import annotations

import re

import pandas as pd

from copa_dash.ui.common.break_names import breakable_html
from copa_dash.ui.features.explore import panels

from . import html_cells

NAMES = ["non_stereotype", "co2_cost", "adv_glue_pp", "a<b>_c", "org/model.v1_5", "_x_"]


def _table():
    columns = [{"name": "rank", "id": "rank", "type": "numeric"},
               {"name": "id", "id": "id", "type": "text"}]
    columns += [{"name": n, "id": f"obj{k}", "type": "numeric", "format": {}}
                for k, n in enumerate(NAMES)]
    columns += [{"name": f"top % {n}", "id": f"u{k}", "type": "numeric"}
                for k, n in enumerate(NAMES)]
    data = {"rank": [1, 2], "id": ["m1", "m2"]}
    data.update({f"obj{k}": [1.0, 2.0] for k in range(len(NAMES))})
    data.update({f"u{k}": [0.0, 50.0] for k in range(len(NAMES))})
    return panels.table_html(pd.DataFrame(data), columns)


def test_headers_break_only_after_a_separator_and_read_as_the_real_name():
    text = _table()
    head = text.split("</thead>")[0]
    assert "<code>non_<wbr>stereotype</code>" in head
    assert "<code>co2_<wbr>cost</code>" in head
    assert "<code>adv_<wbr>glue_<wbr>pp</code>" in head
    assert "<code>org/<wbr>model.<wbr>v1_<wbr>5</code>" in head
    # every break opportunity follows a separator; none splits a word
    for piece in re.findall(r"([^>]*)<wbr>", head):
        assert piece[-1] in "_/.", piece
    # a reader (and a test reading textContent) sees the names as they are, escaped once
    assert html_cells.read(text).rows[0][2:] == NAMES


def test_breakable_html_escapes_once_and_leaves_edge_separators_alone():
    assert breakable_html("a<b>_c") == "a&lt;b&gt;_c"
    assert breakable_html("x_&_y") == "x_&amp;_y"
    assert breakable_html("_x_") == "_x_"
    assert breakable_html("a_b\nc_d") == "a_<wbr>b c_<wbr>d"
    assert breakable_html(12.5) == "12.<wbr>5"
