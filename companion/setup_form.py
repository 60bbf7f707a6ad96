"""The new-game form: a Django Form built from the chosen game's declared options (an
`engine.Option` each: a choice, a switch, a whole number, a text, a seat, teams, a list of names
or JSON; an option a game did not declare is shown by the type of its default), with the players'
names, the host's seat, the place and the table's language.

The form checks shapes and lengths and says what is wrong in its own words: the players by the
numbers of their fields (Player 1, Player 2...), never by the API's seats counted from 0. Its
cleaned_data is what services.session_create takes (players, options, host_seat, location,
language); the service is the one place that checks the rules of a set-up."""

import json
import re
from functools import cached_property

from django import forms
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from companion import inputs
from companion.engine import DRAW, Option
from companion.errors import Invalid
from companion.language import say
from companion.who_starts import who_starts

PREFIX = "opt_"
# What an option's field takes at most, whatever its kind: the rules check their own lengths.
TEXT_LENGTH = 2000
# The kinds folded away under "More: ..." (lists and JSON, rarely changed).
FOLDED = ("advanced", "teams", "names")


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


def _shown(option, default):
    """The value a field shows before anything is posted: the default, as the form writes it."""
    if option.kind == "advanced":
        return json.dumps(default) if default not in (None, {}, []) else ""
    if option.kind == "switch":
        return "on" if default else ""
    if option.kind == "teams":
        return ", ".join(" ".join(str(seat + 1) for seat in team) for team in default or ())
    if option.kind == "names":
        return ", ".join(default or ())
    return "" if default is None else str(default)


# The readings of what was written. Each raises errors.Invalid with the form's sentence.

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
        raise _no_such_player(label, seat + 1, len(names))
    return seat


def _no_such_player(label, number, count):
    return Invalid(_("%(label)s: there is no player %(n)s; the players are numbered 1 to "
                     "%(count)s.") % {"label": label, "n": number, "count": count})


# The widgets. The template writes the fields by hand; these read a post back.

class EveryName(forms.TextInput):
    """The players' names: every field named "name", in the order of the page."""

    def value_from_datadict(self, data, files, name):
        if hasattr(data, "getlist"):
            return data.getlist(name)
        value = data.get(name)
        if value is None:
            return []
        return list(value) if isinstance(value, list | tuple) else [value]


class Switch(forms.CheckboxInput):
    """A checkbox read as posted ("" when unticked: it posts nothing)."""

    def value_from_datadict(self, data, files, name):
        return data.get(name) or ""


# The fields.

class Said(forms.Field):
    """A field whose refusals are the app's sentences (errors.Invalid), said as its errors."""

    def clean(self, value):
        try:
            return super().clean(value)
        except Invalid as invalid:
            raise forms.ValidationError(invalid.message) from None


class OptionBound(forms.BoundField):
    """An option as the template writes it: its declaration, its choices as the form posts them,
    the texts it suggests, and whether it is folded away under "More: ..."."""

    @property
    def option(self):
        return self.field.option

    @property
    def choices(self):
        return self.field.shown_choices

    @property
    def suggestions(self):
        suggest = self.field.option.suggest
        return self.form.suggested.get(suggest, []) if suggest else []

    @property
    def advanced(self):
        return self.field.option.kind in FOLDED


class OptionField(Said):
    """One declared option, with the game's `default`. A field the post leaves out is None here
    and left out of the options (the default stands); a written one is text of `max_length` at
    most, read as its kind reads it (`read`). `seats`: [(number posted, name shown)] of every
    seat the game can have, for the kinds that choose one."""

    widget = forms.TextInput
    bound_field_class = OptionBound
    max_length = TEXT_LENGTH

    def __init__(self, option, *, default, seats=()):
        self.option, self.default = option, default
        self.shown_choices = self.choices_of(option, seats)
        super().__init__(required=False, label=option.label, help_text=option.help,
                         initial=_shown(option, default), widget=self.made_widget())

    def choices_of(self, option, seats):
        return [(str(value), label) for value, label in option.choices]

    def made_widget(self):
        return self.widget

    def bound_data(self, data, initial):
        return initial if data is None else data  # left out: the default, shown again

    def to_python(self, value):
        if value is None:
            return None
        return self.read(inputs.text(value, field=PREFIX + self.option.name,
                                     label=say(self.option.label), max_length=self.max_length))

    def read(self, raw):
        return raw


