"""The elicitation posterior: kernels against their slow twin, the answer model, the
properties the issue asks for (consistent answers, simulated users, undo)."""

import math

import numpy as np
import pytest
from scipy.special import expit

from copa_dash.core import elicitation as E
from copa_dash.core._kernels import elicitation as K
from copa_dash.core._kernels.criteria import TIE_RTOL
from copa_dash.core._reference import elicitation as R
from copa_dash.core.criteria import copa_ranking, copa_scores, copa_select, weights_from_alpha
from copa_dash.core.dominance import nondominated_mask
from copa_dash.core.errors import InvalidInputError
from copa_dash.core.ranks import cdf_transform

SMALL = E.ElicitationSettings(n_particles=200, seed=5, tau=0.01)


def front_u(seed, n=40, k=3, high=None):
    """u of the non-dominated rows of a random table (integer values force ties)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, high, (n, k)).astype(float) if high else rng.random((n, k))
    u = cdf_transform(y)
    return np.ascontiguousarray(u[nondominated_mask(u)])


def particles(seed, m, k, n_p=5):
    rng = np.random.default_rng(seed)
    theta = np.ascontiguousarray(rng.dirichlet(np.ones(k), m))
    return theta, rng.integers(0, n_p, m).astype(np.int64)


P_VALUES = np.array(E.P_VALUES)


@pytest.mark.parametrize("seed", range(4))
def test_criterion_matrix_and_best_models_match_twin_and_copa_select(seed):
    u = front_u(seed, high=5 if seed % 2 else None)
    theta, p_index = particles(seed, 60, u.shape[1])
    c = K.criterion_matrix(u, theta, p_index, P_VALUES)
    np.testing.assert_allclose(c, R.criterion_matrix(u, theta, p_index, P_VALUES), rtol=1e-12)
    for m in range(0, 60, 7):
        np.testing.assert_allclose(c[m], copa_scores(u, theta[m], p=P_VALUES[p_index[m]]),
                                   rtol=1e-12)
    best = K.best_models(u, theta, c, TIE_RTOL)
    assert best.tolist() == R.best_models(u, theta, c, TIE_RTOL).tolist()
    assert best.tolist() == [copa_select(u, theta[m], p=P_VALUES[p_index[m]]) for m in range(60)]


def test_answer_model_is_the_issue_sigmoid_given_a_strict_answer():
    for ca, cb in [(0.1, 0.12), (0.3, 0.2), (0.5, 0.5), (0.0, 0.9)]:
        pa, pb, pt = (K.answer_probability(ca, cb, y, 0.05, 1.0, 0.0) for y in range(3))
        assert pa + pb + pt == pytest.approx(1.0)
        assert pa / (pa + pb) == pytest.approx(expit((cb - ca) / 0.05))
        for y in range(3):
            assert K.answer_probability(ca, cb, y, 0.05, 1.0, 0.06) == pytest.approx(
                R.answer_probability(ca, cb, y, 0.05, 1.0, 0.06))


@pytest.mark.parametrize("seed", range(3))
def test_update_information_move_and_resampling_match_twin(seed):
    u = front_u(seed)
    rng = np.random.default_rng(seed)
    theta, p_index = particles(seed, 80, u.shape[1])
    c = K.criterion_matrix(u, theta, p_index, P_VALUES)
    best = K.best_models(u, theta, c, TIE_RTOL)
    log_mass = rng.normal(size=80)
    for outcome in range(3):
        np.testing.assert_allclose(K.add_answer(log_mass, c, 0, 1, outcome, 0.02, 1.0, 0.05),
                                   R.add_answer(log_mass, c, 0, 1, outcome, 0.02, 1.0, 0.05),
                                   rtol=1e-12)
    mass = np.exp(log_mass) / np.exp(log_mass).sum()
    pairs = np.array([(a, b) for a in range(u.shape[0]) for b in range(a + 1, u.shape[0])][:30])
    np.testing.assert_allclose(
        K.pair_information(c, best, mass, pairs, u.shape[0], 0.02, 1.0, 0.05),
        R.pair_information(c, best, mass, pairs, u.shape[0], 0.02, 1.0, 0.05), atol=1e-12)
    proposal = rng.dirichlet(np.ones(u.shape[1]), 80)
    proposal_p = rng.integers(0, 5, 80).astype(np.int64)
    log_uniform = np.log(rng.random(80))
    history = (np.array([0, 2]), np.array([1, 0]), np.array([0, 2]))
    got = K.metropolis_move(u, theta, p_index, proposal, proposal_p, log_uniform, P_VALUES,
                            *history, 0.02, 1.0, 0.05, 60.0, 1.0)
    want = R.metropolis_move(u, theta, p_index, proposal, proposal_p, log_uniform, P_VALUES,
                             *history, 0.02, 1.0, 0.05, 60.0, 1.0)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1].tolist() == want[1].tolist() and got[2] == want[2] and 0 < got[2] < 80
    offset = float(rng.random())
    assert K.systematic_resample(mass, offset).tolist() == R.systematic_resample(mass, offset).tolist()


def test_information_is_mutual_information_of_answer_and_best_model():
    # two particles with different best models, one pair that separates them perfectly:
    # the answer tells which particle holds (1 bit = log 2), minus the answer noise.
    c = np.array([[0.1, 0.9], [0.9, 0.1]])
    info = K.pair_information(c, np.array([0, 1]), np.array([0.5, 0.5]),
                              np.array([[0, 1]]), 2, 1e-3, 0.0, 0.0)
    assert info[0] == pytest.approx(math.log(2))
    same = K.pair_information(c, np.array([0, 0]), np.array([0.5, 0.5]),
                              np.array([[0, 1]]), 2, 1e-3, 0.0, 0.0)
    assert same[0] == pytest.approx(0.0, abs=1e-12)


def test_posterior_after_answers_matches_slow_twin():
    u = front_u(11, n=30)
    answers = [(0, 1, "a"), (2, 3, "b"), (1, 4, "="), (0, 2, "a"), (3, 4, "b"), (1, 2, "a")]
    fast = E.replay(u, answers, settings=SMALL)
    slow = E.replay(u, answers, settings=SMALL, kernels=R)
    assert fast.n_resamples == slow.n_resamples > 0
    np.testing.assert_allclose(fast.theta, slow.theta, rtol=1e-12)
    assert fast.p_index.tolist() == slow.p_index.tolist()
    np.testing.assert_allclose(fast.mass, slow.mass, rtol=1e-9)
    assert fast.best.tolist() == slow.best.tolist()
    # after resampling only the moved particles' rows were recomputed: same as all of them
    full = K.criterion_matrix(fast.u, np.array(fast.theta), np.array(fast.p_index), P_VALUES)
    assert np.array_equal(fast.criteria, full)
    assert np.array_equal(fast.best, K.best_models(fast.u, np.array(fast.theta), full, TIE_RTOL))
    q_fast, q_slow = E.next_question(fast), E.next_question(slow)
    assert (q_fast.a, q_fast.b) == (q_slow.a, q_slow.b)
    assert q_fast.information == pytest.approx(q_slow.information, rel=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_an_answer_consistent_with_theta_never_lowers_its_weight(seed):
    # Without resampling, every particle's mass moves by its likelihood: a particle that the
    # answer agrees with (its C says a is better) ends with at least its share relative to any
    # particle the answer contradicts, and the particles that agree never lose total mass.
    u = front_u(seed)
    settings = E.ElicitationSettings(n_particles=500, seed=seed, ess_fraction=0.0)
    state = E.start(u, settings=settings)
    rng = np.random.default_rng(seed)
    for _ in range(5):
        a, b = (int(x) for x in rng.choice(u.shape[0], 2, replace=False))
        outcome = "a" if rng.random() < 0.5 else "b"
        diff = state.criteria[:, b] - state.criteria[:, a]
        agrees = diff > 0 if outcome == "a" else diff < 0
        after = E.add_answer(state, a, b, outcome)
        ratio = after.mass / state.mass
        if agrees.any() and (~agrees).any():
            assert ratio[agrees].min() >= ratio[~agrees].max() * (1 - 1e-12)
        assert after.mass[agrees].sum() >= state.mass[agrees].sum() - 1e-12
        assert not agrees.any() or (ratio[agrees] >= 1 - 1e-12).any()
        state = after


def simulate(u, weights, p, n_questions, settings):
    truth = copa_scores(u, weights, p=p)
    state = E.start(u, settings=settings)
    for _ in range(n_questions):
        q = E.next_question(state)
        state = E.add_answer(state, q.a, q.b, "a" if truth[q.a] < truth[q.b] else "b")
    return E.summarize(state)


@pytest.mark.parametrize("user", range(8))
def test_noiseless_simulated_user_ends_in_their_top_3(user):
    u = front_u(100, n=200, k=3)
    assert u.shape[0] >= 12  # a front of 14 models
    rng = np.random.default_rng(user)
    weights, p = rng.dirichlet(np.ones(3)), [1.0, 2.0, math.inf][user % 3]
    summary = simulate(u, weights, p, 12, E.ElicitationSettings(n_particles=2000, seed=user))
    assert summary.recommendation in copa_ranking(u, weights, p=p)[:3].tolist()


def test_undo_restores_the_previous_state_exactly():
    u = front_u(3, n=60)
    state = E.start(u, settings=SMALL)
    for outcome in "abab":
        q = E.next_question(state)
        state = E.add_answer(state, q.a, q.b, outcome)
    q = E.next_question(state)
    later = E.add_answer(state, q.a, q.b, "b")
    back = E.undo(later)
    for name in ("theta", "p_index", "log_mass", "mass", "criteria", "best"):
        assert np.array_equal(getattr(back, name), getattr(state, name)), name
    assert back.answers == state.answers and back.n_resamples == state.n_resamples
    assert E.next_question(back) == q
    with pytest.raises(InvalidInputError, match="no answer to undo"):
        E.undo(E.start(u, settings=SMALL))


def test_summary_credible_set_and_focus_alpha():
    u = front_u(4, n=60)
    state = E.replay(u, [(0, 1, "a"), (1, 2, "b")], settings=SMALL)
    summary = E.summarize(state, level=0.8)
    probs = summary.best_probability
    assert probs.sum() == pytest.approx(1.0)
    chosen = list(summary.credible_set)
    assert probs[chosen].sum() >= 0.8 - 1e-9
    assert probs[chosen[:-1]].sum() < 0.8
    assert chosen[0] == summary.recommendation and summary.probability == probs.max()
    assert summary.mean_weights.sum() == pytest.approx(1.0)
    assert summary.p_probability.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(summary.mean_weights, state.mass @ state.theta)


@pytest.mark.parametrize("focus,alpha", [((0,), 0.7), ((1, 3), 0.2), ((2,), 0.05)])
def test_focus_alpha_recovers_alpha_weights(focus, alpha):
    fit = E.weights_as_focus_alpha(weights_from_alpha(4, focus, alpha))
    assert fit.fits and fit.error == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_allclose(weights_from_alpha(4, fit.focus, fit.alpha),
                               weights_from_alpha(4, focus, alpha), atol=1e-12)
    assert not E.weights_as_focus_alpha([0.5, 0.3, 0.15, 0.05], tolerance=0.01).fits


def test_bad_input_is_named():
    with pytest.raises(InvalidInputError, match="at least two models"):
        E.start([[0.1, 0.2]])
    with pytest.raises(InvalidInputError, match="NaN"):
        E.start([[0.1, np.nan], [0.2, 0.1]])
    state = E.start([[0.0, 0.5], [0.5, 0.0]], settings=SMALL)
    with pytest.raises(InvalidInputError, match="'a', 'b' or '='"):
        E.add_answer(state, 0, 1, "left")
    with pytest.raises(InvalidInputError, match="'b' must be a model index"):
        E.add_answer(state, 0, 7, "a")
    with pytest.raises(InvalidInputError, match="two different models"):
        E.add_answer(state, 1, 1, "a")
    with pytest.raises(InvalidInputError, match="tau"):
        E.ElicitationSettings(tau=0)
