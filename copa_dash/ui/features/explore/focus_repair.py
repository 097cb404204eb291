"""The focus and the axes when objectives are unticked and ticked again (no dash here).

Unticking the focus objective must move the focus (and an axis on it) to an objective still
chosen, but ticking it back used to leave them there: the user's focus was lost without a
word and "how sure" changed for the same objectives. Each of focus, x and y remembers what the
user chose (``wanted``) and what the page shows in its place (``shown``); while the shown
value is still the page's stand-in, the wanted one comes back as soon as its objective is
ticked again. A choice the user makes meanwhile (the shown value changed) becomes the wanted
one. While a stand-in is shown, :func:`repair` returns a note saying what moved and why. The
"log x/y" ticks the axes had are kept while they are displaced (the page unticks a log box over
a column with values of zero or below) and given back with them.
"""

from __future__ import annotations

__all__ = ["repair"]


def _wanted(memory, slot, current):
    kept = (memory or {}).get(slot)
    return kept["wanted"] if kept and kept["shown"] == current else current


def repair(names, focus, x, y, memory, log=()) -> tuple[list, str | None, str | None, dict,
                                                          str, list | None]:
    """Focus, x and y for the chosen objectives ``names``, the memory to keep, a note, and
    the log ticks to give back (None: leave them).

    Parameters
    ----------
    names : list of str
        The objectives ticked now, in the page's order.
    focus, x, y
        What the controls show now (focus a list of names).
    memory : dict or None
        What the last call returned (a ``dcc.Store``), None at first.
    log : list of str
        The "log x/y" ticks now.

    Examples
    --------
    >>> f, x, y, memory, note, _ = repair(["b", "c"], ["a"], "a", "b", None)
    >>> f, x, y, note
    (['b'], 'b', 'c', "'a' is unticked: the focus is on 'b' and the axes show 'b' against 'c' until it is ticked again.")
    >>> repair(["a", "b", "c"], f, x, y, memory)
    (['a'], 'a', 'b', {...}, '', [])
    """
    want_focus = list(_wanted(memory, "focus", list(focus or [])))
    want_x, want_y = _wanted(memory, "x", x), _wanted(memory, "y", y)
    shown_focus = [f for f in want_focus if f in names] or names[:1]
    shown_x = want_x if want_x in names else (shown_focus[0] if shown_focus else None)
    shown_y = want_y if want_y in names and want_y != shown_x else next(
        (n for n in names if n != shown_x), shown_x)
    displaced = (shown_x, shown_y) != (want_x, want_y)
    kept_log = (memory or {}).get("log")
    give_back = None
    if displaced and kept_log is None:
        kept_log = list(log or [])
    elif not displaced and kept_log is not None:
        give_back, kept_log = kept_log, None
    memory = {"focus": {"wanted": want_focus, "shown": shown_focus},
              "x": {"wanted": want_x, "shown": shown_x},
              "y": {"wanted": want_y, "shown": shown_y}, "log": kept_log}
    gone = [n for n in dict.fromkeys([*want_focus, want_x, want_y])
            if n is not None and n not in names]
    moved = []
    if shown_focus != want_focus:
        moved.append("the focus is on " + ", ".join(map(repr, shown_focus)))
    if (shown_x, shown_y) != (want_x, want_y) and shown_x is not None:
        moved.append(f"the axes show {shown_x!r} against {shown_y!r}")
    note = ""
    if gone and moved:
        note = (f"{', '.join(map(repr, gone))} {'is' if len(gone) == 1 else 'are'} unticked: "
                f"{' and '.join(moved)} until {'it is' if len(gone) == 1 else 'they are'} "
                "ticked again.")
    return shown_focus, shown_x, shown_y, memory, note, give_back
