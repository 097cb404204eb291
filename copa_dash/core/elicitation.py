"""Learn COPA's weights and p from answers to "this model or that one?".

A posterior over ``theta = (w, p)`` - weights ``w`` on the simplex of the K objectives and
an exponent ``p`` from a small set (1, 2, 4, 8, inf) - is carried as a weighted particle set.
Each answer multiplies a particle's mass by the probability of that answer under its theta
(see :mod:`copa_dash.core._kernels.elicitation` for the answer model: Bradley-Terry on the
COPA criterion with Davidson's ties, so that ``P(a | a or b) = sigmoid((C(b) - C(a)) / tau)``,
plus a lapse rate). When the effective sample size falls below a share of the particles,
they are resampled (systematic) and moved by Metropolis-Hastings steps that target the
posterior given every answer so far, so the set does not collapse onto a few copies.

The next question is the pair of models, among those that are the best model for some
particles (never a dominated one), whose answer carries the most expected information about
which model is best. Everything is seeded: the state after k answers depends only on the
seed, the settings and those k answers, so "undo" is a replay of the answers but the last.

Writing our own sampler: the posterior lives on a product of a simplex and a finite set and
is updated one answer at a time inside a web request; general samplers (PyMC, emcee) restart
from scratch, are not deterministic across versions and cost seconds to start.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from ._kernels import elicitation as _compiled
from ._kernels.criteria import TIE_RTOL
from .criteria import check_u, weights_from_alpha
from .errors import InvalidInputError

__all__ = ["OUTCOMES", "P_VALUES", "Answer", "ElicitationSettings", "ElicitationState",
           "FocusAlpha", "Question", "Summary", "add_answer", "next_question", "replay",
           "start", "summarize", "undo", "weights_as_focus_alpha"]

P_VALUES = (1.0, 2.0, 4.0, 8.0, math.inf)
OUTCOMES = ("a", "b", "=")


@dataclass(frozen=True)
class ElicitationSettings:
    """The prior, the answer model and the sampler.

    Attributes
    ----------
    n_particles : int
        Size of the particle set M.
    p_values : tuple of float
        The exponents p may take (uniform prior over them).
    prior_concentration : float
        Dirichlet concentration of the prior on the weights (1: uniform on the simplex).
    tau : float
        Noise of a choice, in units of the criterion C (u lies in [0, 1]); the default 0.001,
        a tenth of a percentile, came from simulated users on the LLM leaderboard (tau 0.02
        learned too slowly there; 0.0003-0.002 did about equally well).
    tie : float
        Davidson's tie parameter nu: at equal C, "can't tell" has probability nu / (2 + nu).
    lapse : float
        Share of answers given at random (uniform over a, b, can't tell).
    ess_fraction : float
        Resample when the effective sample size falls below this share of M.
    n_moves : int
        Metropolis-Hastings steps after each resampling.
    kappa : float
        Concentration of the Dirichlet proposal around a particle's weights.
    p_jump : float
        Probability that a move proposes a new p (drawn uniformly).
    n_candidates : int
        Questions are pairs among this many models most likely to be the best.
    seed : int
        Seed of every random draw.
    """

    n_particles: int = 10_000
    p_values: tuple = P_VALUES
    prior_concentration: float = 1.0
    tau: float = 0.001
    tie: float = 1.0
    lapse: float = 0.05
    ess_fraction: float = 0.5
    n_moves: int = 2
    kappa: float = 60.0
    p_jump: float = 0.3
    n_candidates: int = 10
    seed: int = 0

    def __post_init__(self):
        if not isinstance(self.n_particles, (int, np.integer)) or self.n_particles < 10:
            raise InvalidInputError(f"'n_particles' must be an integer >= 10, not {self.n_particles!r}")
        values = tuple(float(p) for p in self.p_values)
        if not values or any(not p >= 1.0 for p in values) or len(set(values)) != len(values):
            raise InvalidInputError("'p_values' must be distinct exponents >= 1 (inf allowed)")
        object.__setattr__(self, "p_values", values)
        for name in ("tau", "kappa", "prior_concentration"):
            if not getattr(self, name) > 0:
                raise InvalidInputError(f"'{name}' must be positive, not {getattr(self, name)!r}")
        if not self.tie >= 0:
            raise InvalidInputError(f"'tie' must be >= 0, not {self.tie!r}")
        for name in ("lapse", "ess_fraction", "p_jump"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise InvalidInputError(f"'{name}' must lie in [0, 1], not {getattr(self, name)!r}")
        if self.n_moves < 0 or self.n_candidates < 2:
            raise InvalidInputError("'n_moves' must be >= 0 and 'n_candidates' >= 2")


@dataclass(frozen=True)
class Answer:
    """One answer: of models ``a`` and ``b`` (row positions in u) the user preferred
    ``outcome``: ``"a"``, ``"b"`` or ``"="`` (can't tell)."""

    a: int
    b: int
    outcome: str


@dataclass(frozen=True)
class Question:
    """The next pair to ask about and its expected information (nats) about the best model."""

    a: int
    b: int
    information: float


@dataclass(frozen=True)
class FocusAlpha:
    """Weights read as COPA's focus set and alpha (METHODS.md, "alpha").

    ``error`` is the total-variation distance ``0.5 * sum |w - w(focus, alpha)|`` to the
    weights it stands for; ``fits`` says whether it is within the tolerance asked.
    """

    focus: tuple[int, ...]
    alpha: float
    error: float
    fits: bool


@dataclass(frozen=True)
class Summary:
    """What the answers so far say.

    Attributes
    ----------
    recommendation : int
        The model most likely to be the best (row position in u).
    probability : float
        Posterior probability that it is the best.
    credible_set : tuple of int
        The fewest models whose probabilities of being the best add up to ``level``,
        most probable first.
    level : float
        The credible level.
    best_probability : ndarray (n,)
        Posterior probability that each model is the best.
    mean_weights : ndarray (K,)
        Posterior mean of the weights.
    p : float
        The most probable p.
    p_probability : ndarray (len(p_values),)
        Posterior probability of each p value.
    focus_alpha : FocusAlpha
        ``mean_weights`` as a focus set and alpha.
    n_answers : int
        Answers so far.
    ess : float
        Effective sample size of the particle set.
    """

    recommendation: int
    probability: float
    credible_set: tuple[int, ...]
    level: float
    best_probability: np.ndarray
    mean_weights: np.ndarray
    p: float
    p_probability: np.ndarray
    focus_alpha: FocusAlpha
    n_answers: int
    ess: float


@dataclass(frozen=True, eq=False)
class ElicitationState:
    """The particle posterior after some answers (arrays are read-only).

    ``theta`` (M, K) weights, ``p_index`` (M,) index into ``settings.p_values``,
    ``log_mass`` (M,) unnormalised log masses, ``mass`` (M,) normalised masses,
    ``criteria`` (M, n) C of every model under every particle, ``best`` (M,) each particle's
    best model, ``n_resamples`` how often the set was resampled.
    """

    u: np.ndarray
    settings: ElicitationSettings
    answers: tuple[Answer, ...]
    theta: np.ndarray
    p_index: np.ndarray
    log_mass: np.ndarray
    mass: np.ndarray
    criteria: np.ndarray
    best: np.ndarray
    n_resamples: int = 0
    kernels: object = field(default=_compiled, repr=False)


def start(u, /, *, settings: ElicitationSettings | None = None, kernels=None) -> ElicitationState:
    """The prior particle set for the models with CDF values ``u``.

    Parameters
    ----------
    u : array_like, shape (n, K)
        CDF values of the candidate models (usually the Pareto front), in [0, 1], no NaN.
    settings : ElicitationSettings, optional
        Prior, answer model, sampler and seed.
    kernels : module, optional
        The compiled kernels (default) or their slow twin, ``copa_dash.core._reference.elicitation``.

    Returns
    -------
    ElicitationState

    Raises
    ------
    InvalidInputError
        If ``u`` has fewer than two rows, a NaN, or a value outside [0, 1].

    Notes
    -----
    Weights are drawn from Dirichlet(prior_concentration), p uniformly from ``p_values``,
    both with ``numpy.random.default_rng([seed, 0])``. Building C costs O(M n K).

    Examples
    --------
    >>> state = start([[0.0, 0.5], [0.5, 0.0]], settings=ElicitationSettings(n_particles=100))
    >>> state.criteria.shape
    (100, 2)
    """
    settings = settings or ElicitationSettings()
    kernels = kernels or _compiled
    arr = _check_models(u)
    rng = np.random.default_rng([settings.seed, 0])
    theta = rng.dirichlet(np.full(arr.shape[1], settings.prior_concentration),
                          size=settings.n_particles)
    theta = np.ascontiguousarray(np.maximum(theta, 1e-300))
    p_index = rng.integers(0, len(settings.p_values), size=settings.n_particles).astype(np.int64)
    return _with_particles(arr, settings, (), theta, p_index,
                           np.zeros(settings.n_particles), 0, kernels)


def add_answer(state: ElicitationState, a, b, outcome) -> ElicitationState:
    """The posterior after one more answer.

    Parameters
    ----------
    state : ElicitationState
    a, b : int
        The two models compared (row positions in u).
    outcome : {"a", "b", "="}
        Which one the user preferred; "=" is "can't tell".

    Returns
    -------
    ElicitationState
        A new state; ``state`` is unchanged.

    Raises
    ------
    InvalidInputError
        If a model index is out of range, a equals b, or the outcome is not a, b or =.

    Notes
    -----
    ``log_mass_m += log P(outcome | theta_m)``; then, if ``ESS = 1 / sum mass^2`` is below
    ``ess_fraction * M``: systematic resampling and ``n_moves`` Metropolis-Hastings steps,
    with draws from ``numpy.random.default_rng([seed, number of answers])``.
    """
    answer = check_answer(a, b, outcome, state.u.shape[0])
    settings, k = state.settings, state.kernels
    code = OUTCOMES.index(answer.outcome)
    log_mass = k.add_answer(state.log_mass, state.criteria, answer.a, answer.b, code,
                            settings.tau, settings.tie, settings.lapse)
    answers = state.answers + (answer,)
    mass = _normalised(log_mass)
    if 1.0 / float(np.sum(mass * mass)) >= settings.ess_fraction * settings.n_particles:
        return replace(state, answers=answers, log_mass=_frozen(log_mass), mass=_frozen(mass))
    theta, p_index, picked, moved = _resample_and_move(state, answers, mass)
    kept = (np.asarray(state.criteria)[picked], np.asarray(state.best)[picked], moved)
    return _with_particles(state.u, settings, answers, theta, p_index,
                           np.zeros(settings.n_particles), state.n_resamples + 1, k, kept=kept)


def replay(u, answers, /, *, settings: ElicitationSettings | None = None,
           kernels=None) -> ElicitationState:
    """The posterior after ``answers`` (a sequence of :class:`Answer` or ``(a, b, outcome)``)."""
    state = start(u, settings=settings, kernels=kernels)
    for answer in answers:
        a, b, outcome = (answer.a, answer.b, answer.outcome) if isinstance(answer, Answer) \
            else answer
        state = add_answer(state, a, b, outcome)
    return state


def undo(state: ElicitationState) -> ElicitationState:
    """The state before the last answer (the same arrays, bit for bit, as then)."""
    if not state.answers:
        raise InvalidInputError("there is no answer to undo")
    return replay(state.u, state.answers[:-1], settings=state.settings, kernels=state.kernels)


def next_question(state: ElicitationState) -> Question:
    """The pair whose answer tells most, in expectation, about which model is best.

    Returns
    -------
    Question
        ``a`` is the more probable best model of the two.

    Notes
    -----
    Candidates: the ``n_candidates`` models with the largest posterior probability of being
    the best (only models that are the best for some particle, so never a dominated one);
    when fewer than two models are, the runners-up of the particles fill in. Pairs already
    asked are skipped while others remain. Score: the mutual information between the answer
    and the identity of the best model. O(n_candidates^2 M).
    """
    settings = state.settings
    best_probability = np.bincount(state.best, weights=state.mass, minlength=state.u.shape[0])
    candidates = _ranked_positive(best_probability)[: settings.n_candidates]
    if candidates.size < 2:
        runners = _runner_up_probability(state)
        extra = [i for i in _ranked_positive(runners) if i not in set(candidates.tolist())]
        candidates = np.concatenate([candidates, np.array(extra, dtype=np.int64)])[
            : settings.n_candidates]
    if candidates.size < 2:  # every particle ties every model: any two models will do
        candidates = np.arange(min(2, state.u.shape[0]), dtype=np.int64)
    pairs = np.array([(a, b) for t, a in enumerate(candidates) for b in candidates[t + 1:]],
                     dtype=np.int64)
    asked = {frozenset((x.a, x.b)) for x in state.answers}
    fresh = np.array([frozenset(map(int, pair)) not in asked for pair in pairs])
    if fresh.any():
        pairs = pairs[fresh]
    information = state.kernels.pair_information(
        state.criteria, state.best, state.mass, pairs, state.u.shape[0],
        settings.tau, settings.tie, settings.lapse)
    q = int(np.argmax(information))
    return Question(a=int(pairs[q, 0]), b=int(pairs[q, 1]), information=float(information[q]))


def summarize(state: ElicitationState, *, level: float = 0.9, tolerance: float = 0.1) -> Summary:
    """Recommendation, how sure, credible set and posterior mean preferences.

    Parameters
    ----------
    state : ElicitationState
    level : float
        Credible level of the set of models (default 0.9).
    tolerance : float
        Largest total-variation distance at which the mean weights count as a focus + alpha.

    Returns
    -------
    Summary
    """
    if not 0.0 < level <= 1.0:
        raise InvalidInputError(f"'level' must lie in (0, 1], not {level!r}")
    best_probability = np.bincount(state.best, weights=state.mass, minlength=state.u.shape[0])
    order = np.lexsort((np.arange(best_probability.size), -best_probability))
    cumulative = np.cumsum(best_probability[order])
    size = int(np.searchsorted(cumulative, level * (1.0 - 1e-12))) + 1
    mean_weights = state.mass @ state.theta
    p_probability = np.bincount(state.p_index, weights=state.mass,
                                minlength=len(state.settings.p_values))
    return Summary(
        recommendation=int(order[0]), probability=float(best_probability[order[0]]),
        credible_set=tuple(int(i) for i in order[:size]), level=float(level),
        best_probability=best_probability, mean_weights=mean_weights,
        p=float(state.settings.p_values[int(np.argmax(p_probability))]),
        p_probability=p_probability,
        focus_alpha=weights_as_focus_alpha(mean_weights, tolerance=tolerance),
        n_answers=len(state.answers), ess=float(1.0 / np.sum(state.mass ** 2)))


def weights_as_focus_alpha(weights, /, *, tolerance: float = 0.1) -> FocusAlpha:
    """The focus set and alpha whose COPA weights come closest to ``weights``.

    Parameters
    ----------
    weights : array_like, shape (K,)
        Non-negative weights summing to 1.
    tolerance : float
        Largest total-variation distance that counts as a fit.

    Returns
    -------
    FocusAlpha
        The best of: equal weights (empty focus), and for j = 1 .. K-1 the j largest
        weights as the focus with ``alpha`` their sum.

    Examples
    --------
    >>> weights_as_focus_alpha([0.5, 0.25, 0.25])
    FocusAlpha(focus=(0,), alpha=0.5, error=0.0, fits=True)
    """
    w = np.asarray(weights, dtype=np.float64)
    k_count = w.size
    order = np.argsort(-w, kind="stable")
    best = FocusAlpha((), 0.5, float(0.5 * np.abs(w - 1.0 / k_count).sum()), False)
    for j in range(1, k_count):
        focus = tuple(sorted(int(i) for i in order[:j]))
        alpha = float(min(1.0, max(0.0, w[list(focus)].sum())))
        error = float(0.5 * np.abs(w - weights_from_alpha(k_count, focus, alpha)).sum())
        if error < best.error - 1e-12:
            best = FocusAlpha(focus, alpha, error, False)
    return replace(best, fits=bool(best.error <= tolerance))


def check_answer(a, b, outcome, n_models: int) -> Answer:
    """Validate one answer; returns it as an :class:`Answer`."""
    for name, value in (("a", a), ("b", b)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
                or not 0 <= int(value) < n_models:
            raise InvalidInputError(
                f"'{name}' must be a model index in [0, {n_models}), not {value!r}")
    if int(a) == int(b):
        raise InvalidInputError("a question compares two different models: 'a' equals 'b'")
    if outcome not in OUTCOMES:
        raise InvalidInputError(f"an answer is 'a', 'b' or '=' (can't tell), not {outcome!r}")
    return Answer(int(a), int(b), str(outcome))


def _check_models(u) -> np.ndarray:
    arr = check_u(u)
    if arr.shape[0] < 2:
        raise InvalidInputError("there must be at least two models to compare")
    if np.isnan(arr).any():
        raise InvalidInputError("'u' must not contain missing (NaN) values: leave those rows out")
    if (arr > 1.0).any():
        raise InvalidInputError("'u' must lie in [0, 1] (CDF values)")
    return _frozen(arr)


def _with_particles(u, settings, answers, theta, p_index, log_mass, n_resamples,
                    kernels, kept=None) -> ElicitationState:
    """The state of these particles. ``kept = (criteria, best, moved)`` gives the rows of
    particles that did not move (copies after resampling): only the moved rows are computed
    (a row depends on its particle alone, so the result is the same bit for bit)."""
    p_values = np.asarray(settings.p_values, dtype=np.float64)
    if kept is None:
        criteria = kernels.criterion_matrix(u, theta, p_index, p_values)
        best = kernels.best_models(u, theta, criteria, TIE_RTOL)
    else:
        criteria, best, moved = kept
        rows = np.flatnonzero(moved)
        if rows.size:
            sub_theta = np.ascontiguousarray(theta[rows])
            sub = kernels.criterion_matrix(u, sub_theta, np.ascontiguousarray(p_index[rows]),
                                           p_values)
            criteria[rows] = sub
            best[rows] = kernels.best_models(u, sub_theta, sub, TIE_RTOL)
    return ElicitationState(
        u=u, settings=settings, answers=tuple(answers), theta=_frozen(theta),
        p_index=_frozen(p_index), log_mass=_frozen(log_mass), mass=_frozen(_normalised(log_mass)),
        criteria=_frozen(criteria), best=_frozen(best), n_resamples=n_resamples, kernels=kernels)


def _resample_and_move(state, answers, mass):
    """Systematic resampling, then Metropolis-Hastings moves given every answer so far."""
    settings = state.settings
    rng = np.random.default_rng([settings.seed, len(answers)])
    picked = state.kernels.systematic_resample(mass, float(rng.random()))
    theta = np.ascontiguousarray(state.theta[picked])
    p_index = np.ascontiguousarray(state.p_index[picked])
    moved = np.zeros(settings.n_particles, dtype=bool)
    ans_a = np.array([x.a for x in answers], dtype=np.int64)
    ans_b = np.array([x.b for x in answers], dtype=np.int64)
    ans_o = np.array([OUTCOMES.index(x.outcome) for x in answers], dtype=np.int64)
    p_values = np.asarray(settings.p_values, dtype=np.float64)
    for _ in range(settings.n_moves):
        proposal = rng.gamma(settings.kappa * theta + 1.0)
        proposal = np.ascontiguousarray(
            np.maximum(proposal / proposal.sum(axis=1, keepdims=True), 1e-300))
        jump = rng.random(settings.n_particles) < settings.p_jump
        proposal_p = np.where(jump, rng.integers(0, len(p_values), settings.n_particles),
                              p_index).astype(np.int64)
        log_uniform = np.log(rng.random(settings.n_particles))
        new_theta, new_p, _ = state.kernels.metropolis_move(
            state.u, theta, p_index, proposal, proposal_p, log_uniform, p_values,
            ans_a, ans_b, ans_o, settings.tau, settings.tie, settings.lapse, settings.kappa,
            settings.prior_concentration)
        moved |= (new_p != p_index) | (new_theta != theta).any(axis=1)
        theta, p_index = np.ascontiguousarray(new_theta), np.ascontiguousarray(new_p)
    return theta, p_index, picked, moved


def _normalised(log_mass: np.ndarray) -> np.ndarray:
    shifted = np.exp(log_mass - np.max(log_mass))
    return shifted / shifted.sum()


def _ranked_positive(values: np.ndarray) -> np.ndarray:
    order = np.lexsort((np.arange(values.size), -values))
    return order[values[order] > 0].astype(np.int64)


def _runner_up_probability(state) -> np.ndarray:
    c = np.array(state.criteria)
    c[np.arange(c.shape[0]), state.best] = np.inf
    return np.bincount(np.argmin(c, axis=1), weights=state.mass, minlength=state.u.shape[0])


def _frozen(arr: np.ndarray) -> np.ndarray:
    arr = np.ascontiguousarray(arr)
    arr.flags.writeable = False
    return arr
