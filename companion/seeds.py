"""A game's seed, sealed in the export of a game in play.

Every die a game rolls and every card it deals comes from its seed (engine.move_rng): whoever
reads the seed of a game in play can work out the next roll or the next draw before it happens.
No answer, page or stream shows it, and the export of a game in play carries it sealed (Fernet,
with a key derived from SECRET_KEY): the server that wrote it can open it again, so importing the
export replays to the same state, and nobody else can. A finished game's export carries it
plainly: every roll can be checked then.
"""

import base64
import hashlib

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings


def _fernet():
    key = hashlib.sha256(f"companion seeds:{settings.SECRET_KEY}".encode()).digest()
    return Fernet(base64.urlsafe_b64encode(key))


def seed_seal(seed):
    return _fernet().encrypt(seed.encode()).decode()


def seed_unseal(sealed):
    """The seed `sealed` holds, or None when this server did not seal it (or it was changed)."""
    if not isinstance(sealed, str) or not sealed.isascii():
        return None
    try:
        return _fernet().decrypt(sealed.encode()).decode()
    except InvalidToken:
        return None
