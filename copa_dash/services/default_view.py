"""The one default view of a table without a stated one: the page, the CLI, the notebook and
the API all open an upload on :func:`first_view`.

Two copies of this used to differ (the page focused the first objective, the CLI weighted
all objectives equally), so the page and ``copa-dash select`` picked different models for
the same file, and the page opened on two correlated accuracies (Acc@1 against Acc@5). Now
the view puts a quality against a cost (or the least correlated pair) on the axes, focuses
the quality with alpha 0.5, and every entry point says which view it used.

Kept free of the explorer and the caches (``services/first_view`` prepares the view in the
background), so the CLI imports it at no cost.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

import numpy as np

from ..core.ranks import rank_correlations
from ..data.aggregate_columns import MIN_SHARE_INSIDE, MIN_SIBLINGS, is_aggregate_name, share_inside
from ..data.front_words import check_front, objective_argument
from ..data.proposal_extras import fairness_target
from ..data.schema import EvalTable
from ..data.statistic_columns import listed_quantiles, quantiles_it_summarises
from .recent import PerTable
from .selection import Preferences

# What a cost is, by the words of a column's name or its unit: time, memory, size, energy,
# money, compute. Every other objective is a quality (accuracy, score, win rate, ...).
COST_WORDS = frozenset({
    "latency", "time", "duration", "runtime", "elapsed", "ttft", "tpot", "prefill", "decode",
    "memory", "mem", "vram", "ram", "params", "parameters", "param", "size", "flops",
    "gflops", "tflops", "macs", "gmacs", "energy", "power", "watts", "joules", "price",
    "cost", "costs", "co2", "co2e", "carbon", "emissions", "throughput", "qps", "speed", "fps",
    "tokens", "samples", "seconds", "secs", "ms", "bytes", "mb", "gb", "kwh", "wh", "usd",
    "dollars", "footprint", "build", "index", "storage", "disk", "weights",
    "dimensions", "dimension", "dims",   # an embedding's dimensions: its index's memory
})
# A quality that summarises the others ("Average (56 datasets)", "Mean win rate"): the one the
# leaderboard is about, so the first view leads with it.
AGGREGATE_WORDS = frozenset({"average", "avg", "mean", "overall", "aggregate", "composite"})
NOT_AGGREGATE_WORDS = frozenset({"length", "len", "words", "characters", "chars"})  # avg_length
COST_UNITS = frozenset({
    "s", "sec", "secs", "seconds", "ms", "us", "µs", "ns", "min", "mins", "minutes", "h", "hr",
    "hrs", "hours", "b", "kb", "mb", "gb", "tb", "kib", "mib", "gib", "k", "m", "bn", "t",
    "kwh", "wh", "j", "kj", "mj", "w", "kw", "$", "usd", "eur", "€", "gbp", "£", "flops",
    "gflops", "tflops", "macs", "gmacs", "kgco2", "kgco2e", "gco2", "gco2e", "tokens/s",
    "samples/s", "qps", "$/m", "usd/m", "tokens/kwh",
})
SAMPLE_ROWS = 20_000  # rows the correlations are computed on (evenly spaced, deterministic)
MOSTLY_MISSING = 0.5  # an objective missing in more than this share of rows is left out


@dataclass(frozen=True)
class FirstView:
    """The one default view of a table without a stated one (an upload, a file given to the
    CLI, a DataFrame given to the notebook): every objective with its direction (but those
    missing in most rows, ``left_out``, so the view keeps most rows), the pair
    on the page's axes (``x`` against ``y``), the focus ``x`` with alpha 0.5, p = inf, every
    row. ``reason`` says in words why this pair.
    """

    objectives: tuple[str, ...]
    directions: tuple[str, ...]
    x: str
    y: str
    reason: str
    alpha: float = 0.5
    p: float = math.inf
    # objectives missing in most rows, left out so the view keeps most rows (ticked again
    # at will); with the rows each is missing for, and the table's rows
    left_out: tuple[tuple[str, int], ...] = ()
    rows: int = 0
    # an aggregate of the other qualities ("Average ⬆️"), left out: beside its parts it
    # would count them twice (:func:`derived_aggregate`)
    derived: str = ""
    derived_direction: str = "max"

    def left_out_note(self, front: str = "page") -> str:
        """Which objectives the view leaves out and why, and how to bring them back where
        ``front`` (:data:`~copa_dash.data.front_words.FRONT_ENDS`) shows it ("" when none)."""
        return " ".join(n for n in (mostly_missing_note(self.left_out, self.rows, front),
                                    derived_note(self.derived, front,
                                                 self.derived_direction,
                                                 quantiles_it_summarises(
                                                     self.derived, self.objectives))) if n)

    @property
    def focus(self) -> tuple[str, ...]:
        """The focus set: the x objective (the quality when there is a quality-cost pair)."""
        return (self.x,)

    def opening_note(self) -> str:
        """What the page says of the view it opened an upload on: which pair is on the axes
        and why (a newcomer saw accuracy against ``|1 - CV|`` with nothing saying why)."""
        others = len(self.objectives) - 1
        return (f"This upload opens on {self.x} against {self.y} ({self.reason}), with the "
                f"focus on {self.x}" + (f"; the other {others} objective{'s' * (others != 1)} "
                                        "share the rest of the weight." if others else "."))

    def preferences(self) -> Preferences:
        """The selection service's preferences of this view."""
        return Preferences(objectives=self.objectives, directions=self.directions,
                           focus=self.focus, alpha=self.alpha, p=self.p)

    def describe(self, front: str = "cli") -> str:
        """One line for the CLI or the notebook (``front``): which view, and why this pair."""
        left_out = self.left_out_note(front)
        return (f"the default view of an upload (as the page opens it): {self.x} against "
                f"{self.y} ({self.reason}); focus {self.x} with alpha {self.alpha:g}, the "
                f"other objectives share the rest; p = {'inf' if math.isinf(self.p) else self.p}"
                "; every row" + (f". {left_out}" if left_out else ""))

    def to_dict(self) -> dict:
        """JSON of the view (the API and ``--json``)."""
        return {"objectives": [f"{n}:{d}" for n, d in zip(self.objectives, self.directions)],
                "x": self.x, "y": self.y, "focus": list(self.focus), "alpha": self.alpha,
                "p": "inf" if math.isinf(self.p) else self.p, "why": self.reason,
                "left_out": [n for n, _ in self.left_out], "derived": self.derived or None}


