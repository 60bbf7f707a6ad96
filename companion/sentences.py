"""The sentences a pure module makes (engine.Text): the English sentence, with its message id and
values kept, said in each reader's language at the edge (companion.language). Pure Python: the
rules build their sentences with `_` and `n_` as Django code uses gettext.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping
from typing import Any


class Text(str):
    """A sentence a person reads, made by a pure module: the English sentence as a str (so that
    comparing, logging and storing it need nothing more), with what it was made of kept beside
    it (the message id, its values, a plural) so that the platform says it in each reader's
    language at the edge. Values may be Text themselves (a reason, a card's role); names and
    numbers are kept as they are. A sentence of several Texts is `joined`.

    The platform installs `translator` (companion.language): a page shows a Text in the
    reader's language through `__html__`; the API and the stored log call the translator.
    """

    translator: Callable[[Text], str] | None = None

    def __new__(cls, msgid: str, values: Mapping[str, Any] | None = None, *,
                plural: str | None = None, count: int | None = None,
                parts: Iterable[Any] | None = None, sep: str = ""):
        values = {name: _plain(value) for name, value in (values or {}).items()}
        if parts is not None:
            parts = [_plain(part) for part in parts]
            english = sep.join(str(part) for part in parts)
        else:
            template = msgid if plural is None or count == 1 else plural
            english = template.format(**values)
        text = super().__new__(cls, english)
        text.msgid, text.values, text.plural, text.count = msgid, values, plural, count
        text.parts, text.sep = parts, sep
        return text

    def say(self, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str],
            number: Callable[[float], str] | None = None) -> str:
        """The sentence in the language of `gettext` and `ngettext`; in English when a
        translation does not fit its values. `number` writes a fraction as that language does
        (7,5 in Spanish)."""
        if self.parts is not None:
            return self.sep.join(
                part.say(gettext, ngettext, number) if isinstance(part, Text) else part
                for part in self.parts)
        values = {name: value.say(gettext, ngettext, number) if isinstance(value, Text)
                  else number(value) if number and isinstance(value, float) else value
                  for name, value in self.values.items()}
        if self.plural is not None:
            template = ngettext(self.msgid, self.plural, self.count)
        else:
            template = gettext(self.msgid) if self.msgid else self.msgid
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            return str(self)

    def __html__(self) -> str:
        shown = Text.translator(self) if Text.translator else str(self)
        return html.escape(shown)

    def as_data(self) -> dict[str, Any]:
        """A JSON-able form, which `Text.from_data` turns back into the same Text."""
        if self.parts is not None:
            return {"sep": self.sep, "parts": [_data(part) for part in self.parts]}
        data: dict[str, Any] = {"id": self.msgid,
                                "values": {name: _data(v) for name, v in self.values.items()}}
        if self.plural is not None:
            data["plural"], data["count"] = self.plural, self.count
        return data

    @classmethod
    def from_data(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        if "parts" in data:
            return cls("", parts=[cls.from_data(part) for part in data["parts"]],
                       sep=data.get("sep", ""))
        return cls(data.get("id", ""),
                   {name: cls.from_data(v) for name, v in (data.get("values") or {}).items()},
                   plural=data.get("plural"), count=data.get("count"))

    def __reduce__(self):
        return (Text.from_data, (self.as_data(),))


def _plain(value: Any) -> Any:
    # A Text stays one; what JSON keeps as it is stays; anything else is shown as its str.
    if isinstance(value, Text) or value is None or type(value) in (str, int, float, bool):
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (int, float)):
        return value
    return str(value)


def _data(value: Any) -> Any:
    return value.as_data() if isinstance(value, Text) else value


def _(msgid: str, /, **values: Any) -> Text:
    """A sentence a person reads, in English with `{name}` fields filled from `values`; the
    platform translates it (the extraction reads these calls). Modules without Django use it
    as Django code uses gettext."""
    return Text(msgid, values)


def n_(singular: str, plural: str, count: int, /, **values: Any) -> Text:
    """`_` for a sentence with a number: `n_("{n} ducat", "{n} ducats", n, n=n)`."""
    return Text(singular, values, plural=plural, count=count)


def joined(sep: str, parts: Iterable[Any]) -> Text:
    """Several sentences (or Texts and names) shown as one, each part translated alone."""
    return Text("", parts=list(parts), sep=sep)


def listing(names: Iterable[Any]) -> Text:
    """"Ana", "Ana and Ben", "Ana, Ben and Luis": the "and" in the reader's language (names may
    be Texts, each said alone)."""
    names = list(names)
    if len(names) < 2:
        return joined("", names)
    return _("{names} and {last}", names=joined(", ", names[:-1]), last=names[-1])
