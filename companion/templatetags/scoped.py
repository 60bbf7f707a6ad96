"""`{% load scoped %}`: a history page's links, in the scope the page shows. The same templates
serve a host's history and a group's (companion/history.py): on a group's page (`group` in the
context) `{% scoped_url 'history-player' pk %}` is the group's page of that player."""

from django.template import Library
from django.urls import reverse

register = Library()


@register.simple_tag(takes_context=True)
def scoped_url(context, name, *args):
    group = context.get("group")
    if group is not None:
        return reverse(f"group-{name}", args=[group.pk, *args])
    return reverse(name, args=args)
