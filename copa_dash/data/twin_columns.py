"""Columns that are not separate goals: a raw score beside its normalised twin, popularity.

* A leaderboard often prints each benchmark twice: ``IFEval Raw`` (the raw accuracy) and
  ``IFEval`` (the same result rescaled, on the Open LLM Leaderboard v2 so that the random
  baseline is 0 and the best 100). They are one measure; proposing both counts that
  benchmark twice, and a short set could then keep one benchmark's two columns and leave
  another benchmark out. A column whose name ends (or starts) with ``raw`` and whose stem is
  another numeric column's name (alone or with ``normalized``, ``norm``, ``scaled``) is a
  raw twin: the proposal keeps the normalised column of every pair - one kind for every
  benchmark - and leaves the raw one as metadata, saying so. Normalised is the kind kept
  because it is what such a leaderboard ranks and averages on, and rescaled scores put
  benchmarks with different chance levels on one scale. This is a guess, said in the notes.
* A column rescaled task by task (AMLB's ``loss_rescaled``: 0 for the best framework on
  each dataset, 1 for the worst; ``time_train_s_rescaled``: the time over the task's
  fastest) is its source seen another way: within every task it orders the rows as the
  source does, and its best value is the same in every task while the source's is not. The
  name rule above cannot see it (the map changes from task to task, so across the whole
  table the two disagree) and proposing both counts one measure twice: the rescaled column
  is left as metadata, its source named (:func:`task_twins`).
* ``Generation`` (how many fine-tunes or merges a model is from its base) is lineage,
  not a result: metadata too.
* Popularity (``Hub ❤️``, ``likes``, ``downloads``, ``stars``) says how many people
  noticed a system, not how well it did: it is proposed as metadata, never an objective
  the user did not ask for (they can make it one on the upload page).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from .front_words import objective_argument
from .role_guess import _words
from .task_columns import is_rank_within_tasks

RAW_WORDS = frozenset({"raw"})
NORMALISED_WORDS = frozenset({"normalized", "normalised", "norm", "normed", "scaled"})
POPULARITY_WORDS = frozenset({"likes", "like", "hearts", "heart", "downloads", "download",
                              "stars", "favorites", "favourites", "followers", "upvotes"})
POPULARITY_SIGNS = ("❤", "♥", "⭐", "★", "👍")
LINEAGE_NAMES = frozenset({"generation"})  # Open LLM: fine-tunes or merges from a base model


def _stem(column: str, markers: frozenset) -> tuple[str, bool]:
    """``column``'s words without a leading or trailing marker, and whether it had one."""
    words = _words(column, joined=False)
    if len(words) > 1 and words[-1] in markers:
        return "_".join(words[:-1]), True
    if len(words) > 1 and words[0] in markers:
        return "_".join(words[1:]), True
    return "_".join(words), False


def raw_twins(names: list[str]) -> dict[str, str]:
    """``{raw column: its normalised twin}`` among ``names``.

    Examples
    --------
    >>> raw_twins(["IFEval Raw", "IFEval", "BBH Raw", "BBH", "MUSR", "acc_raw"])
    {'IFEval Raw': 'IFEval', 'BBH Raw': 'BBH'}
    >>> raw_twins(["mmlu_raw", "mmlu_normalized", "time_s"])
    {'mmlu_raw': 'mmlu_normalized'}
    """
    plain = {}
    for name in names:
        stem, marked = _stem(name, NORMALISED_WORDS)
        if stem and not _stem(name, RAW_WORDS)[1]:
            plain.setdefault(stem, name)
    out = {}
    for name in names:
        stem, marked = _stem(name, RAW_WORDS)
        if marked and stem in plain:
            out[name] = plain[stem]
    return out


#: tasks with three or more rows a twin must be checked on: two rows are ordered either way
MIN_TASKS = 3


def _anchored(values: np.ndarray, keys: np.ndarray) -> bool:
    """Whether the per-task minimum, or the per-task maximum, is the same in every task."""
    frame = pd.DataFrame({"k": keys, "v": values})
    grouped = frame.groupby("k", sort=False)["v"]
    return any(np.ptp(ends) <= 1e-9 * max(1.0, float(np.abs(ends).max()))
               for ends in (grouped.min().to_numpy(), grouped.max().to_numpy()))