def mostly_missing(table: EvalTable, names) -> tuple[tuple[str, int], ...]:
    """``(objective, rows without it)`` for those of ``names`` missing in most rows."""
    names = list(names)
    if not names:
        return ()
    counts = np.isnan(table.matrix(names)).sum(axis=0)
    return tuple((n, int(k)) for n, k in zip(names, counts)
                 if k > MOSTLY_MISSING * len(table.frame))


def include_words(names, front: str, *, alone: bool = False, direction: str = "DIR") -> str:
    """How ``front`` (:data:`~copa_dash.data.front_words.FRONT_ENDS`) brings the objectives ``names`` into a view: the
    verb of a note that says what the first view left out.

    ``alone``: the objective is to replace others (an average instead of its parts), whose
    ``direction`` the CLI and the notebook then name.

    >>> include_words(["a"], "page")
    'tick it'
    >>> include_words(["a", "b"], "cli")
    "pass --objective 'a:DIR' --objective 'b:DIR' (DIR min or max) with every other objective you want"
    >>> include_words(["Average"], "notebook", alone=True, direction="max")
    "pass objectives=['Average:max'] without its parts"
    """
    it = "it" if len(names) == 1 else "them"
    if check_front(front) == "page":
        return f"tick {it}" + (" (and untick its parts)" if alone else "")
    if alone:
        given = objective_argument(names[0], front, direction)
        return f"pass {given if front == 'cli' else f'objectives=[{given}]'} without its parts"
    spelled = [objective_argument(n, front) for n in names]
    if front == "cli":
        return f"pass {' '.join(spelled)} (DIR min or max) with every other objective you want"
    listed = ", ".join(spelled)
    return f"name {it} in objectives=[{listed}, ...] (DIR min or max) with the others you want"


