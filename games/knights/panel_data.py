"""What the Knights & Damosels panel needs from the database: the seats a guest's phone holds
(the host seals a placement only for the others). Declared as the game's panel_data."""


def phones(session):
    return list(session.guests.exclude(seat=None).values_list("seat", flat=True))
