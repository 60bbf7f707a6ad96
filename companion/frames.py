"""The fragments every move changes, rendered once per language and shape, then filled in.

The now line, the undo button and the log's line change on every move of every table: a watched
table's move renders them ahead, in the POST, for the phones (fragments.render_ahead), and what
changes from one move to the next is only the move's values (its line, its number, who undid it,
the version). So each is rendered once per language and *shape* (which of those values are
there) with a mark standing in for each value, and a move fills the marks in: the same HTML in about
a third of the time, the layout still in its template (companion/table.html).

A value that is empty or a bool is not a mark: it goes into the shape, so the template's `{% if %}`s
and `|default`s see the real thing. A value that is a mark is shown by the template as it is
given (a mark is truthy, like the value it stands for) and filled in as Django shows a value
(render_value_in_context: a Text said in the active language, escaped). A template that did more
with a value than show it would not fit: tests/live/test_frames.py renders every game's moves
both ways, in both languages.
"""

from django.template import Context
from django.template.base import render_value_in_context
from django.template.loader import get_template
from django.utils import translation
from django.utils.safestring import SafeString

# Never in a frame: the template's own text has none, and the move's values (a name might) are
# filled in after the frame is split at its marks.
_MARK = "\x00"

# What each partial of companion/table.html reads, and how: a name alone is a value shown; a
# tuple names the attributes read of an object. Nothing here is the table's own (the undo
# button's URLs are values), so a frame serves every table.
SPECS = {
    "now": {"now_line": None, "last_active": ("line",)},
    "undo": {"session": ("version",), "undo_url": None, "redo_url": None,
             "last_active": ("line", "undo_by"),
             "undone_recently": ("line", "seq", "undoer_first", "redo_by"),
             "can_play": None},
    "log_line": {"move": ("undone", "seq", "line", "undoer")},
}

# (partial, language, shape) -> the output split at its marks. A plain dict, read and written by
# a server process's view threads at once; the shapes are a few dozen, and the bound is a guard.
_frames = {}
FRAMES_KEPT = 1_000
_shown = Context(autoescape=True)  # how a template shows a value: escaped, localized


class _StandIn:
    """An object as a frame's template sees it: the attributes it reads, values or marks."""

    def __init__(self, attributes):
        self.__dict__.update(attributes)


def _is_shape(value):
    return not value or value is True


def _read(spec, context):
    """(shape, the context with marks, the values the marks stand for, in their order)."""
    shape, standing, values = [], {}, []

    def stand_for(value, where):
        if _is_shape(value):
            shape.append((*where, value))
            return value
        shape.append((*where, "mark"))
        values.append(value)
        return SafeString(f"{_MARK}{len(values) - 1}{_MARK}")  # our own text: nothing to escape

    for name, attributes in spec.items():
        value = context.get(name)
        if attributes is None or value is None:
            standing[name] = stand_for(value, (name,))
        else:
            standing[name] = _StandIn({attribute: stand_for(getattr(value, attribute),
                                                            (name, attribute))
                                       for attribute in attributes})
    return tuple(shape), standing, values


def render(partial, context):
    """companion/table.html#`partial` (one of SPECS) for `context`, from its frame."""
    if context.get("refusal") is not None:  # one phone's answer, not a move's push: as it is
        return get_template(f"companion/table.html#{partial}").render(context)
    shape, standing, values = _read(SPECS[partial], context)
    key = (partial, translation.get_language(), shape)
    pieces = _frames.get(key)
    if pieces is None:
        html = get_template(f"companion/table.html#{partial}").render(standing)
        if len(_frames) >= FRAMES_KEPT:
            _frames.clear()
        pieces = _frames[key] = html.split(_MARK)
    # pieces: text, a mark's number, text, … (a mark may show twice, or not at all)
    out = list(pieces)
    for at in range(1, len(out), 2):
        out[at] = render_value_in_context(values[int(out[at])], _shown)
    # Each piece is the template's output or a value escaped as the template escapes it.
    return SafeString("".join(out))
