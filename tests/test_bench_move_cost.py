"""bench/move_cost.py --pieces: the CPU spent inside each piece of a request's path, summed around
its calls, said per request."""

import time

import pytest

from bench.move_cost import PIECES, Pieces


def busy(seconds):
    until = time.thread_time() + seconds
    while time.thread_time() < until:
        pass
    return "done"


def test_a_piece_counts_its_calls_and_the_cpu_inside_them():
    pieces = Pieces()
    timed = pieces.wrap(busy, "· busy")
    assert [timed(0.002), timed(0.002)] == ["done", "done"]
    assert pieces.calls["· busy"] == 2
    assert pieces.spent["· busy"] >= 0.004
    assert pieces.lines(2)[0].startswith("| · busy | 2.")  # about 2 ms a request


def test_a_piece_that_raises_is_counted_and_the_error_goes_on():
    pieces = Pieces()

    def refuse():
        raise ValueError("no")

    with pytest.raises(ValueError):
        pieces.wrap(refuse, "refuse")()
    assert pieces.calls["refuse"] == 1


def test_reset_starts_each_line_afresh_and_pieces_never_called_are_left_out():
    pieces = Pieces()
    timed = pieces.wrap(busy, "busy")
    pieces.wrap(busy, "never")
    timed(0.001)
    pieces.reset()
    assert pieces.lines(1) == []
    timed(0.0)
    assert [line.split(" | ")[0] for line in pieces.lines(1)] == ["| busy"]


def test_every_piece_names_a_function_that_exists():
    import importlib

    for module_name, owner_name, attribute, _depth, _what in PIECES:
        module = importlib.import_module(module_name)
        owner = getattr(module, owner_name) if owner_name else module
        assert callable(getattr(owner, attribute)), (module_name, owner_name, attribute)
