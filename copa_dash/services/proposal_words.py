"""What the upload page's proposal makes of a pasted table, in one sentence: Help's worked
example for Upload says it from the reader itself, so it cannot drift from what the page
(and ``copa-dash inspect``) say of the same table (it once said params was "sure" while the
reader marked it "likely")."""

from __future__ import annotations

from ..data import io
from .uploads import PASTED_FILENAME, read_and_propose

_DIRECTION = {"max": "to maximise", "min": "to minimise"}
_CONFIDENCE = {"sure": "sure", "likely": "likely: check it", "unsure": "unsure: choose it"}


def _and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def proposal_in_words(text: str) -> str:
    """The proposal for the pasted table ``text`` in words: its id, each objective with its
    direction and how sure the guess is, each other column with its role.

    Examples
    --------
    >>> proposal_in_words("| m | accuracy | params |\\n|---|---|---|\\n| a | 1% | 7B |\\n"
    ...                   "| b | 2% | 13B |")
    'The proposal takes m as the id, accuracy to maximise (sure) and params to minimise (likely: check it).'
    """
    _, proposal = read_and_propose(text.encode("utf-8"), PASTED_FILENAME, io.Limits())
    parts = []
    for column in proposal.columns:
        if column.role == "id":
            parts.append(f"{column.name} as the id")
        elif column.role == "objective" and column.direction in _DIRECTION:
            parts.append(f"{column.name} {_DIRECTION[column.direction]} "
                         f"({_CONFIDENCE.get(column.confidence, column.confidence)})")
        elif column.role == "objective":
            parts.append(f"{column.name} as an objective whose direction you choose")
        else:
            parts.append(f"{column.name} as {column.role}")
    return f"The proposal takes {_and(parts)}."
