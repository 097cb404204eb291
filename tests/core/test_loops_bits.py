"""``loops.lowest_row`` and ``loops.odd_size`` (inclusion-exclusion's subset bookkeeping)
against Python's own integers."""

from copa_dash.core._kernels.loops import lowest_row, odd_size


def test_lowest_row_is_the_index_of_the_lowest_set_bit():
    for mask in [*range(1, 1 << 10), 1 << 40, (1 << 62) | (1 << 41), (1 << 62) + 8]:
        assert lowest_row(mask) == (mask & -mask).bit_length() - 1, mask


def test_odd_size_is_the_parity_of_the_number_of_rows():
    for mask in [*range(1, 1 << 10), (1 << 62) - 1, 1 << 62, (1 << 62) | (1 << 33) | 5]:
        assert odd_size(mask) == (mask.bit_count() % 2 == 1), mask
