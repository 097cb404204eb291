"""Rank the rows (or systems) of a dataset under several criteria: the bump-chart view.

:func:`parse_criteria` reads the criteria a user writes (``copa:1, copa:inf, mean, norm,
delta:REF, obj:COL``); :func:`rank_view` ranks the entries of a table under them, one entry
per row or, when the table has a system column and a system has several rows (seeds), one
per system (per configuration of a system that has several) with the mean of its runs. Results are memoised per dataset in the shared
cache. :func:`chart_rows`, :func:`change_order` and :func:`flattery` are the small
decisions the page and the command line share: which rows a chart shows and highlights,
which move most, and which the first criterion flatters.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

import numpy as np

from ..core.criteria import weights_from_alpha
from ..core.errors import InvalidInputError, MethodNotApplicableError
from ..core.rank_tables import Criterion, rank_spread
from ..core.validate import check_p, check_weights, format_p
from ..data.filters import RowFilter, value_label
from ..data.schema import EvalTable
from .method_limits import why_not
from .objectives import missing_counts, resolve_objectives, rows_left_out_note
from .rank_columns import rank_table_of
from .task_span import TaskSpan, task_span

DEFAULT_CRITERIA = ("mean", "norm", "copa:1", "copa:2", "copa:4", "copa:8", "copa:inf")
GROUP_MODES = ("system", "rows")   # system: by the system column when the table has one
CRITERIA_SYNTAX = "copa:P (P >= 1 or inf), mean, norm, delta, delta:ID or obj:COLUMN"


def parse_criteria(spec, objectives, entry_ids=()) -> tuple[tuple[str, Criterion], ...]:
    """Read criteria written as text into ``(label, Criterion)`` pairs.

    Parameters
    ----------
    spec : str or sequence of str
        ``"copa:1,copa:inf,mean,norm,delta:REF,obj:COL"`` or the same items as a list.
    objectives : sequence of str
        The objectives being ranked on (``obj:COL`` must name one of them).
    entry_ids : sequence of str
        Names of the entries being ranked (``delta:REF`` must name one of them).

    Raises
    ------
    InvalidInputError
        For an unknown or repeated criterion, naming it and the accepted syntax.
    """
    items = spec.split(",") if isinstance(spec, str) else list(spec or ())
    items = [str(item).strip() for item in items if str(item).strip()]
    if not items:
        raise InvalidInputError(f"give at least one criterion: {CRITERIA_SYNTAX}")
    objectives = list(objectives)
    ids = {str(i): position for position, i in enumerate(entry_ids)}
    out, seen = [], set()
    for item in items:
        kind, sep, argument = item.partition(":")
        kind = kind.strip().lower()
        if kind == "copa" and sep:
            p = check_p(argument.strip(), name=f"p of criterion {item!r}")
            label, criterion = f"copa:{format_p(p)}", Criterion("copa", p=p)
        elif kind in ("mean", "norm") and not sep:
            label, criterion = kind, Criterion(kind)
        elif kind == "delta" and not sep:
            label, criterion = "delta", Criterion("delta")
        elif kind == "delta":
            if argument not in ids:
                raise InvalidInputError(
                    f"criterion {item!r}: {argument!r} is not one of the ranked entries "
                    f"(e.g. {', '.join(list(ids)[:3])})")
            label, criterion = f"delta:{argument}", Criterion("delta", reference=ids[argument])
        elif kind == "obj" and sep:
            if argument not in objectives:
                raise InvalidInputError(
                    f"criterion {item!r}: {argument!r} is not a chosen objective "
                    f"({', '.join(objectives)})")
            label = f"obj:{argument}"
            criterion = Criterion("objective", objective=objectives.index(argument))
        else:
            raise InvalidInputError(f"criterion {item!r} is not known: write {CRITERIA_SYNTAX}")
        if label in seen:
            raise InvalidInputError(f"criterion {label!r} is listed twice")
        seen.add(label)
        out.append((label, criterion))
    return tuple(out)


@dataclass(frozen=True)
class RankingView:
    """Ranks of the entries (rows, or systems averaged over their rows) under each criterion."""

    ids: np.ndarray            # (N,) entry names
    criteria: tuple            # (C,) labels
    ranks_broken: np.ndarray   # (N, C) 1..N, ties broken by COPA at p = 8, sum u, order
    ranks_kept: np.ndarray     # (N, C) tied entries share 1 + #strictly better
    scores: np.ndarray         # (N, C) smaller is better
    objectives: tuple
    directions: tuple
    raw: np.ndarray            # (N, K) values (means over the system's rows when grouped)
    n_members: np.ndarray      # (N,) rows behind each entry
    group_column: str | None
    weights: np.ndarray        # (K,)
    notes: tuple
    #: the tasks the ranked rows come from, when more than one (the pages and the CLI say so)
    task_span: TaskSpan | None = None

    @property
    def task_what(self) -> str:
        """What the ranking does with rows of several tasks, as :data:`task_span.WHAT` keys:
        a system's mean (``average``) or one row against another (``rank``)."""
        return "average" if self.group_column else "rank"

    def ranks(self, ties: str = "break") -> np.ndarray:
        """The rank matrix with ties broken (``"break"``) or kept (``"keep"``)."""
        if ties not in ("break", "keep"):
            raise InvalidInputError(f"ties must be 'break' or 'keep', not {ties!r}")
        return self.ranks_broken if ties == "break" else self.ranks_kept


