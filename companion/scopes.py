"""Whose history a read is about, and in whose roster a player is found: a host's own or a
group's. Every selector of history and statistics reads through a Scope, so that a group's
figures are the host's functions over other rows, never a copy of them.

- a host's (`owner`): every session the host opened, group sessions included (a group session
  shows in both); the host's own roster is the players with no group;
- a group's (`group`): every member's sessions for the group; its roster is the group's players.
"""

from dataclasses import dataclass

from django.db.models import Q

from companion.models import Player


@dataclass(frozen=True)
class Scope:
    owner: object = None
    group: object = None

    def __post_init__(self):
        if (self.owner is None) == (self.group is None):
            raise TypeError("A scope is a host's (owner) or a group's (group), not both.")

    def sessions(self, prefix=""):
        """Its sessions, as a filter (`prefix` "session__" reads them through a Result)."""
        if self.group is not None:
            return Q(**{f"{prefix}group": self.group})
        return Q(**{f"{prefix}owner": self.owner})

    def results(self):
        """Its Result rows: a host's by their own owner column (no join), a group's through
        their session."""
        if self.group is not None:
            return Q(session__group=self.group)
        return Q(owner=self.owner)

    @property
    def key(self):
        """A cache key's part: the host's id (as before groups), or "group<id>"."""
        return f"group{self.group.pk}" if self.group is not None else str(self.owner.pk)


def scope_of(*, owner=None, group=None):
    return Scope(owner=owner, group=group)


def roster_of(*, owner=None, group=None):
    """A roster's players: a group's, or a host's own (the players it added with no group)."""
    if group is not None:
        return Player.objects.filter(group=group)
    return Player.objects.filter(owner=owner, group=None)
