"""Each seat's colour, as the pieces on the table have one: a palette that colour-blind players
tell apart (Okabe and Ito's eight), always shown with the seat's initial. A colour is stored and
given by the API as its hex; the pages draw it by its class (`seat-colour-<n>`: the
Content-Security-Policy allows no inline style)."""

from django.utils.translation import gettext_lazy as _

from companion.errors import Invalid

# (hex, name): distinct for the three common kinds of colour blindness.
PALETTE = (
    ("#e69f00", _("orange")),
    ("#56b4e9", _("sky blue")),
    ("#009e73", _("green")),
    ("#f0e442", _("yellow")),
    ("#0072b2", _("blue")),
    ("#d55e00", _("red")),
    ("#cc79a7", _("pink")),
    ("#000000", _("black")),
)
HEXES = tuple(hex_ for hex_, _name in PALETTE)


def colours_default(given):
    """Each seat's colour: the one `given` for it (a hex of the palette, or None), else the first
    of the palette no seat has yet; past eight seats the palette goes round again."""
    taken = {colour for colour in given if colour}
    free = [colour for colour in HEXES if colour not in taken]
    colours = []
    for index, colour in enumerate(given):
        if not colour:
            colour = free.pop(0) if free else HEXES[index % len(HEXES)]
        colours.append(colour)
    return colours


def colour_checked(value, *, field="colour"):
    """A palette colour's hex (any case), else Invalid naming the palette."""
    colour = value.strip().lower() if isinstance(value, str) else value
    if colour not in HEXES:
        message = _("A seat's colour is one of %(colours)s, not %(given)s.") % {
            "colours": ", ".join(f"{hex_} ({name})" for hex_, name in PALETTE),
            "given": str(value)[:20]}
        raise Invalid(message, fields={field: [message]})
    return colour


def colour_index(colour):
    """The palette's place of `colour` (its class on a page); 0 for one not in it."""
    return HEXES.index(colour) if colour in HEXES else 0


def colour_name(colour):
    return dict(PALETTE).get(colour, "")