def filter_key(row_filter: RowFilter) -> str:
    """Canonical text of a row filter (part of cache keys)."""
    return json.dumps({
        "conditions": [[c.column, c.operator, c.value] for c in row_filter.conditions],
        "ranges": {k: list(v) for k, v in sorted(row_filter.ranges.items())},
        "sets": {k: sorted(map(str, v)) for k, v in sorted(row_filter.sets.items())},
    }, sort_keys=True, default=str)


def _most_missing(table: EvalTable, objectives, rows) -> str:
    """" (most missing: 'logloss' in 6 rows, ...)" for the refusal, "" when none is."""
    missing = missing_counts(table, list(objectives), rows)[:3]
    return (" (most missing: " + ", ".join(f"{name!r} in {k} rows" for name, k in missing)
            + ")") if missing else ""


def _entries(table: EvalTable, objectives, row_filter: RowFilter, group: str):
    """Entry names, values, member counts, grouping column and notes."""
    frame = table.frame
    passes = row_filter.mask(frame)
    raw = table.matrix(list(objectives))
    complete = ~np.isnan(raw).any(axis=1)
    keep = passes & complete
    notes = []
    n_missing = int((passes & ~complete).sum())
    if n_missing:
        notes.append(rows_left_out_note(
            n_missing, missing=missing_counts(table, list(objectives), passes)))
    if keep.sum() < 2:
        raise InvalidInputError(
            "fewer than 2 rows pass the filters with every chosen objective: widen the filters "
            "or drop an objective" + _most_missing(table, objectives, passes))
    system = table.roles.system
    ids, values = table.ids[keep], raw[keep]
    if system is None or group == "rows":
        if table.roles.seed:
            # say what one ranked item is (Explore ranks rows; here the user chose rows too)
            notes.append(f"Each entry is one row: one run of a {system or 'system'}, with its "
                         f"configuration and seed ({table.roles.seed!r}); nothing is averaged.")
        return ids, values, np.ones(len(ids), dtype=np.int64), None, notes
    names = system_entry_labels(table)[keep]
    systems, first, inverse, counts = np.unique(names, return_index=True, return_inverse=True,
                                                return_counts=True)
    order = np.argsort(first, kind="stable")              # systems in table order
    sums = np.zeros((len(systems), values.shape[1]))
    np.add.at(sums, inverse, values)
    means = sums / counts[:, None]
    config = table.roles.config
    split = config is not None and len(set(names)) > len(set(frame[system].astype(str)[keep]))
    if counts.max() > 1:
        seed = table.roles.seed
        what = f"its runs (seed column {seed!r})" if seed else "its rows"
        one = f"{system} and {config}" if split else system
        notes.append(f"Each entry is one {one}: the mean of {what}, {counts.min()} to "
                     f"{counts.max()} rows each.")
    if split:
        notes.append(f"A {system} with several configurations ({config!r}) has one entry for "
                     "each ('name · configuration'): configurations are compared, never "
                     "averaged together.")
    return systems[order], means[order], counts[order], system, notes


