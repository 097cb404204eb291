"""First guesses of column roles for the upload mapping form (the user confirms them).

Column names are split into words (``val_loss`` -> val, loss; ``valLoss`` -> val, loss;
``Top1Acc`` -> top1, acc) and whole words are matched, so ``accumulated`` does not count
as ``acc``. Decisions:

* a name with words of both directions (``time_to_accuracy``), or a word that marks a
  spread (``acc_std``) or a setting (``batch_size``, ``seed``), gets no direction;
* numeric columns without a guessed direction become metadata, not objectives: a wrong
  direction silently inverts every ranking, while an extra metadata column costs a click.
  Only when no numeric column has a guess are the numeric columns proposed as objectives,
  maximised: such tables are mostly per-benchmark scores (``art``, ``clipart``, ``mmlu``);
  columns with a spread or setting word (``art_std``, ``seed``) stay metadata even then;
* the id is the first column with a unique value in every row, preferring id-like names
  and text columns; when none is unique (long tables: one row per system x task x seed)
  :func:`guess_roles` says so and :func:`add_row_ids` adds a row-number id column.
"""

from __future__ import annotations

import re

import pandas as pd

from ..core.errors import InvalidInputError
from .schema import SINGLE_ROLES, Objective, Roles

MINIMISED = frozenset({
    "loss", "error", "err", "time", "latency", "cost", "co2", "co2e", "emission", "emissions",
    "params", "parameters", "size", "memory", "mem", "energy", "price", "mse", "rmse", "mae",
    "mape", "nll", "perplexity", "ppl", "runtime", "duration", "flops", "macs", "wer", "cer",
    "fid", "regret", "violation", "violations", "delay", "seconds", "hours", "kwh",
})
MAXIMISED = frozenset({
    "accuracy", "acc", "score", "f1", "auc", "auroc", "auprc", "precision", "recall",
    "throughput", "elo", "winrate", "bleu", "rouge", "map", "ndcg", "mrr", "iou", "miou",
    "dice", "psnr", "ssim", "r2", "reward", "speedup", "qps", "fps", "success", "coverage",
    "utility", "likelihood", "mcc", "kappa", "hitrate", "pass",
})
_MAX_PHRASES = (("win", "rate"), ("hit", "rate"), ("success", "rate"), ("exact", "match"))
_NO_DIRECTION = frozenset({
    "std", "stderr", "sem", "sd", "stdev", "var", "variance", "ci", "batch", "seed", "epoch",
    "epochs", "step", "steps", "lr", "id", "idx", "index", "year", "fold", "rank",
})
_ROLE_NAMES = {
    "system": ("system", "method", "algorithm", "algo", "approach", "family", "model_family",
               "optimizer", "solver", "framework", "learner", "library"),
    "seed": ("seed", "random_seed", "replicate", "rep", "repeat", "trial", "run_seed"),
    "task": ("task", "dataset", "benchmark", "problem", "function", "instance", "env",
             "environment", "test_function"),
    "split": ("split", "subset", "partition", "phase", "stage"),
    "config": ("config", "configuration", "setting", "threshold", "hyperparameter",
               "hparams", "variant"),
    "budget": ("budget", "evaluations", "n_evals", "evals", "fidelity", "iterations",
               "n_iterations"),
}
_ID_NAMES = ("id", "model", "name", "model_name", "model_id", "run", "run_id", "run_name",
             "label", "key", "checkpoint")


def _words(name: str) -> list[str]:
    """Lower-case words of a column name, split at non-alphanumerics and camelCase."""
    words = []
    for chunk in re.split(r"[^0-9A-Za-z]+", str(name)):
        if not chunk:
            continue
        parts = re.findall(r"[A-Z]+(?![a-z])\d*|[A-Z]?[a-z]+\d*|\d+", chunk)
        words.extend(p.lower() for p in parts)
        if len(parts) > 1:
            words.append(chunk.lower())  # "mAP" -> also "map"
    return words


def _stems(word: str) -> set[str]:
    bases = {word, word.rstrip("0123456789")}
    plurals = {b[:-2] for b in bases if b.endswith("es")}
    plurals |= {b[:-1] for b in bases if b.endswith("s")}
    return (bases | plurals) - {""}


