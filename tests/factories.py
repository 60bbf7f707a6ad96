import sys

import factory
from django.contrib.auth import get_user_model

from companion import services


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"host{n}")
    @factory.post_generation
    def password(user, create, extracted, **kwargs):
        user.set_password(extracted or "a long table password")
        if create:
            user.save(update_fields=["password"])


def session_for(owner, *, game="tiny", players=("Vanessa", "Peter"), options=None, seed="s"):
    if options is None:
        options = first_sample_options(game)
    return services.session_create(owner=owner, game=game, players=list(players),
                                   options=options, seed=seed)


def first_sample_options(game):
    """The first option set of the game's samples (games/<slug>/samples.py `OPTIONS`), else the
    defaults: a game whose set-up needs a value (the score pad's name) opens with it."""
    from companion import plugins

    samples = plugins.get(game).samples
    sets = getattr(sys.modules.get(samples.__module__), "OPTIONS", None) if samples else None
    return dict(sets[0]) if sets else {}


def played(owner, players=("Vanessa", "Peter"), moves=((0, 10), (0, 10)), game="tiny"):
    """A tiny game in which each (seat, points) of `moves` was played by its host: the defaults
    finish it (the first to 20 wins)."""
    session = session_for(owner, game=game, players=players)
    for seat, points in moves:
        services.move_play(session=session, type="add", data={"seat": seat, "points": points},
                           actor=services.Actor(user=owner))
    return session



def play_to_the_end(session, *, seed=0, max_moves=600):
    """Play `session` on through the services as its host, with moves drawn from its game's
    samples (games/<slug>/samples.py), until it is finished; whether it is."""
    import random

    from companion import engine, plugins
    from companion.models import Session

    candidates = plugins.get(session.game).samples
    actor = services.Actor(user=session.owner)
    rng = random.Random(f"finished:{session.game}:{seed}")
    for _try in range(max_moves):
        session = Session.objects.get(pk=session.pk)
        if session.is_finished:
            return True
        drawn = candidates(session.state, rng)
        rng.shuffle(drawn)
        for candidate in drawn:
            try:
                services.move_play(session=session, type=candidate["type"],
                                   data=candidate["data"], actor=actor)
                break
            except engine.Refused:
                continue
    return Session.objects.get(pk=session.pk).is_finished


def in_play(session, *, moves, seed=0):
    """`session` played on through the services as its host for `moves` moves drawn from its
    game's samples (as play_to_the_end draws them), none of them one that would end the game:
    a table in the middle of its game. Returns the session as they left it."""
    import random

    from companion import engine, plugins
    from companion.models import Session

    plugin = plugins.get(session.game)
    actor = services.Actor(user=session.owner)
    rng = random.Random(f"in-play:{session.game}:{seed}")
    played = 0
    for _try in range(moves * 20):
        if played == moves:
            break
        session = Session.objects.get(pk=session.pk)
        drawn = plugin.samples(session.state, rng)
        rng.shuffle(drawn)
        for candidate in drawn:
            try:
                after = engine.apply(plugin.rules, session.state, candidate["type"],
                                     candidate["data"], actor.rules_actor, session.seed,
                                     session.last_seq + 1)
                if plugin.rules.finished(after):
                    continue
                services.move_play(session=session, type=candidate["type"],
                                   data=candidate["data"], actor=actor)
            except engine.Refused:
                continue
            played += 1
            break
    assert played == moves, f"{session.game}: {played} of {moves} moves played"
    return Session.objects.get(pk=session.pk)


def finished_session(owner, *, game, players=("Ana", "Ben", "Cy")):
    """A session of `game` played to its end (see play_to_the_end), for tests that need a
    finished game of any game."""
    for seed in range(12):
        session = session_for(owner, game=game, players=players, seed=f"end{seed}")
        if play_to_the_end(session, seed=seed):
            return session
    raise AssertionError(f"the samples of {game} finished none of 12 games")