def mostly_missing_note(left_out, rows: int, front: str = "page") -> str:
    """The note on objectives left out of a view for missing in most rows ("" when none),
    saying how ``front`` brings them back (:func:`include_words`).

    >>> mostly_missing_note([("HellaSwag - ECE", 39)], 67)
    "Left out of the first view because it is missing for most rows: 'HellaSwag - ECE' (39 of 67 rows); tick it to include it (rows without it are then left out)."
    """
    if not left_out:
        return ""
    named = ", ".join(f"{n!r} ({k} of {rows} rows)" for n, k in left_out)
    one = len(left_out) == 1
    it = "it" if one else "them"
    return (f"Left out of the first view because {'it is' if one else 'they are'} missing for "
            f"most rows: {named}; {include_words([n for n, _ in left_out], front)} to include "
            f"{it} (rows without {it} are then left out).")


def _words(text) -> list[str]:
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", str(text or ""))
    return [w for w in re.split(r"[^0-9a-zµ$€£%]+", text.lower()) if w]


def is_cost(objective) -> bool:
    """Whether an objective measures a cost (time, memory, size, energy, money, compute) by
    its name or unit; any other objective is a quality.

    Examples
    --------
    >>> from copa_dash.data.schema import Objective
    >>> [is_cost(Objective(n, d, u)) for n, d, u in [("Acc@1", "max", None),
    ...     ("Params", "min", "M"), ("Decode (tokens/s)", "max", "tokens/s"), ("loss", "min", None)]]
    [False, True, False, False]
    """
    unit = (objective.unit or "").strip().lower()
    if objective.direction == "max" and re.search(r"/\s*(?:s|sec|second)\b|per\s*s(?:ec)?\b",
                                                  f"{unit} {objective.name}".lower()):
        return False  # a throughput (tokens/s, queries/s) maximised is a quality, not a cost
    if unit in COST_UNITS or unit.replace(" ", "") in COST_UNITS:
        return True
    words = _name_words(objective.label or objective.name) | _name_words(objective.name)
    return bool(words & COST_WORDS)


# Unit abbreviations that also begin benchmark names ("MS-COCO (base) - Image text alignment",
# "MS MARCO"): in a name they say "cost" only where a unit stands, inside brackets or as the
# name's last word ("Latency (ms)", "p50_ms").
UNIT_ABBREVIATIONS = frozenset({"ms", "mb", "gb", "wh", "kwh", "usd"})


def _name_words(name) -> set[str]:
    """The words of ``name`` that can say what it measures (see :data:`UNIT_ABBREVIATIONS`).

    Examples
    --------
    >>> sorted(_name_words("MS-COCO (base) - Image text alignment (human)"))
    ['alignment', 'base', 'coco', 'human', 'image', 'text']
    >>> sorted(_name_words("Latency (ms)")), sorted(_name_words("p50_ms"))
    (['latency', 'ms'], ['ms', 'p50'])
    """
    words = _words(name)
    as_unit = set(words[-1:]) | {w for part in re.findall(r"[(\[]([^)\]]*)[)\]]", str(name))
                                 for w in _words(part)}
    return {w for w in words if w not in UNIT_ABBREVIATIONS or w in as_unit}


# A maximised rate of work done per unit of a resource, by its name when it gives no unit
RATE_WORDS = frozenset({"throughput", "qps", "fps", "speed", "speedup", "efficiency"})


