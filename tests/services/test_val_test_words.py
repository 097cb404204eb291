"""Val -> test on a table without validation/test pairs says what it needs in plain words,
with real column names, not a ``val_<metric>`` template (issue 33: a term without plain
words nearby; the page, the CLI and the API show this message)."""

from __future__ import annotations

import pytest

from copa_dash.core.errors import InvalidInputError
from copa_dash.data.schema import Objective, Roles
from copa_dash.services.val_test_pairs import spec_from_roles


def test_no_pairs_says_what_the_page_does_and_names_an_example_pair():
    with pytest.raises(InvalidInputError) as raised:
        spec_from_roles(Roles("id", (Objective("acc", "max"),)), ["id", "acc"])
    said = str(raised.value)
    assert said.startswith("this table has no validation/test pairs")
    assert "validation data beside its score on test data" in said
    assert "val_accuracy and test_accuracy" in said and "<" not in said
