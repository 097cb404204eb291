"""``copa-dash elicit``: "this model or that one?", one line at a time.

Prints one JSON object per line on stdout, ``{"question": k, "a": ID, "b": ID}``, and reads one
answer per line on stdin: ``a``, ``b`` or ``=`` (can't tell). A line it cannot read gets one
line on stderr and the same question again. When it is ``--confidence`` sure (default 90%),
after ``--max-questions`` answers, or at the end of the input, it prints
``{"done": true, "pick": ID, "confidence": x, "weights": {COLUMN: w}, "p": P, "questions": k}``
and exits 0. The models, objectives and directions are those ``rank`` uses (with
``--dataset``, the default view).
"""

from __future__ import annotations

import json
import math
import sys

from ..core import elicitation as core
from ..core.errors import InvalidInputError
from ..services import elicitation as service
from ..services import selection
from ._common import add_table_arguments, jsonable
from .preferences import build


def register(subparsers) -> None:
    """Add ``elicit`` to the CLI."""
    sub = subparsers.add_parser(
        "elicit", help='learn weights and p from answers to "this model or that one?" (stdin/stdout)')
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
        question = session.question
        _print(stdout, {"question": len(session.answers) + 1,
                        "a": problem.ids[question.a], "b": problem.ids[question.b]})
        line = stdin.readline()
        if not line:
            break
        outcome = line.strip()
        if outcome not in core.OUTCOMES:
            print(f"copa-dash elicit: {outcome!r} is not an answer: type a, b or = (can't tell)",
                  file=stderr, flush=True)
            continue
        session = service.answer(problem, session, outcome, **limits)
    summary = session.summary
    _print(stdout, {"done": True, "pick": problem.ids[summary.recommendation],
                    "confidence": summary.probability,
                    "weights": dict(zip(problem.objectives, summary.mean_weights)),
                    "p": "inf" if math.isinf(summary.p) else summary.p,
                    "questions": len(session.answers)})
    return 0


def _print(stream, obj) -> None:
    stream.write(json.dumps(jsonable(obj), allow_nan=False) + "\n")
    stream.flush()
