"""The only writer of a host's own cards (the printed cards are staff's, in the admin)."""

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from companion.engine import RuleViolation
from companion.errors import Invalid
from games.alatriste import rules
from games.alatriste.models import Card


def card_create(*, owner, name, kind, number=None, fame=0, vigour=0, fencing=0, pistols=False,
                vehicle=False, enemies=(), placeholder=False):
    """A new card of `owner`'s own; its name is unique (ignoring case) among the printed cards
    and the host's own, so that a card named in a move is always the one meant."""
    try:
        card = rules.card_of({"name": name, "kind": kind, "fame": fame, "vigour": vigour,
                              "fencing": fencing, "pistols": pistols, "vehicle": vehicle,
                              "enemies": list(enemies or [])})
    except RuleViolation as refusal:
        raise Invalid(refusal.message, fields={"card": [refusal.message]}) from None
    if len(card["name"]) > 80:
        raise Invalid(_("A card's name is 80 letters at most."), fields={"name": [_("Too long.")]})
    taken = _("The catalogue already has a card called %(name)s.") % {"name": card["name"]}
    if Card.seen_by(owner.pk).filter(name__iexact=card["name"]).exists():
        raise Invalid(taken, fields={"name": [taken]})
    try:
        with transaction.atomic():
            return Card.objects.create(
                number=number, name=card["name"], kind=card["kind"], fame=card["fame"],
                vigour=card["vigour"], fencing=card["fencing"], pistols=card["pistols"],
                vehicle=card["vehicle"], enemies=card["enemies"], placeholder=placeholder,
                created_by=owner, owner=owner)
    except IntegrityError:
        raise Invalid(taken, fields={"name": [taken]}) from None
