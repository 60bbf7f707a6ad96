"""bench/move_ab.py weighs two checkouts burst by burst: each pair's ratio, so that the drift both
sides saw cancels out."""

import pytest

from bench.move_ab import paired


def test_a_drift_both_sides_saw_cancels_out():
    before = [4.0, 8.0, 6.0]  # the machine slowed down, then sped up
    after = [3.6, 7.2, 5.4]  # a tenth cheaper in every burst
    assert paired(before, after) == pytest.approx((0.9, 0.9, 0.9))


def test_the_median_of_the_pairs_not_the_pair_of_medians():
    assert paired([1.0, 10.0, 2.0], [2.0, 10.0, 1.0]) == pytest.approx((1.0, 0.5, 2.0))


def test_both_sides_have_as_many_bursts():
    with pytest.raises(ValueError):
        paired([1.0, 2.0], [1.0])