def _same_order(derived: np.ndarray, source: np.ndarray, keys: np.ndarray) -> bool:
    """Whether ``derived`` orders the rows of every task as ``source`` does (or the reverse,
    the same way in every task), on at least :data:`MIN_TASKS` tasks of three rows or more."""
    order = np.lexsort((source, keys))
    k, s, d = keys[order], source[order], derived[order]
    same_task = k[1:] == k[:-1]
    steps = same_task & (s[1:] != s[:-1])        # ties in the source say nothing
    change = np.sign(d[1:] - d[:-1])[steps]
    if not (np.all(change >= 0) or np.all(change <= 0)) or not change.any():
        return False
    _, sizes = np.unique(keys, return_counts=True)
    return int((sizes >= 3).sum()) >= MIN_TASKS


def task_twins(frame: pd.DataFrame, task: str | None, names) -> dict[str, str]:
    """``{rescaled column: its source}`` among the numeric columns ``names``: within every
    value of ``task`` the rescaled column orders the rows as its source does, and its best
    (smallest or largest) value is the same in every task while the source's differs.

    Examples
    --------
    >>> f = pd.DataFrame({"task": list("aaabbbccc"),
    ...                   "error": [.1, .2, .4, 3, 1, 2, 50, 70, 60],
    ...                   "error_rescaled": [0, .33, 1, 1, 0, .5, 0, 1, .5],
    ...                   "time": [5, 1, 2, 8, 9, 3, 4, 4, 6]})
    >>> task_twins(f, "task", ["error", "error_rescaled", "time"])
    {'error_rescaled': 'error'}
    """
    if task is None or task not in frame.columns:
        return {}
    names = [n for n in names if n in frame.columns and n != task]
    keys = frame[task].astype("string").fillna("").to_numpy()
    values = {n: pd.to_numeric(frame[n], errors="coerce").to_numpy(dtype=np.float64)
              for n in names}
    values = {n: np.where(np.isfinite(v), v, np.nan) for n, v in values.items()}  # BBOB's Inf
    anchored = {n: _anchored(v[~np.isnan(v)], keys[~np.isnan(v)]) for n, v in values.items()
                if (~np.isnan(v)).sum() >= 3}
    out = {}
    for name in (n for n, yes in anchored.items() if yes):
        for source in (n for n, yes in anchored.items() if not yes):
            both = ~np.isnan(values[name]) & ~np.isnan(values[source])
            if _same_order(values[name][both], values[source][both], keys[both]):
                out[name] = source
                break
    return out


def drop_task_twins(frame: pd.DataFrame, task: str | None, guesses: list,
                    notes: list[str]) -> list:
    """``guesses`` with each column rescaled task by task from another objective
    (:func:`task_twins`) left as metadata, its reason naming the source; one note (appended
    to ``notes``) for them all, the one the upload page, ``copa-dash select`` and the
    notebook show."""
    objectives = [g.name for g in guesses if g.role == "objective" and g.source is None]
    twins = task_twins(frame, task, objectives)
    if not twins:
        return guesses
    out = [replace(g, role="metadata", confidence="likely", reason=task_twin_reason(
        twins[g.name], task)) if g.name in twins else g for g in guesses]
    notes.append(task_twins_note(twins, task, {g.name: g.direction for g in guesses}))
    return out


def left_out_twins_note(frame: pd.DataFrame, task: str | None, objectives) -> str:
    """:func:`task_twins_note` for a built table: the columns of ``frame`` rescaled task by
    task from one of ``objectives`` (Objective) and not objectives themselves ("" when none);
    the notebook's words for what its guess left out, as the page and the CLI say them."""
    chosen = {o.name: o.direction for o in objectives}
    numeric = [c for c in frame.columns if c != task and c not in chosen
               and pd.api.types.is_numeric_dtype(frame[c])
               and not is_rank_within_tasks(frame, task, c)]   # said apart (task_columns)
    twins = {d: s for d, s in task_twins(frame, task, [*chosen, *numeric]).items()
             if d not in chosen and s in chosen}
    if not twins:
        return ""
    return task_twins_note(twins, task, {d: chosen[s] for d, s in twins.items()})


def task_twin_reason(source: str, task: str) -> str:
    """Why one rescaled column is metadata, and how to bring it back (the role box's words)."""
    return (f"derived from {source!r}: rescaled within each {task!r}, it orders every task's "
            "rows as that column does, so it is the same measure (make it an objective to "
            "use it instead)")


