"""Who starts, as a page asks it (Game.first): at set-up (the new-game form's
setup_form.FirstOption) and at a finished game's Rematch (companion.fragments), both drawn by
templates/companion/_who_starts.html; and its answer as a form posts it."""

from django.utils.translation import gettext as _

from companion import inputs
from companion.engine import DRAW
from companion.errors import Invalid


def who_starts(option, *, name, seats, chosen, with_help=True):
    """What "Who starts?" offers (templates/companion/_who_starts.html), for the game's option of
    who starts (Game.first_option): the field's `name` (and id), its choices [(value posted,
    label)]: nobody named where the option allows it, the draw, then `seats` [(number posted,
    name)]; the value `chosen` as posted, and the option's help unless with_help=False."""
    none = [("", _("Decided at the table"))] if option.optional else []
    return {"name": name, "chosen": "" if chosen is None else str(chosen),
            "choices": [*none, (DRAW, _("A draw: the app picks, and the log tells who")),
                        *seats],
            "help": option.help if with_help else ""}


def first_read(raw):
    """Who starts as a form posts it: the draw, a seat (a whole number), or nobody named ("")."""
    raw = raw.strip()
    if raw == DRAW:
        return DRAW
    if not raw:
        return None
    seat = inputs.whole_number(raw)
    if seat is None:
        raise Invalid(_("Who starts: choose a player or the draw."))
    return seat
