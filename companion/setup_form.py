"""The new-game form's options: what each game declares (`engine.Option`) shown as radios,
switches, numbers, seat choices, teams and lists of names, and a posted form read back into the
values the API takes. An option a game did not declare is shown by the type of its default."""

import json
import re

from django.utils.translation import gettext as _

from companion import inputs
from companion.engine import Option
from companion.errors import Invalid
from companion.language import say

PREFIX = "opt_"


def _inferred(name, default):
    if isinstance(default, bool):
        kind = "switch"
    elif isinstance(default, int):
        kind = "number"
    elif isinstance(default, str):
        kind = "text"
    else:
        kind = "advanced"
    return Option(name=name, label=name, kind=kind)


def declared(game):
    """Every option of `game` as an Option, in the game's order."""
    fields = {option.name: option for option in game.option_fields}
    return [fields.get(name) or _inferred(name, default) for name, default in game.options.items()]


def _shown(option, default, raw):
    """The value a field shows: what was posted, else the default, as the form writes it."""
    if raw is not None:
        return raw
    if option.kind == "advanced":
        return json.dumps(default) if default not in (None, {}, []) else ""
    if option.kind == "switch":
        return "on" if default else ""
    if option.kind == "teams":
        return ", ".join(" ".join(str(seat + 1) for seat in team) for team in default or ())
    if option.kind == "names":
        return ", ".join(default or ())
    return "" if default is None else str(default)


def fields(game, *, data=None, seat_names=(), suggestions=None):
    """What the template shows for each option: the Option, the value, and its choices."""
    suggestions = suggestions or {}
    rows = []
    for option in declared(game):
        default = game.options[option.name]
        raw = data.get(PREFIX + option.name) if data is not None else None
        if data is not None and option.kind == "switch":
            raw = "on" if raw else ""
        choices = [(str(value), label) for value, label in option.choices]
        if option.kind == "seat":
            # Every seat the game can have, by the number of its name field: a page without
            # script cannot add the fifth when a fifth name is written.
            count = game.max_players
            choices = [(str(i), seat_names[i] if i < len(seat_names) and seat_names[i]
                        else _("Player %(n)s") % {"n": i + 1}) for i in range(count)]
        rows.append({"option": option, "name": PREFIX + option.name,
                     "value": _shown(option, default, raw), "choices": choices,
                     "suggestions": suggestions.get(option.suggest, []) if option.suggest else [],
                     "advanced": option.kind in ("advanced", "teams", "names")})
    return rows


def _number(option, raw):
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


def _choice(option, raw, choices):
    for value, _label in choices:
        if str(value) == raw:
            return value
    raise Invalid(_("%(label)s: %(raw)s is not one of the choices.")
                  % {"label": say(option.label), "raw": raw[:40]})


# Between two teams, or two names: a line break, a comma or a semicolon; between a team's
# players: spaces, "+", "&", "/" or "and" in the languages of the form ("y", "e").
LIST_BREAK = re.compile(r"[\n,;]")
PLAYER_BREAK = re.compile(r"[\s+&/]+|\b(?:and|y|e)\b", re.IGNORECASE)


def _teams(option, raw, names):
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
                raise _no_such_player(label, number, count)
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


def _names(option, raw, default):
    """Names in seat order between commas (or a name a line): "bors, Gawain" is ["Bors",
    "Gawain"], each written as the game spells it whatever its case. A name the game does not
    know is left as written, for the rules to say which names there are."""
    spelled = {name.casefold(): name for name in option.names}
    written = [name.strip() for name in LIST_BREAK.split(raw) if name.strip()]
    return [spelled.get(name.casefold(), name) for name in written] or default


def player_names(post):
    """The players' names of a posted form, in seating order. The form numbers its fields
    (Player 1, Player 2...) and its seat and team choices by those numbers, so a field left
    empty before a named one is refused: the numbers would no longer be the seats."""
    written = [name.strip() for name in post.getlist("name")]
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
        raise _no_such_player(label, seat + 1, len(names))
    return seat


def _no_such_player(label, number, count):
    return Invalid(_("%(label)s: there is no player %(n)s; the players are numbered 1 to "
                     "%(count)s.") % {"label": label, "n": number, "count": count})


def read(game, post, *, names=()):
    """The options of a posted new-game form, as the values the API takes. Fields left out keep
    the game's defaults (the rules check the values). `names`: the players' names, in the
    order the form numbers them."""
    options = {}
    for option in declared(game):
        default = game.options[option.name]
        raw = post.get(PREFIX + option.name)
        if option.kind == "switch":
            options[option.name] = raw in ("on", "true", "1", "yes")
            continue
        if raw is None:
            continue
        raw = inputs.text(raw, field=PREFIX + option.name, label=say(option.label),
                          max_length=2000)
        if option.kind == "number":
            options[option.name] = _number(option, raw)
        elif option.kind == "choice":
            options[option.name] = _choice(option, raw, option.choices)
        elif option.kind == "seat":
            options[option.name] = seat_chosen(raw, label=say(option.label), names=names,
                                               optional=option.optional)
        elif option.kind == "advanced":
            options[option.name] = inputs.parse_json(raw) if raw else default
        elif option.kind == "teams":
            options[option.name] = _teams(option, raw, names)
        elif option.kind == "names":
            options[option.name] = _names(option, raw, default)
        else:
            options[option.name] = raw
    return options
