"""The environment's numbers are read by one helper: unset or empty gives the default, text
that is not a number and values out of range are refused with the variable's name."""

import pytest

from copa_dash.config import Settings
from copa_dash.core.errors import InvalidInputError
from copa_dash.core.validate import check_probability


def test_unset_or_empty_variables_give_the_defaults():
    assert Settings.from_env({"COPA_MAX_UPLOAD_MB": ""}).max_upload_bytes == \
        Settings.from_env({}).max_upload_bytes == 50 * 2**20


@pytest.mark.parametrize("name, value, message", [
    ("COPA_MAX_UPLOAD_MB", "ten", "COPA_MAX_UPLOAD_MB must be an integer, not 'ten'"),
    ("COPA_MAX_UPLOAD_MB", "0", "COPA_MAX_UPLOAD_MB must be positive, not 0"),
    ("COPA_BODY_SECONDS", "soon", "COPA_BODY_SECONDS must be a number of seconds, not 'soon'"),
    ("COPA_BODY_SECONDS", "inf", "COPA_BODY_SECONDS must be finite and >= 0, not 'inf'"),
    ("COPA_BODY_SECONDS", "-1", "COPA_BODY_SECONDS must be finite and >= 0, not '-1'"),
])
def test_bad_numbers_name_the_variable(name, value, message):
    with pytest.raises(InvalidInputError, match=message):
        Settings.from_env({name: value})


@pytest.mark.parametrize("value, message", [
    ("x", "'alpha' must be a number in \\(0, 1\\), not 'x'"),
    (None, "'alpha' must be a number in \\(0, 1\\), not None"),
    (1.0, "'alpha' must lie in \\(0, 1\\), but it is 1.0"),
    (0, "'alpha' must lie in \\(0, 1\\), but it is 0.0"),
    (float("nan"), "'alpha' must lie in \\(0, 1\\), but it is nan"),
])
def test_a_probability_outside_the_open_unit_interval_is_refused(value, message):
    with pytest.raises(InvalidInputError, match=message):
        check_probability(value, name="alpha")
    assert check_probability(0.05, name="alpha") == 0.05
