"""``copa-dash elicit``: "this model or that one?", one question at a time.

Each question shows two models of the front side by side with their values on every
objective (and which of the two is better on each); the user answers on stdin with one line:
``a`` (the first model), ``b`` (the second) or ``=`` (can't tell). A line it cannot read gets
one line on stderr and the same question again. When it is ``--confidence`` sure (default
90%), after ``--max-questions`` answers, or at the end of the input, it prints the recommended
model with its values, the learned weights and p (with their posterior probabilities), the
credible set and the ``select`` options that reproduce the pick, and exits 0.

With ``--json`` (for scripts) it prints one JSON object per line instead:
``{"question": k, "a": ID, "b": ID, "values": {"a": {COLUMN: v}, "b": {COLUMN: v}}}`` per
question and at the end ``{"done": true, "pick": ID, "confidence": x, "values": {COLUMN: v},
"weights": {COLUMN: w}, "p": P, "p_probability": {P: q}, "credible_set": [ID, ...],
"level": l, "questions": k}``. The models, objectives and directions are those ``rank``
uses (with ``--dataset``, the default view).
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from ..core import elicitation as core
from ..core.errors import InvalidInputError
from ..core.validate import format_p
from ..services import elicitation as service
from ..services import selection
from ._common import add_table_arguments, format_table, jsonable
from .preferences import build

HOW_TO_ANSWER = """\
Asks "this model or that one?" about pairs of models on the Pareto front and learns the
weights and p of COPA's criterion from the answers.

How to answer: each question shows model a and model b with their values on every
objective. Type one line, then Enter:
  a   you would rather use model a
  b   you would rather use model b
  =   you can't tell (or don't mind)
