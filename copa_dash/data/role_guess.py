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
* the id names the rows in every page, so it must read as a name and be different in
  every row (compared as the stripped text :func:`~copa_dash.data.io.build_eval_table`
  stores): a text column, or a column of whole numbers whose name says it is an identifier
  (``id``, ``run``, ``model``, ``run_id``, ``trial_idx``, ...). A measurement is never
  proposed, however unique its values: ``elo = 1200, 1250, ...`` or ``score = 0.81, ...``
  would make every chart label a row by a number that also sits on an axis. When no
  column qualifies (long tables: one row per system x task x seed; tables of numbers
  only), :func:`guess_id` returns None and :func:`add_row_ids` numbers the rows
  ``row 1``, ``row 2``, ...
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from ..core.errors import InvalidInputError
from .cell_marks import header_unit
from .cell_parsing import id_values
from .vocabulary import packaged_vocabulary, vocabulary

# The words themselves live in vocabulary.toml (copa_dash.data.vocabulary); these names stay
# for callers that import them: the packaged vocabulary's words.
MINIMISED = packaged_vocabulary().minimise  # a broken COPA_VOCABULARY is said when first used,
MAXIMISED = packaged_vocabulary().maximise  # not when the package is imported
# A spread or a setting in the name: no direction, whatever else the name says.
_NO_DIRECTION = frozenset({
    "std", "stderr", "sem", "sd", "stdev", "var", "variance", "ci", "batch", "seed", "epoch",
    "epochs", "step", "steps", "lr", "id", "idx", "index", "year", "fold", "rank",
})
_ROLE_NAMES = {
    "system": ("system", "method", "algorithm", "algo", "approach", "family", "model_family",
               "optimizer", "solver", "framework", "learner", "library"),
    "seed": ("seed", "random_seed", "replicate", "rep", "repeat", "trial", "run_seed"),
    "task": ("task", "dataset", "benchmark", "problem", "function", "instance", "env",
             "environment", "test_function",
             # a task named by its number: BBOB's funcId, OpenML's task_id
             "func_id", "funcid", "function_id", "problem_id", "task_id", "dataset_id"),
    "split": ("split", "subset", "partition", "phase", "stage"),
    "config": ("config", "configuration", "setting", "threshold", "hyperparameter",
               "hparams", "variant"),
    "budget": ("budget", "evaluations", "n_evals", "evals", "fidelity", "iterations",
               "n_iterations"),
}
_ID_NAMES = ("id", "model", "name", "model_name", "model_id", "run", "run_id", "run_name",
             "label", "key", "checkpoint")
_ID_LAST_WORDS = frozenset({"id", "idx", "index", "key", "uid", "uuid"})  # trial_id, ModelIdx
ROW_ID_PREFIX = "row "


def _words(name: str, *, joined: bool = True) -> list[str]:
    """Lower-case words of a column name, split at non-alphanumerics and camelCase.

    With ``joined`` a camelCase chunk is also given whole ("mAP" -> m, ap, map).
    """
    words = []
    for chunk in re.split(r"[^0-9A-Za-z]+", str(name)):
        if not chunk:
            continue
        parts = re.findall(r"[A-Z]+(?![a-z])\d*|[A-Z]?[a-z]+\d*|\d+", chunk)
        words.extend(p.lower() for p in parts)
        if joined and len(parts) > 1:
            words.append(chunk.lower())  # "mAP" -> also "map"
    return words


def _stems(word: str) -> set[str]:
    bases = {word, word.rstrip("0123456789")}
    plurals = {b[:-2] for b in bases if b.endswith("es")}
    plurals |= {b[:-1] for b in bases if b.endswith("s")}
    return (bases | plurals) - {""}


_UP, _DOWN = "↑⬆", "↓⬇"
_PER_WORDS = ("second", "sec", "hour", "joule")
_INLINE_RATE = re.compile(r"(?<![\w.])[A-Za-z$€£]+\s*/\s*[A-Za-z]+(?![\w])")


def _unit_direction(unit: str | None) -> tuple[str | None, str]:
    """Direction a unit implies, and why: a rate per time or energy is maximised, a cost minimised."""
    if not unit:
        return None, ""
    vocab = vocabulary()
    text = unit.strip().lower()
    if "/" in text:
        top, bottom = (part.strip() for part in text.split("/", 1))
        shown = unit.split("/", 1)[1].strip()
        if top in vocab.cost_units and top not in ("m",):
            return "min", f"a cost per {shown}"
        if bottom in vocab.cost_units | vocab.rate_bases:
            return "max", f"a rate: more per {shown} is better"
        return None, ""
    if text in vocab.cost_units:
        return "min", f"the unit {unit} is a cost (time, memory, energy or money)"
    return None, ""


