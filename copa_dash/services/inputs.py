"""What a page hands to the services, named in one place: the row filter, the column roles of an
upload, the check of a typed p, and the one reading of a typed number and of a condition. The UI
imports them from here, never from data or core (tests/test_layers.py holds it to that), so the
services stay its one way down."""

from __future__ import annotations

from ..core.numbers import read_number, read_numbers
from ..core.validate import check_p
from ..data.filters import RowFilter, compare, split_condition
from ..data.schema import Objective, Roles

__all__ = ["Objective", "Roles", "RowFilter", "check_p", "compare", "read_number",
           "read_numbers", "split_condition"]
