"""Names on the parallel-coordinates axes that tell the axes apart.

HELM's per-task columns are ``<Task> - ECE (10-bin)``; rotated under the axes, the start of
each name ran off the figure and every axis read "ECE (10-bin)". When two or more shown axes
share the metric after the last `` - `` (:func:`~copa_dash.services.default_view.metric_of`),
their labels keep only the task and a line above the figure names the metric once.
"""

from __future__ import annotations

from collections import Counter

from copa_dash.services.default_view import metric_of

__all__ = ["distinct_labels"]


def distinct_labels(names) -> tuple[list[str], str]:
    """Axis labels for ``names`` and a title naming the metric left off them ("" if none).

    Examples
    --------
    >>> distinct_labels(["Mean win rate", "IMDB - ECE (10-bin)", "RAFT - ECE (10-bin)"])
    (['Mean win rate', 'IMDB', 'RAFT'], "IMDB, RAFT: each the task's ECE (10-bin)")
    >>> distinct_labels(["acc", "latency"])
    (['acc', 'latency'], '')
    """
    names = [str(n) for n in names]
    metrics = [metric_of(n) for n in names]
    counts = Counter(m for m in metrics if m is not None)
    shared = {m for m, k in counts.items() if k > 1}
    if not shared:
        return names, ""
    labels = [n.rsplit(" - ", 1)[0].strip() if m in shared else n
              for n, m in zip(names, metrics)]
    if len(set(labels)) < len(labels):   # two metrics of one task: keep the whole names
        return names, ""
    parts = []
    for metric in sorted(shared, key=lambda m: metrics.index(m)):
        full = next(n for n, m in zip(names, metrics) if m == metric).rsplit(" - ", 1)[1]
        tasks = [lab for lab, m in zip(labels, metrics) if m == metric]
        shown = ", ".join(tasks) if len(tasks) <= 3 else f"{tasks[0]} ... {tasks[-1]}"
        parts.append(f"{shown}: each the task's {full.strip()}")
    return labels, "; ".join(parts)
