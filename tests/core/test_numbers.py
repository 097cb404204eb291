"""The one reader of typed numbers agrees with Python's float on what float reads, and says
"not a number" (the default) for NaN, booleans, None and other text."""

import math

import numpy as np
import pytest

from copa_dash.core.numbers import read_number


def _float_or_none(text):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(value) else value


def test_it_reads_exactly_what_float_reads_on_random_typed_text():
    rng = np.random.default_rng(3)
    alphabet = list("0123456789.+-eE _ainfINFxy")
    texts = ["".join(rng.choice(alphabet, size=rng.integers(0, 7))) for _ in range(3000)]
    texts += [repr(v) for v in rng.normal(size=200) * 10.0 ** rng.integers(-300, 300, 200)]
    for text in texts:
        assert read_number(text) == _float_or_none(text), text


@pytest.mark.parametrize("text, expected", [
    ("inf", math.inf), (" Infinity ", math.inf), ("-inf", -math.inf), ("+INF", math.inf),
    ("∞", math.inf), ("-∞", -math.inf), (" +∞ ", math.inf), (3, 3.0), (2.5, 2.5),
])
def test_infinity_is_read_in_every_spelling_a_person_types(text, expected):
    assert read_number(text) == expected


@pytest.mark.parametrize("text", ["nan", "NaN", "", "abc", "∞∞", "1,5", None, True, False,
                                  float("nan"), [1.0]])
def test_what_is_not_a_number_gives_the_default(text):
    assert read_number(text) is None
    assert read_number(text, 0.5) == 0.5


def test_finite_turns_infinity_away():
    assert read_number("inf", 7.0, finite=True) == 7.0
    assert read_number("-∞", finite=True) is None
    assert read_number("1e308", finite=True) == 1e308


def test_a_list_of_numbers_is_read_part_by_part_and_a_bad_part_is_named_with_the_option():
    from copa_dash.core.errors import InvalidInputError
    from copa_dash.core.numbers import read_numbers

    assert read_numbers(" 1,2.5 , -inf", what="--ref") == (1.0, 2.5, -math.inf)
    for bad in ("1,,2", "1;2", "a,b", "1,nan"):
        with pytest.raises(InvalidInputError, match=f"--ref '{bad}': write numbers separated"):
            read_numbers(bad, what="--ref")
