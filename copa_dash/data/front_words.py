"""How each front end names an objective and its direction, written once.

A note that says how to bring an objective into a view is read on the page, on
``copa-dash``'s stderr and in the notebook; each front end has its own way to name the
objective (the page ticks it, the CLI takes ``--objective 'COL:DIR'``, the notebook
``objectives=['COL:DIR', ...]``). The notes of the upload proposal (``data/``) and of the first
view (``services/default_view.py``) both build their sentences from these, so a change of the
CLI's or the notebook's syntax is made here alone.
"""

from __future__ import annotations

__all__ = ["FRONT_ENDS", "check_front", "objective_argument"]

#: the front ends a note can be written for
FRONT_ENDS = ("page", "cli", "notebook")


def check_front(front: str) -> str:
    """``front`` itself when it is one of :data:`FRONT_ENDS`.

    Raises
    ------
    ValueError
        Naming the front ends there are: a programming error, not a user's.
    """
    if front not in FRONT_ENDS:
        raise ValueError(f"front {front!r}: one of {', '.join(FRONT_ENDS)}")
    return front


def objective_argument(name: str, front: str, direction: str = "DIR") -> str:
    """How the CLI or the notebook names the objective ``name`` with its ``direction``.

    >>> objective_argument("loss", "cli", "min")
    "--objective 'loss:min'"
    >>> objective_argument("loss", "notebook")
    "'loss:DIR'"
    """
    if check_front(front) == "page":
        raise ValueError("the page ticks an objective: it has no argument to name it")
    spelled = f"'{name}:{direction}'"
    return f"--objective {spelled}" if front == "cli" else spelled