def is_rate(objective) -> bool:
    """Whether an objective is a maximised rate of work per unit of a resource (tokens/s,
    queries/s, tokens/kWh, a throughput): the resource side of a trade-off, like a cost,
    though not called one (:func:`is_cost` says no to a throughput), and never the quality
    a first view leads with.

    Examples
    --------
    >>> from copa_dash.data.schema import Objective
    >>> [is_rate(Objective(n, d, u)) for n, d, u in [("Decode (tokens/s)", "max", "tokens/s"),
    ...     ("Energy (tokens/kWh)", "max", "tokens/kWh"), ("Throughput", "max", None),
    ...     ("Open LLM Score (%)", "max", "%"), ("Prefill (s)", "min", "s")]]
    [True, True, True, False, False]
    """
    if objective.direction != "max":
        return False
    text = f"{objective.unit or ''} {objective.name} {objective.label or ''}".lower()
    if re.search(r"/\s*(?:s|sec|second|kwh|wh|j|joule|w|watt|\$|usd)(?![a-z])"
                 r"|per\s*(?:s(?:ec)?|second|kwh|joule|watt|dollar)(?![a-z])", text):
        return True
    return bool(set(_words(objective.label or objective.name)) & RATE_WORDS)


def spearman_matrix(matrix: np.ndarray) -> np.ndarray:
    """|Spearman's rho| between the columns of ``matrix`` (rows with a missing value left
    out; a constant column correlates 1 with everything, so it is never the chosen pair).

    Examples
    --------
    >>> m = np.array([[1., 4, 1], [2, 3, 0], [3, 2, 1], [4, 1, 0]])
    >>> np.round(spearman_matrix(m), 3).tolist()
    [[1.0, 1.0, 0.447], [1.0, 1.0, 0.447], [0.447, 0.447, 1.0]]
    """
    complete = matrix[~np.isnan(matrix).any(axis=1)]
    k = matrix.shape[1]
    if len(complete) < 3:
        return np.ones((k, k))
    if len(complete) > SAMPLE_ROWS:
        complete = complete[np.linspace(0, len(complete) - 1, SAMPLE_ROWS).astype(np.int64)]
    rho = np.abs(rank_correlations(complete))
    constant = np.ptp(complete, axis=0) == 0
    rho[constant, :] = 1.0
    rho[:, constant] = 1.0
    return rho


def is_aggregate(objective) -> bool:
    """Whether an objective's name reads as a summary of the others (an average, a mean win
    rate, an overall score)."""
    words = set(_words(objective.label or objective.name))
    return bool(words & AGGREGATE_WORDS) and not words & NOT_AGGREGATE_WORDS


def derived_aggregate(table: EvalTable, objectives) -> str:
    """The objective a first view leaves out for averaging the others ("" for none): the
    first quality named only by aggregate words ("Average ⬆️", "Average (56 datasets)"; not
    "mean_reward", not "Mean win rate") that lies between the smallest and the largest of
    at least two other qualities of its direction in 95% of the rows
    (:func:`~copa_dash.data.aggregate_columns.share_inside`, the upload page's check).

    A leaderboard's average is a mean of the benchmark scores beside it: weighed with them,
    each benchmark counts twice (once on its own, once inside the average), and the pick
    leans to whatever the average favours. It stays one tick away.

    Examples
    --------
    >>> import pandas as pd
    >>> from copa_dash.data.schema import Objective, Roles
    >>> frame = pd.DataFrame({"m": list("abc"), "Average": [2., 5, 7], "A": [1., 4, 6],
    ...                       "B": [3., 6, 8], "cost": [1., 2, 3]})
    >>> objectives = (Objective("Average", "max"), Objective("A", "max"), Objective("B", "max"),
    ...               Objective("cost", "min", "s"))
    >>> derived_aggregate(EvalTable(frame, Roles("m", objectives)), objectives)
    'Average'
    >>> frame["Average"] = [9., 5, 7]        # above both in the first row: not their average
    >>> derived_aggregate(EvalTable(frame, Roles("m", objectives)), objectives)
    ''
    """
    qualities = [o for o in objectives
                 if not is_cost(o) and not is_rate(o) and not is_fairness(o)]
    for lead in (o for o in qualities if is_aggregate_name(o.name)):
        siblings = [o.name for o in qualities
                    if o is not lead and o.direction == lead.direction]
        if len(siblings) < MIN_SIBLINGS:
            continue
        share, rows = share_inside(table.matrix([lead.name])[:, 0], table.matrix(siblings))
        if rows >= 2 and share >= MIN_SHARE_INSIDE:
            return lead.name
    return ""