def name_terms(words: list[str], known) -> list[tuple[str, int]]:
    """The vocabulary terms in a split name, longest phrase first: ``(term, first word)``.

    ``length_controlled_winrate`` gives ``length_controlled`` and ``winrate`` (not
    ``length``): a word inside a longer known phrase is not read on its own. A single word
    is matched by its stems (``errors`` -> error, ``rouge2`` -> rouge). Words are also
    joined without a separator, since the split cuts a name where digits meet letters:
    ``gsm8k`` (split gsm8, k) is ``gsm8k``, not the setting ``k``.

    Examples
    --------
    >>> name_terms(["gsm8", "k"], {"gsm8k", "k"}), name_terms(["win", "rate"], {"win_rate"})
    ([('gsm8k', 0)], [('win_rate', 0)])
    """
    out, i = [], 0
    while i < len(words):
        for j in range(min(len(words), i + 4), i + 1, -1):
            phrase = next((p for p in ("_".join(words[i:j]), "".join(words[i:j]))
                           if p in known or p.rstrip("s") in known), None)
            if phrase is not None:
                out.append((phrase if phrase in known else phrase.rstrip("s"), i))
                i = j
                break
        else:
            hit = sorted(_stems(words[i]) & known)
            if hit:
                out.append((hit[0], i))
            i += 1
    return out


def guess_direction(column_name: str, unit: str | None = None) -> str | None:
    """Guess whether a column named ``column_name`` is minimised or maximised.

    Parameters
    ----------
    column_name : str
        The column's header name.
    unit : str, optional
        The column's unit, when known from its cells (``61.1M`` -> M, ``56%`` -> %);
        a unit in the header (``Memory (MB)``) is found here.

    Returns
    -------
    "min", "max" or None
        None when no word or unit is known, when words point both ways, or when a word
        marks a spread (std, ci) or a setting (seed, batch, epoch).

    Notes
    -----
    In order: an arrow in the header (↑ max, ↓ min); a rate unit (``tokens/s``,
    ``tokens/kWh``: max; ``$/M tokens``: min); the words (whole words only: the name is
    split at non-alphanumerics and camelCase; digits at a word's end and a plural s/es
    are dropped: ``rouge2`` -> rouge, ``errors`` -> error; in a rate written in words
    only the word before "per" counts: ``cost_per_token`` -> min, and an amount per
    time or energy is a rate: ``tokens_per_second`` -> max; "non" flips the word
    after it: ``Non-toxicity`` -> max); a cost unit (s, ms, MB, GB, kWh, $: min);
    a ``%`` unit (max). O(length of the name).

    Examples
    --------
    >>> guess_direction("val_loss"), guess_direction("Top1Acc"), guess_direction("win rate")
    ('min', 'max', 'max')
    >>> guess_direction("Energy (tokens/kWh)"), guess_direction("Prefill (s)")
    ('max', 'min')
    >>> guess_direction("accumulated_steps") is None, guess_direction("acc_std") is None
    (True, True)
    """
    return direction_reason(column_name, unit)[0]


def direction_reason(column_name: str, unit: str | None = None) -> tuple[str | None, str]:
    """:func:`guess_direction` and the reason in plain words (empty when there is no guess)."""
    return direction_guess(column_name, unit)[:2]


