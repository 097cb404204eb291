"""Tables read from where results already live: Optuna studies, MLflow experiments, lm-eval folders.

Each reader returns a :class:`SourceTable`: the table (one row per trial, run or model) and the
role facts its source *knows*, so nothing it knows is guessed again:

* :func:`~copa_dash.data.sources.optuna.read_optuna`: the study's objectives and their
  directions, the trial number as the id, the parameters as config;
* :func:`~copa_dash.data.sources.mlflow.read_mlflow`: the run name as the id, the params as
  config; the metrics are candidate objectives whose directions are guessed as for any table
  (and asked where no word in the name says which way is better);
* :func:`~copa_dash.data.sources.lm_eval.read_lm_eval`: the model as the id, one column per
  task metric with the direction lm-eval records (``higher_is_better``), each standard error
  paired with its metric (kept as a metadata column, never an objective).

:meth:`SourceTable.proposal` turns those facts into the same :class:`~copa_dash.data.proposal.
Proposal` the upload page shows for a file, and :meth:`SourceTable.eval_table` into the
:class:`~copa_dash.data.schema.EvalTable` every command and the notebook take (see
:mod:`copa_dash.cli.sources` for the command line's ``--from-*`` options).
The trackers are optional extras: a missing one raises :class:`InvalidInputError` saying
which ``pip install`` brings it.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import pandas as pd

from ...core.errors import InvalidInputError
from ..io import build_eval_table
from ..proposal import ColumnGuess, Proposal, propose
from ..role_guess import row_id_name
from ..schema import SINGLE_ROLES, EvalTable, Objective, Roles

CONFIG_COLUMN = "config"  # the parameters in one text column: "lr=0.01, layers=3"


@dataclass(frozen=True)
class SourceTable:
    """A table read from a tracker, with what the tracker knows about its columns.

    Attributes
    ----------
    frame : pandas.DataFrame
        One row per trial, run or model; the ``id`` column holds unique text.
    id : str
        The column naming the rows.
    directions : dict
        Candidate objective -> ``"min"``/``"max"`` when the source knows it, ``None`` when
        it must be guessed from the name (as for a file) or asked.
    config : tuple of str
        The parameter columns (each one is also summed up in :data:`CONFIG_COLUMN`).
    uncertainty : dict
        Metric column -> the column of its standard error.
    origin : str
        Where the table came from, in words (``"Optuna study 'mo' in sqlite:///s.db"``).
    notes : tuple of str
        What was left out and why, said to the user.
    name : str
        A short name for the dataset (the study, experiment or folder).
    """

    frame: pd.DataFrame
    id: str
    directions: dict
    config: tuple[str, ...] = ()
    uncertainty: dict = field(default_factory=dict)
    origin: str = ""
    notes: tuple[str, ...] = ()
    name: str = "source"

    @property
    def known(self) -> dict:
        """The candidate objectives whose direction the source states."""
        return {c: d for c, d in self.directions.items() if d is not None}

    def proposal(self) -> Proposal:
        """The upload page's proposal for this table, with the source's facts filled in.

        The id, the known directions, the config and the standard errors come from the
        source; a candidate objective without a known direction keeps the guess made for
        any table (possibly undecided: then the page asks); every other column is metadata.
        """
        guessed = {g.name: g for g in propose(self.frame).columns}
        paired = {s: m for m, s in self.uncertainty.items()}
        columns = []
        for column in self.frame.columns:
            if column == self.id:
                columns.append(ColumnGuess(column, "id", reason=f"names the rows in {self.origin}"))
            elif self.directions.get(column) is not None:
                columns.append(ColumnGuess(column, "objective", self.directions[column],
                                           reason=f"the direction recorded in {self.origin}"))
            elif column in self.directions:
                guess = guessed[column]
                columns.append(guess if guess.role in ("objective", "metadata") else
                               ColumnGuess(column, "objective", reason=guess.reason))
            elif column == CONFIG_COLUMN and self.config:
                columns.append(ColumnGuess(column, "config", reason="the parameters, together"))
            elif column in paired:
                columns.append(ColumnGuess(column, "metadata", reason=f"the standard error of "
                                           f"{paired[column]!r} (its uncertainty, not an "
                                           "objective)"))
            else:
                columns.append(ColumnGuess(column, "metadata", reason="a parameter"
                                           if column in self.config else "recorded by the source"))
        undecided = [g.name for g in columns if g.role == "objective" and g.direction is None]
        notes = list(self.notes)
        if undecided:
            shown = ", ".join(map(repr, undecided[:8])) + (" ..." if len(undecided) > 8 else "")
            notes.append(f"No direction known or guessed for {shown}: choose min or max for "
                         f"each (or make {'it' if len(undecided) == 1 else 'them'} metadata).")
        return Proposal(rows=len(self.frame), id=self.id, columns=tuple(columns),
                        notes=tuple(notes), row_ids=row_id_name(self.frame))

    def eval_table(self, *, id_column: str | None = None, objectives=(),
                   single: dict | None = None,
                   say: Callable[[str], None] | None = None) -> EvalTable:
        """The table under the source's roles, as a command reads ``TABLE``.

        Parameters
        ----------
        id_column : str, optional
            Another column to name the rows (default: the source's id).
        objectives : sequence of (name, direction), optional
            The objectives to use; default: every candidate objective with a known or
            guessed direction (the undecided ones are left out, and said so).
        single : dict, optional
            Single roles (``{"system": "params_model"}``) on top of the source's config.
        say : callable, optional
            Receives each sentence about what was guessed or left out.

        Raises
        ------
        InvalidInputError
            If no objective is left, or a named column is missing.
        """
        proposal = self.proposal()
        said = []
        if objectives:
            chosen = tuple(Objective(n, d) for n, d in objectives)
        else:
            chosen = tuple(Objective(g.name, g.direction) for g in proposal.of_role("objective")
                           if g.direction is not None)
            said.append("objectives " + ", ".join(f"{o.name} ({o.direction})" for o in chosen))
            if proposal.undecided:
                first = proposal.undecided[0]
                said.append(f"left out (no direction known or guessed): "
                            f"{', '.join(proposal.undecided[:6])}"
                            f"{' ...' if len(proposal.undecided) > 6 else ''} - add "
                            f"--objective '{first}:max' (or :min) to use one")
            if not chosen:
                raise InvalidInputError(f"{self.origin} has no objective with a direction: "
                                        "give --objective NAME:min or NAME:max")
        roles = {"config": CONFIG_COLUMN} if self.config and CONFIG_COLUMN in self.frame else {}
        roles.update({k: v for k, v in (single or {}).items() if v and k in SINGLE_ROLES})
        taken = {o.name for o in chosen} | {id_column or self.id} | set(roles.values())
        metadata = tuple(c for c in self.frame.columns if c not in taken)
        table = build_eval_table(self.frame, Roles(id=id_column or self.id, objectives=chosen,
                                                   metadata=metadata, **roles))
        if say is not None:
            say(f"read from {self.origin}: {len(self.frame)} rows named by "
                f"{id_column or self.id!r}" + ("; " + "; ".join(said) if said else ""))
            for note in self.notes:
                say(note)
        return table


def cannot_open(what: str, location: str, error: Exception) -> InvalidInputError:
    """The refusal when a tracker's backend fails to open ``location``: the traceback goes to
    the log (the operator's), the message names what could not be opened and what to check,
    and carries no internal exception text (a hosted page shows it to anyone)."""
    logging.getLogger(__name__).warning("cannot open %s %r", what, location, exc_info=error)
    return InvalidInputError(f"cannot open the {what} {location!r} ({type(error).__name__}): "
                             "check the address, and that it exists and is readable")


def require(module: str, extra: str, what: str):
    """Import ``module`` or say which extra to install.

    Raises
    ------
    InvalidInputError
        If the module is not installed: ``pip install "copa-dash[EXTRA]"``.
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise InvalidInputError(
            f"reading {what} needs the {module!r} package, which is not installed: "
            f'pip install "copa-dash[{extra}]"') from exc


def unique_names(names: pd.Series) -> pd.Series:
    """Repeated names get `` (2)``, `` (3)``, ... in row order (the first keeps its name).

    >>> unique_names(pd.Series(["a", "b", "a"])).tolist()
    ['a', 'b', 'a (2)']
    """
    seen: dict[str, int] = {}
    out = []
    for name in names.astype(str):
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return pd.Series(out, index=names.index, dtype="str")


def parameter_columns(rows: list[dict], prefix: str) -> tuple[pd.DataFrame, tuple[str, ...]]:
    """Parameters of each row as columns ``PREFIX + name`` plus the summed-up config text.

    Columns whose values all read as numbers become numbers; the others text (an empty
    parameter stays missing). Returns ``(frame, parameter column names)``.
    """
    names = sorted({k for row in rows for k in row})
    data = {}
    for name in names:
        values = pd.Series([row.get(name) for row in rows], dtype="object")
        numbers = pd.to_numeric(values, errors="coerce")
        present = values.notna()
        if present.any() and numbers[present].notna().all() \
                and not values[present].map(lambda v: isinstance(v, bool)).any():
            data[prefix + name] = numbers.astype("float64")
        else:
            data[prefix + name] = values.map(lambda v: None if v is None else str(v))
    frame = pd.DataFrame(data, index=range(len(rows)))
    config = [", ".join(f"{k}={row[k]}" for k in names if k in row) for row in rows]
    if names:
        frame[CONFIG_COLUMN] = pd.Series(config, dtype="str")
    return frame, tuple(prefix + n for n in names)