def derived_note(name: str, front: str = "page", direction: str = "max",
                 quantiles=()) -> str:
    """The note on an aggregate left out of a first view ("" for none), saying how ``front``
    ranks by it (:func:`include_words`). With ``quantiles`` (a ``mean`` beside the quantile
    columns of one measure, :func:`~copa_dash.data.statistic_columns.quantiles_it_summarises`)
    it says that instead of "an average of the other scores".

    >>> derived_note("Average ⬆️")
    "Left out of the first view: 'Average ⬆️' reads as an average of the other scores, and weighed beside them it would count each twice; tick it (and untick its parts) to rank by it."
    >>> derived_note("mean", quantiles=("2%", "50%", "98%"))
    "Left out of the first view: 'mean' is one more summary of the measure the quantiles '2%', '50%', '98%' describe, and weighed beside them it would count that measure twice; tick it (and untick its parts) to rank by it."
    """
    if not name:
        return ""
    reads = (f"is one more summary of the measure the quantiles {listed_quantiles(quantiles)} "
             "describe, and weighed beside them it would count that measure twice"
             if quantiles else "reads as an average of the other scores, and weighed beside "
             "them it would count each twice")
    return (f"Left out of the first view: {name!r} {reads}; "
            f"{include_words([name], front, alone=True, direction=direction)} to rank by it.")


def is_fairness(objective) -> bool:
    """Whether an objective is a fairness measure: a distance from parity derived by the
    proposal (``|1 - DIbinary|``, ``|eo_diff|``) or a name the proposal reads as one.

    Examples
    --------
    >>> from copa_dash.data.schema import Objective
    >>> [is_fairness(Objective(n, "min")) for n in ("|1 - CV|", "eo_diff", "accuracy")]
    [True, True, False]
    """
    name = str(objective.name)
    return bool(re.fullmatch(r"\|.+\|", name)) or fairness_target(name) is not None


def metric_of(name) -> str | None:
    """The metric a per-task column measures, after its last `` - ``: HELM's
    ``IMDB - ECE (10-bin)`` -> ``ECE (10-bin)``; None without one."""
    parts = str(name).rsplit(" - ", 1)
    return parts[1].strip().lower() if len(parts) == 2 and parts[0].strip() else None


def _least_correlated(table, names, x, candidates) -> tuple[int, float]:
    """The candidate least correlated with ``x`` (ties: table order) and its |rho|."""
    rho = spearman_matrix(table.matrix([names[k] for k in (x, *candidates)]))
    j = min(range(len(candidates)), key=lambda j: (rho[0, j + 1], j))
    return candidates[j], float(rho[0, j + 1])


_KEPT = PerTable()


def kept_first_view(table: EvalTable) -> FirstView:
    """:func:`first_view` of ``table``, worked out once per table object (kept while the
    table is): the Explore answer of an upload compares its view with it on every request."""
    return _KEPT.get(table, None, lambda: first_view(table))


