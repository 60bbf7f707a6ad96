"""Who acts on a session: the host, who may sit at a seat, or a guest's phone."""

from dataclasses import dataclass

from companion.models import Guest


@dataclass(frozen=True)
class Actor:
    """Who acts: the host (a user), who may sit at a seat of the session, or a guest device of
    the session, which holds at most one seat."""

    user: object | None = None
    guest: Guest | None = None
    host_seat: int | None = None

    @classmethod
    def host(cls, session):
        return cls(user=session.owner, host_seat=session.host_seat)

    @property
    def seat(self):
        """The seat this device is: what it sees (the viewer) and whose moves are its own."""
        return self.guest.seat if self.guest else self.host_seat

    @property
    def is_host(self):
        return self.user is not None

    @property
    def rules_actor(self):
        """The acting seat as the rules see it: None for the host, who may act for any seat."""
        return None if self.is_host else self.seat
