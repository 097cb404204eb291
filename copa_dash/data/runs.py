"""Runs or configurations, and runs of a system averaged into one row per system.

Repeated names are *runs* of one system only when nothing but a seed/run/fold column (or
nothing) varies within a name; when a setting varies within a name (a batch size, search
parameters, a quantisation variant, a framework), each row is a *configuration* of that
system (``system`` + ``config``) and is never averaged (:func:`repeat_kind`).

A table with one row per run (``system`` + ``seed``) can be analysed as it is (the systems
page compares systems over their runs) or, when the user asks, with one row per system:
each objective is the mean of the system's runs (missing values left out), a column that
is constant within every system is kept, and a column that varies (seed, run id, ...) is
dropped. The number of runs is kept in a column ``runs``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..core.errors import InvalidInputError
from .cell_parsing import id_values
from .role_guess import _ROLE_NAMES
from .schema import Roles
from .vocabulary import header_words, word_lists

# The word lists are in vocabulary.toml, [runs]: columns that set up a run rather than
# measure it, short names that are settings only as the whole name, and columns that vary from
# run to run without setting anything up.
_WORDS = word_lists("runs")
SETTING_WORDS = _WORDS["setting_columns"]
_SHORT_SETTINGS = _WORDS["short_settings"]
_RUN_LOG_WORDS = _WORDS["run_log_columns"]


@dataclass(frozen=True)
class RepeatKind:
    """What repeated names are: ``runs`` of a system, or ``configurations`` of it.

    ``settings`` are the columns that vary within a name and set a run up (empty for runs);
    ``example`` is a name with its rows' values of the first setting, for the note.
    """

    kind: str
    settings: tuple[str, ...] = ()
    example: tuple[str, tuple[str, ...]] | None = None

    @property
    def configurations(self) -> bool:
        """True when each row is a configuration (never averaged)."""
        return self.kind == "configurations"

    def note(self, name_column: str) -> str:
        """The sentence saying why the rows are configurations (empty for runs)."""
        if not self.configurations:
            return ""
        shown = ", ".join(map(repr, self.settings[:4])) + (" ..." if len(self.settings) > 4
                                                           else "")
        example = ""
        if self.example is not None:
            name, values = self.example
            example = (f" ({name!r} has {', '.join(map(repr, values[:3]))}"
                       f"{' ...' if len(values) > 3 else ''})")
        return (f"{shown} {'varies' if len(self.settings) == 1 else 'vary'} within a name of "
                f"{name_column!r}{example}: each row is a configuration of its system, not a "
                "run, so rows are compared as they are and never averaged.")


def is_setting_column(frame: pd.DataFrame, column: str) -> bool:
    """Whether ``column`` can set a run up: text, yes/no, or numbers named like a setting
    (``batch_size``, ``ef_search``, ``bits``); never a seed, a timestamp, a link or a log,
    nor a task or a split (what is measured on, not how).

    Examples
    --------
    >>> f = pd.DataFrame({"batch_size": [1, 2], "latency": [0.1, 0.2], "url": ["a", "b"]})
    >>> [is_setting_column(f, c) for c in f.columns]
    [True, False, False]
    """
    words = header_words(column)
    tasks = set(_ROLE_NAMES["task"]) | set(_ROLE_NAMES["split"])
    if words and ("_".join(words) in tasks or words[-1] in tasks):
        return False  # what is measured on (a task, a split), not how a run is set up
    if any(w in _RUN_LOG_WORDS for w in words) and not any(w in SETTING_WORDS for w in words
                                                          if w not in ("run",)):
        return False
    series = frame[column]
    if pd.api.types.is_bool_dtype(series.dtype) or not pd.api.types.is_numeric_dtype(
            series.dtype):
        return not pd.api.types.is_datetime64_any_dtype(series.dtype) and not log_like(series)
    joined = "".join(words)
    if joined in _SHORT_SETTINGS or words[:1] == ["top"] and words[-1:] == ["k"]:
        return True
    return any(w in SETTING_WORDS - _SHORT_SETTINGS for w in words) or joined in SETTING_WORDS


_TIMESTAMP = r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}"


def log_like(series: pd.Series) -> bool:
    """Text no run is set up by: mostly empty with failure messages (AMLB's ``info``),
    or written as a timestamp (``2019-04-15T12:49:29``).

    Examples
    --------
    >>> log_like(pd.Series(["", "", "", "Error: found value outside of [0, 1]!"]))
    True
    >>> log_like(pd.Series(["2019-04-15T12:49:29", "2019-04-15T13:01:02"]))
    True
    >>> log_like(pd.Series(["int8", "fp16", "int8"]))
    False
    """
    text = series.astype("string").str.strip()
    present = text[text.fillna("").str.len() > 0]
    if not len(present):
        return False
    if 2 * len(present) < len(series) and present.str.contains(
            r"error|exception|fail|traceback|timeout", case=False).fillna(False).any():
        return True  # mostly empty, the rest failure messages (a sparse sweep is a setting)
    return bool(present.str.match(_TIMESTAMP).fillna(False).mean() > 0.9)


def repeat_kind(frame: pd.DataFrame, name_column: str, /, *,
                runs_columns: tuple[str, ...] = ()) -> RepeatKind:
    """Runs or configurations: what the rows sharing a name in ``name_column`` are.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table as read.
    name_column : str
        The column whose names repeat.
    runs_columns : tuple of str
        Columns that tell runs apart (seed, run, fold): they may vary within a name.

    Returns
    -------
    RepeatKind
        ``configurations`` with the varying setting columns when any setting column
        (:func:`is_setting_column`) takes two values within one name, else ``runs``.

    Notes
    -----
    O(N C) with a group-by per candidate column.

    Examples
    --------
    >>> f = pd.DataFrame({"m": ["a", "a", "b", "b"], "seed": [0, 1, 0, 1], "acc": [1, 2, 3, 4]})
    >>> repeat_kind(f, "m", runs_columns=("seed",)).kind
    'runs'
    >>> f["batch_size"] = [1, 2, 1, 2]
    >>> k = repeat_kind(f, "m", runs_columns=("seed",))
    >>> k.kind, k.settings, k.example
    ('configurations', ('batch_size',), ('a', ('1', '2')))
    """
    names = id_values(frame[name_column])
    repeated = names.duplicated(keep=False).to_numpy()
    if not repeated.any():
        return RepeatKind("runs")
    sub = frame.loc[repeated]
    keys = names[repeated]
    settings, example = [], None
    for column in frame.columns:
        if column == name_column or column in runs_columns or not is_setting_column(frame,
                                                                                      column):
            continue
        values = sub[column].astype("string").fillna("")
        counts = values.groupby(keys.to_numpy(), sort=False).nunique()
        if (counts > 1).any():
            settings.append(column)
            if example is None:
                first = counts.index[(counts > 1).to_numpy()][0]
                shown = values[(keys == first).to_numpy()]
                example = (str(first), tuple(dict.fromkeys(shown.tolist())))
    if settings:
        return RepeatKind("configurations", tuple(settings), example)
    return RepeatKind("runs")


def average_runs(frame: pd.DataFrame, roles: Roles, /) -> tuple[pd.DataFrame, Roles, str]:
    """One row per ``roles.system``: objectives averaged, constant columns kept.

    Returns
    -------
    (frame, roles, note)
        The averaged frame (system names as the id), its roles (no system or seed), and a
        sentence saying what was averaged and dropped.

    Raises
    ------
    InvalidInputError
        If ``roles`` has no system column, or a setting varies within a system (the rows are
        configurations, :func:`repeat_kind`): the column and a system's values are named.

    Examples
    --------
    >>> from copa_dash.data.schema import Objective
    >>> f = pd.DataFrame({"m": ["a", "a", "b"], "seed": [0, 1, 0], "acc": [0.5, 0.7, 0.9]})
    >>> out, r, _ = average_runs(f, Roles("row", (Objective("acc", "max"),), system="m",
    ...                                    seed="seed"))
    >>> out.to_dict("list"), r.id
    ({'m': ['a', 'b'], 'acc': [0.6, 0.9], 'runs': [2, 1]}, 'm')
    """
    if roles.system is None:
        raise InvalidInputError("averaging runs needs a system column: say which column "
                                "names the model of each run")
    kind = repeat_kind(frame, roles.system, runs_columns=tuple(
        c for c in (roles.seed, roles.id) if c is not None))
    if kind.configurations:
        name, values = kind.example
        raise InvalidInputError(
            f"the rows of {roles.system!r} are configurations, not runs: {kind.settings[0]!r} "
            f"varies within {name!r} ({', '.join(map(repr, values[:3]))}); averaging would mix "
            "different set-ups - keep one row per configuration, or filter to one value of "
            f"{kind.settings[0]!r} first")
    key = id_values(frame[roles.system])
    groups = frame.groupby(key, sort=False, dropna=False)
    objectives = list(roles.objective_names)
    out = {roles.system: list(groups.groups)}
    kept, dropped = [], []
    for column in frame.columns:
        if column == roles.system or column == roles.id and column not in frame.columns:
            continue
        if column in objectives:
            out[column] = groups[column].mean().to_numpy()
        elif column != roles.id and (groups[column].nunique(dropna=False) <= 1).all():
            out[column] = groups[column].first().to_numpy()
            kept.append(column)
        else:
            dropped.append(column)
    out["runs"] = groups.size().to_numpy()
    averaged = pd.DataFrame(out)
    new_roles = Roles(id=roles.system, objectives=roles.objectives,
                      **{r: getattr(roles, r) for r in ("task", "split", "config", "budget")
                         if getattr(roles, r) in kept},
                      metadata=tuple(m for m in (*roles.metadata, "runs") if m in averaged))
    shown = ", ".join(map(repr, [d for d in dropped if d != roles.id][:5]))
    note = (f"Averaged the runs: {len(frame)} rows -> {len(averaged)} systems, each objective "
            f"the mean over the system's runs (the column 'runs' counts them)"
            + (f"; dropped columns that vary within a system: {shown}" if shown else "") + ".")
    return averaged, new_roles, note
