""""Help me choose": a session of "this model or that one?" questions on a dataset.

The candidates are the Pareto front of the rows that pass the view's constraints, with u
computed over the view's population, exactly as ``copa-dash rank --dataset NAME`` scores them.
A session is its answers: one character per question, ``a`` (the first model), ``b`` (the
second) or ``=`` (can't tell). Each question follows from the answers before it (the core is
deterministic given the seed), so the string alone replays a session - it is what the URL and
the command line carry.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..core import criteria
from ..core import elicitation as core
from ..core.errors import InvalidInputError
from ..data.filters import RowFilter, filter_from_view
from ..data.schema import DefaultView, EvalTable
from . import selection
from .recent import RecentValues

CONFIDENT = 0.9
MAX_QUESTIONS = 40


@dataclass(frozen=True)
class ChoiceProblem:
    """The models a session asks about: the front of a selection problem.

    ``positions`` are the front rows' positions in ``selection`` (a SelectionProblem);
    ``ids``, ``raw`` and ``u`` are theirs, in that order.
    """

    selection: selection.SelectionProblem
    positions: np.ndarray
    ids: tuple[str, ...]
    raw: np.ndarray
    u: np.ndarray

    @property
    def objectives(self) -> tuple[str, ...]:
        return self.selection.preferences.objectives

    @property
    def directions(self) -> tuple[str, ...]:
        return self.selection.preferences.directions


@dataclass(frozen=True)
class Session:
    """A session after its answers: the posterior summary and the next question.

    ``question`` is None when the session is done (``done``): CONFIDENT sure, or
    ``max_questions`` answered.
    """

    answers: str
    state: core.ElicitationState
    summary: core.Summary
    question: core.Question | None
    done: bool


def default_view_problem(table: EvalTable, view: DefaultView | None, *, dataset_id: str = "",
                         cache=None) -> selection.SelectionProblem:
    """The selection problem of a dataset's default view (all objectives when it has none):
    its objectives, directions and filters, as ``rank --dataset NAME`` builds it."""
    names = list(table.objective_names)
    directions = list(table.directions)
    chosen = [o for o in (view.objectives if view is not None else ()) if o in names] or names
    prefs = selection.Preferences(
        objectives=tuple(chosen), directions=tuple(directions[names.index(o)] for o in chosen),
        focus=tuple(view.focus) if view is not None else (),
        alpha=view.alpha if view is not None else 0.5,
        p=view.p if view is not None else math.inf)
    row_filter = filter_from_view(view.filters) if view is not None and view.filters else RowFilter()
    return selection.build_problem(table, prefs, row_filter, dataset_id=dataset_id, cache=cache)


def choice_problem(problem: selection.SelectionProblem, *, cache=None) -> ChoiceProblem:
    """The front of ``problem``'s eligible rows, the models a session compares.

    Raises
    ------
    InvalidInputError
        If fewer than two objectives are chosen or fewer than two models are on the front.
    """
    if len(problem.preferences.objectives) < 2:
        raise InvalidInputError("choosing between models needs at least two objectives")
    positions = np.flatnonzero(selection.front_mask(problem, cache=cache))
    if positions.size < 2:
        raise InvalidInputError(
            "only one model is on the Pareto front of the rows that pass the constraints: "
            "it is the pick whatever the preferences, so there is nothing to ask")
    return ChoiceProblem(selection=problem, positions=positions,
                         ids=tuple(str(i) for i in problem.ids[positions]),
                         raw=np.ascontiguousarray(problem.raw[positions]),
                         u=np.ascontiguousarray(problem.u[positions]))


def view_choice_problem(opened, preferences: selection.Preferences, row_filter: RowFilter, *,
                        cache=None) -> ChoiceProblem:
    """The models a session compares on a page's view (its objectives, directions and
    constraints), keyed by the dataset's cache id so that sessions keep their states."""
    problem = selection.build_problem(opened.table, preferences, row_filter,
                                      dataset_id=opened.cache_id, cache=cache)
    return choice_problem(problem, cache=cache)