def guess_direction(column_name: str) -> str | None:
    """Guess whether a column named ``column_name`` is minimised or maximised.

    Parameters
    ----------
    column_name : str
        The column's header name.

    Returns
    -------
    "min", "max" or None
        None when no word is known, when words point both ways, or when a word marks a
        spread (std, ci) or a setting (seed, batch, epoch).

    Notes
    -----
    Whole words only: the name is split at non-alphanumerics and camelCase; digits at a
    word's end and a plural s/es are dropped (``rouge2`` -> rouge, ``errors`` -> error).
    In a rate only the word before "per" counts (``cost_per_token`` -> min,
    ``energy_tokens_per_kwh`` -> None: tokens is not a known word).
    O(length of the name).

    Examples
    --------
    >>> guess_direction("val_loss"), guess_direction("Top1Acc"), guess_direction("win rate")
    ('min', 'max', 'max')
    >>> guess_direction("accumulated_steps") is None, guess_direction("acc_std") is None
    (True, True)
    """
    words = _words(column_name)
    if "per" in words:  # the word before "per" decides: cost_per_token, tokens_per_kwh
        words = words[max(words.index("per") - 1, 0):words.index("per")]
    stems = [_stems(w) for w in words]
    if any(s & _NO_DIRECTION for s in stems):
        return None
    found = set()
    for s in stems:
        if s & MINIMISED:
            found.add("min")
        if s & MAXIMISED:
            found.add("max")
    for phrase in _MAX_PHRASES:
        if any(tuple(words[i:i + len(phrase)]) == phrase for i in range(len(words))):
            found.add("max")
    return found.pop() if len(found) == 1 else None


def _normal(name: str) -> str:
    return "_".join(_words(name))


def _is_number_column(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series.dtype) and not pd.api.types.is_bool_dtype(
        series.dtype)


def _id_column(frame: pd.DataFrame) -> str | None:
    unique: dict[str, bool] = {}  # checked lazily: O(N) hashing per candidate

    def is_unique(column: str) -> bool:
        if column not in unique:
            values = frame[column]
            unique[column] = bool(values.notna().all() and values.is_unique)
        return unique[column]

    for rank in (lambda c: _normal(c) in _ID_NAMES and not _is_number_column(frame[c]),
                 lambda c: not _is_number_column(frame[c]),
                 lambda c: _normal(c) in _ID_NAMES,
                 lambda c: pd.api.types.is_integer_dtype(frame[c].dtype)):
        for column in frame.columns:
            if rank(column) and is_unique(column):
                return column
    return None


def guess_roles(frame, /) -> Roles:
    """Propose :class:`Roles` for ``frame`` (typically from ``read_table``).

    Parameters
    ----------
    frame : pandas.DataFrame
        The uploaded table, with string column names.

    Returns
    -------
    Roles
        id: see :func:`_id_column` order (unique id-like text column, unique text
        column, unique id-like column, unique integer column); system / seed / task /
        split / config / budget: the first column whose name matches the role's names;
        objectives: numeric columns with a guessed direction (see the module notes);
        metadata: every other column, in table order.

    Raises
    ------
    InvalidInputError
        If no column is unique in every row (use :func:`add_row_ids` first), or no
        column is numeric.

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
    id_column = _id_column(frame)
    if id_column is None:
        raise InvalidInputError(
            "no column has a different value in every row, so none can be the row id; "
            "add an id column (e.g. model name) or number the rows")
    taken = {id_column}
    single = {}
    for role in SINGLE_ROLES:
        for column in frame.columns:
            if column not in taken and _normal(column) in _ROLE_NAMES[role]:
                single[role] = column
                taken.add(column)
                break
    numeric = [c for c in frame.columns
               if c not in taken and _is_number_column(frame[c]) and frame[c].notna().any()]
    if not numeric:
        raise InvalidInputError(
            "no column holds numbers (besides the id and role columns), so there is "
            "nothing to compare; objectives must be numeric")
    objectives = [Objective(c, d) for c in numeric if (d := guess_direction(c)) is not None]
    if not objectives:
        plain = [c for c in numeric if not any(_stems(w) & _NO_DIRECTION for w in _words(c))]
        objectives = [Objective(c, "max") for c in plain or numeric]
    taken.update(o.name for o in objectives)
    metadata = tuple(c for c in frame.columns if c not in taken)
    return Roles(id=id_column, objectives=tuple(objectives), metadata=metadata, **single)


def add_row_ids(frame, /, *, name: str = "row") -> pd.DataFrame:
    """Return a new frame with a first column of row numbers "1".."N" as ids.

    The column is called ``name`` (``name_2``, ``name_3``, ... if taken). The input is
    not modified.

    Examples
    --------
    >>> add_row_ids(pd.DataFrame({"row": [5, 6]})).columns.tolist()
    ['row_2', 'row']
    """
    if not isinstance(frame, pd.DataFrame):
        raise InvalidInputError(f"'frame' must be a pandas DataFrame, not {type(frame).__name__}")
    column, k = name, 1
    while column in frame.columns:
        k += 1
        column = f"{name}_{k}"
    out = frame.copy(deep=False)
    out.insert(0, column, pd.Series([str(i + 1) for i in range(len(out))], index=out.index,
                                    dtype="str"))
    return out
