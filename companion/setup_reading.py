"""The new-game form's readings of what was written in it: numbers, choices, teams by the
players' numbers, names, seats. Each raises errors.Invalid with the form's sentence, in the form's
words: the players by the numbers of their fields (Player 1, Player 2...), never by the API's
seats counted from 0."""

import re

from django.utils.translation import gettext as _

from companion import inputs
from companion.errors import Invalid
from companion.language import say


def number_read(option, raw):
    if not raw.strip():
        if option.optional:
            return None
        raise Invalid(_("%(label)s needs a number.") % {"label": say(option.label)})
    value = raw.strip()
    sign = -1 if value.startswith("-") else 1
    number = inputs.whole_number(value.lstrip("-"))
    if number is None:
        raise Invalid(_("%(label)s: %(raw)s is not a whole number.")
                      % {"label": say(option.label), "raw": raw[:20]})
    return sign * number


def choice_read(option, raw, choices):
    for value, _label in choices:
        if str(value) == raw:
            return value
    raise Invalid(_("%(label)s: %(raw)s is not one of the choices.")
                  % {"label": say(option.label), "raw": raw[:40]})


# Between two teams, or two names: a line break, a comma or a semicolon; between a team's
# players: spaces, "+", "&", "/" or "and" in the languages of the form ("y", "e").
LIST_BREAK = re.compile(r"[\n,;]")
PLAYER_BREAK = re.compile(r"[\s+&/]+|\b(?:and|y|e)\b", re.IGNORECASE)


def teams_read(option, raw, names):
    """Teams written as the form numbers its players (1 and up), a team a line or between
    commas: "1 3, 2 4" is [[0, 2], [1, 3]], the seats the API takes. Said wrong in the words of
    the form: player numbers and names, never the API's seats counted from 0."""
    if not raw.strip() or not names:
        return None  # with no player named yet, the form is told of the missing players
    label, count = say(option.label), len(names)
    teams, team_of = [], {}
    for written in LIST_BREAK.split(raw):
        team = []
        for word in PLAYER_BREAK.split(written):
            if not word:
                continue
            number = inputs.whole_number(word)
            if number is None:
                raise Invalid(_("%(label)s: write each team's player numbers, such as 1 3, 2 4 "
                                "('%(word)s' is not a player's number).")
                              % {"label": label, "word": word[:20]})
            if not 1 <= number <= count:
                raise no_such_player(label, number, count)
            if team_of.get(number) == len(teams):
                continue  # written twice in one team
            if number in team_of:
                raise Invalid(_("%(label)s: %(name)s is in two teams; a player plays for one "
                                "team.") % {"label": label, "name": names[number - 1]})
            team_of[number] = len(teams)
            team.append(number - 1)
        if team:
            teams.append(team)
    return teams or None


def names_read(option, raw, default):
    """Names in seat order between commas (or a name a line): "bors, Gawain" is ["Bors",
    "Gawain"], each written as the game spells it whatever its case. A name the game does not
    know is left as written, for the rules to say which names there are."""
    spelled = {name.casefold(): name for name in option.names}
    written = [name.strip() for name in LIST_BREAK.split(raw) if name.strip()]
    return [spelled.get(name.casefold(), name) for name in written] or default


def player_names(written):
    """The players' names, as written in the form's fields, in seating order. The form numbers
    its fields (Player 1, Player 2...) and its seat and team choices by those numbers, so a
    field left empty before a named one is refused: the numbers would no longer be the seats."""
    written = [name.strip() for name in written]
    for number, name in enumerate(written, start=1):
        if not name and any(written[number:]):
            raise Invalid(_("Player %(n)s is empty but a later one is not: write the players in "
                            "order, with no gap.") % {"n": number})
    return [name for name in written if name]


def seat_chosen(raw, *, label, names, optional=False):
    """The seat a choice of the form names (a player's number less one), refused in the form's
    words, by the players' numbers, not by the API's seats counted from 0. With `optional`, no
    choice (an empty field) is None."""
    if optional and not raw.strip():
        return None
    seat = inputs.whole_number(raw)
    if seat is None:
        raise Invalid(_("%(label)s: choose one of the players.") % {"label": label})
    if names and seat >= len(names):
        raise no_such_player(label, seat + 1, len(names))
    return seat


def no_such_player(label, number, count):
    return Invalid(_("%(label)s: there is no player %(n)s; the players are numbered 1 to "
                     "%(count)s.") % {"label": label, "n": number, "count": count})
