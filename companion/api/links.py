"""A player's own history (api.md, "A player's own history"): a seat kept in an account's
history, a link undone, an account's plays and statistics across hosts, two roster players
merged."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from companion import own_stats, services
from companion.access import session_access
from companion.api import figures
from companion.api import serializers as s
from companion.api.views import ERRORS, GUEST_TOKEN, PAGE, SessionPagination, SignedIn
from companion.models import Player


class ClaimedSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, help_text="the seat's index at the table")
    player = s.PlayerSerializer(help_text="the host's roster player of that seat, now linked")


class MergeSerializer(serializers.Serializer):
    into = serializers.IntegerField(min_value=1, max_value=10 ** 15 - 1,
                                    help_text="the player kept: another of the same roster")
    name = serializers.CharField(
        required=False, allow_blank=True, max_length=Player._meta.get_field("name").max_length,
        help_text="the name the kept player is called by (its own unless given)")


class OwnPlaySerializer(s.SessionSerializer):
    seat = serializers.IntegerField(source="own_seat", min_value=0,
                                    help_text="the seat the account's player sat at")

    class Meta(s.SessionSerializer.Meta):
        fields = [*s.SessionSerializer.Meta.fields, "seat"]


class OwnPlayPageSerializer(serializers.Serializer):
    """One page of an account's plays, newest first."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = OwnPlaySerializer(many=True)


class Claim(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=None, parameters=[GUEST_TOKEN],
        responses={200: ClaimedSerializer, **ERRORS},
        description="Keep this seat in my history: the phone that played a seat (its "
                    "X-Guest-Token), signed in to an account (its Authorization), links the "
                    "seat's roster player to that account; the host's own seat, by the host. "
                    "403: the phone holds no seat here; 409: the player is linked to another "
                    "account; 400: the seat is nobody's in the host's roster.")
    def post(self, request, pk):
        session, actor = session_access(request, pk)
        seat, player = services.seat_claim(session=session, account=request.user,
                                           guest=actor.guest)
        return Response({"seat": seat.index, "player": s.PlayerSerializer(player).data})


class Link(APIView):
    permission_classes = [SignedIn]

    @extend_schema(request=None, responses={204: None, **ERRORS},
                   description="Unlink a roster player from its account: by the roster's "
                               "host, or by that account.")
    def delete(self, request, pk):
        player = services.player_reached(pk=pk, user=request.user)
        services.player_unlink(player=player, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class Merge(APIView):
    permission_classes = [SignedIn]

    @extend_schema(request=MergeSerializer, responses={200: s.PlayerSerializer, **ERRORS},
                   description="Merge this player into another of the same roster: its seats "
                               "and results become the other's, and it is gone. 400: across "
                               "rosters; 409: the two sat at one table, or are linked to two "
                               "accounts.")
    def post(self, request, pk):
        player = services.player_reached(pk=pk, user=request.user)
        body = MergeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        kept = services.player_merge(player=player, into=body.validated_data["into"],
                                     actor=request.user,
                                     name=body.validated_data.get("name") or None)
        return Response(s.PlayerSerializer(kept).data)


class MyPlays(APIView):
    permission_classes = [SignedIn]

    @extend_schema(parameters=PAGE, responses={200: OwnPlayPageSerializer, **ERRORS},
                   operation_id="me_plays_list",
                   description="Every play of every table where a roster player linked to "
                               "this account sat, newest first.")
    def get(self, request):
        paginator = SessionPagination()
        page = paginator.paginate_queryset(own_stats.account_plays(account=request.user), request,
                                           view=self)
        return paginator.get_paginated_response(
            [{**s.session_data(play, viewer=play.own_seat), "seat": play.own_seat}
             for play in page])


class MyStats(APIView):
    permission_classes = [SignedIn]

    @extend_schema(responses={200: figures.AccountStatsSerializer, **ERRORS},
                   description="A player's statistics, of this account's linked players' "
                               "results counted across hosts.")
    def get(self, request):
        return Response(own_stats.account_stats(account=request.user))