def direction_guess(column_name: str, unit: str | None = None) -> tuple[str | None, str, str]:
    """``(direction, reason, confidence)``: :func:`guess_direction`, why, and how sure.

    Confidence is ``"sure"`` for an arrow or "higher is better" in the header, a rate or
    cost unit, or a word whose direction is a fact (accuracy, latency, recall); ``"likely"``
    for a word whose direction is a convention (size, params, memory, length: listed under
    ``[confidence] likely`` in the vocabulary) or a bare ``%``; ``"unsure"`` with no guess.

    Examples
    --------
    >>> direction_guess("recall/ap")[::2], direction_guess("#Params (B)")[::2]
    (('max', 'sure'), ('min', 'likely'))
    >>> direction_guess("length_controlled_winrate")[::2], direction_guess("KL divergence")[::2]
    (('max', 'sure'), ('min', 'sure'))
    """
    name = str(column_name)
    if any(a in name for a in _UP) or "higher is better" in name.lower():
        return "max", "the header says higher is better", "sure"
    if any(a in name for a in _DOWN) or "lower is better" in name.lower():
        return "min", "the header says lower is better", "sure"
    vocab = vocabulary()
    found = header_unit(name)
    if found is not None:
        name, unit = found[0], unit or found[1]
    by_unit, why_unit = _unit_direction(unit)
    if by_unit is not None and unit and "/" in unit:
        return by_unit, why_unit, "sure"
    inline = _INLINE_RATE.search(name) if not unit else None
    if inline is not None:   # "text generation t/s @ 128": a rate written in the name
        by_rate, why_rate = _unit_direction(inline.group(0))
        if by_rate is not None:
            return by_rate, why_rate, "likely"
    words = _words(name, joined=False)
    if "per" in words:  # the word before "per" decides: cost_per_token, tokens_per_kwh
        at = words.index("per")
        before, after = words[max(at - 1, 0):at], words[at + 1:at + 2]
        if before and after and before[0] in vocab.cost_units:   # J per token, usd per query
            return "min", f"a cost per {after[0]} ({before[0]})", "sure"
        if before and after and not any(_stems(before[0]) & vocab.minimise) \
                and (after[0] in vocab.rate_bases or after[0] in _PER_WORDS
                     or after[0] in vocab.cost_units):
            return "max", f"a rate: more {before[0]} per {after[0]} is better", "sure"
        words = words[:at]
    if not unit and len(words) > 1 and words[-1] in vocab.maximise_alone:
        # a task family named last is what the column scores: MTEB's
        # "BrazilianToxicTweetsClassification" classifies toxic tweets, it is no toxicity
        return "max", (f"the name reads as the score of a {words[-1]} task "
                       f"({vocab.community_of(words[-1])}), named last"), "likely"
    known = vocab.maximise | vocab.minimise
    terms = name_terms(words, known) or name_terms(_words(name), known)  # camelCase whole
    in_phrase = {i + k for t, i in terms if "_" in t for k in range(t.count("_") + 1)}
    if any(_stems(w) & _NO_DIRECTION for i, w in enumerate(words) if i not in in_phrase):
        return None, "", "unsure"  # a spread or setting word outside a known phrase
    found_dirs, matched = set(), []
    for term, i in terms:
        flipped = i > 0 and words[i - 1] in ("non", "no", "not") and words[i - 1] != term
        if term in vocab.minimise:
            found_dirs.add("max" if flipped else "min")
        if term in vocab.maximise:
            found_dirs.add("min" if flipped else "max")
        matched.append(term)
    if len(found_dirs) == 1:
        direction = found_dirs.pop()
        community = vocab.community_of(matched[0])
        sure = "likely" if all(t in vocab.likely for t in matched) else "sure"
        return direction, ("the name reads as " + ("a cost or an error" if direction == "min"
                                                  else "a score")
                           + (f" ({matched[0]!r}, {community})" if community else "")), sure
    if found_dirs:
        return None, "", "unsure"
    if by_unit is not None:
        return by_unit, why_unit, "sure"
    # what was measured, named without how: a benchmark ('gsm8k') or a task family (MTEB's
    # "...Retrieval") holds its score, read only when no other word decides ("MMLU - ECE")
    bench = name_terms(words, vocab.benchmarks) or name_terms(_words(name), vocab.benchmarks)
    if bench:
        return "max", (f"the name reads as a score ({bench[0][0]!r}, "
                       f"{vocab.community_of(bench[0][0])})"), "sure"
    alone = name_terms(words, vocab.maximise_alone) or name_terms(_words(name), vocab.maximise_alone)
    if alone:
        return "max", (f"the name reads as the score of a {alone[0][0].replace('_', ' ')} "
                       f"task ({vocab.community_of(alone[0][0])})"), "likely"
    if unit == "%":
        return "max", "a percentage (of correct answers, say)", "likely"
    return None, "", "unsure"


def _normal(name: str) -> str:
    return "_".join(_words(name))


def _is_number_column(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series.dtype) and not pd.api.types.is_bool_dtype(
        series.dtype)


