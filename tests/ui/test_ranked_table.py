"""The explorer's ranked table: search, sort and paging checked against plain pandas on the
same rows, and the Markdown page checked for what it shows (and what it must not format)."""

from __future__ import annotations

from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

from copa_dash.ui.common.table_ids import ID_CLASS, id_cell_html, id_tooltips
from copa_dash.ui.features.explore import panels, table_query
from copa_dash.ui.features.explore.callbacks import TABLE_PAGE_SIZE, _table_page

from . import html_cells
from .test_explore_figures import _explore

NAMES = {"score": "obj0", "cost": "obj1"}


def _frame():
    return pd.DataFrame({"rank": [1, 2, 3, 4, 5],
                         "id": ["Llama-7b", "mistral-7b", "llama-70b", "phi-2", "LLAMA|x"],
                         "criterion": [0.1, 0.2, 0.3, 0.4, 0.5],
                         "obj0": [0.9, 0.8, np.nan, 0.5, 0.7],
                         "obj1": [5.0, 1.0, 9.0, 0.5, 2.0]})


def test_a_word_matches_ids_containing_it_in_any_case():
    found = table_query.search(_frame(), "llama", NAMES)
    assert found.frame["id"].tolist() == ["Llama-7b", "llama-70b", "LLAMA|x"]
    assert found.notes == ()


@pytest.mark.parametrize("text, expected", [
    ("cost < 2", lambda f: f["obj1"] < 2),
    ("cost<=2", lambda f: f["obj1"] <= 2),
    ("COST >= 2", lambda f: f["obj1"] >= 2),
    ("score > 0.6, cost != 1", lambda f: (f["obj0"] > 0.6) & (f["obj1"] != 1)),
    ("score = 0.5", lambda f: f["obj0"] == 0.5),
    ("llama, cost > 1", lambda f: f["id"].str.lower().str.contains("llama") & (f["obj1"] > 1)),
])
def test_conditions_on_objectives_keep_the_rows_pandas_keeps(text, expected):
    frame = _frame()
    found = table_query.search(frame, text, NAMES)
    assert found.frame["id"].tolist() == frame[expected(frame)]["id"].tolist()
    assert found.notes == ()


def test_a_condition_on_an_unknown_column_or_a_non_number_is_searched_as_text_and_said():
    found = table_query.search(_frame(), "price < 3", NAMES)
    assert found.frame.empty
    assert "'price' is not a column you can filter on (score, cost)" in found.notes[0]
    found = table_query.search(_frame(), "cost < cheap", NAMES)
    assert found.frame.empty and "not a number" in found.notes[0]


def test_empty_search_keeps_every_row_in_order():
    frame = _frame()
    assert table_query.search(frame, "  , ", NAMES).frame.equals(frame)
    assert table_query.search(frame, None, NAMES).frame.equals(frame)


def test_sorting_best_first_follows_the_direction_and_puts_missing_values_last():
    frame = _frame()
    directions = {"score": "max", "cost": "min"}
    best_score = table_query.sort(frame, "best:score", NAMES, directions)
    assert best_score["id"].tolist() == ["Llama-7b", "mistral-7b", "LLAMA|x", "phi-2", "llama-70b"]
    best_cost = table_query.sort(frame, "best:cost", NAMES, directions)
    assert best_cost["obj1"].tolist() == sorted(frame["obj1"])
    worst_cost = table_query.sort(frame, "worst:cost", NAMES, directions)
    assert worst_cost["obj1"].tolist() == sorted(frame["obj1"], reverse=True)
    by_id = table_query.sort(frame, table_query.BY_ID, NAMES, directions)
    assert by_id["id"].tolist() == ["Llama-7b", "llama-70b", "LLAMA|x", "mistral-7b", "phi-2"]
    for key in (table_query.RANKING, "best:gone", None, "nonsense"):
        assert table_query.sort(frame, key, NAMES, directions).equals(frame)


