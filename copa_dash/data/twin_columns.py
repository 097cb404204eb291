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
* ``Generation`` (how many fine-tunes or merges a model is from its base) is lineage,
  not a result: metadata too.
* Popularity (``Hub ❤️``, ``likes``, ``downloads``, ``stars``) says how many people
  noticed a system, not how well it did: it is proposed as metadata, never an objective
  the user did not ask for (they can make it one on the upload page).
"""

from __future__ import annotations

from dataclasses import replace

from .role_guess import _words

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


__all__ = ["drop_twins", "is_popularity", "lineage", "popularity_note", "raw_twins"]