class TextOption(OptionField):
    """Text, as written (without its invisible characters)."""


class WholeNumberOption(OptionField):
    """A whole number (negative too); empty is None when the option is optional. The range
    (`minimum`, `maximum`) is the browser's hint; the rules say what is out of it."""

    widget = forms.NumberInput

    def widget_attrs(self, widget):
        attrs = super().widget_attrs(widget)
        bounds = {"min": self.option.minimum, "max": self.option.maximum}
        return attrs | {key: bound for key, bound in bounds.items() if bound is not None}

    def read(self, raw):
        return _number(self.option, raw)


class ChoiceOption(OptionField):
    """One of the declared choices, as the game's value (posted as its text)."""

    def made_widget(self):
        none = [("", _("None"))] if self.option.optional else []
        return forms.RadioSelect(choices=none + self.shown_choices)

    def read(self, raw):
        return _choice(self.option, raw, self.option.choices)


class SwitchOption(OptionField):
    """On when ticked ("on"; written by hand, "true", "1" or "yes" too), else off; never left
    out (an unticked checkbox posts nothing). Shown ticked again when anything was posted."""

    widget = Switch

    def bound_data(self, data, initial):
        return "on" if data else ""

    def to_python(self, value):
        return value in ("on", "true", "1", "yes")


class SeatOption(ChoiceOption):
    """One of the seats the game can have, by the number of its name field: a page without
    script cannot add the fifth when a fifth name is written. Read against the players named."""

    def choices_of(self, option, seats):
        return list(seats)

    def made_widget(self):
        widget = super().made_widget()
        if len(self.shown_choices) > 6:  # many seats (the score pad's twelve): a list
            widget = forms.Select(choices=widget.choices)
        return widget

    def read(self, raw):
        return raw

    def by_players(self, raw, names):
        return seat_chosen(raw, label=say(self.option.label), names=names,
                           optional=self.option.optional)


class FirstOption(SeatOption):
    """Who starts (the game's Game.first): the draw, or one of the seats as SeatOption reads
    them (nobody where the option is optional). Shown by templates/companion/_who_starts.html,
    apart from the other options."""

    def by_players(self, raw, names):
        return DRAW if raw.strip() == DRAW else super().by_players(raw, names)

    def who_starts(self, bound):
        return who_starts(self.option, name=bound.html_name, seats=self.shown_choices,
                          chosen=bound.value())


class TeamsOption(OptionField):
    """Teams by the players' numbers ("1 3, 2 4"), read against the players named."""

    widget = forms.Textarea

    def by_players(self, raw, names):
        return _teams(self.option, raw, names)


class NamesOption(OptionField):
    """Names in seat order between commas; left empty, the default."""

    widget = forms.Textarea

    def read(self, raw):
        return _names(self.option, raw, self.default)


class AdvancedOption(OptionField):
    """JSON, for a developer's lists; left empty, the default."""

    widget = forms.Textarea

    def read(self, raw):
        return inputs.parse_json(raw) if raw else self.default


KINDS = {"text": TextOption, "number": WholeNumberOption, "choice": ChoiceOption,
         "switch": SwitchOption, "seat": SeatOption, "teams": TeamsOption,
         "names": NamesOption, "advanced": AdvancedOption}


class Players(Said):
    """The players' names in seating order, from every field named "name"."""

    widget = EveryName

    def __init__(self):
        super().__init__(required=False, initial=list)

    def to_python(self, value):
        return player_names(value or [])


