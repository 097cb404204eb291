"""services.posets: long table -> task posets -> ufg depth, the views' data, the cache."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from copa_dash.core.errors import InvalidInputError
from copa_dash.core.posets import task_posets, ufg_depth
from copa_dash.services import posets
from copa_dash.services.cache import AnalysisCache, DiskBackend
from copa_dash.services.catalog import open_dataset

# Example B.2 of the paper as a long table (two criteria, both minimised):
# task p1: Momentum above SGD, Adam incomparable to both; p2: Adam above SGD, Momentum
# incomparable to both; p3: Adam > SGD > Momentum. Depths 2/3, 1, 2/3 (core doctest).
B2 = [("SGD", "p1", 2, 2), ("Momentum", "p1", 1, 1), ("Adam", "p1", 0, 3),
      ("SGD", "p2", 2, 2), ("Momentum", "p2", 0, 3), ("Adam", "p2", 1, 1),
      ("SGD", "p3", 2, 2), ("Momentum", "p3", 3, 3), ("Adam", "p3", 1, 1)]
CRITERIA = (("a", "min"), ("b", "min"))


def _frame(rows=B2) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["opt", "prob", "a", "b"])


def _view(frame, **options) -> posets.DepthView:
    data = posets.poset_table(frame, method="opt", task="prob", criteria=CRITERIA)
    return posets.compute_depth_view(data, **options)


def test_example_b2_depths_names_and_extremes():
    view = _view(_frame())
    assert view.methods == ("SGD", "Momentum", "Adam") and view.tasks == ("p1", "p2", "p3")
    assert view.depths.round(6).tolist() == [round(2 / 3, 6), 1.0, round(2 / 3, 6)]
    assert view.n_ufg_sets == 3 and view.exact and view.error_bound == 0
    assert posets.depth_records(view)[1] == {"task": "p2", "depth": 1.0}
    assert posets.extreme_tasks(view) == (("p2",), ("p1", "p3"))
    assert [view.tasks[i] for i in posets.depth_order(view)] == ["p2", "p1", "p3"]
    # p3: Adam (2) above SGD (0) above Momentum (1)
    assert view.relations[2].astype(int).tolist() == [[0, 1, 0], [0, 0, 0], [1, 1, 0]]


@pytest.mark.parametrize("seed", range(6))
def test_matches_the_core_on_random_long_tables_in_any_row_order(seed):
    rng = np.random.default_rng(seed)
    n_methods, n_tasks = int(rng.integers(3, 6)), int(rng.integers(3, 9))
    rows = [(f"m{m}", f"t{t}", float(rng.integers(0, 4)), float(rng.integers(0, 4)))
            for t in range(n_tasks) for m in range(n_methods)]
    frame = _frame(rows)
    view = _view(frame, ties="incomparable")
    values = frame[["a", "b"]].to_numpy()
    tp = task_posets(values, method_index=np.tile(np.arange(n_methods), n_tasks),
                     task_index=np.repeat(np.arange(n_tasks), n_methods), ties="incomparable")
    expected = ufg_depth(tp.relations).observed_depths
    np.testing.assert_allclose(view.depths, expected, atol=1e-12)
    shuffled = _view(frame.sample(frac=1.0, random_state=seed), ties="incomparable")
    by_task = dict(zip(shuffled.tasks, shuffled.depths))
    order = [shuffled.methods.index(m) for m in view.methods]
    for t, task in enumerate(view.tasks):
        assert by_task[task] == pytest.approx(view.depths[t], abs=1e-12)
        rel = shuffled.relations[shuffled.tasks.index(task)][np.ix_(order, order)]
        assert (rel == view.relations[t]).all()


def test_flipping_a_direction_equals_negating_the_column():
    frame = _frame()
    flipped = frame.assign(b=-frame["b"])
    data = posets.poset_table(flipped, method="opt", task="prob",
                              criteria=(("a", "min"), ("b", "max")))
    np.testing.assert_allclose(posets.compute_depth_view(data).depths, _view(frame).depths)


def test_tied_tasks_are_flagged_then_dropped_or_kept_incomparable():
    rows = B2 + [("SGD", "p4", 1, 1), ("Momentum", "p4", 1, 1), ("Adam", "p4", 0, 0)]
    dropped = _view(_frame(rows))
    assert dropped.tasks == ("p1", "p2", "p3")
    assert dropped.tied_tasks == ("p4",) and dropped.tied_pairs == (("p4", "SGD", "Momentum"),)
    assert dropped.dropped == (("p4", "methods equal on every criterion (tie)"),)
    kept = _view(_frame(rows), ties="incomparable")
    assert kept.tasks == ("p1", "p2", "p3", "p4") and kept.dropped == ()
    p4 = kept.relations[3]
    assert not p4[0, 1] and not p4[1, 0] and p4[2, 0] and p4[2, 1]
    assert any("incomparable" in n for n in kept.notes)


def test_missing_values_drop_the_task_or_count_as_worst():
    rows = [r if r[:2] != ("Adam", "p3") else ("Adam", "p3", np.nan, 1) for r in B2]
    dropped = _view(_frame(rows))
    assert dropped.tasks == ("p1", "p2")
    assert dropped.dropped == (("p3", "missing values for Adam"),)
    assert "1 of 3 tasks are left out" in dropped.notes[0]
    worst = _view(_frame(rows), missing="worst")
    # Adam is now worse than everyone on a: SGD (2, 2) and Momentum (3, 3) are incomparable to it
    assert worst.tasks == ("p1", "p2", "p3")
    assert worst.relations[2].astype(int).tolist() == [[0, 1, 0], [0, 0, 0], [0, 0, 0]]
    no_row = _view(_frame([r for r in B2 if r[:2] != ("SGD", "p2")]))
    assert no_row.dropped == (("p2", "no row for SGD"),)


def test_repeated_rows_are_averaged():
    rows = B2 + [("SGD", "p1", 4, 4)]   # SGD on p1: mean (3, 3), now below Adam (0, 3) too
    data = posets.poset_table(_frame(rows), method="opt", task="prob", criteria=CRITERIA)
    assert data.values[0, 0].tolist() == [3.0, 3.0]
    assert "1 (method, task) pairs have several rows" in data.notes[0]
    view = posets.compute_depth_view(data)
    assert view.relations[0].astype(int).tolist() == [[0, 0, 0], [1, 0, 0], [1, 0, 0]]


@pytest.mark.parametrize("kwargs, message", [
    ({"criteria": ()}, "at least one criterion"),
    ({"criteria": (("a", "up"),)}, "must be min or max"),
    ({"criteria": (("zz", "min"),)}, "'zz' is not in the table"),
    ({"criteria": (("a", "min"), ("a", "max"))}, "once"),
    ({"method": "prob", "task": "prob"}, "must all differ"),
    ({"criteria": (("opt", "min"),)}, "must all differ"),
])
def test_bad_inputs_name_the_problem(kwargs, message):
    args = {"method": "opt", "task": "prob", "criteria": CRITERIA, **kwargs}
    with pytest.raises(InvalidInputError, match=message):
        posets.poset_table(_frame(), **args)
    with pytest.raises(InvalidInputError, match="at least 2 methods"):
        posets.poset_table(_frame()[_frame()["opt"] == "SGD"], method="opt", task="prob",
                           criteria=CRITERIA)


def test_text_criterion_and_options_are_rejected():
    frame = _frame().astype({"a": object})
    frame.loc[4, "a"] = "fast"
    with pytest.raises(InvalidInputError, match="row 4 holds 'fast'"):
        posets.poset_table(frame, method="opt", task="prob", criteria=CRITERIA)
    data = posets.poset_table(_frame(), method="opt", task="prob", criteria=CRITERIA)
    with pytest.raises(InvalidInputError, match="'ties'"):
        posets.compute_depth_view(data, ties="keep")
    with pytest.raises(InvalidInputError, match="'missing'"):
        posets.compute_depth_view(data, missing="zero")


def test_hasse_layout_puts_better_methods_above_and_keeps_only_covers():
    view = _view(_frame())
    chain = posets.hasse_layout(view, view.relations[2])   # Adam > SGD > Momentum
    assert chain.level == (1, 2, 0)
    assert set(chain.edges) == {(2, 0), (0, 1)}             # not the implied (2, 1)
    p1 = posets.hasse_layout(view, view.relations[0])       # Momentum > SGD, Adam apart
    assert p1.level == (1, 0, 0) and p1.edges == ((1, 0),)
    assert sorted(p1.x[i] for i in (1, 2)) == [-0.5, 0.5]   # two at the top, centred


def test_hasse_level_is_the_longest_chain_above():
    # 0 > 1 > 2 > 3 and 0 > 3 directly-implied; 4 only below 0: level 1, 3 at level 3
    rel = np.zeros((5, 5), dtype=bool)
    for i, j in [(0, 1), (1, 2), (2, 3), (0, 2), (0, 3), (1, 3), (0, 4)]:
        rel[i, j] = True
    view = _view(_frame())
    layout = posets.hasse_layout(view, rel)
    assert layout.level == (0, 1, 2, 3, 1)
    assert set(layout.edges) == {(0, 1), (1, 2), (2, 3), (0, 4)}


def test_beats_and_agreement():
    view = _view(_frame())
    beats = posets.beats(view)
    # SGD above Momentum on p3; Momentum above SGD on p1; Adam above SGD on p2, p3 ...
    assert beats.tolist() == [[0, 1, 0], [1, 0, 0], [2, 1, 0]]
    one = posets.agreement(view, k=1)
    assert one.tasks == (("p2",),) and one.above == (("Adam", "SGD"),)
    assert set(one.incomparable) == {("SGD", "Momentum"), ("Momentum", "Adam")}
    three = posets.agreement(view, k=99)                   # clipped to the 3 posets
    assert three.k == 3 and three.above == () and three.undecided == 3


def test_depth_view_is_memoised_per_dataset(tmp_path):
    opened = open_dataset("deepobs")
    cache = AnalysisCache(DiskBackend(tmp_path, size_limit=2**26))
    criteria = posets.default_criteria(opened.table, opened.default_view)
    assert criteria == (("loss_rank", "min"), ("speed", "min"))
    first = posets.depth_view(opened.table, criteria=criteria, dataset_id=opened.cache_id,
                              cache=cache)
    again = posets.depth_view(opened.table, criteria=criteria, dataset_id=opened.cache_id,
                              cache=cache, progress=lambda f: None)
    assert (cache.hits, cache.misses) == (1, 1)
    np.testing.assert_array_equal(first.depths, again.depths)
    posets.depth_view(opened.table, criteria=criteria, ties="incomparable",
                      dataset_id=opened.cache_id, cache=cache)
    assert cache.misses == 2
    cache.close()


@pytest.mark.parametrize("name, n_methods, n_tasks", [("deepobs", 3, 8), ("dmop", 7, 13),
                                                      ("bbob", 7, 19)])
def test_bundled_benchmarks(name, n_methods, n_tasks):
    opened = open_dataset(name)
    view = posets.depth_view(opened.table,
                             criteria=posets.default_criteria(opened.table, opened.default_view))
    assert len(view.methods) == n_methods and len(view.tasks) == n_tasks
    assert view.exact and view.n_ufg_sets > 0
    assert ((view.depths > 0) & (view.depths <= 1)).all()


def test_a_table_without_roles_needs_the_columns():
    opened = open_dataset("deepobs")
    with pytest.raises(InvalidInputError, match="'nope' is not in the table"):
        posets.long_columns(opened.table, method="nope")
    assert posets.long_columns(opened.table) == ("optimizer", "problem")


def test_docstring_examples():
    import doctest

    result = doctest.testmod(posets, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 4 and result.failed == 0


def test_a_method_column_with_one_method_per_task_gets_a_short_message():
    """Every model a method and a task of its own (Posets on a leaderboard with ``model`` as
    the method column): each task lacks all but one method. The message named every absent
    method of every task, 300 MB on the Open LLM leaderboard, and the browser tab showing it
    crashed; it names 3 tasks and 5 methods of each, then counts the rest."""
    n = 400
    frame = _frame([(f"m{i:03d}", f"t{i:03d}", float(i), float(-i)) for i in range(n)])
    with pytest.raises(InvalidInputError) as caught:
        _view(frame)
    message = str(caught.value)
    assert len(message) < 1_000, len(message)
    # t000 lacks m001..m399: five named, 394 counted; 397 tasks beyond the three named
    assert "t000: no row for m001, m002, m003, m004, m005 and 394 more" in message
    assert f"and {n - 3} more tasks" in message
    assert "each method has a row on each task" in message


def test_the_note_on_left_out_tasks_names_a_few_and_counts_the_rest():
    # p1-p3 keep the three methods; 40 more tasks have SGD only
    rows = B2 + [("SGD", f"q{i:02d}", 1, 1) for i in range(40)]
    view = _view(_frame(rows))
    assert view.tasks == ("p1", "p2", "p3")
    note = next(n for n in view.notes if "tasks are left out" in n)
    assert note.startswith("40 of 43 tasks are left out: q00 (no row for Momentum, Adam)")
    assert note.endswith("and 35 more.") and len(note) < 500
