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
    return services.session_create(owner=owner, game=game, players=list(players),
                                   options=options or {}, seed=seed)


def played(owner, players=("Vanessa", "Peter"), moves=((0, 10), (0, 10)), game="tiny"):
    """A tiny game in which each (seat, points) of `moves` was played by its host: the defaults
    finish it (the first to 20 wins)."""
    session = session_for(owner, game=game, players=players)
    for seat, points in moves:
        services.move_play(session=session, type="add", data={"seat": seat, "points": points},
                           actor=services.Actor(user=owner))
    return session
