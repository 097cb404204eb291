"""The working context: the objectives (with their directions) and the constraints chosen on
Explore, which follow the user to the other pages of the same dataset. Its codec lives here
and only here; each page's ``state.py`` has a small ``apply_context`` hook that takes what
the page can use and says, through :func:`context_notes`, what it could not.

How it travels (see also :mod:`copa_dash.ui.common.context`): the browser remembers the
dataset and, from Explore's link, its ``obj``/``range``/``in`` settings. A page opened with
no settings of its own (a header link, ``/rankings?dataset=NAME`` of the remembered dataset)
gets them added to its link under the prefix ``ctx_``:

``/systems?dataset=open-llm-leaderboard-v2&ctx_obj=ifeval:max&ctx_obj=co2_cost:min
&ctx_range=co2_cost::5``

The prefix keeps them apart from the page's own keys, so the page knows what came from the
context (and can say what it could not use). A link with settings of its own wins: any key
other than ``dataset`` and the ``ctx_`` keys and the context is not read at all
(:func:`read_context`). The page then writes its own view's link (its share box), and the
``ctx_`` keys leave the address bar.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode

from copa_dash.services.views import query as codec  # the one query codec every page uses

PREFIX = "ctx_"
# the explorer's query keys the context carries (assets/context.js copies the same three)
KEYS = ("obj", "range", "in")
# keys of a link that are not settings of its own
_NEUTRAL = ("dataset",)


@dataclass(frozen=True)
class WorkingContext:
    """Objectives (name, "min"|"max"), ranges (name, low|None, high|None) and sets
    (name, allowed values) chosen on Explore."""

    objectives: tuple[tuple[str, str], ...] = ()
    ranges: tuple[tuple[str, float | None, float | None], ...] = ()
    sets: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def objective_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.objectives)

    @property
    def constraints(self) -> bool:
        return bool(self.ranges or self.sets)


def has_own_settings(query: dict) -> bool:
    """True when a link carries settings of its own (a key beyond ``dataset`` and ``ctx_*``)."""
    return any(key not in _NEUTRAL and not key.startswith(PREFIX) for key in query)


def read_context(query: dict) -> WorkingContext | None:
    """The context a link carries (its ``ctx_`` keys), or None when it carries none or has
    settings of its own (the link's own settings win).

    Examples
    --------
    >>> read_context({"dataset": "d", "ctx_obj": ["a:max", "b:min"], "ctx_in": "t:x|y"})
    WorkingContext(objectives=(('a', 'max'), ('b', 'min')), ranges=(), sets=(('t', ('x', 'y')),))
    >>> read_context({"dataset": "d", "obj": "a:max", "ctx_obj": "b:min"}) is None
    True
    """
    if has_own_settings(query) or not any(PREFIX + key in query for key in KEYS):
        return None
    return WorkingContext(objectives=codec.objective_pairs(query.get(PREFIX + "obj")),
                          ranges=codec.range_triples(query.get(PREFIX + "range")),
                          sets=codec.value_sets(query.get(PREFIX + "in")))


def without_context(query: dict) -> dict:
    """``query`` without its ``ctx_`` keys (what the link itself asked for)."""
    return {key: value for key, value in query.items() if not key.startswith(PREFIX)}


def context_query(context: WorkingContext) -> str:
    """The ``ctx_`` keys of ``context`` as a query string (without ``?``)."""
    pairs = [(PREFIX + "obj", item) for item in codec.objective_items(context.objectives)]
    pairs += [(PREFIX + "range", item) for item in codec.range_items(context.ranges)]
    pairs += [(PREFIX + "in", item) for item in codec.set_items(context.sets)]
    return urlencode(pairs, safe=":|,")


def parse_context_query(text: str) -> WorkingContext | None:
    """:func:`context_query` read back (the inverse), e.g. from the browser's store."""
    return read_context(parse_qs(text or "", keep_blank_values=False))


def fit_context(context: WorkingContext, objectives, columns=()) -> tuple[WorkingContext, list[str]]:
    """The part of ``context`` a dataset can use, and a note for each part it cannot.

    Parameters
    ----------
    context : WorkingContext
    objectives : iterable of str
        The objectives the page can use on its dataset.
    columns : iterable of str
        Columns a constraint may name (objectives are always allowed).

    Examples
    --------
    >>> fitted, notes = fit_context(WorkingContext(objectives=(("a", "max"), ("zz", "min"))), ["a", "b"])
    >>> fitted.objectives, notes
    ((('a', 'max'),), ['objective zz: this dataset has no such objective, left out'])
    """
    names = list(objectives)
    allowed = set(names) | set(columns)
    notes = [f"objective {name}: this dataset has no such objective, left out"
             for name in context.objective_names if name not in names]
    dropped = [name for name, *_ in (*context.ranges, *context.sets) if name not in allowed]
    notes += [f"constraint on {name}: this dataset has no such column, left out"
              for name in dict.fromkeys(dropped)]
    return WorkingContext(
        objectives=tuple((n, d) for n, d in context.objectives if n in names),
        ranges=tuple(r for r in context.ranges if r[0] in allowed),
        sets=tuple(s for s in context.sets if s[0] in allowed)), notes


def fit_to_table(context: WorkingContext, table, *, objectives_only: bool = False):
    """:func:`fit_context` against a dataset's table (its objectives, and its columns for
    constraints); ``objectives_only`` keeps just the objectives, for pages that take no
    constraints. Returns the fitted context and the notes."""
    fitted, notes = fit_context(context, table.objective_names, table.frame.columns)
    if objectives_only:
        fitted = WorkingContext(objectives=fitted.objectives)
    return fitted, notes


def directions_of(table) -> dict[str, str]:
    """The dataset's own direction of each objective (what a flipped direction is told against)."""
    return dict(zip(table.objective_names, table.directions))


def _one_of(values) -> str:
    """Allowed values in words: ``true``; ``A or B``; ``A, B or C``; past :data:`NAMED` + 1,
    ``one of A, B, C, D and 3 more``.

    >>> _one_of(["true"]), _one_of(["chat", "base"]), _one_of("abc"), _one_of("abcdefg")
    ('true', 'chat or base', 'a, b or c', 'one of a, b, c, d and 3 more')
    """
    values = [str(v) for v in values]
    if len(values) > NAMED + 1:
        return f"one of {_few(values)}"
    if len(values) == 1:
        return values[0]
    return f"{', '.join(values[:-1])} or {values[-1]}"


def describe_constraints(context: WorkingContext) -> str:
    """The constraints in plain words: ``co2_cost <= 5; type is chat or base``.

    >>> describe_constraints(WorkingContext(ranges=(("co2_cost", None, 5.0),),
    ...                                     sets=(("available_on_hub", ("true",)),)))
    'co2_cost <= 5; available_on_hub is true'
    """
    parts = []
    for name, low, high in context.ranges:
        if low is not None and high is not None:
            parts.append(f"{low:g} <= {name} <= {high:g}")
        elif low is not None:
            parts.append(f"{name} >= {low:g}")
        elif high is not None:
            parts.append(f"{name} <= {high:g}")
    parts += [f"{name} is {_one_of(values)}" for name, values in context.sets]
    return "; ".join(parts)


#: objectives the bar names before it counts the rest (12 long names took 6 lines at 1024 px
#: above the page; the page's own objective controls list them all)
NAMED = 4


def _few(names) -> str:
    """``names`` joined, the first :data:`NAMED` then how many more.

    >>> _few(["a", "b"]), _few("abcdefg")
    ('a, b', 'a, b, c, d and 3 more')
    """
    names = list(names)
    if len(names) <= NAMED + 1:
        return ", ".join(names)
    return f"{', '.join(names[:NAMED])} and {len(names) - NAMED} more"


def context_notes(page: str, context: WorkingContext, *, used: WorkingContext,
                  left_out: list[str] = (), table_directions=None, why_no_constraints: str = "",
                  why_no_ranges: str = "") -> list[str]:
    """What the bar says about the context on ``page``: what was applied, in plain words,
    and each part the page could not use with the reason.

    Parameters
    ----------
    page : str
        The page's name as the header shows it.
    context : WorkingContext
        The context the link carried.
    used : WorkingContext
        What the page applied.
    left_out : list of str
        Notes of :func:`fit_context` (unknown objectives or columns).
    table_directions : dict, optional
        ``{objective: direction}`` when the page ranks every objective in its dataset's own
        direction: a direction the context flipped is then said to be unused.
    why_no_constraints, why_no_ranges : str
        Why the page uses no constraints / no ranges (empty: it uses them).
    """
    parts = []
    if used.objectives:
        parts.append(f"objectives {_few(used.objective_names)}")
    if used.constraints:
        parts.append(f"constraints {describe_constraints(used)}")
    notes = [f"Opened with your working context: {'; '.join(parts)}."] if parts else []
    if table_directions:
        flipped = [f"{n} ({d})" for n, d in context.objectives
                   if n in table_directions and table_directions[n] != d]
        if flipped:
            notes.append(f"{page} takes every objective in its dataset's own direction: "
                         f"your direction for {', '.join(flipped)} is not used here.")
    if why_no_constraints and context.constraints:
        notes.append(f"Constraints ({describe_constraints(context)}) do not apply on {page}: "
                     f"{why_no_constraints}.")
    elif why_no_ranges and context.ranges:
        ranges = WorkingContext(ranges=context.ranges)
        notes.append(f"Range constraints ({describe_constraints(ranges)}) do not apply on "
                     f"{page}: {why_no_ranges}.")
    notes += [f"Not here: {note}." for note in left_out]
    return notes

