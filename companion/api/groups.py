"""The API's groups (../shared/specs/api.md, "Groups"): making and joining one, its members and
owner, and its history and statistics, answered as the host's own are, over the group's scope
(companion.scopes). A group's answers are its members' only: anyone else gets 404, as for a
session (companion.access.group_or_404)."""

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from companion import limits, play_figures, services
from companion.access import group_or_404, groups_of, sessions_with_seats
from companion.api import figures
from companion.api import serializers as s
from companion.api.figure_answers import GAME_TITLE, game_stats_answer, player_stats_answer
from companion.api.views import (
    ERRORS,
    LIMITED,
    PAGE,
    SESSIONS_FILTERS,
    SessionAnswer,
    SignedIn,
    players_page,
    sessions_page,
)
from companion.errors import NotFound
from companion.models import Group
from companion.scopes import roster_of


class GroupSerializer(serializers.Serializer):
    """A group as its members see it."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField(help_text="the invite code: POST /api/groups/join/")
    owner = serializers.CharField(help_text="the owner's user name")
    members = serializers.ListField(child=serializers.CharField(),
                                    help_text="the members' user names, the owner among them")


def group_data(group):
    """GroupSerializer's answer: the members read in one query."""
    members = list(group.members.order_by("username").values_list("username", flat=True))
    return {"id": group.pk, "name": group.name, "code": group.code,
            "owner": group.owner.get_username(), "members": members}


class GroupCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=Group._meta.get_field("name").max_length,
                                 help_text='"Thursday night"')


class GroupJoinSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=40, help_text="the group's invite code")


class GroupOwnerSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text="the member who owns it next")


class GroupStatsGameSerializer(serializers.Serializer):
    game = serializers.CharField()
    title = serializers.CharField(allow_blank=True)
    plays = serializers.IntegerField(min_value=1)


class GroupStatsPlayerSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    plays = serializers.IntegerField(min_value=1)
    wins = serializers.IntegerField(min_value=0)


class OverviewSerializer(serializers.Serializer):
    """A history's plays in figures (stats.overview)."""

    plays = serializers.IntegerField(min_value=0, help_text="finished plays")
    games = GroupStatsGameSerializer(many=True, help_text="plays per game, by game")
    players = GroupStatsPlayerSerializer(many=True,
                                         help_text="plays and wins per player, the most first")


class GroupView(APIView):
    permission_classes = [SignedIn]


def _answer(group, code=status.HTTP_200_OK):
    group = Group.objects.select_related("owner").get(pk=group.pk)
    return Response(group_data(group), status=code)


class GroupList(GroupView):
    @extend_schema(responses={200: GroupSerializer(many=True), **ERRORS},
                   operation_id="groups_list", description="The groups you are a member of.")
    def get(self, request):
        return Response([group_data(group) for group in groups_of(request.user)])

    @extend_schema(request=GroupCreateSerializer, responses={201: GroupSerializer,
                                                               **ERRORS},
                   description="A new group, you its owner and first member.")
    def post(self, request):
        body = GroupCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        group = services.group_create(owner=request.user, name=body.validated_data["name"])
        return _answer(group, status.HTTP_201_CREATED)


class GroupJoin(GroupView):
    @extend_schema(request=GroupJoinSerializer, responses={200: GroupSerializer, **LIMITED},
                   description="Join the group of an invite code. A code that opens nothing is "
                               "a 404, counted as a failed join (too many: 429).")
    def post(self, request):
        body = GroupJoinSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        with limits.join_counted(request):
            group = services.group_join(user=request.user, code=body.validated_data["code"])
        return _answer(group)


class GroupDetail(GroupView):
    @extend_schema(responses={200: GroupSerializer, **ERRORS})
    def get(self, request, pk):
        return _answer(group_or_404(request.user, pk))


class GroupMember(GroupView):
    @extend_schema(request=None, responses={204: None, **ERRORS},
                   description="The owner removes a member; a member leaves (their own name). "
                               "The owner leaves only after passing the group on (409).")
    def delete(self, request, pk, username):
        group = group_or_404(request.user, pk)
        services.group_member_remove(group=group, actor=request.user, username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class GroupOwner(GroupView):
    @extend_schema(request=GroupOwnerSerializer, responses={200: GroupSerializer, **ERRORS},
                   description="The owner passes the group to another member.")
    def post(self, request, pk):
        group = group_or_404(request.user, pk)
        body = GroupOwnerSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        group = services.group_owner_pass(group=group, actor=request.user,
                                          username=body.validated_data["username"])
        return _answer(group)


class GroupSessions(SessionAnswer):
    permission_classes = [SignedIn]

    @extend_schema(parameters=SESSIONS_FILTERS, responses={200: s.SessionPageSerializer,
                                                           **ERRORS},
                   operation_id="groups_sessions_list",
                   description="The group's sessions, every member's, newest first.")
    def get(self, request, pk):
        group = group_or_404(request.user, pk)
        return sessions_page(request, self, sessions_with_seats().filter(group=group))


class GroupPlayers(GroupView):
    @extend_schema(parameters=PAGE, responses={200: s.PlayerPageSerializer, **ERRORS},
                   operation_id="groups_players_list", description="The group's roster.")
    def get(self, request, pk):
        return players_page(request, self, roster_of(group=group_or_404(request.user, pk)))


class GroupPlayerStats(GroupView):
    @extend_schema(responses={200: figures.PlayerStatsSerializer, **ERRORS})
    def get(self, request, pk, player):
        group = group_or_404(request.user, pk)
        found = roster_of(group=group).filter(pk=player).first()
        if found is None:
            raise NotFound(_("The group has no such player."))
        return player_stats_answer(found)


class GroupStats(GroupView):
    @extend_schema(responses={200: OverviewSerializer, **ERRORS},
                   description="The group's plays: how many, per game, and per player with "
                               "their wins.")
    def get(self, request, pk):
        return Response(play_figures.overview(group=group_or_404(request.user, pk)))


class GroupGameStats(GroupView):
    @extend_schema(parameters=[GAME_TITLE], responses={200: figures.GameStatsSerializer,
                                                       **ERRORS})
    def get(self, request, pk, slug):
        return game_stats_answer(request, slug, group=group_or_404(request.user, pk))


class GroupVersus(GroupView):
    @extend_schema(responses={200: figures.VersusSerializer, **ERRORS},
                   description="Who finishes ahead of whom among the group's players.")
    def get(self, request, pk):
        return Response(play_figures.versus(group=group_or_404(request.user, pk)))


class GroupResultsCsv(GroupView):
    """Every result of the group's finished sessions, as CSV (one row per seat)."""

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR, **ERRORS})
    def get(self, request, pk):
        from companion.history import csv_response

        return csv_response(group=group_or_404(request.user, pk))
