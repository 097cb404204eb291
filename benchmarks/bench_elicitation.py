"""Simulated users for "Help me choose", and the time of a question on the Open LLM leaderboard.

    python benchmarks/bench_elicitation.py                 # 30 users per dataset and noise level
    python benchmarks/bench_elicitation.py --quick         # 8 users, a few minutes
    python benchmarks/bench_elicitation.py --timing-only   # only the time per question

Each simulated user has a hidden theta: weights from Dirichlet(1) over the default view's
objectives and p drawn from {1, 2, inf}. Their own ranking is ``copa_ranking`` with that theta
on the view's eligible rows (what ``copa-dash rank`` prints for their weights and p). They
answer "a" when C(a) < C(b) under their theta, "b" when C(b) < C(a), "=" on exact ties;
the noisy users flip a or b in 10% of the answers. Three ways to ask and learn:

- ``active``: the COPA posterior and the most informative pair (the app's method);
- ``random``: the same posterior, but the pair is drawn uniformly from the front;
- ``linear``: prefeR's model, a linear utility on raw values (min-max scaled to [0, 1] over
  the front, oriented so smaller is better), with the same answer model, particle sampler
  and active questions (it is COPA with p = 1 on the scaled values instead of the ranks).

After each answer the recommendation is the model most probably best. Printed: the share of
users whose own top 3 holds the recommendation after 5, 10 and 15 answers, the median
number of answers until the recommendation is their top 1 (first time), and how many answers
each way needs to put the recommendation into the top 3 for a given share of the users.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_CACHE_DIR", "/tmp/numba_cache")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from copa_dash.core import elicitation as core
from copa_dash.core.criteria import copa_ranking, copa_scores
from copa_dash.services import elicitation as service
from copa_dash.services.catalog import open_dataset

DATASETS = ("open-llm-leaderboard-v2", "decodingtrust", "helm-classic")
USER_P = (1.0, 2.0, math.inf)
CHECKPOINTS = (5, 10, 15)
STRATEGIES = ["active", "random", "linear"]


def scaled_raw(problem: service.ChoiceProblem) -> np.ndarray:
    """Front values min-max scaled to [0, 1], 0 the best: prefeR's linear model's inputs."""
    oriented = np.where(np.array(problem.directions) == "max", -problem.raw, problem.raw)
    low, high = oriented.min(axis=0), oriented.max(axis=0)
    return np.ascontiguousarray((oriented - low) / np.where(high > low, high - low, 1.0))


def simulate_user(problem, scaled, strategy, weights, p, noise, n_questions, settings, rng):
    """Recommendations (front positions) after 0 .. n_questions answers of one user."""
    truth = copa_scores(problem.u, weights, p=p)
    if strategy == "linear":
        state = core.start(scaled, settings=core.ElicitationSettings(
            **{**settings.__dict__, "p_values": (1.0,)}))
    else:
        state = core.start(problem.u, settings=settings)
    picks = [core.summarize(state).recommendation]
    n_front = problem.u.shape[0]
    asked = set()
    for _ in range(n_questions):
        if strategy == "random":
            while True:
                a, b = (int(x) for x in rng.choice(n_front, 2, replace=False))
                if frozenset((a, b)) not in asked or len(asked) >= n_front * (n_front - 1) // 2:
                    break
        else:
            question = core.next_question(state)
            a, b = question.a, question.b
        asked.add(frozenset((a, b)))
        outcome = "a" if truth[a] < truth[b] else "b" if truth[b] < truth[a] else "="
        if outcome != "=" and rng.random() < noise:
            outcome = "b" if outcome == "a" else "a"
        state = core.add_answer(state, a, b, outcome)
        picks.append(core.summarize(state).recommendation)
    return picks


def run_dataset(name, n_users, noise, n_questions, settings, seed):
    opened = open_dataset(name)
    problem = service.choice_problem(service.default_view_problem(opened.table, opened.default_view))
    sel = problem.selection
    scaled = scaled_raw(problem)
    rng = np.random.default_rng([seed, int(noise * 1000)])
    k_count = problem.u.shape[1]
    results = {s: {"top3": [], "top1": [], "top1_at": []} for s in STRATEGIES}
    for user in range(n_users):
        weights = rng.dirichlet(np.ones(k_count))
        p = USER_P[int(rng.integers(0, len(USER_P)))]
        ranking = copa_ranking(sel.u, weights, p=p, eligible=sel.eligible)
        top3 = {int(r) for r in ranking[:3]}
        user_settings = core.ElicitationSettings(**{**settings.__dict__, "seed": seed + user})
        for strategy in STRATEGIES:
            picks = simulate_user(problem, scaled, strategy, weights, p, noise, n_questions,
                                  user_settings, np.random.default_rng([seed, user, 7]))
            rows = [int(problem.positions[i]) for i in picks]
            results[strategy]["top3"].append([r in top3 for r in rows])
            results[strategy]["top1"].append([r == int(ranking[0]) for r in rows])
            hit = next((q for q, r in enumerate(rows) if r == int(ranking[0])), math.inf)
            results[strategy]["top1_at"].append(hit)
    return problem, results


def share_curve(flags) -> np.ndarray:
    return np.mean(np.array(flags, dtype=float), axis=0)


def answers_for_share(curve, share):
    reached = np.flatnonzero(curve >= share - 1e-12)
    return int(reached[0]) if reached.size else None


def report(name, problem, noise, results, n_questions) -> list[str]:
    n_users = len(results["active"]["top3"])
    lines = [(f"#### {name}: {problem.u.shape[0]} front models, {problem.u.shape[1]} objectives, "
             f"{'10% flipped answers' if noise else 'noiseless'}, {n_users} users"), "",
             ("| way to ask | top-3, no answer yet | after 5 | after 10 | after 15 "
             "| median answers to top-1 | top-1 after 15 |"),
             "|---|---:|---:|---:|---:|---:|---:|"]
    for strategy in STRATEGIES:
        curve = share_curve(results[strategy]["top3"])
        top1 = share_curve(results[strategy]["top1"])
        median = statistics.median(results[strategy]["top1_at"])
        median_text = f">{n_questions}" if math.isinf(median) else f"{median:g}"
        cells = " | ".join(f"{100 * curve[q]:.0f}%" for q in (0,) + CHECKPOINTS if q <= n_questions)
        lines.append(f"| {strategy} | {cells} | {median_text} | "
                     f"{100 * top1[min(15, n_questions)]:.0f}% |")
    lines += ["", "| top-3 share | answers, active | answers, random | random / active |",
              "|---:|---:|---:|---:|"]
    if "active" not in results or "random" not in results:
        return lines + [""]
    active, random_ = (share_curve(results[s]["top3"]) for s in ("active", "random"))
    for share in (0.5, 0.75, 0.9):
        a, r = answers_for_share(active, share), answers_for_share(random_, share)
        if a is None or r is None:
            ratio = "-"
        elif a == 0:
            ratio = "already with no answer" if r == 0 else "inf"
        else:
            ratio = f"{r / a:.1f}x"
        lines.append(f"| {100 * share:.0f}% | {a if a is not None else f'>{n_questions}'} | "
                     f"{r if r is not None else f'>{n_questions}'} | {ratio} |")
    return lines + [""]


def timing(repeats: int) -> list[str]:
    """Server time of one step on the Open LLM leaderboard: the kept state of k - 1 answers
    plus answer k and the next question (what a click costs; the state of k answers is not
    kept yet when timed), and a replay of 10 answers from an empty memory (a shared link
    opened cold), interleaved."""
    opened = open_dataset("open-llm-leaderboard-v2")
    sel = service.default_view_problem(opened.table, opened.default_view, dataset_id="bench")
    problem = service.choice_problem(sel)
    service.run_session(problem, "ab")  # compile
    rng = np.random.default_rng(0)
    step_wall, step_cpu, cold_wall, cold_cpu = [], [], [], []
    for r in range(repeats):
        answers = "".join(rng.choice(list("ab"), size=10))
        service._recent_states._values.clear()
        w0, c0 = time.perf_counter(), time.process_time()
        cold = service.run_session(problem, answers)
        cold_wall.append(time.perf_counter() - w0)
        cold_cpu.append(time.process_time() - c0)
        service._recent_states._values.clear()  # else the steps below are lookups of the replay's
        for k in range(1, len(answers) + 1):
            service.run_session(problem, answers[: k - 1])
            w0, c0 = time.perf_counter(), time.process_time()
            step = service.run_session(problem, answers[:k])
            step_wall.append(time.perf_counter() - w0)
            step_cpu.append(time.process_time() - c0)
        assert step.summary.recommendation == cold.summary.recommendation
        assert np.array_equal(step.state.theta, cold.state.theta), "kept path differs from replay"
    load = os.getloadavg()

    def cell(values):
        return (f"{1e3 * statistics.median(values):.0f} ms (p90 "
                f"{1e3 * float(np.quantile(values, 0.9)):.0f})")

    return [(f"Open LLM leaderboard, {problem.u.shape[0]} front models x {problem.u.shape[1]} "
            f"objectives, {core.ElicitationSettings().n_particles:,} particles; load average "
            f"{load[0]:.1f} on {os.cpu_count()} cores."), "",
            "| what | wall | CPU |", "|---|---:|---:|",
            (f"| one answer + next question (kept state), {len(step_wall)} steps | "
            f"{cell(step_wall)} | {cell(step_cpu)} |"),
            (f"| replay 10 answers from nothing + next question, {len(cold_wall)} runs | "
            f"{cell(cold_wall)} | {cell(cold_cpu)} |"),
            "", "Both paths end in the same particles (checked).", ""]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--users", type=int, default=None)
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--noise", default="0,0.1")
    parser.add_argument("--timing-only", action="store_true")
    parser.add_argument("--no-timing", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tau", type=float, default=None, help="override the answer noise tau")
    parser.add_argument("--strategies", default=",".join(STRATEGIES))
    args = parser.parse_args(argv)
    n_users = args.users or (8 if args.quick else 30)
    settings = core.ElicitationSettings()
    if args.tau is not None:
        settings = core.ElicitationSettings(**{**settings.__dict__, "tau": args.tau})
    STRATEGIES[:] = args.strategies.split(",")
    out = [(f"### Help me choose: simulated users (`python benchmarks/bench_elicitation.py"
           f"{' --quick' if args.quick else ''}`)"), "",
           (f"tau {settings.tau}, tie {settings.tie}, lapse {settings.lapse}, "
           f"{settings.n_particles:,} particles, {args.questions} answers per user."), ""]
    if not args.timing_only:
        for name in args.datasets.split(","):
            for noise in (float(x) for x in args.noise.split(",")):
                problem, results = run_dataset(name, n_users, noise, args.questions, settings,
                                               args.seed)
                block = report(name, problem, noise, results, args.questions)
                print("\n".join(block), flush=True)
                out += block
    if not args.no_timing:
        block = ["### Time per question", ""] + timing(3 if args.quick else 10)
        print("\n".join(block), flush=True)
        out += block
    return 0


if __name__ == "__main__":
    sys.exit(main())
