"""What the reader did to a file, said once each: the notes of the "What we read" panel.

Every reader and rule appends to one :class:`ReadLog`; :func:`~copa_dash.data.io.read_table_report`
returns it frozen as a :class:`TableRead` beside the frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd


@dataclass
class ReadLog:
    """Notes in the order they happened, the decimal mark, and units found per column."""

    notes: list[str] = field(default_factory=list)
    decimal: str = "."
    units: dict[str, str] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)  # header without its unit
    zeros_missing: list[str] = field(default_factory=list)  # columns whose 0s became missing
    zeros_kept: list[str] = field(default_factory=list)     # ... or were kept, as asked

    def add(self, note: str) -> None:
        """Record ``note`` unless it was said already."""
        if note not in self.notes:
            self.notes.append(note)


@dataclass(frozen=True)
class TableRead:
    """A table as read: the typed frame, the notes, and each column's unit and label.

    ``units`` maps a column to the unit read from its header (``Memory (MB)`` -> MB) or
    its cells (``61.1M`` -> M); ``labels`` maps it to its header without the unit
    (``Memory``), so an axis can say ``Memory [MB]``. ``zeros_missing`` names the time or
    amount columns whose 0s were read as missing (a front end offers to keep them), and
    ``zeros_kept`` those whose 0s were kept as values on request.
    """

    frame: pd.DataFrame
    notes: tuple[str, ...]
    units: dict[str, str]
    labels: dict[str, str]
    zeros_missing: tuple[str, ...] = ()
    zeros_kept: tuple[str, ...] = ()