def test_ids_sort_as_people_read_numbers_in_them():
    ids = ["row 10", "row 2", "Row 1", "row 100", "row 02", "model-13b", "model-7b", "b", "A"]
    frame = pd.DataFrame({"id": ids, "obj0": range(len(ids))})
    ordered = table_query.sort(frame, table_query.BY_ID, {}, {})["id"].tolist()
    # "row 2" and "row 02" are the same number: they keep the ranking's order
    assert ordered == ["A", "b", "model-7b", "model-13b", "Row 1", "row 2", "row 02", "row 10",
                       "row 100"]


def test_ties_keep_the_ranking_order():
    frame = pd.DataFrame({"id": list("abcd"), "obj0": [1.0, 2.0, 1.0, 2.0]})
    ordered = table_query.sort(frame, "best:score", {"score": "obj0"}, {"score": "min"})
    assert ordered["id"].tolist() == ["a", "c", "b", "d"]


def test_pages_are_clamped_and_counted():
    frame = pd.DataFrame({"id": [str(i) for i in range(31)]})
    rows, index, pages = table_query.page(frame, 1, 15)
    assert (rows["id"].tolist(), index, pages) == ([str(i) for i in range(15, 30)], 1, 3)
    assert table_query.page(frame, 99, 15)[1:] == (2, 3)
    assert table_query.page(frame, -4, 15)[1:] == (0, 3)
    assert table_query.page(frame.iloc[:0], 3, 15)[1:] == (0, 1)


def test_sort_menu_offers_each_objective_both_ways():
    values = [o["value"] for o in table_query.sort_options(["a", "b"])]
    assert values == [table_query.RANKING, table_query.BY_ID, "best:a", "worst:a", "best:b", "worst:b"]


def test_the_html_page_shows_every_row_and_names_as_typed():
    frame = _frame().assign(u1=[12.5, 3.0, 99.0, 0.25, 50.0])
    frame.loc[1, "id"] = "<b>bold</b> & *x*"
    columns = [{"name": "rank", "id": "rank", "type": "numeric"},
               {"name": "id", "id": "id", "type": "text"},
               {"name": "a*b_c", "id": "obj0", "type": "numeric", "format": {"specifier": ".4~g"}},
               {"name": "top % a|b<i>", "id": "u1", "type": "numeric"}]
    page = html_cells.read(panels.table_html(frame, columns))
    assert len(page.rows) == 1 + len(frame)
    assert page.rows[0] == ["rank", "id", "a*b_c", "top % a|b<i>"]
    assert page.rows[1] == ["1", "Llama-7b", "0.9", "12.5"]
    assert page.rows[2][1] == "<b>bold</b> & *x*"           # shown as typed, not as markup
    assert "b" not in page.tags and "i" not in page.tags
    assert page.rows[5][1] == "LLAMA|x"
    assert page.rows[3][2] == "-"                            # a missing value
    assert panels.table_html(frame.iloc[:0], columns) == "<p><em>No row matches the search.</em></p>"


