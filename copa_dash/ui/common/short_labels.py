"""Short labels for long entry names that stay tell-apart-able.

A chart label has room for about :data:`LABEL_CHARS` characters, so a longer name keeps its
head and its tail (model ids often differ at the end): ``hf/compressed-l…emistruct@0.5_4to8``.
Names that differ only in the middle, such as the pruning method in
``hf/compressed-llm/llama-2-13b-chat-{wanda,magnitude,sparsegpt}-semistruct@0.5_4to8``, would
all get that same label. :func:`unique_short_labels` shortens a whole list at once and, for
names whose labels collide, shows the part where they differ instead:
``hf/compr…wanda-semistruct…0.5_4to8``. The full name belongs in the hover.

A part every name shares tells none apart, yet a head-and-tail label spends its room on it:
AMLB's ``AutoGluon_benchmark_4h8c_gp3_2022_jmlr`` and nine more all end in
``_4h8c_gp3_2022_jmlr``, and a Hasse diagram read "Au…_jmlr" (issue 33).
:func:`apart_labels` leaves out the head and the tail every name shares (cut at a
separator) before shortening, and says once what it left out (:attr:`ApartLabels.note`),
for a legend title or a line under the figure.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from typing import NamedTuple

__all__ = ["LABEL_CHARS", "ApartLabels", "apart_labels", "shared_ends", "short_label",
           "unique_short_labels"]

LABEL_CHARS = 34
ELLIPSIS = "…"
_SEPARATORS = frozenset(" -_/|.:@,;+=()[]{}")
_JOINERS = frozenset("\u200d\u200c")           # zero-width (non-)joiner
_MARKS = frozenset(("Mn", "Mc", "Me"))           # combining marks, variation selectors
_SKIN_TONES = ("\U0001f3fb", "\U0001f3ff")
_FLAG_LETTERS = ("\U0001f1e6", "\U0001f1ff")    # regional indicators: two make a flag


def _inside(name: str, i: int) -> bool:
    """Would cutting ``name`` before position ``i`` split a character from its marks?"""
    ch = name[i]
    if unicodedata.category(ch) in _MARKS or ch in _JOINERS or name[i - 1] in _JOINERS:
        return True
    if _SKIN_TONES[0] <= ch <= _SKIN_TONES[1]:
        return True
    if _FLAG_LETTERS[0] <= ch <= _FLAG_LETTERS[1]:
        run = 0     # regional indicators just before i: an odd run means i is mid-flag
        while i - run > 0 and _FLAG_LETTERS[0] <= name[i - run - 1] <= _FLAG_LETTERS[1]:
            run += 1
        return run % 2 == 1
    return False


def _cut(name: str, i: int) -> int:
    """``i`` moved back to a place that does not split a character from its marks.

    A combining accent, a variation selector, a skin-tone modifier, a zero-width joiner or
    the second letter of a flag stays with the character before it, so a label never shows
    a bare accent or half an emoji.
    """
    while 0 < i < len(name) and _inside(name, i):
        i -= 1
    return i


def _join(name: str, spans) -> str:
    """The parts of ``name`` in ``spans`` [(start, stop)], with "…" where text is left out."""
    merged: list[list[int]] = []
    for start, stop in sorted((_cut(name, a), _cut(name, b)) for a, b in spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], stop)
        elif stop > start:
            merged.append([start, stop])
    text, last = "", 0
    for start, stop in merged:
        text += (ELLIPSIS if start > last else "") + name[start:stop]
        last = stop
    return text + (ELLIPSIS if last < len(name) else "")


def short_label(name, limit: int = LABEL_CHARS) -> str:
    """``name`` unchanged when it fits in ``limit`` characters, else its head, "…" and tail.

    Examples
    --------
    >>> short_label("GPT-4")
    'GPT-4'
    >>> short_label("hf/compressed-llm/llama-2-13b-chat-wanda-semistruct@0.5_4to8")
    'hf/compressed-l…emistruct@0.5_4to8'
    """
    name = str(name)
    if len(name) <= limit:
        return name
    head = limit // 2 - 2
    return _join(name, [(0, head), (len(name) - (limit - head - 1), len(name))])


def _common_prefix(names) -> int:
    first, last = min(names), max(names)     # the lexicographic extremes bound every prefix
    n = 0
    while n < min(len(first), len(last)) and first[n] == last[n]:
        n += 1
    return n


def _window(name: str, lo: int, hi: int, width: int) -> tuple[int, int]:
    """A span of ``width`` characters holding positions ``lo`` to ``hi``.

    It starts after the separator (space, ``-``, ``_``, ``/``, ...) that begins the word
    holding ``lo`` when that word start is near, so the label shows whole words
    (``wanda-semistruct``); otherwise a few characters before ``lo``.
    """
    earliest = max(0, hi - width + 1, lo - width // 2)
    start = lo
    while start > earliest and name[start - 1] not in _SEPARATORS:
        start -= 1
    if start > 0 and name[start - 1] not in _SEPARATORS:
        start = max(earliest, lo - 3)
    return start, start + width


def _window_label(name: str, positions, limit: int) -> str:
    """Head, the stretch holding ``positions`` (where the name differs from names that had
    its label), and tail, in about ``limit`` characters. When the positions are too far
    apart the head gives its room to the stretch, and failing that the stretch is split in
    two."""
    head = tail = limit // 4
    width = limit - head - tail - 2
    lo, hi = min(positions), max(positions)
    if hi - lo < width:
        middle = [(0, head), _window(name, lo, hi, width)]
    elif hi - lo < width + head:
        middle = [_window(name, lo, hi, width + head)]
    else:
        half = (width - 1) // 2
        middle = [(0, head), _window(name, lo, lo, half), _window(name, hi, hi, width - 1 - half)]
    return _join(name, [*middle, (len(name) - tail, len(name))])


def _collisions(labels: list[str]) -> list[list[int]]:
    where = defaultdict(list)
    for i, label in enumerate(labels):
        where[label].append(i)
    return [group for group in where.values() if len(group) > 1]


def unique_short_labels(names, /, *, limit: int = LABEL_CHARS) -> list[str]:
    """One short label per name, different names getting different labels.

    Parameters
    ----------
    names : iterable
        Entry names (turned into strings), in the order the labels are wanted.
    limit : int
        Names of at most this many characters are kept as they are; longer ones are
        shortened to about this many.

    Returns
    -------
    list of str
        ``short_label(name)`` for every name whose label no other name shares. Long names
        whose labels collide show head, "…", the stretch where they start to differ, "…"
        and tail; this is repeated, keeping the first and the last stretch found so far in
        view (as two stretches when they are far apart), until no long name shares a label.
        Names that still share a label (equal names, or a short name that is literally
        another's label) get " (2)", " (3)", ... in order of appearance; the first keeps
        its label.

    Notes
    -----
    Lengths are counted in code points; a cut never separates a character from its
    combining marks, variation selectors, skin-tone modifiers or zero-width joiners, nor
    the two letters of a flag (so a label may run a character or two over). A round
    that changes no label ends the loop, and there are at most as many rounds as the
    longest name has characters; the numbered suffixes then settle what is left, so the
    labels are always distinct. Cost: O(total length x rounds), rounds usually 1 or 2.

    Examples
    --------
    >>> unique_short_labels(["GPT-4",
    ...     "hf/compressed-llm/llama-2-13b-chat-wanda-semistruct@0.5_4to8",
    ...     "hf/compressed-llm/llama-2-13b-chat-magnitude-semistruct@0.5_4to8"])
    ['GPT-4', 'hf/compr…wanda-semistruct…0.5_4to8', 'hf/compr…magnitude-semist…0.5_4to8']
    """
    names = [str(n) for n in names]
    labels = [short_label(n, limit) for n in names]
    positions: list[set[int]] = [set() for _ in names]
    for _ in range(max(map(len, names), default=0)):
        changed = False
        for group in _collisions(labels):
            if len({names[i] for i in group}) == 1:
                continue                    # equal names: only a number tells them apart
            differs_at = _common_prefix([names[i] for i in group])
            for i in (i for i in group if len(names[i]) > limit):
                positions[i].add(min(differs_at, len(names[i]) - 1))
                new = _window_label(names[i], positions[i], limit)
                changed |= new != labels[i]
                labels[i] = new
        if not changed:
            break
    taken = set(labels)
    for group in _collisions(labels):
        for count, i in enumerate(group[1:], start=2):
            while f"{labels[i]} ({count})" in taken:
                count += 1
            labels[i] = f"{labels[i]} ({count})"
            taken.add(labels[i])
    return labels


SHARED_MIN_CHARS = 3      # a shared head or tail shorter than this is not worth a note


def _common_suffix(names) -> int:
    return _common_prefix([n[::-1] for n in names])


def shared_ends(names) -> tuple[str, str]:
    """The head and the tail every name shares, each cut at a separator, or "" for none.

    The head ends with a separator (``hf/compressed-llm/``) and the tail starts with one
    (``_4h8c_gp3_2022_jmlr``); each is kept only when it has at least
    :data:`SHARED_MIN_CHARS` characters and every name keeps something of its own between
    them. Fewer than two different names share nothing.

    Examples
    --------
    >>> shared_ends(["AutoGluon_benchmark_4h8c_gp3_2022_jmlr", "TPOT_4h8c_gp3_2022_jmlr"])
    ('', '_4h8c_gp3_2022_jmlr')
    >>> shared_ends(["hf/org/llama-7b", "hf/org/mistral-7b"])
    ('hf/org/', '-7b')
    >>> shared_ends(["alpha", "alps"])
    ('', '')
    """
    names = [str(n) for n in names]
    if len(set(names)) < 2:
        return "", ""
    n = _common_prefix(names)
    while n > 0 and names[0][n - 1] not in _SEPARATORS:
        n -= 1                              # the head ends at a separator
    head = names[0][:n] if n >= SHARED_MIN_CHARS else ""
    rest = [name[len(head):] for name in names]
    m = min(_common_suffix(rest), min(map(len, rest)) - 1)   # something of its own is left
    while m > 0 and rest[0][len(rest[0]) - m] not in _SEPARATORS:
        m -= 1                              # the tail starts at a separator
    tail = rest[0][len(rest[0]) - m:] if m >= SHARED_MIN_CHARS else ""
    return head, tail


class ApartLabels(NamedTuple):
    """Short labels without the shared head and tail, and a note saying what was left out
    ("" when nothing was)."""

    labels: list[str]
    note: str


def left_out_sentence(note: str, where: str) -> str:
    """The sentence a page shows under labels made by :func:`apart_labels`: its ``note`` as
    a sentence, then where the shared part was left out ("" when ``note`` is).

    >>> left_out_sentence("every method ends in '_jmlr'", "of the names")
    "Every method ends in '_jmlr', left out of the names"
    """
    return f"{note[0].upper() + note[1:]}, left out {where}" if note else ""


def apart_labels(names, /, *, limit: int = LABEL_CHARS, noun: str = "name") -> ApartLabels:
    """:func:`unique_short_labels` of ``names`` after leaving out the head and the tail
    they all share (:func:`shared_ends`) when some name is longer than ``limit``.

    Names that all fit are kept whole (nothing needs room). ``noun`` names the names in the
    note ("every method ends in ...").

    Examples
    --------
    >>> apart_labels(["AutoGluon_benchmark_4h8c_gp3_2022_jmlr", "TPOT_4h8c_gp3_2022_jmlr"],
    ...              limit=20, noun="method")
    ApartLabels(labels=['AutoGluon_benchmark', 'TPOT'], note="every method ends in '_4h8c_gp3_2022_jmlr'")
    >>> apart_labels(["GPT-4", "Claude"])
    ApartLabels(labels=['GPT-4', 'Claude'], note='')
    """
    names = [str(n) for n in names]
    if all(len(name) <= limit for name in names):
        return ApartLabels(unique_short_labels(names, limit=limit), "")
    head, tail = shared_ends(names)
    if not head and not tail:
        kept, note = _apart_parts(names, noun)
        return ApartLabels(unique_short_labels(kept, limit=limit), note)
    kept = [name[len(head):len(name) - len(tail)] for name in names]
    return ApartLabels(unique_short_labels(kept, limit=limit),
                       f"every {noun} {_said(head, tail)}")


#: what joins the parts of an upload's row id ("system · config": ``services/uploads``)
PART_JOINER = " · "
_ORDINALS = ("first", "second", "third", "fourth")


def _said(head: str, tail: str) -> str:
    said = [f"starts with '{head}'"] if head else []
    return " and ".join(said + ([f"ends in '{tail}'"] if tail else []))


def _apart_parts(names: list[str], noun: str) -> tuple[list[str], str]:
    """``names`` with the head and tail shared by each of their " · "-joined parts left out,
    and a note saying what was ("" and the names unchanged when no part shares any).

    An upload's row ids join the system and its configuration (``TPOT_4h8c_gp3_2022_jmlr ·
    yprop_4_1``): the system part of every id ends in ``_4h8c_gp3_2022_jmlr`` while the
    whole ids share no tail, so :func:`shared_ends` of the whole ids finds nothing (seen in
    Explore's ranked table as "lightaut… · yprop_4_1", issue 33).

    Examples
    --------
    >>> _apart_parts(["TPOT_4h8c_gp3 · yprop", "GAMA_benchmark_4h8c_gp3 · kick"], "id")
    (['TPOT · yprop', 'GAMA_benchmark · kick'], "the first part of every id ends in '_4h8c_gp3'")
    """
    parts = [name.split(PART_JOINER) for name in names]
    count = len(parts[0]) if parts else 0
    if count < 2 or count > len(_ORDINALS) or any(len(p) != count for p in parts):
        return names, ""
    notes = []
    for k in range(count):
        head, tail = shared_ends([p[k] for p in parts])
        if head or tail:
            for p in parts:
                p[k] = p[k][len(head):len(p[k]) - len(tail)]
            notes.append(f"the {_ORDINALS[k]} part of every {noun} {_said(head, tail)}")
    if not notes:
        return names, ""
    return [PART_JOINER.join(p) for p in parts], "; ".join(notes)
