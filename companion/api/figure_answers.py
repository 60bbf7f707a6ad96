"""The statistics' answers a host's operations and a group's both give (api/views.py,
api/groups.py): the same figures over another scope."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter
from rest_framework.response import Response

from companion import engine, inputs, play_figures, plugins, stats
from companion.errors import NotFound
from companion.models import Session

TITLE_LENGTH = Session._meta.get_field("title").max_length


GAME_TITLE = OpenApiParameter(
    "title", {"type": "string", "maxLength": TITLE_LENGTH},
    description="a named game kept on this game's rules (the score pad's Carcassonne): its own "
                "figures")


def player_stats_answer(player):
    return Response({**stats.player_stats(player=player),
                     **play_figures.player_figures(player=player)})


def game_stats_answer(request, slug, *, owner=None, group=None):
    """A game's figures among a host's (or a group's) plays; ?title= a named game's."""
    try:
        game = plugins.rules_of(slug)
    except engine.RuleViolation as refusal:  # the address names no game: nothing is there
        raise NotFound(refusal.message) from None
    title = ""
    if game.title is not None:
        title = inputs.text(request.query_params.get("title"), field="title",
                            label=_("The game's name"), max_length=TITLE_LENGTH)
    whose = {"owner": owner, "group": group}
    return Response({**stats.game_stats(**whose, game=game.slug, title=title),
                     **play_figures.game_figures(**whose, game=game.slug, title=title)})
