"""The panel's presentation tags, written here rather than by template includes (the panel has
dozens of dice):

- `al_dice`: one die's six face buttons in a fieldset;
- `al_catalogue`: the catalogue's search list, once per panel.
"""

from django import template
from django.utils.html import conditional_escape, escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

register = template.Library()

FACES = range(1, 7)


@register.simple_tag
def al_catalogue(panel):
    """The catalogue's search list, once per panel."""
    placeholder = escape(_("placeholder values"))
    options = []
    for name, kind, is_placeholder in panel["catalogue"]:
        text = escape(panel["kinds"].get(kind, kind))
        if is_placeholder:
            text = f"{text} · {placeholder}"
        options.append(f'<option value="{escape(name)}">{text}</option>')
    return mark_safe(f'<datalist id="al-catalogue">{"".join(options)}</datalist>')  # noqa: S308


@register.simple_tag
def al_dice(name, legend, optional=False):
    """A die's six faces as big radio buttons in a fieldset (see panel.css)."""
    name = escape(name)
    faces = "".join(f'<label class="al-face"><input type="radio" name="{name}" value="{face}">'
                    f"<span>{face}</span></label>" for face in FACES)
    css = "al-die al-optional" if optional else "al-die"
    return mark_safe(  # noqa: S308 - the name and legend are escaped
        f'<fieldset class="{css}"><legend>{conditional_escape(legend)}</legend>'
        f'<div class="al-faces">{faces}</div></fieldset>')
