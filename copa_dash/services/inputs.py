"""What a page hands to the services, named in one place: the row filter, the column roles of an
upload and the check of a typed p. The UI imports them from here, never from data or core
(tests/test_layers.py holds it to that), so the services stay its one way down."""

from __future__ import annotations

from ..core.validate import check_p
from ..data.filters import RowFilter
from ..data.schema import Objective, Roles

__all__ = ["Objective", "Roles", "RowFilter", "check_p"]
