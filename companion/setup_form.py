"""The new-game form: a Django Form built from the chosen game's declared options (an
`engine.Option` each: a choice, a switch, a whole number, a text, a seat, teams, a list of names
or JSON; an option a game did not declare is shown by the type of its default), with the players'
names, the host's seat, the place and the table's language.

The form checks shapes and lengths and says what is wrong in its own words: the players by the
numbers of their fields (Player 1, Player 2...), never by the API's seats counted from 0. Its
cleaned_data is what services.session_create takes (players, options, host_seat, location,
language); the service is the one place that checks the rules of a set-up.

The players' rows grow as they are needed: four at first (or the game's least), and one more
each time "Another player" posts the form (ANOTHER), which is then shown again as written, one
row longer, without being checked. The seats the form offers (the host's, a seat option's) are
those rows."""

import json
from functools import cached_property

from django import forms
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from companion import colours, inputs
from companion.engine import DRAW, Option
from companion.errors import Invalid
from companion.language import say
from companion.setup_reading import (
    choice_read,
    names_read,
    number_read,
    player_names,
    seat_chosen,
    teams_read,
)
from companion.who_starts import who_starts

PREFIX = "opt_"
# What an option's field takes at most, whatever its kind: the rules check their own lengths.
TEXT_LENGTH = 2000
# The kinds folded away under "More: ..." (lists and JSON, rarely changed).
FOLDED = ("advanced", "teams", "names")
# The players' rows shown at first, and what the "Another player" button posts to add one.
ROWS = 4
ANOTHER = "another"
# Posted when the new game's group is chosen: the form is shown again with its roster.
REGROUP = "regroup"
# A game of more seats than this chooses a seat from a list, not a column of radios.
RADIO_SEATS = 6
# The service's names of what it refuses (Refused.fields), as the form's fields.
FIELD_OF = {"players": "name"}


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
    the texts it suggests, whether it is folded away under "More: ...", whether its seats are a
    list, and the refusal said beside it."""

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

    @property
    def listed(self):
        """A seat of many (the score pad's twelve): a list to pick from, not radios."""
        return self.form.game.max_players > RADIO_SEATS

    @property
    def refusal(self):
        """The form's refusal, when it is about this field (said beside it), else None."""
        return self.form.refusal() if self.form.refused_field == self.name else None

    @property
    def described_by(self):
        """The ids of what is said about the field: its refusal, then its help."""
        ids = [f"{self.name}_error"] if self.refusal else []
        return " ".join(ids + ([f"{self.name}_help"] if self.field.option.help else []))


class OptionField(Said):
    """One declared option, with the game's `default`. A field the post leaves out is None here
    and left out of the options (the default stands), but for a required one, refused as one
    left empty; a written one is text of `max_length` at most, read as its kind reads it
    (`read`). `seats`: [(number posted, name shown)] of the players' rows, for the kinds that
    choose one."""

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
        if value is None and not self.option.required:
            return None
        text = inputs.text(value, field=PREFIX + self.option.name,
                           label=say(self.option.label), max_length=self.max_length)
        if self.option.required and not text:
            raise Invalid(say(self.option.required))
        return self.read(text)

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
        return number_read(self.option, raw)


class ChoiceOption(OptionField):
    """One of the declared choices, as the game's value (posted as its text)."""

    def made_widget(self):
        none = [("", _("None"))] if self.option.optional else []
        return forms.RadioSelect(choices=none + self.shown_choices)

    def read(self, raw):
        return choice_read(self.option, raw, self.option.choices)


class SwitchOption(OptionField):
    """On when ticked ("on"; written by hand, "true", "1" or "yes" too), else off; never left
    out (an unticked checkbox posts nothing). Shown ticked again when anything was posted."""

    widget = Switch

    def bound_data(self, data, initial):
        return "on" if data else ""

    def to_python(self, value):
        return value in ("on", "true", "1", "yes")


class SeatOption(ChoiceOption):
    """One of the players' rows, by its number (the rows shown: "Another player" shows one more,
    and its seat with it). Read against the players named."""

    def choices_of(self, option, seats):
        return list(seats)

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
        return teams_read(self.option, raw, names)


class NamesOption(OptionField):
    """Names in seat order between commas; left empty, the default."""

    widget = forms.Textarea

    def read(self, raw):
        return names_read(self.option, raw, self.default)


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
    """The new-game form of `game`: the players' names ("name", a field per row on the page),
    a field per declared option ("opt_<name>", of the option's kind), the host's seat, the place
    and the table's language. `suggest`: a callable giving the texts a text option suggests
    ({list name: [text]}, Plugin.option_suggestions), asked only when the form is shown.

    Valid, its cleaned_data is session_create's keywords; refused, `refusal()` is the first
    thing wrong in the order of the page, as the page says one at a time, beside the field it is
    about (`refused_field`; None: said at the form's top). Posted by "Another player"
    (`adding`), it is neither checked nor refused: it is shown again with one more row."""

    name = Players()
    host_seat = HostSeat()
    location = Passed(label=gettext_lazy("Where"))
    language = Passed(label=gettext_lazy("The table's language"),
                      initial=translation.get_language)
    # A group of the host's (its id), or none: services.session_create checks it.
    group = Passed(label=gettext_lazy("For the group"))

    def __init__(self, game, data=None, *, suggest=None):
        super().__init__(data)
        self.game, self._suggest = game, suggest
        another = data is not None and ANOTHER in data
        # Posted by "Another player", or by choosing the group (its roster): shown again.
        self.adding = another or (data is not None and REGROUP in data)
        written = self["name"].data if data is not None else []
        # The rows the page shows: four at first (or the game's least), every one posted (an
        # empty row posts ""), and one more when "Another player" asked for it.
        self.rows = min(game.max_players, max(ROWS, game.min_players, len(written) + another))
        seats = [(str(i), written[i] if i < len(written) and written[i]
                  else _("Player %(n)s") % {"n": i + 1}) for i in range(self.rows)]
        self.option_names = []
        for option in declared(game):
            kind = FirstOption if option.name == game.first else KINDS.get(option.kind,
                                                                            TextOption)
            self.fields[PREFIX + option.name] = kind(option, default=game.options[option.name],
                                                     seats=seats)
            self.option_names.append(PREFIX + option.name)
        # The order of the page: its refusals are said in it, the first one first. What the
        # game cannot be set up without (the score pad's game name) comes first.
        first = [name for name in self.option_names if self.fields[name].option.required]
        self.order_fields([*first, "name", *self.option_names, "host_seat"])
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
        # A row's colour goes with its name (the names have no gap: row n is seat n); the
        # service refuses two rows of one colour, in the API's sentence.
        players = [{"name": name, "colour": colour} if colour else name
                   for name, colour in zip(data["name"], self.colours_posted, strict=False)]
        return {"players": players, "options": options, "host_seat": data["host_seat"],
                "location": data["location"] or "", "language": data["language"] or None,
                "group": data["group"] or None}

    def _first_refused(self):
        """(field name, sentence) of the first thing wrong, in the order of the fields, or
        (None, None); a form posted for another row is not checked."""
        if self.adding:
            return None, None
        return next(((name, errors[0]) for name, errors in self.errors.items() if errors),
                    (None, None))

    def refusal(self):
        """The first thing wrong, in the order of the fields, or None."""
        return self._first_refused()[1]

    @property
    def refused_field(self):
        """The field the refusal is about, said beside it; None for one about the whole form."""
        name = self._first_refused()[0]
        return name if name in self.fields else None

    def refused_by(self, refusal):
        """The service's `refusal` (errors.Refused) of what the form passed, said beside the
        field it is about: the players' (their count, a name), the host's seat, the place, the
        language; else (an option's rule) at the form's top."""
        about = [FIELD_OF.get(name, name) for name in refusal.fields]
        field = next((name for name in about if name in self.fields), None)
        self.add_error(field, say(refusal.message))

    @property
    def asked_first(self):
        """The options the game cannot be set up without, asked before the players."""
        return [self[name] for name in self.option_names if self.fields[name].option.required]

    @property
    def options(self):
        """The options, but who starts (`who_starts`) and those asked first (`required`)."""
        return [self[name] for name in self.option_names
                if not self.fields[name].option.required
                and not isinstance(self.fields[name], FirstOption)]

    @property
    def who_starts(self):
        """What "Who starts?" offers (`who_starts`), or None for a game with no first player."""
        for name in self.option_names:
            if isinstance(self.fields[name], FirstOption):
                return self.fields[name].who_starts(self[name])
        return None

    @property
    def slots(self):
        """The players' rows, as written."""
        return (list(self["name"].value() or []) + [""] * self.rows)[:self.rows]

    @property
    def colours_posted(self):
        """Each row's colour as posted ("colour<n>", n its number), None where none was."""
        data = self.data if self.is_bound else {}
        return [data.get(f"colour{n}") or None for n in range(1, self.rows + 1)]

    @property
    def player_rows(self):
        """The players' rows: each one's number, its name as written, and its colour choice: the
        palette, [{"hex", "name", "index"}], and the colour checked: the one posted, else the
        first no other row has (distinct by default)."""
        posted = [colour if colour in colours.HEXES else None for colour in self.colours_posted]
        palette = [{"hex": hex_, "name": name, "index": index}
                   for index, (hex_, name) in enumerate(colours.PALETTE)]
        return [{"number": n, "field": f"colour{n}", "name": name, "checked": checked,
                 "palette": palette}
                for n, (name, checked) in enumerate(
                    zip(self.slots, colours.colours_default(posted), strict=True), start=1)]

    @property
    def focus_row(self):
        """The row (numbered from 1) the page puts the cursor in: the one "Another player" just
        added, or where a refusal of the players points (the first empty row); else None."""
        if self.adding:
            return self.rows
        if self.refused_field == "name":
            slots = self.slots
            return next((n for n, name in enumerate(slots, start=1) if not name.strip()), 1)
        return None

    @property
    def more_rows(self):
        """Whether "Another player" may add a row: the game has more seats than rows shown."""
        return self.rows < self.game.max_players

    @cached_property
    def suggested(self):
        return self._suggest() if self._suggest else {}
