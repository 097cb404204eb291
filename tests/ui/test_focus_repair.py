"""F8: unticking the focus objective and ticking it back restores the focus and the axes,
and while it is unticked the page says what moved (ui/features/explore/focus_repair)."""

from __future__ import annotations

from copa_dash.ui.features.explore.focus_repair import repair

MTEB = ["Model Size (GB)", "Embedding Dimensions", "Average (56 datasets)"]


def _untick(name, focus, x, y, memory=None, names=MTEB):
    return repair([n for n in names if n != name], focus, x, y, memory)


def test_ticking_the_focus_back_restores_focus_and_axes():
    start = (["Embedding Dimensions"], "Embedding Dimensions", "Model Size (GB)")
    focus, x, y, memory, note, _ = _untick("Embedding Dimensions", *start)
    assert (focus, x, y) == (["Model Size (GB)"], "Model Size (GB)", "Average (56 datasets)")
    assert note == ("'Embedding Dimensions' is unticked: the focus is on 'Model Size (GB)' and "
                    "the axes show 'Model Size (GB)' against 'Average (56 datasets)' until it is "
                    "ticked again.")
    focus, x, y, memory, note, _ = repair(MTEB, focus, x, y, memory)
    assert (focus, x, y) == start and note == ""


def test_a_choice_made_while_unticked_is_kept():
    focus, x, y, memory, _, _ = _untick("Embedding Dimensions", ["Embedding Dimensions"],
                                     "Embedding Dimensions", "Model Size (GB)")
    # the user then focuses the average themselves: ticking back must not undo that
    focus = ["Average (56 datasets)"]
    focus, x, y, memory, _note, _ = repair(MTEB, focus, x, y, memory)
    assert focus == ["Average (56 datasets)"]
    assert (x, y) == ("Embedding Dimensions", "Model Size (GB)")   # the axes were not touched


def test_unticking_another_objective_changes_nothing_and_says_nothing():
    focus, x, y, _memory, note, _ = _untick("Average (56 datasets)", ["Embedding Dimensions"],
                                        "Embedding Dimensions", "Model Size (GB)")
    assert (focus, x, y, note) == (["Embedding Dimensions"], "Embedding Dimensions",
                                   "Model Size (GB)", "")


def test_two_unticked_then_both_back():
    names = ["a", "b", "c", "d"]
    focus, x, y, memory, note, _ = repair(["b", "c", "d"], ["a"], "a", "b", None)
    focus, x, y, memory, note, _ = repair(["c", "d"], focus, x, y, memory)
    assert (focus, x, y) == (["c"], "c", "d") and "'a', 'b' are unticked" in note
    focus, x, y, memory, note, _ = repair(names, focus, x, y, memory)
    assert (focus, x, y, note) == (["a"], "a", "b", "")


def test_the_log_ticks_come_back_with_the_axes():
    focus, x, y, memory, _note, log = repair(["b", "c"], ["a"], "a", "b", None, ["x"])
    assert log is None          # the page unticks a log box it cannot apply; nothing to give
    focus, x, y, memory, _note, log = repair(["a", "b", "c"], focus, x, y, memory, [])
    assert (x, y, log) == ("a", "b", ["x"])
    # ticking an unrelated objective later gives nothing back
    assert repair(["a", "b", "c", "d"], focus, x, y, memory, [])[5] is None
