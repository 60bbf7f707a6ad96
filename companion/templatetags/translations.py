"""`{% load translations %}`: Django's `i18n` tags, and the filters that say a list of names and
a score in the reader's language."""

from django.template import Library
from django.templatetags import i18n

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