def test_the_first_page_is_the_ranking_and_a_search_counts_its_matches():
    _, result = _explore()
    text, note, index, pager, no_previous, no_next = _table_page(result, 0, "", "rank")
    ranking = result.ranking
    rows = html_cells.read(text).rows[1:]
    assert len(rows) == TABLE_PAGE_SIZE and (index, no_previous, no_next) == (0, True, False)
    parser = _Titles()
    parser.feed(text)
    titles = [title for cls, title in parser.cells if cls == ID_CLASS]
    for position, cells in enumerate(rows):
        assert cells[0] == str(position + 1)
        assert titles[position] == str(result.problem.ids[ranking[position]])
    pages = -(-len(ranking) // TABLE_PAGE_SIZE)
    assert pager == f"page 1 of {pages}" and f"{len(ranking)} rows pass" in note
    # the last page, reached by asking past it
    text, _, index, pager, no_previous, no_next = _table_page(result, 10**6, "", "rank")
    assert (index, pager, no_previous, no_next) == (pages - 1, f"page {pages} of {pages}", False, True)
    # a search: the note counts what pandas counts on the full ranked table
    frame, _ = panels.table_frame(result)
    expected = frame[frame["id"].str.lower().str.contains("llama") & (frame["obj6"] < 1)]
    co2 = result.problem.preferences.objectives[6]
    _, note, _, pager, _, _ = _table_page(result, 0, f"llama, {co2} < 1", "rank")
    assert f"; {len(expected)} match the search" in note and len(expected) > 0
    assert pager == f"page 1 of {max(1, -(-len(expected) // TABLE_PAGE_SIZE))}"


def test_an_id_with_an_equals_sign_is_found_without_a_note_and_long_searches_are_cut():
    frame = pd.DataFrame({"id": ["lr=0.1_bs=32", "lr=0.2_bs=32"], "obj0": [1.0, 2.0]})
    found = table_query.search(frame, "lr=0.1", NAMES)
    assert found.frame["id"].tolist() == ["lr=0.1_bs=32"] and found.notes == ()
    import time

    start = time.perf_counter()
    found = table_query.search(frame, "x" + " " * 20_000 + "<=", NAMES)
    assert time.perf_counter() - start < 1.0      # no regex backtracking over the spaces
    assert found.notes == ((f"the search was cut to its first {table_query.SEARCH_MAX_CHARS} "
                            "characters."),)


def test_the_csv_holds_every_row_the_search_finds_in_the_tables_sort_order():
    from copa_dash.services.catalog import open_dataset
    from copa_dash.ui.features.explore.callbacks import ranked_frame
    from copa_dash.ui.features.explore.state import parse_query, to_query, with_defaults

    dataset = "open-llm-leaderboard-v2"
    query = to_query(with_defaults(parse_query({"dataset": dataset}), open_dataset(dataset)))
    everything = ranked_frame(query)
    assert everything["rank"].tolist() == list(range(1, len(everything) + 1))
    found = ranked_frame(query, "llama, co2_cost < 1", "best:co2_cost")
    expected = everything[everything["id"].str.lower().str.contains("llama")
                          & (everything["co2_cost"] < 1)]
    assert 15 < len(found) == len(expected)          # more than the table's one page
    assert found["co2_cost"].tolist() == sorted(expected["co2_cost"])
    assert set(found["id"]) == set(expected["id"])


def test_an_id_cell_is_one_line_with_the_full_escaped_name_as_its_title():
    """ui/common/table_ids: the cell carries the class the stylesheet cuts to one line and
    the full name (escaped, quotes too) in its title."""
    name = 'org/"quoted" <model>\nwith a break & more'
    cell = id_cell_html(name, "<code>x</code>")
    assert cell == (f'<td class="{ID_CLASS}" title="org/&quot;quoted&quot; &lt;model&gt; with a '
                    'break &amp; more"><code>x</code></td>')
    tips = id_tooltips([{"id": "a" * 25, "n": 1}, {"id": "short"}], "id",
                       tooltips=[{"n": {"value": "why", "type": "text"}}, {}])
    assert tips == [{"n": {"value": "why", "type": "text"}, "id": {"value": "a" * 25, "type": "text"}},
                    {}]


class _Titles(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.cells: list[tuple[str, str]] = []       # (class, title) of every td

    def handle_starttag(self, tag, attrs):
        if tag == "td":
            found = dict(attrs)
            self.cells.append((found.get("class") or "", found.get("title") or ""))


def test_the_html_pages_id_cells_carry_the_full_name_as_title():
    frame = _frame()
    frame.loc[1, "id"] = 'org/a-very-long-model-name "v2" <instruct>'
    columns = [{"name": "rank", "id": "rank", "type": "numeric"},
               {"name": "id", "id": "id", "type": "text"}]
    parser = _Titles()
    parser.feed(panels.table_html(frame, columns))
    ids = [title for cls, title in parser.cells if cls == ID_CLASS]
    assert ids == [str(v) for v in frame["id"]]            # read back exactly, quotes and all
    assert [cls for cls, _ in parser.cells[::2]] == ["n"] * len(frame)


def test_on_the_front_column_marks_exactly_the_non_dominated_rows_in_table_and_csv():
    """Issue 33: the ranked table and its CSV say which rows are on the Pareto front; checked
    against a brute-force dominance test over the rows passing the constraints."""


    from copa_dash.ui.features.explore import callbacks
    from copa_dash.ui.features.explore.state import to_query

    state, result = _explore()
    query = to_query(state)
    problem = result.problem
    signs = np.array([1.0 if d == "min" else -1.0 for d in problem.preferences.directions])
    eligible = np.flatnonzero(problem.eligible)
    values = problem.raw[eligible] * signs
    brute = set()
    for k, row in enumerate(values):
        dominated = np.any(np.all(values <= row, axis=1) & np.any(values < row, axis=1))
        if not dominated:
            brute.add(str(problem.ids[eligible[k]]))
    frame, columns = panels.table_frame(result)
    assert [c["name"] for c in columns][:3] == ["rank", "id", "on the front"]
    assert set(frame.loc[frame["front"], "id"]) == brute and 0 < len(brute) < len(frame)
    csv = callbacks.ranked_frame(query)
    assert set(csv.loc[csv["on the front"], "id"]) == brute
    text = panels.table_html(frame.head(5), columns)
    assert "<th>on the front</th>" in text


def test_the_focus_objectives_come_first_so_they_stay_on_screen_in_a_wide_table():
    state, result = _explore(focus=("musr",))
    frame, specs = panels.table_frame(result, slice(0, 3))
    names = [c["name"] for c in specs if c["id"].startswith("obj")]
    assert names[0] == "musr"
    assert sorted(names) == sorted(state.objective_names)
    # the column still holds that objective's values (by its own index, not its place)
    k = list(result.problem.preferences.objectives).index("musr")
    np.testing.assert_allclose(frame[f"obj{k}"], result.problem.raw[result.ranking[:3], k].round(6))
    # the names as read: a <wbr> marks where a header may wrap (co2_<wbr>cost), no text
    header = panels.table_html(frame, specs).split("</thead>")[0].replace("<wbr>", "")
    assert header.index("musr") < min(header.index(n) for n in names[1:])


def test_ids_that_differ_only_at_the_end_are_told_apart_in_the_page():
    """Rows named "model · config" (the llm-perf export) differ at the end: the CSS cut at the
    column's edge showed "Deci/DeciLM-7B · 8bi…" twice. Each shown id now keeps its head, its
    tail and the stretch that tells it from the other rows, and the cell's title the whole."""
    names = ["Deci/DeciLM-7B · 8bit-bnb-fa2", "Deci/DeciLM-7B · 8bit-bnb-eager",
             "mistralai/Mistral-7B-Instruct-v0.2 · 4bit-awq-exllama",
             "mistralai/Mistral-7B-Instruct-v0.2 · 4bit-awq-gemm", "phi-2"]
    frame = _frame().assign(id=names)
    columns = [{"name": "rank", "id": "rank", "type": "numeric"},
               {"name": "id", "id": "id", "type": "text"}]
    html = panels.table_html(frame, columns)
    shown = [row[1] for row in html_cells.read(html).rows[1:]]
    assert len(set(shown)) == len(names)
    assert shown[-1] == "phi-2"
    for label, name in zip(shown, names):
        assert len(label) <= panels.ID_LABEL_CHARS + 4
        head, *_, tail = label.split("…") if "…" in label else (label, label)
        assert name.startswith(head) and name.endswith(tail)
    parser = _Titles()
    parser.feed(html)
    assert [title for cls, title in parser.cells if cls == ID_CLASS] == names
