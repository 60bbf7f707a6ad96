"""What Alatriste's pure panel model needs from the database: the card catalogue, as plain
values."""

from games.alatriste import rules
from games.alatriste.models import Card


def catalogue(session):
    cards = (Card.seen_by(session.owner_id).filter(kind__in=rules.BOARD_KINDS)
             .values_list("name", "kind", "placeholder"))
    return {"catalogue": list(cards), "kinds": dict(Card._meta.get_field("kind").flatchoices)}