It stops when it is --confidence sure (default 90%), after --max-questions answers or at
the end of the input (Ctrl-D), and prints the recommended model, its values, the learned
weights and p, and the 'copa-dash select' options that give the same pick.
Scripts: --json prints one JSON object per line and reads the same one-line answers.
"""


def register(subparsers) -> None:
    """Add ``elicit`` to the CLI."""
    sub = subparsers.add_parser(
        "elicit", help='learn weights and p from answers to "this model or that one?" (stdin/stdout)',
        description=HOW_TO_ANSWER, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_table_arguments(sub)
    sub.add_argument("--where", action="append", default=[], metavar='"COL>=X"',
                     help="only rows that satisfy this may be picked (repeatable)")
    sub.add_argument("--all-rows", action="store_true",
                     help="with --dataset: drop the default view's filters")
    sub.add_argument("--cdf-population", default="all", choices=("all", "filtered"),
                     help="compute u over all rows (default) or only the rows that pass --where")
    sub.add_argument("--max-questions", type=int, default=20,
                     help="stop after this many answers (default 20)")
    sub.add_argument("--confidence", type=float, default=service.CONFIDENT,
                     help="stop when the pick is the best with this probability (default 0.9)")
    sub.add_argument("--seed", type=int, default=0, help="seed of the sampler (default 0)")
    sub.set_defaults(run=run_elicit, focus=[], alpha=None, weights=[], p=None, method="copa")


def run_elicit(args, stdin=None, stdout=None, stderr=None) -> int:
    """The question-and-answer loop."""
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    if args.max_questions < 0:
        raise InvalidInputError(f"--max-questions must be >= 0, not {args.max_questions}")
    if not 0.0 < args.confidence <= 1.0:
        raise InvalidInputError(f"--confidence must lie in (0, 1], not {args.confidence}")
    table, prefs, row_filter = build(args)
    problem = service.choice_problem(selection.build_problem(table, prefs, row_filter))
    settings = core.ElicitationSettings(seed=args.seed)
    limits = {"max_questions": args.max_questions, "confident": args.confidence}
    session = service.run_session(problem, "", settings=settings, **limits)
    while not session.done:
        _ask(stdout, problem, session, args)
        line = stdin.readline()
        if not line:
            if not args.json:
                stdout.write("\n")
            break
        outcome = line.strip()
        if outcome not in core.OUTCOMES:
            print(f"copa-dash elicit: {outcome!r} is not an answer: type a, b or = (can't tell)",
                  file=stderr, flush=True)
            continue
        session = service.answer(problem, session, outcome, **limits)
    _finish(stdout, problem, session, args)
    return 0


def _values(problem, position) -> dict:
    """``{objective: raw value}`` of one model of the front."""
    return dict(zip(problem.objectives, problem.raw[position].tolist()))


def _ask(stdout, problem, session, args) -> None:
    """One question: JSON line, or the two models side by side and the prompt."""
    question = session.question
    number = len(session.answers) + 1
    a, b = problem.ids[question.a], problem.ids[question.b]
    if args.json:
        _print(stdout, {"question": number, "a": a, "b": b,
                        "values": {"a": _values(problem, question.a),
                                   "b": _values(problem, question.b)}})
        return
    rows = []
    for k, (name, direction) in enumerate(zip(problem.objectives, problem.directions)):
        va, vb = problem.raw[question.a, k], problem.raw[question.b, k]
        rows.append({"objective": f"{name} ({'higher' if direction == 'max' else 'lower'} is better)",
                     "a": va, "b": vb, "better": _better(va, vb, direction)})
    stdout.write(f"\nQuestion {number} (at most {args.max_questions}): which model would you "
                 f"rather use?\n  a = {a}\n  b = {b}\n"
                 + format_table(rows, ["objective", "a", "b", "better"])
                 + "\nYour answer (a, b or = for can't tell): ")
    stdout.flush()


def _better(va: float, vb: float, direction: str) -> str:
    if not (math.isfinite(va) and math.isfinite(vb)):
        return ""
    if va == vb:
        return "same"
    return "a" if (va > vb) == (direction == "max") else "b"


def _finish(stdout, problem, session, args) -> None:
    """The recommendation, its values and the posterior summary."""
    summary = session.summary
    pick = problem.ids[summary.recommendation]
    weights = dict(zip(problem.objectives, summary.mean_weights.tolist()))
    p_text = "inf" if math.isinf(summary.p) else summary.p
    p_words_p = format_p(summary.p)
    p_probability = {format_p(v): float(q) for v, q in
                     zip(core.P_VALUES, summary.p_probability)}
    credible = [problem.ids[i] for i in summary.credible_set]
    if args.json:
        _print(stdout, {"done": True, "pick": pick, "confidence": summary.probability,
                        "values": _values(problem, summary.recommendation),
                        "weights": weights, "p": p_text, "p_probability": p_probability,
                        "credible_set": credible, "level": summary.level,
                        "questions": len(session.answers)})
        return
    n = len(session.answers)
    rows = [{"objective": f"{name} ({direction})", "value": problem.raw[summary.recommendation, k],
             "weight": weights[name]}
            for k, (name, direction) in enumerate(zip(problem.objectives, problem.directions))]
    p_words = ", ".join(f"{v}: {q:.0%}" for v, q in p_probability.items())
    stdout.write(
        f"\nRecommended after {n} answer{'s' if n != 1 else ''}: {pick}\n"
        f"  {summary.probability:.0%} sure it is the best of the {len(problem.ids)} models on "
        f"the front; the {summary.level:.0%} credible set: {', '.join(credible)}\n"
        + format_table(rows, ["objective", "value", "weight"])
        + f"\nLearned preferences: the weights above (posterior mean) and p = {p_words_p} "
        f"(probability of each p: {p_words})\n" + _select_line(problem, session))
    stdout.flush()


def _select_line(problem, session) -> str:
    """The ``select`` options under which COPA picks the recommendation (the service's
    ``preferences``: the mean weights, or the most probable particle's when the mean picks
    another model)."""
    prefs = service.preferences(problem, session)
    if prefs["use_alpha"]:
        options = " ".join(f"--focus {name}" for name in prefs["focus"]) + \
            f" --alpha {prefs['alpha']:g}"
    else:
        options = "--weights " + ",".join(f"{k}={w:g}" for k, w in prefs["weights"].items())
    p = format_p(prefs["p"])
    if not prefs["selects"]:
        return "No weights found under which COPA itself picks this model.\n"
    return f"COPA picks it with: copa-dash select ... {options} --p {p}\n"


def _print(stream, obj) -> None:
    stream.write(json.dumps(jsonable(obj), allow_nan=False) + "\n")
    stream.flush()
