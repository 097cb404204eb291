"""F22: the parallel-coordinates axes of HELM's calibration table could not be told apart
(every rotated name read "ECE (10-bin)"); the labels now keep the task, the title the metric."""

from __future__ import annotations

from copa_dash.data.filters import RowFilter
from copa_dash.services.catalog import OpenedDataset
from copa_dash.services.explorer import explore
from copa_dash.services.selection import Preferences
from copa_dash.ui.features.explore import figures
from copa_dash.ui.features.explore.axis_names import distinct_labels
from tests.services.test_default_view import _upload


def test_helm_axes_are_named_by_their_task():
    table = _upload("helm_classic_calibration.tsv")
    opened = OpenedDataset(ref="helm", cache_id="helm-cal", table=table, title="HELM",
                           description="", source="", licence="", default_view=None,
                           kind="uploaded")
    names = table.objective_names
    result = explore(opened, Preferences(objectives=names, directions=table.directions,
                                         focus=("Mean win rate",)), RowFilter())
    figure = figures.parallel_figure(result)
    trace = figure["data"][0]
    # labels are wrapped (<br>), at a space or inside a long word: compared without either
    axes = [a.replace("<br>", "").replace(" ", "") for a in trace["x"][:trace["x"].index(None)]]
    assert len(set(axes)) == len(axes) == len(names)
    # independent: the task is the name before " - ", as HELM writes it
    tasks = [n.replace(" ", "") for n in ["Mean win rate"] + [n.split(" - ")[0] for n in names[1:]]]

    def names_it(label, task):      # whole, or shortened as head ... tail (full name in hover)
        head, cut, tail = label.partition("…")
        return label == task or (cut and task.startswith(head) and task.endswith(tail))

    assert all(names_it(a, t) for a, t in zip(axes, tasks, strict=True)), (axes, tasks)
    (note,) = figure["layout"]["annotations"]
    assert note["text"] == "MMLU ... RAFT: each the task's ECE (10-bin)"


def test_labels_stay_whole_when_stripping_would_merge_two():
    names = ["IMDB - ECE", "IMDB - EM", "RAFT - ECE", "RAFT - EM"]
    assert distinct_labels(names) == (names, "")
    assert distinct_labels(["a - x", "b - y"]) == (["a - x", "b - y"], "")
