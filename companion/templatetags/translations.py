"""`{% load translations %}`: Django's `i18n` tags, with a literal's `{% translate "…" %}` said
once per language.

Django resolves a literal's translation lazily on every render (a lazy string is made, then
forced): about 7 µs a tag against 2 for a variable, and a pushed fragment holds several, rendered
on every move. A literal says the same in a language every time, so each tag keeps what it
rendered per language (and per autoescape, which the output depends on). Everything else is
Django's own. Our templates load this, not `i18n` (tests/test_translations_tag.py checks that
every one does): a library of Django's own name would shadow it, which Django's checks refuse
(templates.W003).
"""

from django.template import Library, Variable
from django.templatetags import i18n
from django.utils.translation import get_language

register = Library()
register.tags.update(i18n.register.tags)
register.filters.update(i18n.register.filters)


@register.filter
def listed(names):
    """"Ana", "Ana and Ben", "Ana, Ben and Cy": the "and" in the reader's language."""
    from companion.engine import listing

    return listing(list(names))


@register.filter
def figure(value):
    """A score as it was entered (7.5, 1000009), with the reader's decimal mark (7,5); floatformat
    wrote 7,50, whose comma then sat beside the list's."""
    from companion.stats import said_score

    return value if value is None or value == "" else said_score(value)


class KeptTranslateNode(i18n.TranslateNode):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        expression = self.filter_expression
        self.constant = (isinstance(expression.var, Variable) and expression.var.literal is not None
                         and not expression.filters and self.message_context is None)
        self.said = {}

    def render(self, context):
        if not self.constant:
            return super().render(context)
        key = (get_language(), context.autoescape)
        value = self.said.get(key)
        if value is None:
            value = super().render(context)
            if self.asvar:  # Django's set the variable and returned ""
                value = context[self.asvar]
            self.said[key] = value
        if self.asvar:
            context[self.asvar] = value
            return ""
        return value


@register.tag("translate")
@register.tag("trans")
def do_translate(parser, token):
    node = i18n.do_translate(parser, token)
    return KeptTranslateNode(node.filter_expression, node.noop, node.asvar, node.message_context)