def check_answers(answers: str) -> str:
    """The answers string, validated: only ``a``, ``b`` and ``=``."""
    answers = answers or ""
    bad = sorted(set(answers) - set(core.OUTCOMES))
    if bad:
        raise InvalidInputError(
            f"answers are a string of 'a', 'b' and '=' (can't tell); {''.join(bad)!r} is not one")
    if len(answers) > MAX_QUESTIONS:
        raise InvalidInputError(f"at most {MAX_QUESTIONS} answers, not {len(answers)}")
    return answers


def run_session(problem: ChoiceProblem, answers: str = "", *,
                settings: core.ElicitationSettings | None = None,
                max_questions: int = 20, confident: float = CONFIDENT) -> Session:
    """Replay ``answers`` on ``problem`` and return the posterior and the next question.

    The states after every prefix of the answers are kept in this process's memory (bounded)
    when the problem has a dataset id, so the next answer costs one update, not a replay.
    Answers past the point where the session was done are still applied.
    """
    answers = check_answers(answers)
    settings = settings or core.ElicitationSettings()
    state, done_upto = _longest_kept_prefix(problem, answers, settings)
    for n in range(done_upto, len(answers)):
        question = core.next_question(state)
        state = core.add_answer(state, question.a, question.b, answers[n])
        _keep(problem, answers[: n + 1], settings, state)
    return _session(answers, state, max_questions, confident)


ANSWER_WORDS = {"=": "can't tell"}


def answered_questions(problem: ChoiceProblem, answers: str) -> tuple[tuple[str, str], ...]:
    """Each question of a session and its answer, in words: ``("A or B?", "A")``, with
    "can't tell" for ``=``. The questions are replayed from the answers (each follows from
    the ones before), so this is what the user was asked on the page.

    Raises
    ------
    InvalidInputError
        If ``answers`` holds anything but ``a``, ``b`` and ``=``.
    """
    answers = check_answers(answers)
    out = []
    for n, given in enumerate(answers):
        question = core.next_question(run_session(problem, answers[:n]).state)
        first, second = problem.ids[question.a], problem.ids[question.b]
        said = {"a": first, "b": second}.get(given, ANSWER_WORDS.get(given, given))
        out.append((f"{first} or {second}?", said))
    return tuple(out)


def answer(problem: ChoiceProblem, session: Session, outcome: str, *, max_questions: int = 20,
           confident: float = CONFIDENT) -> Session:
    """The session after one more answer (``a``, ``b`` or ``=``) to its question."""
    if outcome not in core.OUTCOMES:
        raise InvalidInputError(f"an answer is 'a', 'b' or '=' (can't tell), not {outcome!r}")
    if session.question is None:
        raise InvalidInputError("the session is done: there is no question to answer")
    state = core.add_answer(session.state, session.question.a, session.question.b, outcome)
    answers = session.answers + outcome
    _keep(problem, answers, state.settings, state)
    return _session(answers, state, max_questions, confident)


def _session(answers, state, max_questions, confident) -> Session:
    summary = core.summarize(state, level=confident)
    done = summary.probability >= confident or len(answers) >= max_questions
    question = None if done else core.next_question(state)
    return Session(answers=answers, state=state, summary=summary, question=question, done=done)


def undo(answers: str) -> str:
    """The answers without the last one."""
    return check_answers(answers)[:-1]


def compare(problem: ChoiceProblem, a: int, b: int) -> list[dict]:
    """Rows for two model cards: per objective, both raw values and "top x%" (100 u),
    the objectives where the two differ most (in u) first."""
    gap = np.abs(problem.u[a] - problem.u[b])
    order = np.lexsort((np.arange(gap.size), -gap))
    return [{"objective": problem.objectives[k], "direction": problem.directions[k],
             "a": float(problem.raw[a, k]), "b": float(problem.raw[b, k]),
             "top_a": 100.0 * float(problem.u[a, k]), "top_b": 100.0 * float(problem.u[b, k]),
             "gap": float(gap[k])} for k in order]