def first_view(table: EvalTable) -> FirstView:
    """The default view of ``table`` (see :class:`FirstView`): ONE function behind the
    Explore page, ``copa-dash select/rank`` on a TABLE file, the notebook and the API.

    The pair on the axes is a quality against a cost (:func:`is_cost`) or a rate
    (:func:`is_rate`: tokens/s, tokens/kWh; never the quality led with), or against a
    fairness measure (:func:`is_fairness`) when there is no cost: the lead quality (the first
    aggregate, :func:`is_aggregate`, else the first quality; an aggregate of the others,
    :func:`derived_aggregate`, is left out first) and the cost or rate (fairness measure)
    least correlated with it (ties: table order). Without either, an aggregate against the
    objective least correlated with it; else the least correlated pair of objectives
    (|Spearman's rho| on the complete rows), two of the same metric (``IMDB - ECE`` and
    ``RAFT - ECE``, :func:`metric_of`) only when every pair is; with one objective, it
    against itself.

    Examples
    --------
    >>> import pandas as pd
    >>> from copa_dash.data.schema import Objective, Roles
    >>> frame = pd.DataFrame({"m": list("abcd"), "acc1": [.7, .8, .9, .6],
    ...                       "acc5": [.9, .95, .99, .85], "params": [5., 20, 60, 3]})
    >>> view = first_view(EvalTable(frame, Roles("m", (Objective("acc1", "max"),
    ...     Objective("acc5", "max"), Objective("params", "min", "M")))))
    >>> view.x, view.y, view.focus
    ('acc1', 'params', ('acc1',))
    """
    objectives = table.roles.objectives
    left_out = mostly_missing(table, [o.name for o in objectives]) \
        if len(objectives) > 2 else ()
    if len(objectives) - len(left_out) < 2:   # a front needs two objectives: keep them all
        left_out = ()
    gone = {n for n, _ in left_out}
    kept = tuple(o for o in objectives if o.name not in gone)
    derived = derived_aggregate(table, kept)
    view = _first_view(table, tuple(o for o in kept if o.name != derived))
    if derived:
        view = replace(view, derived=derived, rows=len(table.frame),
                       derived_direction=table.directions[table.objective_names.index(derived)])
    return replace(view, left_out=left_out, rows=len(table.frame)) if left_out else view


def _first_view(table: EvalTable, objectives) -> FirstView:
    names = tuple(o.name for o in objectives)
    directions = tuple(o.direction for o in objectives)
    if len(names) == 1:
        return FirstView(names, directions, names[0], names[0], "the only objective")
    costs = [k for k, o in enumerate(objectives) if is_cost(o)]
    # rates (tokens/s, tokens/kWh) sit with the costs: the resource side of the trade-off
    rates = [k for k, o in enumerate(objectives) if k not in costs and is_rate(o)]
    resources = sorted(costs + rates)
    fair = [k for k, o in enumerate(objectives) if k not in resources and is_fairness(o)]
    qualities = [k for k in range(len(names)) if k not in resources and k not in fair]
    lead = next((k for k in qualities if is_aggregate(objectives[k])),
                qualities[0] if qualities else None)
    if lead is not None and (resources or fair):
        x, (y, _) = lead, _least_correlated(table, names, lead, resources or fair)
        reason = (f"a quality against a cost: {names[y]} reads as a cost by its name or unit"
                  if y in costs else
                  f"a quality against a rate: {names[y]} is work done per second or per "
                  "unit of a resource, the cost side of the trade-off"
                  if y in rates else f"a quality against a fairness measure: {names[y]} is "
                  "a distance from parity")
    elif lead is not None and is_aggregate(objectives[lead]):
        x, (y, r) = lead, _least_correlated(table, names, lead,
                                            [k for k in range(len(names)) if k != lead])
        reason = (f"the aggregate {names[x]} against the objective least correlated with it "
                  f"(|Spearman's rho| = {r:.2f})")
    else:
        rho = spearman_matrix(table.matrix(names))
        metric = [metric_of(n) for n in names]
        same = np.array([[a is not None and a == b for b in metric] for a in metric])
        off = rho + np.eye(len(names)) * 2 + (same & ~same.all()) * 2
        x, y = np.unravel_index(int(np.argmin(off)), off.shape)
        x, y = (int(x), int(y)) if x < y else (int(y), int(x))
        kind = ("costs" if costs and not rates else "rates" if rates and not costs
                else "costs or rates") if resources and not qualities else None
        # "all objectives read as qualities" was said of BBOB's minimised runtimes (PAR-1,
        # 2% ... 98%): nothing read as a cost, which does not make them qualities
        said = (f"all objectives read as {kind}" if kind is not None else
                "no objective reads as a cost or a rate to put against the others")
        reason = f"{said}, so the least correlated pair (|Spearman's rho| = {rho[x, y]:.2f})"
    return FirstView(names, directions, names[x], names[y], reason)
