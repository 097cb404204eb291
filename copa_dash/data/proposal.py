"""The proposal a user accepts: each column's role, direction and unit, and how rows are named.

One function, :func:`propose`, shared by the upload page, the API and the CLI. Decisions:

* every numeric column is an objective unless it is never a goal
  (:func:`~copa_dash.data.column_kinds.never_goal`: a spread, kept as its metric's
  uncertainty; a count, a setting - the first varying one becomes ``config`` -, a flag, a
  time stamp, one value in every row) or it is taken by another role; when no direction can
  be guessed (:func:`~copa_dash.data.role_guess.direction_guess`, words from
  ``vocabulary.toml``) it is an objective with direction None, and the user is asked -
  never silently metadata; each guess says how sure it is (sure, likely, unsure);
* a fairness ratio (best at 1) or difference (best at 0) becomes a derived objective
  ``|1 - x|`` or ``|x|`` to minimise, and past 12 objectives a short set is proposed
  (:mod:`copa_dash.data.proposal_extras`);
* the id is a text column (or whole numbers named like an id) different in every row;
* when the name column repeats, the rows are runs of a system: it becomes ``system``;
  a seed/run/fold column that tells the runs apart becomes ``seed``, or another text
  column (an experiment, a configuration) ``config``; each row is then named
  ``name · seed 3`` (:func:`prepare_frame`);
* when only a few names repeat (not runs), the id stays the name column and the later
  copies are renamed ``name (2)`` - named in the notes, never a silent switch to row numbers.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from ..core.errors import InvalidInputError
from .aggregate_columns import direct_aggregates, double_count_notes, exact_means
from .cell_parsing import id_values, row_list
from .column_kinds import never_goal
from .fairness_values import target_from_values
from .proposal_copies import config_labels, copies_sentence
from .proposal_extras import (
    add_derived,
    derived_notes,
    fairness_target,
    infinite_objectives,
    mixed_direction,
    mixed_units,
    pair_uncertainties,
    shorten_wide,
    target_guesses,
    units_from_siblings,
)
from .readable_names import readable_name
from .role_guess import (
    _NO_DIRECTION,
    _ROLE_NAMES,
    ROW_ID_PREFIX,
    _is_id_name,
    _is_number_column,
    _is_text_column,
    _normal,
    _stems,
    _words,
    direction_guess,
    guess_id,
    row_id_name,
)
from .runs import log_like, repeat_kind
from .schema import SINGLE_ROLES, Objective, Roles
from .statistic_columns import direct_statistics
from .task_columns import RANK_REASON, is_rank_within_tasks, task_column, task_properties
from .twin_columns import drop_task_twins, drop_twins, is_popularity, lineage, popularity_note

ROLES = ("id", "objective", "system", "seed", "task", "split", "config", "budget", "metadata")
_SEED_NAMES = frozenset(_ROLE_NAMES["seed"]) | {"run", "run_id", "runid", "fold", "run_number",
                                                "repetition", "replication", "iteration"}
RUNS_SHARE = 0.5  # at least this share of rows in repeated names: the rows are runs


@dataclass(frozen=True)
class ColumnGuess:
    """One column of the proposal: role, direction (objectives; None = ask), unit, label, why."""

    name: str
    role: str
    direction: str | None = None
    unit: str | None = None
    label: str | None = None
    reason: str = ""
    confidence: str = "sure"
    source: str | None = None      # a derived objective: the column it is computed from
    transform: str | None = None   # "abs_one_minus" (|1 - x|) or "abs" (|x|)
    more: bool = False             # a wide table's column left under "more columns"

    def to_dict(self) -> dict:
        """``{"name", "role", "direction", "unit"}`` plus ``label``, ``reason``,
        ``confidence`` (sure, likely, unsure) and, for a derived objective, ``source`` and
        ``transform``; ``more`` for a column under "more columns"."""
        out = {"name": self.name, "role": self.role, "direction": self.direction,
               "unit": self.unit, "label": self.label, "reason": self.reason,
               "confidence": self.confidence}
        if self.source is not None:
            out.update(source=self.source, transform=self.transform)
        if self.more:
            out["more"] = True
        return out


@dataclass(frozen=True)
class Proposal:
    """What the upload page proposes for a table (see the module notes).

    ``id`` is a column whose values name the rows, or None: then :func:`prepare_frame`
    adds the column ``row_ids`` with a name per row built from ``name_column`` (and the
    seed or config column), or ``row 1``, ``row 2``, ... when there is no name column.
    ``renamed`` lists the rows of the id column whose repeated names get `` (2)``.
    """

    rows: int
    id: str | None
    columns: tuple[ColumnGuess, ...]
    notes: tuple[str, ...]
    row_ids: str
    name_column: str | None = None
    runs: bool = False
    renamed: tuple[int, ...] = ()
    configurations: tuple[str, ...] = ()  # settings varying within a name (data/runs.py)
    uncertainty: dict = field(default_factory=dict)   # metric -> (kind, spread column)
    families: dict = field(default_factory=dict)      # "race" -> (race-FPR, race-TPR, ...)

    def column(self, name: str) -> ColumnGuess:
        """The guess for column ``name``."""
        for guess in self.columns:
            if guess.name == name:
                return guess
        raise KeyError(name)

    def of_role(self, role: str) -> list[ColumnGuess]:
        """The columns proposed for ``role``, in table order."""
        return [g for g in self.columns if g.role == role]

    @property
    def row_naming(self) -> str:
        """How ``row_ids`` names the rows of this table, in words: ``"system and run"``,
        ``"system and configuration"`` or ``"row 1, row 2, ..."`` (the upload page's id
        picker and ``copa-dash inspect`` say the same)."""
        if self.runs:
            return "system and run"
        return "system and configuration" if self.configurations else "row 1, row 2, ..."

    @property
    def undecided(self) -> tuple[str, ...]:
        """Objectives whose direction the user must choose."""
        return tuple(g.name for g in self.columns if g.role == "objective" and g.direction is None)

    def to_dict(self) -> dict:
        """The JSON of ``copa-dash inspect``: rows, id, columns, notes (and the runs flag)."""
        return {"rows": self.rows, "id": self.id, "runs": self.runs,
                "configurations": list(self.configurations),
                "columns": [g.to_dict() for g in self.columns], "notes": list(self.notes),
                "uncertainty": {m: list(v) for m, v in self.uncertainty.items()},
                "families": {f: list(v) for f, v in self.families.items()}}

    def roles(self, *, directions: dict | None = None, skip_undecided: bool = False) -> Roles:
        """:class:`Roles` from the proposal, with ``directions`` (column -> min/max) filled in.

        Raises
        ------
        InvalidInputError
            If an objective still has no direction (unless ``skip_undecided``: then it is
            left out), or no objective is left.
        """
        directions = dict(directions or {})
        objectives, missing = [], []
        for g in self.of_role("objective"):
            direction = directions.get(g.name, g.direction)
            if direction is None:
                missing.append(g.name)
                continue
            objectives.append(Objective(g.name, direction, g.unit, g.label))
        if missing and not skip_undecided:
            shown = ", ".join(map(repr, missing[:8])) + (" ..." if len(missing) > 8 else "")
            raise InvalidInputError(
                f"choose a direction (min or max) for {shown}: no word or unit in "
                f"{'its name tells' if len(missing) == 1 else 'their names tells'} whether "
                "lower or higher is better; or make them metadata")
        if not objectives:
            raise InvalidInputError(
                "no objective has a direction: choose min or max for at least one numeric "
                "column")
        single = {role: (self.of_role(role) or [None])[0] for role in SINGLE_ROLES}
        metadata = [g.name for g in self.columns if g.role == "metadata"]
        return Roles(id=self.id if self.id is not None else self.row_ids,
                     objectives=tuple(objectives),
                     metadata=tuple(metadata),
                     **{role: g.name for role, g in single.items() if g is not None})


    def directed_roles(self) -> Roles:
        """Roles with a direction on every objective, for callers that cannot ask: undecided
        objectives become metadata, or - when no objective has a direction (tables of
        per-benchmark scores) - are maximised, unless their name marks a spread or setting."""
        if not any(g.direction for g in self.of_role("objective")):
            return self.roles(directions={n: "max" for n in self.undecided})
        roles = self.roles(skip_undecided=True)
        metadata = tuple(g.name for g in self.columns
                         if g.role == "metadata" or g.name in self.undecided)
        return Roles(**{**{f: getattr(roles, f) for f in roles.__dataclass_fields__},
                        "metadata": metadata})


# --------------------------------------------------------------------------- guessing
def _seed_like(column: str) -> bool:
    return _normal(column) in _SEED_NAMES or (bool(_words(column)) and
                                             _words(column)[-1] in ("seed", "fold", "run"))


def _unique_pairs(frame: pd.DataFrame, a: str, b: str, *, share: float = 1.0) -> bool:
    """True when the pairs (a, b) tell at least ``share`` of the rows apart."""
    if not frame[b].notna().all():
        return False
    repeated = frame[[a, b]].astype(str).duplicated().sum()
    return repeated == 0 if share >= 1 else repeated <= (1 - share) * len(frame)


def _named_role(column: str) -> str | None:
    """The single role a column's name says (whole name, or its last word: 'Test Problem').

    A note in brackets is not the name: "Summarization Average (1 dataset)" is a score,
    not a dataset column.
    """
    column = re.sub(r"\s*[(\[][^()\[\]]*[)\]]\s*$", "", str(column)) or str(column)
    normal, words = _normal(column), _words(column, joined=False)
    for role in SINGLE_ROLES:
        if normal in _ROLE_NAMES[role] or "_".join(words) in _ROLE_NAMES[role] \
                or (len(words) > 1 and words[-1] in _ROLE_NAMES[role]):   # funcId: func_id
            return role
    return None


_ROW_NUMBER_NAMES = frozenset({"index", "idx", "no", "nr", "row", "rownum", "row_number", "n", ""})


#: roles whose values name something (a task, a system, a seed, a split): never measurements
LABEL_ROLES = frozenset({"task", "system", "seed", "split"})


def _may_label(series: pd.Series, role: str) -> bool:
    """Whether ``series`` can hold the labels ``role`` names: not numbers with fractions.
    MTEB's ``GermanSTSBenchmark`` is a score (84.75...), not the task its last word says.

    >>> _may_label(pd.Series([84.75, 85.9]), "task"), _may_label(pd.Series([1, 24]), "task")
    (False, True)
    """
    if role not in LABEL_ROLES or not pd.api.types.is_numeric_dtype(series):
        return True
    values = pd.to_numeric(series, errors="coerce").dropna().to_numpy(dtype=np.float64)
    return bool(np.all(np.isfinite(values)) and np.all(values == np.round(values)))


def _row_number_column(series: pd.Series) -> bool:
    """Whole numbers 0..N-1 or 1..N in order under an unnamed or index-like header."""
    name = str(series.name).strip().lower()
    if not (name.startswith(("column ", "unnamed")) or name == "#"
            or _normal(name) in _ROW_NUMBER_NAMES):
        return False
    if not pd.api.types.is_integer_dtype(series.dtype):
        return False
    values = series.to_numpy()
    return bool((values == np.arange(len(values))).all()
                or (values == np.arange(1, len(values) + 1)).all())


def _name_column(frame: pd.DataFrame) -> str | None:
    """The column that names the models, even if it repeats: id-like text first, else the
    text column with the most distinct values (at least 2)."""
    text = [c for c in frame.columns if _is_text_column(frame[c]) and frame[c].notna().all()]
    named = [c for c in text if _is_id_name(c) or _normal(c) in _ROLE_NAMES["system"]]
    if named:
        return named[0]
    counts = {c: frame[c].nunique() for c in text}
    best = max(text, key=lambda c: counts[c], default=None)
    return best if best is not None and counts[best] >= 2 else None


def propose(frame: pd.DataFrame, /, *, units: dict | None = None,
            labels: dict | None = None) -> Proposal:
    """Propose roles, directions and row names for ``frame`` (from ``read_table_report``).

    Parameters
    ----------
    frame : pandas.DataFrame
        The table as read, with unique string column names.
    units, labels : dict, optional
        Column -> unit and column -> label, as :class:`~copa_dash.data.read_log.TableRead`
        gives them.

    Returns
    -------
    Proposal

    Examples
    --------
    >>> frame = pd.DataFrame({"model": ["a", "a", "b", "b"], "seed": [0, 1, 0, 1],
    ...                       "Prefill (s)": [1.0, 2, 3, 4], "accuracy": [1, 2, 3, 4]})
    >>> p = propose(frame)
    >>> p.id, p.runs, [(g.name, g.role, g.direction) for g in p.columns]
    ... # doctest: +NORMALIZE_WHITESPACE
    (None, True, [('model', 'system', None), ('seed', 'seed', None),
                  ('Prefill (s)', 'objective', 'min'), ('accuracy', 'objective', 'max')])
    """
    if not isinstance(frame, pd.DataFrame):
        raise InvalidInputError(f"'frame' must be a pandas DataFrame, not {type(frame).__name__}")
    units, labels = dict(units or {}), dict(labels or {})
    notes: list[str] = []
    sibling_units = units_from_siblings(frame)
    mixed = mixed_units(frame)
    for column, (unit_column, shown) in mixed.items():
        notes.append(f"{column!r} holds different units row by row ({unit_column!r}: "
                     f"{', '.join(shown[:4])}): compare it only within rows of one unit "
                     "(filter on that column).")
    roles: dict[str, str] = {}
    id_column = guess_id(frame)
    name_column, runs, renamed, settings = None, False, (), ()
    # a run id ('a-seed0') names runs: the name inside it would read them as 'a · run_id a-seed0'
    shorter = None if id_column is None or _seed_like(id_column) else \
        readable_name(frame, id_column, max_repeated_share=RUNS_SHARE)
    if shorter is not None:
        notes.append(f"{id_column!r} spells out {shorter!r} and more in every row, so the rows "
                     f"are named by {shorter!r} ({id_column!r} stays as metadata).")
        id_column, name_column = (shorter, None) if id_values(frame[shorter]).is_unique \
            else (None, shorter)
    if id_column is not None:
        roles[id_column] = "id"
        notes.append(f"Each row is named by {id_column!r} (the name shown in every figure).")
    else:
        name_column = name_column or _name_column(frame)
        if name_column is not None:
            id_column, runs, renamed, settings = _runs_or_duplicates(frame, name_column,
                                                                     roles, notes)
        else:
            notes.append("No column names the rows (no text column with a different value in "
                         "every row), so they are numbered 'row 1', 'row 2', ... as in the "
                         "file.")
    for column in frame.columns:
        role = _named_role(column)
        if column not in roles and role is not None and role not in roles.values() \
                and _may_label(frame[column], role):
            roles[column] = role
    task = task_column(frame, _named_role)
    ranked = {c for c in frame.columns if c not in roles and is_rank_within_tasks(frame, task, c)}
    guesses = []
    for column in frame.columns:
        guesses.extend(_guess_column(frame[column], column, roles, units, labels,
                                     sibling_units, mixed, ranked))
    guesses = _task_metadata(frame, task, guesses)
    guesses = direct_aggregates(frame, guesses)
    guesses = direct_statistics(frame, guesses)
    uncertainty = pair_uncertainties(list(frame.columns), guesses)
    guesses = drop_twins(guesses, notes)   # before the short set: one column a benchmark
    guesses = drop_task_twins(frame, task, guesses, notes)
    guesses = infinite_objectives(frame, guesses, notes)   # never a Save that must fail
    notes.extend(popularity_note(guesses))
    guesses, families = shorten_wide(guesses, notes, exact_means(frame, guesses))
    notes.extend(double_count_notes(frame, guesses))
    notes.extend(derived_notes(guesses))
    if uncertainty:
        notes.append("Kept as uncertainty, not goals: " + "; ".join(
            f"{column!r} ({kind}) of {metric!r}"
            for metric, (kind, column) in list(uncertainty.items())[:6])
            + (" ..." if len(uncertainty) > 6 else "") + ".")
    undecided = [g.name for g in guesses if g.role == "objective" and g.direction is None]
    if undecided:
        shown = ", ".join(map(repr, undecided[:8])) + (" ..." if len(undecided) > 8 else "")
        notes.append(f"No direction guessed for {shown}: choose min or max for each "
                     f"(or make {'it' if len(undecided) == 1 else 'them'} metadata).")
    if not any(g.role == "objective" for g in guesses):
        notes.append("No column holds numbers to compare; objectives must be numeric.")
    return Proposal(rows=len(frame), id=id_column, columns=tuple(guesses), notes=tuple(notes),
                    row_ids=row_id_name(frame), name_column=name_column, runs=runs,
                    renamed=renamed, configurations=settings, uncertainty=uncertainty,
                    families=families)


def _task_metadata(frame, task, guesses) -> list:
    """``guesses`` with the metadata columns that take one value a task saying so."""
    plain = [g.name for g in guesses if g.role == "metadata" and g.name in frame.columns
             and g.reason.startswith("text")]
    owned = set(task_properties(frame, task, plain))
    return [replace(g, reason=f"a property of the task: one value for each {task!r} (task "
                              "metadata, not a config)") if g.name in owned else g
            for g in guesses]


def _guess_column(series, column, roles, units, labels, sibling_units, mixed,
                  ranked=frozenset()) -> list:
    """The guesses for one column of :func:`propose` (one, or two for a fairness measure:
    the metadata original and its derived objective); ``roles`` gets a config it takes."""
    guesses = []
    role = roles.get(column)
    unit, label = units.get(column), labels.get(column)
    if role is not None:
        guesses.append(ColumnGuess(column, role, unit=unit, label=label))
    elif _is_number_column(series) and series.notna().any():
        if _row_number_column(series) and not labels.get(column):
            guesses.append(ColumnGuess(column, "metadata", reason="numbers the rows 1, 2, "
                                       "3, ... (a spreadsheet's or pandas' row numbers)"))
            return guesses
        if column in ranked:   # a rank within each task: a result, not a setting
            guesses.append(ColumnGuess(column, "metadata", unit=unit, label=label,
                                       reason=RANK_REASON, confidence="likely"))
            return guesses
        kind = never_goal(series)
        if kind is not None and kind[0] == "setting" and "config" not in roles.values() \
                and series.nunique() > 1 and not any(_stems(w) & _NO_DIRECTION
                                                     for w in _words(column)):
            roles[column] = "config"
            guesses.append(ColumnGuess(column, "config", unit=unit, label=label,
                                       reason=kind[1], confidence="likely"))
            return guesses
        if kind is not None:
            guesses.append(ColumnGuess(column, "metadata", unit=unit, label=label,
                                       reason=kind[1], confidence="likely"))
            return guesses
        if is_popularity(column):
            guesses.append(ColumnGuess(column, "metadata", unit=unit, label=label,
                                       reason="popularity (likes, downloads), not a result",
                                       confidence="likely"))
            return guesses
        if lineage(column):
            guesses.append(ColumnGuess(column, "metadata", unit=unit, label=label,
                                       reason="lineage (fine-tunes or merges from a base "
                                              "model), not a result", confidence="likely"))
            return guesses
        if any(_stems(w) & _NO_DIRECTION for w in _words(labels.get(column, column))):
            guesses.append(ColumnGuess(column, "metadata", unit=unit, label=label,
                                       reason="the name marks a spread or a setting",
                                       confidence="likely"))
            return guesses
        unit = unit or sibling_units.get(column)
        target = fairness_target(column)
        if target is not None:
            target, values_say = target_from_values(target, series)
            if target is None:   # the name and the values disagree: the user chooses
                guesses.append(ColumnGuess(column, "objective", None, unit, label,
                                           values_say, confidence="unsure"))
                return guesses
            guesses.extend(target_guesses(column, target, unit, label, make=ColumnGuess,
                                          why=values_say))
            return guesses
        direction, why, sure = direction_guess(column, unit)
        if direction is None and column in mixed:
            direction, why = mixed_direction(*mixed[column])
            sure = "likely" if direction is not None else sure
        guesses.append(ColumnGuess(column, "objective", direction, unit, label,
                                   why or "no word or unit says which way is better",
                                   confidence=sure))
    else:
        guesses.append(ColumnGuess(column, "metadata", unit=unit, label=label,
                                   reason="text, dates or yes/no values"
                                   if series.notna().any() else "empty"))
    return guesses


def _runs_or_duplicates(frame, name_column, roles, notes):
    names = id_values(frame[name_column])
    counts = Counter(names)
    repeated = {n for n, k in counts.items() if k > 1}
    in_repeats = int(sum(counts[n] for n in repeated))
    seed = next((c for c in frame.columns if c != name_column and _seed_like(c)
                 and _unique_pairs(frame, name_column, c)), None)
    grouping = _normal(name_column) in _ROLE_NAMES["system"]  # family, method: not names
    if seed is None and not grouping and in_repeats < RUNS_SHARE * len(frame):
        positions = np.flatnonzero(names.duplicated(keep="first").to_numpy())
        shown = "; ".join(
            f"{n!r} in {row_list(np.flatnonzero((names == n).to_numpy()), limit=3)}"
            for n in sorted(repeated)[:4]) + (" ..." if len(repeated) > 4 else "")
        roles[name_column] = "id"
        kind = _repeat_kind(frame, name_column)
        if kind.configurations:  # quantised variants of a model, ...: named by the setting
            config = _telling_setting(frame, name_column, kind.settings)
            roles[config] = "config"
            labels = config_labels(frame, name_column, config, only_repeated=True)
            example = next(label for label in labels if " · " in label)
            notes.append(f"{name_column!r} names the rows, but {len(repeated)} "
                         f"name{'s repeat' if len(repeated) > 1 else ' repeats'} ({shown}); "
                         + kind.note(name_column) + f" Their rows are named by both, "
                         f"{name_column!r} and {config!r} ('{example}')."
                         + copies_sentence(labels))
            return name_column, False, tuple(int(p) for p in positions), kind.settings
        notes.append(f"{name_column!r} names the rows, but {len(repeated)} "
                     f"name{'s repeat' if len(repeated) > 1 else ' repeats'} ({shown}); the later "
                     "copies are called 'name (2)', 'name (3)', ... so every row keeps its name.")
        return name_column, False, tuple(int(p) for p in positions), ()
    # a column named as the task tells the runs apart, whole numbers too (BBOB's funcId:
    # the rows read as "run 2, run 3" of each optimiser); else the first text column
    splitter = None if seed is not None else next(
        (c for c in frame.columns if c != name_column and _named_role(c) == "task"
         and _unique_pairs(frame, name_column, c, share=0.9)), None) or next(
        (c for c in frame.columns if c != name_column and _is_text_column(frame[c])
         and not log_like(frame[c]) and _unique_pairs(frame, name_column, c, share=0.9)), None)
    if seed is None and splitter is None and grouping:
        roles[name_column] = "system"
        notes.append(f"No column names every row once ({name_column!r} repeats: it is kept as "
                     "the system), so the rows are numbered 'row 1', 'row 2', ... as in the file.")
        return None, False, (), ()
    kind = _repeat_kind(frame, name_column, runs_columns=(seed,) if seed else ())
    if kind.configurations:
        return _configurations(frame, name_column, kind, seed, roles, notes, len(counts))
    roles[name_column] = "system"
    config = None
    if seed is not None:
        roles[seed] = "seed"
        how = f"each row is named by {name_column!r} and {seed!r} ('{names.iloc[0]} · {seed} " \
              f"{frame[seed].iloc[0]}')"
    else:
        config = splitter
        if config is not None:
            role = _named_role(config) or "config"
            roles[config] = role
            how = f"{config!r} tells them apart (it becomes the {role}), and each row is " \
                  f"named by both ('{names.iloc[0]} · {frame[config].iloc[0]}')"
        else:
            how = "each row is named by its name and its run number ('name · run 2')"
    advice = ("Keep one row per run to compare systems, or average the runs per model "
              "(one row each).")
    if config is not None and roles[config] == "task":   # the "runs" are one per task
        advice = ("Keep one row per run: averaging them would mix each system's results on "
                  "different tasks into one number (Posets compares systems task by task).")
    notes.append(f"{name_column!r} repeats ({len(frame)} rows, {len(counts)} names): the rows "
                 f"read as runs of each system, so {name_column!r} is the system and {how}. "
                 + advice)
    return None, True, (), ()


def _repeat_kind(frame, name_column, runs_columns=()):
    """:func:`~copa_dash.data.runs.repeat_kind` without the columns that are properties of
    the task (one value a task: AMLB's ``problem_type``), which never make a config."""
    kind = repeat_kind(frame, name_column, runs_columns=runs_columns)
    task_owned = task_properties(frame, task_column(frame, _named_role), kind.settings)
    if not task_owned:
        return kind
    return repeat_kind(frame.drop(columns=list(task_owned)), name_column,
                       runs_columns=runs_columns)


def _telling_setting(frame, name_column, settings):
    """The setting that tells most rows of a repeated name apart (the first on a tie): the
    Arena merge's 'phi-4' rows differ in their precision more than in their repository."""
    return min(settings, key=lambda c: int(
        frame[[name_column, c]].astype(str).duplicated().sum()))


def _configurations(frame, name_column, kind, seed, roles, notes, n_names):
    """Rows that are configurations of a system: ``system`` + ``config`` (+ ``seed``), rows
    named by them, and no offer to average (data/runs.py decides)."""
    roles[name_column] = "system"
    config = _telling_setting(frame, name_column, kind.settings)
    roles[config] = "config"
    if seed is not None:
        roles[seed] = "seed"
    notes.append(f"{name_column!r} repeats ({len(frame)} rows, {n_names} names) and "
                 + kind.note(name_column)[0].lower() + kind.note(name_column)[1:]
                 + f" {name_column!r} is the system and {config!r} the config; each row is "
                 "named by both ('name · config')."
                 + copies_sentence(config_labels(frame, name_column, config, seed)))
    return None, False, (), kind.settings


# --------------------------------------------------------------------------- row names
def prepare_frame(frame: pd.DataFrame, proposal: Proposal, roles: Roles) -> pd.DataFrame:
    """The frame to save and analyse under ``roles``: row names added or made unique.

    When ``roles.id`` is the proposal's ``row_ids`` (never a column of the file), that column
    is added first, named as :class:`Proposal` says; when it is the proposed id column with
    repeated names, the later copies get `` (2)``, `` (3)``, or, when the repeats are
    configurations, every copy gets `` · config`` (``llama-2-13b-awq · AWQ-3bit``). The input
    is not modified.
    """
    out = add_derived(frame.copy(deep=False), proposal.columns,
                      {o.name for o in roles.objectives} | set(roles.metadata))
    if roles.id == proposal.id and proposal.renamed:
        names = id_values(out[roles.id])
        if proposal.configurations and roles.config in out.columns:
            # every copy of a repeated name is a configuration: named by its setting
            configs = id_values(out[roles.config])
            repeated = names.duplicated(keep=False) & configs.notna()
            names = names.where(~repeated, names + " · " + configs)
        out[roles.id] = _unique_names(names)
        return out
    if roles.id != proposal.row_ids or roles.id in out.columns:
        return out
    labels = _row_labels(out, proposal, roles)
    out.insert(0, roles.id, pd.Series(labels, index=out.index, dtype="str"))
    return out


def _row_labels(frame, proposal, roles) -> list[str]:
    name = roles.system if roles.system in frame.columns else proposal.name_column
    if proposal.id is not None or not (proposal.runs or proposal.configurations) or name is None or name not in frame.columns:
        return [f"{ROW_ID_PREFIX}{i + 1}" for i in range(len(frame))]
    names = id_values(frame[name]).fillna("?")
    if proposal.configurations and roles.config in frame.columns:
        configs = id_values(frame[roles.config])
        labels = [n if pd.isna(c) else f"{n} · {c}" for n, c in zip(names, configs)]
        if roles.seed is not None and roles.seed in frame.columns:
            seeds = id_values(frame[roles.seed]).fillna("?")
            labels = [f"{label} · {roles.seed} {s}" for label, s in zip(labels, seeds)]
    elif roles.seed is not None and roles.seed in frame.columns:
        seeds = id_values(frame[roles.seed]).fillna("?")
        labels = [f"{n} · {roles.seed} {s}" for n, s in zip(names, seeds)]
    elif second := next((c for c in (roles.config, roles.task, roles.split)
                         if c is not None and c in frame.columns), None):
        others = id_values(frame[second]).fillna("?")
        labels = [f"{n} · {c}" for n, c in zip(names, others)]
    else:
        seen: Counter = Counter()
        labels = []
        for n in names:
            seen[n] += 1
            labels.append(f"{n} · run {seen[n]}")
    return _unique_names(pd.Series(labels)).tolist()


def _unique_names(names: pd.Series) -> pd.Series:
    seen: Counter = Counter()
    taken = set(names)
    out = []
    for n in names:
        seen[n] += 1
        if seen[n] == 1:
            out.append(n)
            continue
        k = seen[n]
        while f"{n} ({k})" in taken:
            k += 1
        taken.add(f"{n} ({k})")
        out.append(f"{n} ({k})")
    return pd.Series(out, index=names.index, dtype="str")


def guess_roles(frame, /) -> Roles:
    """:class:`Roles` with a direction on every objective, for callers that cannot ask the user.

    The proposal (:func:`propose`) with undecided objectives made metadata, or maximised when
    no objective has a direction (:meth:`Proposal.directed_roles`).

    Raises
    ------
    InvalidInputError
        If no column names the rows (:func:`~copa_dash.data.role_guess.guess_id` is None:
        number them with :func:`~copa_dash.data.role_guess.add_row_ids` first), or no column
        holds numbers.

    Examples
    --------
    >>> frame = pd.DataFrame({"model": ["a", "b"], "method": ["x", "y"],
    ...                       "val_loss": [0.3, 0.2], "acc": [0.8, 0.9], "epochs": [3, 4]})
    >>> r = guess_roles(frame)
    >>> r.id, r.system, [(o.name, o.direction) for o in r.objectives], r.metadata
    ('model', 'method', [('val_loss', 'min'), ('acc', 'max')], ('epochs',))
    """
    if not isinstance(frame, pd.DataFrame):
        raise InvalidInputError(f"'frame' must be a pandas DataFrame, not {type(frame).__name__}")
    if any(not isinstance(c, str) for c in frame.columns) or frame.columns.duplicated().any():
        raise InvalidInputError("'frame' must have unique string column names")
    if guess_id(frame) is None:
        raise InvalidInputError(
            "no column names the rows: an id must be text, or whole numbers in a column "
            "named like id or run, with a different value in every row; number the rows "
            "(add_row_ids) or add an id column (e.g. model name)")
    proposal = propose(frame)
    if not proposal.of_role("objective"):
        raise InvalidInputError(
            "no column holds numbers (besides the id and role columns), so there is "
            "nothing to compare; objectives must be numeric")
    return proposal.directed_roles()