def system_entry_labels(table: EvalTable) -> np.ndarray:
    """The entry each row belongs to when a ranking is by system: the system's name, or
    ``'name · configuration'`` for a system whose rows have several configurations (the
    table's config column). Runs (seeds) of one configuration share an entry and are
    averaged; configurations are never averaged together, as the upload page says of them
    (:mod:`copa_dash.data.runs`).

    Examples
    --------
    >>> import pandas as pd
    >>> from copa_dash.data.schema import EvalTable, Objective, Roles
    >>> frame = pd.DataFrame({"id": list("abcde"), "m": ["x", "x", "x", "y", "y"],
    ...                       "q": ["4bit", "4bit", "8bit", "4bit", "4bit"],
    ...                       "acc": [1.0, 2, 3, 4, 5]})
    >>> roles = Roles(id="id", objectives=(Objective("acc", "max"),), system="m", config="q")
    >>> list(system_entry_labels(EvalTable(frame, roles)))
    ['x · 4bit', 'x · 4bit', 'x · 8bit', 'y', 'y']
    """
    frame = table.frame
    names = frame[table.roles.system].astype(str)
    config = table.roles.config
    if config is None or config not in frame.columns:
        return names.to_numpy()
    configs = frame[config].astype(str).where(frame[config].notna(), "")
    several = configs.groupby(names).transform("nunique") > 1
    labels = names.where(~several | (configs == ""), names + " · " + configs)
    return labels.to_numpy()


def rank_view(table: EvalTable, *, criteria=DEFAULT_CRITERIA, objectives=None, weights=None,
              focus=(), alpha: float = 0.5, row_filter: RowFilter | None = None, group: str = "system", dataset_id: str = "",
              cache=None) -> RankingView:
    """Rank the entries of ``table`` under each criterion (memoised per dataset).

    Parameters
    ----------
    table : EvalTable
    criteria : str or sequence of str
        See :func:`parse_criteria`; default: mean, norm and COPA with p in {1, 2, 4, 8, inf}.
    objectives : sequence of (name, direction) or of names, optional
        Default: every objective of the table with its direction.
    weights : sequence of float, optional
        One per objective (normalised); default equal weights, as in the paper's figures.
    focus, alpha : sequence of str, float
        Instead of ``weights``: the focus objectives get ``alpha`` (METHODS.md); an empty
        focus, or every objective in it, means equal weights.
    row_filter : RowFilter, optional
        Rows that take part (e.g. one model-selection method of DomainBed).
    group : {"system", "rows"}
        ``system`` names the entries by the system column when the table has one, averaging
        a system's rows (seeds) within each of its configurations
        (:func:`system_entry_labels`); ``rows`` keeps one entry per row.

    Raises
    ------
    InvalidInputError
        With a message saying what to change.
    """
    if group not in GROUP_MODES:
        raise InvalidInputError(f"group must be one of {', '.join(GROUP_MODES)}, not {group!r}")
    names, directions = resolve_objectives(table, objectives)
    w = _weights(names, weights, focus, alpha)
    row_filter = row_filter or RowFilter()
    ids, values, members, group_column, notes = _entries(table, names, row_filter, group)
    parsed = parse_criteria(criteria, names, ids)
    labels = tuple(label for label, _ in parsed)

    def compute() -> RankingView:
        # one memoised column per criterion: a new criteria set reads the kept ones
        try:
            table_ = rank_table_of(values, list(directions), w, parsed, cache=cache,
                                   dataset_id=dataset_id,
                                   key=None if cache is None else
                                   {k: v for k, v in key.items() if k != "criteria"})
        except MethodNotApplicableError as refused:
            raise InvalidInputError(_refused_words(refused, parsed, names, ids)) from None
        return RankingView(ids=np.asarray(ids, dtype=object), criteria=labels,
                           ranks_broken=table_.ranks, ranks_kept=table_.tied_ranks,
                           scores=table_.scores, objectives=tuple(names),
                           directions=tuple(directions), raw=values, n_members=members,
                           group_column=group_column, weights=w, notes=tuple(notes))

    # outside the memoised view: cheap, and a view kept before it existed still gets it
    span = task_span(table, _kept_rows(table, names, row_filter), pooled_by=group_column)
    if cache is None:
        return replace(compute(), task_span=span)
    key = {"criteria": list(labels), "objectives": list(names), "directions": list(directions),
           "weights": [float(x) for x in w], "filter": filter_key(row_filter), "group": group,
           "entries": "system+config"}    # configurations are not averaged together
    return replace(cache.memoize("rank_view", dataset_id, key, compute), task_span=span)


