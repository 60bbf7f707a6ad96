"""The rabbits panel's one presentation filter: a card with its suit's symbol ("QH" -> "Q♥")."""

from django import template

from games.rabbits.panel import card_label

register = template.Library()


@register.filter
def suit_symbol(card):
    return card_label(card)
