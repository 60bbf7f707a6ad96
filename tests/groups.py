"""A group's tests' plays (the cast, alice's group `thursday` and `bob_account`, is in
tests/conftest.py)."""

from companion import services


def group_played(owner, group, players=("Ana", "Ben"), moves=((0, 10), (0, 10))):
    """A tiny game hosted by `owner` for `group` (None: the host's own), each (seat, points) of
    `moves` played: the defaults finish it, seat 0 first to 20."""
    session = services.session_create(owner=owner, game="tiny", players=list(players),
                                      seed="s", group=group)
    for seat, points in moves:
        services.move_play(session=session, type="add", data={"seat": seat, "points": points},
                           actor=services.Actor(user=owner))
    return session