def _refused_words(refused: MethodNotApplicableError, parsed, names, ids) -> str:
    """Why a criterion cannot rank these entries: the core's reason (a column and a row by
    position) in :func:`.method_limits.why_not`'s words, with the objective and the entry
    named, after the criterion's label and with what to choose instead."""
    label = next((label for label, criterion in parsed if criterion.kind == refused.method
                  and criterion.reference == refused.row), refused.method)
    return (f"criterion {label!r}: {why_not(refused, refused.method, names, ids)} Choose "
            "another criterion" + (" or another entry for delta:ID" if refused.method == "delta"
                                   else "") + ".")


def _kept_rows(table: EvalTable, objectives, row_filter: RowFilter) -> np.ndarray:
    """Mask of the rows a ranking uses: they pass the filter and have every objective."""
    complete = ~np.isnan(table.matrix(list(objectives))).any(axis=1)
    return row_filter.mask(table.frame) & complete


def _weights(names, weights, focus, alpha) -> np.ndarray:
    focus = list(focus or ())
    if weights is not None and focus:
        raise InvalidInputError("give either weights or a focus with alpha, not both")
    if weights is not None:
        return check_weights(weights, len(names))
    unknown = [f for f in focus if f not in names]
    if unknown:
        raise InvalidInputError(f"focus objective(s) {', '.join(unknown)} are not chosen")
    return weights_from_alpha(len(names), [names.index(f) for f in focus], alpha)


def shown_under(criteria, chosen: str = "") -> str:
    """The criterion the chart's top entries are taken under: ``chosen`` when it is one of
    ``criteria``, else COPA at p = inf (Explore's default pick), else the first COPA
    criterion, else the first. Not the first criterion by default: that is the one the
    headline compares with the others (the raw mean, in the paper's view), and a top 25
    under a mean of values in different units (seconds, MB, %) misleads a reader who takes
    it for the page's answer.

    Examples
    --------
    >>> shown_under(("mean", "norm", "copa:1", "copa:inf"))
    'copa:inf'
    >>> shown_under(("mean", "copa:2", "copa:4")), shown_under(("mean", "norm"))
    ('copa:2', 'mean')
    >>> shown_under(("mean", "copa:inf"), chosen="mean")
    'mean'
    """
    criteria = tuple(criteria)
    if chosen in criteria:
        return chosen
    copa = [c for c in criteria if c.startswith("copa:")]
    return "copa:inf" if "copa:inf" in copa else (copa or list(criteria))[0]


def set_values(table: EvalTable, column: str) -> list[str]:
    """The distinct values of ``column`` as the "Rows taking part" picker offers them: the
    texts :class:`RowFilter` matches (``'True'`` and ``True`` are ``'true'``, as a link from
    Explore writes them), sorted, missing cells left out."""
    return sorted({value_label(v) for v in table.frame[column].dropna().tolist()})


def entry_names(table: EvalTable, *, group: str = "system") -> list[str]:
    """Names of the entries a rank view of ``table`` can have (before filters), table order."""
    if table.roles.system is not None and group == "system":
        return list(dict.fromkeys(system_entry_labels(table)))
    return [str(i) for i in table.ids]


def change_order(view: RankingView, *, ties: str = "break") -> np.ndarray:
    """Entry positions with the largest rank changes (max - min rank) first, then by the
    best rank under the first criterion."""
    ranks = view.ranks(ties)
    spread = rank_spread(ranks)
    return np.lexsort((np.arange(len(spread)), ranks[:, 0], -spread))


def flattery(view: RankingView, *, ties: str = "break") -> np.ndarray:
    """How many places the first criterion flatters each entry: the median rank under the
    other criteria minus the rank under the first (positive: the first criterion ranks the
    entry better than the others do). Zero with a single criterion."""
    ranks = view.ranks(ties).astype(float)
    if ranks.shape[1] < 2:
        return np.zeros(ranks.shape[0])
    return np.median(ranks[:, 1:], axis=1) - ranks[:, 0]


