"""The vocabulary behind role and direction guesses, read from ``vocabulary.toml``.

Knowledge of what a column name means (``recall`` is maximised, ``kl_divergence``
minimised, ``standard_error`` is the spread of another column, ``nprobe`` a search setting)
is data, grouped by community in the TOML file beside this module, so a practitioner can
read it and add to it without touching code: the file named by the environment variable
``COPA_VOCABULARY`` (same shape, any subset of the sections) is read after the package's
and its words are added.

A word is a lower-case whole word of a split column name (see
:func:`copa_dash.data.role_guess.direction_reason`); an entry with ``_`` is a phrase whose
words must follow each other (``win_rate`` matches ``Win Rate``).
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..core.errors import InvalidInputError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - python 3.10 only
    import tomli as tomllib

PACKAGED = Path(__file__).with_name("vocabulary.toml")
ENV_VARIABLE = "COPA_VOCABULARY"
_LISTS = {
    "never_goals": ("uncertainty", "counts", "settings", "flags", "timestamps"),
    "units": ("cost", "rate_bases", "unit_column_words"),
    "confidence": ("likely",),
}


@dataclass(frozen=True)
class Vocabulary:
    """Words by meaning (all lower case). ``communities`` maps a community to its
    ``{"maximise": ..., "minimise": ..., ...}`` words, for the docs and the notes."""

    maximise: frozenset
    minimise: frozenset
    maximise_alone: frozenset
    benchmarks: frozenset
    best_at_one: frozenset
    best_at_zero: frozenset
    likely: frozenset
    uncertainty: frozenset
    counts: frozenset
    settings: frozenset
    flags: frozenset
    timestamps: frozenset
    cost_units: frozenset
    rate_bases: frozenset
    unit_column_words: frozenset
    communities: tuple
    sources: tuple

    def community_of(self, word: str) -> str | None:
        """The first community whose lists hold ``word`` (for a reason shown to the user)."""
        for name, lists in self.communities:
            if any(word in words for words in lists.values()):
                return name.replace("_", " ")
        return None


def _words_of(table: dict, section: str, key: str, source: str, shown: str = "") -> list[str]:
    value = table.get(section, {}).get(key, [])
    if not isinstance(value, list) or not all(isinstance(w, str) for w in value):
        raise InvalidInputError(f"{source}: [{shown or section}] {key} must be a list of words "
                                f"in quotes, e.g. {key} = [\"recall\", \"ndcg\"]")
    return [w.strip().lower() for w in value if w.strip()]


def _read(path: Path) -> dict:
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise InvalidInputError(f"{ENV_VARIABLE}={path}: no such file; point it at a TOML "
                                "file shaped like copa_dash/data/vocabulary.toml") from None
    except tomllib.TOMLDecodeError as error:
        raise InvalidInputError(f"{path}: not valid TOML ({error}); see "
                                "copa_dash/data/vocabulary.toml for the shape") from None


def build_vocabulary(*tables: tuple[str, dict]) -> Vocabulary:
    """Merge ``(source, parsed TOML)`` pairs into one :class:`Vocabulary` (lists are added).

    Raises
    ------
    InvalidInputError
        If a list is not a list of strings (the message names the file and the key).
    """
    merged: dict[str, set] = {}
    communities: dict[str, dict[str, set]] = {}
    for source, table in tables:
        for name, lists in (table.get("communities") or {}).items():
            if not isinstance(lists, dict):
                raise InvalidInputError(f"{source}: [communities.{name}] must be a table of "
                                        "word lists (maximise = [...], minimise = [...])")
            into = communities.setdefault(name, {})
            for key in lists:
                into.setdefault(key, set()).update(
                    _words_of(table["communities"], name, key, source, f"communities.{name}"))
        for section, keys in _LISTS.items():
            for key in keys:
                merged.setdefault(key, set()).update(_words_of(table, section, key, source))

    def every(key: str) -> frozenset:
        return frozenset(w for lists in communities.values() for w in lists.get(key, ()))

    return Vocabulary(
        maximise=every("maximise"), minimise=every("minimise"),
        maximise_alone=every("maximise_alone"), benchmarks=every("benchmarks"),
        best_at_one=every("best_at_one"), best_at_zero=every("best_at_zero"),
        likely=frozenset(merged["likely"]), uncertainty=frozenset(merged["uncertainty"]),
        counts=frozenset(merged["counts"]), settings=frozenset(merged["settings"]),
        flags=frozenset(merged["flags"]), timestamps=frozenset(merged["timestamps"]),
        cost_units=frozenset(merged["cost"]), rate_bases=frozenset(merged["rate_bases"]),
        unit_column_words=frozenset(merged["unit_column_words"]),
        communities=tuple((n, {k: frozenset(v) for k, v in lists.items()})
                          for n, lists in communities.items()),
        sources=tuple(source for source, _ in tables))


@lru_cache(maxsize=8)
def word_lists(section: str) -> dict[str, frozenset]:
    """The word lists of one section of the package's ``vocabulary.toml`` (``COPA_VOCABULARY``
    does not extend them): ``[failed_rows]`` and ``[runs]``, read by the modules of those names.

    Examples
    --------
    >>> "oom" in word_lists("failed_rows")["failure_columns"]
    True
    """
    table = _read(PACKAGED)
    return {key: frozenset(_words_of(table, section, key, str(PACKAGED)))
            for key in table.get(section, {})}


def header_words(column) -> list[str]:
    """Lower-case words of a header without its unit, camelCase split.

    Examples
    --------
    >>> header_words("Energy (tokens/kWh)"), header_words("wallTime_s")
    (['energy'], ['wall', 'time', 's'])
    """
    text = re.sub(r"[\(\[][^()\[\]]*[\)\]]", " ", str(column))
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", text).lower()
    return [w for w in re.split(r"[^0-9a-z]+", text) if w]


@lru_cache(maxsize=4)
def _cached(extra: str) -> Vocabulary:
    tables = [(str(PACKAGED), _read(PACKAGED))]
    if extra:
        tables.append((extra, _read(Path(extra))))
    return build_vocabulary(*tables)


def packaged_vocabulary() -> Vocabulary:
    """The package's vocabulary alone (``COPA_VOCABULARY`` is not read)."""
    return _cached("")


def vocabulary() -> Vocabulary:
    """The package's vocabulary plus the file named by ``COPA_VOCABULARY``, if set.

    Read once per value of the variable (cached).

    Examples
    --------
    >>> v = vocabulary()
    >>> "recall" in v.maximise, "kl_divergence" in v.minimise, "standard_error" in v.uncertainty
    (True, True, True)
    """
    return _cached(os.environ.get(ENV_VARIABLE, "").strip())