class HostSeat(Said):
    """The host's own seat ("I am player 2"), or none (the host only keeps the table). Shown as
    the number posted, player 1's seat before anything is."""

    def __init__(self):
        super().__init__(required=False, label=gettext_lazy("Your seat"), initial=0)

    def bound_data(self, data, initial):
        return inputs.whole_number(data)

    def to_python(self, value):
        return value or ""

    def by_players(self, raw, names):
        return seat_chosen(raw, label=_("Your seat"), names=names, optional=True)


class Passed(forms.Field):
    """A field passed on as written (None when left out): the service reads and checks it, for
    the API as for the page. Shown as posted, else `initial`."""

    def __init__(self, *, label, initial=""):
        super().__init__(required=False, label=label, initial=initial)

    def bound_data(self, data, initial):
        return data or initial


class NewGameForm(forms.Form):
    """The new-game form of `game`: the players' names ("name", a field per seat on the page),
    a field per declared option ("opt_<name>", of the option's kind), the host's seat, the place
    and the table's language. `suggest`: a callable giving the texts a text option suggests
    ({list name: [text]}, Plugin.option_suggestions), asked only when the form is shown.

    Valid, its cleaned_data is session_create's keywords; refused, `refusal()` is the first
    thing wrong in the order of the page, as the page says one at a time."""

    name = Players()
    host_seat = HostSeat()
    location = Passed(label=gettext_lazy("Where"))
    language = Passed(label=gettext_lazy("The table's language"),
                      initial=translation.get_language)

    def __init__(self, game, data=None, *, suggest=None):
        super().__init__(data)
        self.game, self._suggest = game, suggest
        written = self["name"].data if data is not None else []
        seats = [(str(i), written[i] if i < len(written) and written[i]
                  else _("Player %(n)s") % {"n": i + 1}) for i in range(game.max_players)]
        self.option_names = []
        for option in declared(game):
            kind = FirstOption if option.name == game.first else KINDS.get(option.kind,
                                                                            TextOption)
            self.fields[PREFIX + option.name] = kind(option, default=game.options[option.name],
                                                     seats=seats)
            self.option_names.append(PREFIX + option.name)
        # The order of the page: its refusals are said in it, the first one first.
        self.order_fields(["name", *self.option_names, "host_seat"])
        for name, field in self.fields.items():
            if hasattr(field, "by_players"):
                # Read against the players' names, cleaned before it (a clean_<name> hook).
                setattr(self, f"clean_{name}", self._by_players(name))

    def _by_players(self, name):
        def clean():
            raw = self.cleaned_data[name]
            if raw is None:
                return None
            try:
                return self.fields[name].by_players(raw, self.cleaned_data.get("name", []))
            except Invalid as invalid:
                raise forms.ValidationError(invalid.message) from None
        return clean

    def clean(self):
        if self.errors:
            return None
        data = self.cleaned_data
        # An option the post left out keeps the game's default (the rules check the values).
        options = {self.fields[name].option.name: data[name] for name in self.option_names
                   if self[name].data is not None}
        return {"players": data["name"], "options": options, "host_seat": data["host_seat"],
                "location": data["location"] or "", "language": data["language"] or None}

    def refusal(self):
        """The first thing wrong, in the order of the fields, or None."""
        return next((errors[0] for errors in self.errors.values()), None)

    @property
    def options(self):
        """The options, but who starts (`who_starts`)."""
        return [self[name] for name in self.option_names
                if not isinstance(self.fields[name], FirstOption)]

    @property
    def who_starts(self):
        """What "Who starts?" offers (`who_starts`), or None for a game with no first player."""
        for name in self.option_names:
            if isinstance(self.fields[name], FirstOption):
                return self.fields[name].who_starts(self[name])
        return None

    @property
    def slots(self):
        """The players' name fields: every seat the game can have, as written."""
        count = self.game.max_players
        return (list(self["name"].value() or []) + [""] * count)[:count]

    @cached_property
    def suggested(self):
        return self._suggest() if self._suggest else {}