@dataclass(frozen=True)
class ChartRows:
    """Which entries a bump chart draws and which it highlights."""

    shown: np.ndarray          # positions drawn, best first under ``by``
    highlighted: np.ndarray    # positions drawn in colour (largest moves and pinned)
    pinned: np.ndarray         # positions pinned by the user
    by: str                    # criterion the top N is taken under
    note: str


def chart_rows(view: RankingView, *, ties: str = "break", top: int = 30, by: str | None = None,
               pinned=(), n_highlight: int = 6, n_flattered: int = 3) -> ChartRows:
    """The top ``top`` entries under criterion ``by`` (default :func:`shown_under`) plus the
    pinned ones; the entries that move most among them (and the pinned ones) are
    highlighted. When ``by`` is not the first criterion, the ``n_flattered`` entries the
    first criterion flatters most (:func:`flattery`, the headline's first names) are drawn
    and highlighted too, so the chart shows what the headline says (GPT-4 on DecodingTrust:
    12th under the mean, 52nd under COPA at p = inf) even when they fall out of the top.

    Raises
    ------
    InvalidInputError
        If ``by`` is not one of the view's criteria or ``top`` is not positive.
    """
    ranks = view.ranks(ties)
    by = by or shown_under(view.criteria)
    if by not in view.criteria:
        raise InvalidInputError(f"{by!r} is not one of the criteria ({', '.join(view.criteria)})")
    if not isinstance(top, (int, np.integer)) or top < 1:
        raise InvalidInputError(f"top must be a positive whole number, not {top!r}")
    column = view.criteria.index(by)
    position = {str(name): i for i, name in enumerate(view.ids)}
    pinned_pos = np.array(sorted({position[p] for p in pinned if p in position}), dtype=np.int64)
    n = len(view.ids)
    by_rank = np.argsort(ranks[:, column], kind="stable")
    shown = by_rank[:top]
    extra = np.setdiff1d(pinned_pos, shown)
    flattered = np.zeros(0, dtype=np.int64)
    if column > 0 and n_flattered > 0:
        shift = flattery(view, ties=ties)
        most = np.argsort(-shift, kind="stable")[:n_flattered]
        flattered = most[shift[most] > 0].astype(np.int64)
    added = np.setdiff1d(np.union1d(extra, flattered), shown)
    shown = np.concatenate([shown, added[np.argsort(ranks[added, column], kind="stable")]])
    if n <= top:
        note = f"All {n} entries."
    else:
        n_flat = len(np.setdiff1d(flattered, np.union1d(by_rank[:top], pinned_pos)))
        note = (f"The top {top} of {n} entries under {by}"
                + (f", plus {len(extra)} pinned" if len(extra) else "")
                + (f", plus {n_flat} that {view.criteria[0]} flatters most (see 'At a glance')"
                   if n_flat else "")
                + "; ranks are among all entries. The table below lists every entry.")
    if n > 1:
        # a newcomer saw grey lines at ranks 1-2 and coloured ones below, with no key
        note += (" In colour: the entries whose ranks move most across the criteria"
                 + (f", those {view.criteria[0]} flatters most" if len(flattered) else "")
                 + (", the pinned ones" if len(pinned_pos) else "") + ".")
    spread = rank_spread(ranks[shown])
    movers = shown[np.lexsort((ranks[shown, column], -spread))][:n_highlight]
    movers = movers[rank_spread(ranks[movers]) > 0]
    highlighted = np.union1d(np.union1d(movers, pinned_pos), flattered).astype(np.int64)
    return ChartRows(shown=shown, highlighted=highlighted, pinned=pinned_pos, by=by, note=note)


def rank_records(view: RankingView, *, ties: str = "break") -> list[dict]:
    """One ``{"id": ..., criterion: rank, ...}`` per entry, in table order (the CLI's JSON)."""
    ranks = view.ranks(ties)
    return [{"id": str(name), **{c: int(ranks[i, j]) for j, c in enumerate(view.criteria)}}
            for i, name in enumerate(view.ids)]