def preferences(problem: ChoiceProblem, session: Session, *, decimals: int = 4) -> dict:
    """Preferences a view can apply so that COPA picks the session's recommendation.

    The posterior mean of the weights and the most probable p among the particles whose
    best model is the recommendation (rounded to ``decimals``); if those do not select it
    (a mean of weights can fall where another model wins), the weights and p of the most
    probable such particle, which do. Also the weights read as a focus set and alpha, used
    when they fit and select the recommendation too.

    Returns
    -------
    dict
        ``weights`` {objective: w}, ``p``, ``focus`` (names), ``alpha``, ``use_alpha``
        (focus + alpha reproduce the pick), ``how`` ("mean" or "particle"), ``selects``
        (the recommendation is COPA's pick with these weights and p).
    """
    state, rec = session.state, session.summary.recommendation
    names = problem.objectives
    agree = state.best == rec
    mass = np.where(agree, state.mass, 0.0)
    p_values = np.asarray(state.settings.p_values)
    p_mass = np.bincount(state.p_index, weights=mass, minlength=p_values.size)
    weights = np.round(mass @ state.theta / mass.sum(), decimals)
    p, how = float(p_values[int(np.argmax(p_mass))]), "mean"
    if _pick(problem, weights, p) != rec:
        best = int(np.argmax(mass))
        weights, p, how = np.round(state.theta[best], decimals), float(p_values[state.p_index[best]]), "particle"
    fit = core.weights_as_focus_alpha(weights / weights.sum())
    alpha = round(fit.alpha, 2)
    focus_weights = criteria.weights_from_alpha(len(names), list(fit.focus), alpha)
    use_alpha = bool(fit.fits and fit.focus and _pick(problem, focus_weights, p) == rec)
    return {"weights": {name: float(w) for name, w in zip(names, weights)}, "p": p,
            "focus": [names[k] for k in fit.focus], "alpha": alpha, "use_alpha": use_alpha,
            "how": how, "selects": _pick(problem, weights, p) == rec}


def _pick(problem: ChoiceProblem, weights, p) -> int:
    return criteria.copa_select(problem.u, weights, p=p)


def _session_key(problem: ChoiceProblem, settings) -> tuple:
    sel = problem.selection
    return (sel.dataset_id, repr(sorted(sel.cache_key.items())), problem.positions.tobytes(),
            settings)


def _longest_kept_prefix(problem, answers, settings):
    if problem.selection.dataset_id:
        base = _session_key(problem, settings)
        for n in range(len(answers), -1, -1):
            kept = _recent_states.get((base, answers[:n]))
            if kept is not None:
                return kept, n
    state = core.start(problem.u, settings=settings)
    _keep(problem, "", settings, state)
    return state, 0


def _keep(problem, answers, settings, state) -> None:
    if not problem.selection.dataset_id:
        return
    nbytes = sum(a.nbytes for a in (state.theta, state.criteria, state.log_mass, state.mass,
                                    state.best, state.p_index))
    _recent_states.put((_session_key(problem, settings), answers), state, nbytes=nbytes)


# A session step replays its answers from the URL. Without memory every step costs a full
# replay (one criterion matrix per resampling, ~40-80 ms each on the LLM leaderboard's front
# of 407 models); keeping the last few states makes a step one update and one question.
# Bounded: a state on that front holds ~35 MB (its criterion matrix); at most eight are kept,
# within this cache's share of the worker's in-process budget (Settings.memory_cache_bytes,
# COPA_MEMORY_CACHE_MB: 51 MiB of the default 512, one such state, several of a smaller front).
_recent_states = RecentValues(entries=8, share=0.1, name="help-me-choose sessions")
