"""Saying a pure module's sentences (engine.Text) in the reader's language.

The rules may not import Django, so they return Text: the English sentence with its message id
and values. Here, at the edge, it is translated with Django's catalogues in the language now
active (the request's, the board's, or the one a stream was opened in).
"""

from django.utils import formats, translation

from companion.engine import Text


def say(text):
    """`text` in the active language: a Text through the catalogues, anything else as it is."""
    if isinstance(text, Text):
        return text.say(translation.gettext, translation.ngettext,
                        formats.number_format)
    return text


def said_deep(value):
    """`value` (lists and dicts of an answer) with every Text in it said in the active language."""
    if isinstance(value, dict):
        return {key: said_deep(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [said_deep(item) for item in value]
    return say(value)


def install():
    """Pages show a Text in the reader's language (Text.__html__ calls this)."""
    Text.translator = say