def _listed(names) -> str:
    """``'a'``, ``'a' and 'b'``, ``'a', 'b' and 'c'``."""
    quoted = [repr(n) for n in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def task_twins_note(twins: dict[str, str], task: str, directions: dict | None = None) -> str:
    """The one note on the columns rescaled task by task that a proposal leaves out, saying
    how each front end brings one back (``directions``: each rescaled column's guessed
    direction, for the flag to pass).

    >>> print(task_twins_note({"loss_rescaled": "metric_error"}, "dataset", {"loss_rescaled": "min"}))
    Rescaled within each 'dataset' from another column, so one measure with it (it orders every task's rows as its source does, with the same best value in every task): 'loss_rescaled' from 'metric_error'. Only the source is proposed as an objective, the rescaled column stays as metadata; to use it instead, make it an objective (upload page: its role; copa-dash: --objective 'loss_rescaled:min'; notebook: objectives=['loss_rescaled:min', ...]).
    """
    by_source: dict[str, list[str]] = {}
    for derived, source in twins.items():
        by_source.setdefault(source, []).append(derived)
    shown = list(by_source.items())[:6]
    pairs = "; ".join(f"{_listed(ds)} from {s!r}" for s, ds in shown)
    one = len(twins) == 1
    first = next(iter(twins))
    direction = (directions or {}).get(first) or "DIR"
    return (f"Rescaled within each {task!r} from another column, so one measure with it (it "
            "orders every task's rows as its source does, with the same best value in every "
            f"task): {pairs}{' ...' if len(by_source) > 6 else ''}. Only "
            f"{'the source is' if len(by_source) == 1 else 'the sources are'} proposed as "
            f"{'an objective' if len(by_source) == 1 else 'objectives'}, the rescaled "
            f"column{' stays' if one else 's stay'} as metadata; to use "
            f"{'it' if one else 'one'} instead, make it an objective (upload page: its role; "
            f"copa-dash: {objective_argument(first, 'cli', direction)}; notebook: "
            f"objectives=[{objective_argument(first, 'notebook', direction)}, ...]).")


def is_popularity(column: str) -> bool:
    """True when ``column`` counts likes, downloads or stars (a hub's ``❤️``).

    Examples
    --------
    >>> is_popularity("Hub ❤️"), is_popularity("hub_likes"), is_popularity("likelihood")
    (True, True, False)
    """
    if any(sign in str(column) for sign in POPULARITY_SIGNS):
        return True
    return any(w in POPULARITY_WORDS for w in _words(column, joined=False))


def lineage(column: str) -> bool:
    """True when the whole name says how far a model is from its base (``Generation``).

    Examples
    --------
    >>> lineage("Generation"), lineage("generation_time")
    (True, False)
    """
    return "_".join(_words(column, joined=False)) in LINEAGE_NAMES


def drop_twins(guesses: list, notes: list[str]) -> list:
    """``guesses`` with each raw twin of a normalised objective left as metadata, noted.

    Parameters
    ----------
    guesses : list of ColumnGuess
        As :func:`copa_dash.data.proposal.propose` builds them.
    notes : list of str
        Gets one sentence naming the pairs and what was kept (appended in place).

    Returns
    -------
    list of ColumnGuess
    """
    objectives = [g.name for g in guesses if g.role == "objective" and g.source is None]
    twins = raw_twins(objectives)
    if not twins:
        return guesses
    out = [replace(g, role="metadata", confidence="likely", reason=(
        f"the raw score of {twins[g.name]!r}, the same measure: the normalised one is "
        "proposed for every benchmark (make this one an objective to use raw scores)"))
        if g.name in twins and g.role == "objective" else g for g in guesses]
    shown = ", ".join(f"{raw!r}/{kept!r}" for raw, kept in list(twins.items())[:6])
    notes.append(f"{len(twins)} benchmark{'s are' if len(twins) > 1 else ' is'} given twice, "
                 f"raw and normalised ({shown}{' ...' if len(twins) > 6 else ''}): one "
                 "measure each, so only the normalised column is proposed for every one (a "
                 "guess: it is the kind such leaderboards rank and average on, and it puts "
                 "benchmarks with different chance levels on one scale); the raw columns "
                 "stay as metadata.")
    return out


def popularity_note(guesses) -> list[str]:
    """The note naming the popularity columns the proposal left as metadata."""
    names = [g.name for g in guesses if g.role == "metadata" and is_popularity(g.name)
             and g.reason.startswith("popularity")]
    if not names:
        return []
    note = (f"{', '.join(map(repr, names[:4]))} count{'s' if len(names) == 1 else ''} "
            "popularity (likes, downloads), not how well a system did: left as metadata "
            "(make it an objective if you want to weigh it).")
    return [note]


__all__ = ["drop_task_twins", "drop_twins", "is_popularity", "left_out_twins_note", "lineage",
           "popularity_note",
           "raw_twins", "task_twin_reason", "task_twins", "task_twins_note"]
