"""What arrives from outside, read in one place: whole numbers from headers, forms and query
strings, JSON bodies, and text. Anything wrong is an errors.Invalid (a 400 with a sentence),
never a 500: `str.isdigit()` takes "²", which int() refuses; PostgreSQL refuses a NUL character
in any text; json.loads fails with RecursionError on a body nested thousands of levels deep."""

import json
import re
import unicodedata

from django.db.models import Model
from django.utils.translation import gettext as _

from companion.errors import Invalid

DIGITS = re.compile(r"[0-9]{1,15}")
# Control characters (NUL first), except the tab and the line breaks a note may have.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# Half a character: JSON may write "\ud800" alone, which no UTF-8 text (the database's, a page's)
# can hold.
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# Characters that show nothing yet make two texts differ: "Ana" and "Ana" with a zero-width
# space, a soft hyphen or a direction override are two players that look alike on every list.
# They are left out of every text. The joiners (U+200C, U+200D) stay: emoji and some scripts
# need them.
INVISIBLE = re.compile("[\u00ad\u200b\u2060\ufeff\u202a-\u202e\u2066-\u2069]")
MAX_DEPTH = 20
# The most items a list in a request may hold, counted before anything in it is read, so that a
# list of 100,000 names is refused at once instead of looked up name by name. The longest list a
# call takes is an export's moves, which the import bounds by this same figure.
MAX_ITEMS = 5000
# int() refuses text of more than 4,300 digits with a ValueError (Python's guard against slow
# conversions), and every game reads numbers written as text: a run of digits longer than any
# number here is refused at the door, once, instead of deep inside a game's rules.
MAX_DIGITS = 99
LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1}}}")


def whole_number(raw):
    """The non-negative whole number `raw` spells in ASCII digits, or None."""
    if isinstance(raw, str) and DIGITS.fullmatch(raw.strip()):
        return int(raw.strip())
    return None


def row_id(value):
    """The id of a row as a caller gives it: the row itself (a model instance), a whole
    number, or its digits (a form's field); None for anything else."""
    if isinstance(value, Model):
        return value.pk
    if isinstance(value, int) and not isinstance(value, bool):
        return value if value >= 0 else None
    return whole_number(value)


def optional_number(raw, *, label):
    """A whole number given as text (a form field, a query parameter, a header), None when it
    is absent or empty, else Invalid with a sentence naming `label`."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    value = whole_number(raw)
    if value is None:
        text = raw.strip() if isinstance(raw, str) else ""
        if text.isascii() and text.isdigit():
            # A whole number all the same, only longer than any this app counts.
            raise Invalid(_("%(label)s is too large a number.") % {"label": label})
        if text.startswith("-") and text[1:].isascii() and text[1:].isdigit():
            raise Invalid(_("%(label)s is a whole number from 0 up, not %(raw)s.")
                          % {"label": label, "raw": text[:20]})
        raise Invalid(_("%(label)s is a whole number, not %(raw)s.")
                      % {"label": label, "raw": str(raw)[:20]})
    return value


# A score as paper pads and BG Stats keep it: a number, or a sum and difference of numbers
# ("87+77", "3+4+2+3-8"), with "." or "," as the decimal mark and spaces anywhere between.
NUMBER = r"\d+(?:[.,]\d+)?"
SCORE_SUM = re.compile(rf"\s*[+-]?\s*{NUMBER}(?:\s*[+-]\s*{NUMBER})*\s*")
SCORE_TERM = re.compile(rf"([+-]?)\s*({NUMBER})")


def score_sum(text):
    """The total of a score written as a sum ("87+77" is 164; nothing else is evaluated), as an
    int when it is whole; ValueError when `text` is not one."""
    if not isinstance(text, str) or not SCORE_SUM.fullmatch(text) or has_long_number(text):
        raise ValueError(text)
    terms = [(-1 if sign == "-" else 1) * float(number.replace(",", "."))
             for sign, number in SCORE_TERM.findall(text.replace(" ", ""))]
    total = round(sum(terms), 10)
    return int(total) if total.is_integer() else total


def has_control(value):
    return isinstance(value, str) and bool(CONTROL.search(value))


def has_lone_surrogate(value):
    return isinstance(value, str) and bool(LONE_SURROGATE.search(value))


def lone_surrogate_message():
    return _("Text may not hold half a character (a lone surrogate such as \\ud800): send the "
             "whole character.")


def has_long_number(value):
    return isinstance(value, str) and bool(LONG_NUMBER.search(value))


def long_number_message():
    return _("A number may have %(max)s digits at most.") % {"max": MAX_DIGITS}


def checked_json(value, *, depth=0):
    """`value` (parsed JSON) when it is no deeper than MAX_DEPTH, no list in it is longer than
    MAX_ITEMS and no text in it holds a control character; else Invalid."""
    if depth > MAX_DEPTH:
        raise Invalid(_("This JSON is nested too deeply (%(max)s levels at most).")
                      % {"max": MAX_DEPTH})
    if isinstance(value, str):
        if has_control(value):
            raise Invalid(_("Text may not contain control characters."))
        if has_lone_surrogate(value):
            raise Invalid(lone_surrogate_message())
        if has_long_number(value):
            raise Invalid(long_number_message())
    elif isinstance(value, dict):
        for key, item in value.items():
            checked_json(key, depth=depth + 1)
            checked_json(item, depth=depth + 1)
    elif isinstance(value, list):
        if len(value) > MAX_ITEMS:
            raise Invalid(too_many_message(len(value), MAX_ITEMS))
        for item in value:
            checked_json(item, depth=depth + 1)
    return value


def too_many_message(count, most):
    return _("A list here holds %(most)s items at most; this one has %(count)s.") % {
        "most": most, "count": count}


def parse_json(raw, *, not_json=None):
    """JSON text -> value, checked; Invalid when it is not JSON (`not_json` says so, when given)
    or is too deep. Also for JSON written inside a field (a form's text, an API's string): a
    few kilobytes of "[" are deeper than the parser goes."""
    try:
        value = json.loads(raw)
    except RecursionError:
        raise Invalid(_("This JSON is nested too deeply (%(max)s levels at most).")
                      % {"max": MAX_DEPTH}) from None
    except ValueError:
        raise Invalid(not_json or _("This is not valid JSON.")) from None
    return checked_json(value)


def field_json(raw, *, not_json):
    """parse_json for a serializer's field: its refusal as the field's (ValidationError)."""
    from rest_framework import serializers

    try:
        return parse_json(raw, not_json=not_json)
    except Invalid as invalid:
        raise serializers.ValidationError(invalid.message) from None


def text(value, *, field, label, max_length):
    """A text field, stripped, without invisible characters, in one Unicode form (NFC: "é" typed
    as one character or as "e" and an accent is the same name); Invalid when it is not text, too
    long or holds control characters."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        message = _("%(label)s is text.") % {"label": label}
        raise Invalid(message, fields={field: [message]})
    if has_lone_surrogate(value):
        message = _("%(label)s holds half a character (a lone surrogate): send the whole "
                    "character.") % {"label": label}
        raise Invalid(message, fields={field: [message]})
    value = unicodedata.normalize("NFC", INVISIBLE.sub("", value)).strip()
    if has_control(value):
        message = _("%(label)s may not contain control characters.") % {"label": label}
        raise Invalid(message, fields={field: [message]})
    if len(value) > max_length:
        message = _("%(label)s is too long (%(max)s characters at most).") % {
            "label": label, "max": max_length}
        raise Invalid(message, fields={field: [message]})
    return value
