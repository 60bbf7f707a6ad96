"""The Knights & Damosels panel's one tag: games.knights.panel.view for this phone."""

from django import template

from games.knights import panel

register = template.Library()


@register.simple_tag
def knights_view(session, state, viewer=None):
    phones = session.guests.exclude(seat=None).values_list("seat", flat=True)
    return panel.view(state, viewer=viewer, phones=list(phones))


@register.filter
def get(mapping, key):
    return mapping.get(key) if isinstance(mapping, dict) else None