def _is_text_column(series: pd.Series) -> bool:
    dtype = series.dtype
    return (pd.api.types.is_string_dtype(dtype) or pd.api.types.is_object_dtype(dtype)
            or isinstance(dtype, pd.CategoricalDtype)) and not pd.api.types.is_bool_dtype(dtype)


def _is_whole_number_column(series: pd.Series) -> bool:
    """Integers, or floats that are all whole (ids a spreadsheet stored as 1.0, 2.0)."""
    if pd.api.types.is_bool_dtype(series.dtype):
        return False
    if pd.api.types.is_integer_dtype(series.dtype):
        return True
    if not pd.api.types.is_float_dtype(series.dtype):
        return False
    values = series.to_numpy(dtype=np.float64, na_value=np.nan)
    return bool(np.isfinite(values).all() and (values == np.round(values)).all())


def _is_id_name(column: str) -> bool:
    words = _words(column, joined=False)
    return "_".join(words) in _ID_NAMES or (bool(words) and words[-1] in _ID_LAST_WORDS)


def guess_id(frame, /) -> str | None:
    """The column to propose as the row id, or None when no column can name the rows.

    Parameters
    ----------
    frame : pandas.DataFrame
        The uploaded table, with string column names.

    Returns
    -------
    str or None
        The first column, in this order of preference, whose ids (stripped text, as
        :func:`~copa_dash.data.io.build_eval_table` stores them) are present and
        different in every row: a text column with an id-like name (``model``,
        ``run_name``, ``trial_id``), a column of whole numbers with an id-like name
        (``id``, ``run``), any other text column. None if there is no such column: then
        number the rows with :func:`add_row_ids`.

    Notes
    -----
    A numeric column without an id-like name is never proposed, even when its values
    are unique, and neither is a column of fractional numbers: those are measurements
    (scores, sizes, times), not names. Cost: O(N) hashing per column tried.

    Examples
    --------
    >>> guess_id(pd.DataFrame({"elo": [1200, 1250], "run_id": [7, 8]}))
    'run_id'
    >>> guess_id(pd.DataFrame({"model": ["a", "a"], "score": [0.5, 0.7]})) is None
    True
    """
    if not isinstance(frame, pd.DataFrame):
        raise InvalidInputError(f"'frame' must be a pandas DataFrame, not {type(frame).__name__}")
    unique: dict[str, bool] = {}  # checked lazily: O(N) hashing per candidate

    def is_unique(column: str) -> bool:
        if column not in unique:
            ids = id_values(frame[column])
            unique[column] = bool(ids.notna().all() and ids.is_unique)
        return unique[column]

    for rank in (lambda c: _is_id_name(c) and _is_text_column(frame[c]),
                 lambda c: _is_id_name(c) and _is_whole_number_column(frame[c]),
                 lambda c: _is_text_column(frame[c])):
        for column in frame.columns:
            if rank(column) and is_unique(column):
                return column
    return None


def row_id_name(frame, /, *, name: str = "row") -> str:
    """The name :func:`add_row_ids` gives its column: ``name``, else ``name_2``, ``name_3``, ...

    Never a column of ``frame``, so a role naming it unambiguously means "number the rows".

    Examples
    --------
    >>> row_id_name(pd.DataFrame({"row": [5, 6]}))
    'row_2'
    """
    column, k = name, 1
    while column in frame.columns:
        k += 1
        column = f"{name}_{k}"
    return column


def add_row_ids(frame, /, *, name: str = "row") -> pd.DataFrame:
    """Return a new frame with a first column of ids ``row 1`` .. ``row N``, in row order.

    The column is called :func:`row_id_name` (``name``, or ``name_2``, ... if taken).
    The input is not modified.

    Examples
    --------
    >>> out = add_row_ids(pd.DataFrame({"row": [5, 6]}))
    >>> out.columns.tolist(), out["row_2"].tolist()
    (['row_2', 'row'], ['row 1', 'row 2'])
    """
    if not isinstance(frame, pd.DataFrame):
        raise InvalidInputError(f"'frame' must be a pandas DataFrame, not {type(frame).__name__}")
    column = row_id_name(frame, name=name)
    numbers = np.arange(1, len(frame) + 1).astype(str).astype(object)
    out = frame.copy(deep=False)
    out.insert(0, column, pd.Series(ROW_ID_PREFIX + numbers, index=out.index, dtype="str"))
    return out
