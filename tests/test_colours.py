"""The seats' palette: distinct defaults around the colours chosen (no database)."""

from hypothesis import given
from hypothesis import strategies as st

from companion.colours import HEXES, colours_default


@given(st.lists(st.one_of(st.none(), st.sampled_from(HEXES)), min_size=1, max_size=12,
                unique_by=lambda colour: colour or object()))
def test_chosen_colours_stay_and_the_first_eight_seats_are_told_apart(given_colours):
    colours = colours_default(given_colours)
    assert all(colour == chosen for colour, chosen in zip(colours, given_colours, strict=True)
               if chosen)
    assert all(colour in HEXES for colour in colours)
    if len(given_colours) <= len(HEXES):
        assert len(set(colours)) == len(colours)


def test_defaults_follow_the_palette():
    assert colours_default([None, None, None]) == list(HEXES[:3])
    assert colours_default([None, HEXES[0]]) == [HEXES[1], HEXES[0]]
