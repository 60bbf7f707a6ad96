"""The REST API of ../shared/specs/api.md. Views read and call services; nothing else writes."""

from django.db import connection
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import APIView

from companion import inputs, limits, live, play_figures, plugins, services, stats
from companion.access import owned_or_404, session_access, sessions_with_seats
from companion.api import figures
from companion.api import serializers as s
from companion.api.figure_answers import GAME_TITLE, game_stats_answer, player_stats_answer
from companion.api.schema import InstalledGames, move_request
from companion.errors import Conflict, Invalid, Refused
from companion.language import say
from companion.models import Session
from companion.payloads import move_payload
from companion.scopes import roster_of

# Any operation may refuse a bad token (401); those that count attempts may say 429.
ERRORS = {code: OpenApiResponse(s.ErrorSerializer)
          for code in (400, 401, 403, 404, 409, 412, 422)}
LIMITED = {**ERRORS, 429: OpenApiResponse(s.ErrorSerializer, description="A rate limit: "
                                          "the Retry-After header says when to try again.")}
# A version as an ETag gives it ("7", W/"7"), as version_header reads it.
_TAG = r'(W/)?"[0-9]{1,15}"'
IF_MATCH = OpenApiParameter("If-Match", OpenApiTypes.STR, OpenApiParameter.HEADER,
                            pattern=rf"^(\*|{_TAG})$",
                            description='"<version>": refuse with 412 when the session moved on '
                                        "(* : any version)")
IF_NONE_MATCH = OpenApiParameter("If-None-Match", OpenApiTypes.STR, OpenApiParameter.HEADER,
                                 pattern=rf"^(\*|{_TAG}( *, *{_TAG})*)$",
                                 description='"<version>" (or a list of them, or *): 304 when '
                                             "the session is still at it")
# A 412's body is the Session as it is now, with the sentence (`detail`).
STALE = {412: OpenApiResponse(s.StaleSessionSerializer, description="The session moved on: "
                              "the body is the current Session, with `detail`.")}
IDEMPOTENCY_KEY_LENGTH = 100
IDEMPOTENCY_KEY = OpenApiParameter("Idempotency-Key", {"type": "string",
                                                       "maxLength": IDEMPOTENCY_KEY_LENGTH},
                                   OpenApiParameter.HEADER,
                                   description="a repeat returns the first answer")
GUEST_TOKEN = OpenApiParameter("X-Guest-Token", OpenApiTypes.STR, OpenApiParameter.HEADER,
                               description="a guest device's token, from /api/join/")


def version_header(request, name):
    """The version in `If-Match: "7"` (or W/"7", or 7); None when absent, or `*` (any version
    the session is at: RFC 9110's "the resource exists", which a session read here does)."""
    raw = request.headers.get(name)
    if raw is None or raw.strip() == "*":
        return None
    return _version_of(raw, name)


def _version_of(tag, name):
    value = inputs.whole_number(tag.strip().removeprefix("W/").strip('"'))
    if value is None:
        raise Invalid(_('%(header)s takes the version in quotes, like "7".') % {"header": name})
    return value


def none_match(request, version):
    """Whether `If-None-Match` names `version`: one tag, a list of them ("6", "7"), or *."""
    raw = request.headers.get("If-None-Match")
    if raw is None:
        return False
    if raw.strip() == "*":
        return True
    return version in {_version_of(tag, "If-None-Match") for tag in raw.split(",")}


class SignedIn(permissions.IsAuthenticated):
    """A host's operation: the schema says so (a token or the pages' cookie, never nothing), and
    anyone else is refused before the view runs (401, the sentence of companion.api.errors)."""


@extend_schema(auth=[])
class Public(APIView):
    """An operation anyone may call: it reads no credentials (a token that ended is no reason
    to refuse the list of games), and the schema says it needs none."""

    authentication_classes = []


def viewer_of(actor):
    return actor.seat


def repeat_reply(move, actor):
    """The first answer to a repeated move, its summary said in this request's language (the
    answer says which in Content-Language). It showed the session as its sender saw it, sealed
    choices included: another device repeating the key gets the session as it may see it now."""
    same_device = (move.actor_user_id == getattr(actor.user, "pk", None)
                   and move.actor_guest_id == getattr(actor.guest, "pk", None))
    reply = {**move.reply, "summary": say(move.line)}
    if same_device:
        return reply
    session = sessions_with_seats().get(pk=move.session_id)
    return {**reply, "session": s.session_data(session, viewer=viewer_of(actor))}


def session_response(session, actor, *, code=status.HTTP_200_OK):
    body = s.session_data(session, viewer=viewer_of(actor))
    return Response(body, status=code, headers={"ETag": f'"{session.version}"'})


class SessionAnswer(APIView):
    """A session's answers depend on who asks (a host's token or cookie, a guest's token: a seat
    sees its own hidden cards) and in which language: a shared cache keeps none of them, and a
    browser keeps one only against the credentials and the language it was made for."""

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        patch_cache_control(response, private=True, no_cache=True)
        patch_vary_headers(response, ("Authorization", "X-Guest-Token", "Cookie",
                                      "Accept-Language"))
        return response


class Health(Public):
    """One query: the yardstick of the benchmarks, and a liveness probe."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def get(self, request):
        return Response({"ok": True, "database": Session.objects.exists() in (True, False),
                         "live": live.broker().stats(), "pool": pool_stats()})


def pool_stats():
    """This process's pool of database connections (PostgreSQL with DB_POOL): how many it holds
    and how many are out (this request's own among them); None without a pool."""
    pool = getattr(connection, "pool", None)
    if pool is None:
        return None
    stats = pool.get_stats()
    return {"size": stats["pool_size"], "in_use": stats["pool_size"] - stats["pool_available"]}


class GameList(Public):
    @extend_schema(responses={200: s.GameSerializer(many=True), **ERRORS})
    def get(self, request):
        return Response(s.GameSerializer(plugins.all_rules(), many=True).data)


class SessionPagination(PageNumberPagination):
    """Pages of 20, or of `page_size` up to 100 (a larger one gives 100)."""

    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100

    def get_page_size(self, request):
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        size = inputs.optional_number(raw, label=_("The page size"))
        if size is not None and size < 1:
            raise Invalid(_("A page holds at least 1, not %(size)s.") % {"size": size})
        return min(size or self.page_size, self.max_page_size)

    def get_page_number(self, request, paginator):
        # DRF answers a page that is not a number (0, "x") with a 404 "Invalid page.": it is
        # the request that is wrong, and it gets a 400 that says how. A page past the last
        # one stays a 404: it is a number, and there is nothing there.
        raw = (request.query_params.get(self.page_query_param) or "").strip()
        if raw.isascii() and raw.lstrip("-").isdigit() and int(raw) < 1:
            raise Invalid(_("The pages are counted from 1, not %(page)s.") % {"page": raw[:20]})
        return inputs.optional_number(raw, label=_("The page")) or 1


# The whole numbers a query may give (inputs.whole_number reads 15 digits at most).
def number_schema(minimum):
    return {"type": "integer", "minimum": minimum, "maximum": 10 ** 15 - 1}


PAGE = [OpenApiParameter("page", number_schema(1), description="1 first"),
        OpenApiParameter("page_size", number_schema(1),
                         description="20 unless given; 100 at most (a larger one gives 100)")]


def _filter_value(request, name, known):
    """A filter's value from the query, or None; a value that names nothing is a 400."""
    value = request.query_params.get(name)
    if value and value not in known:
        raise Invalid(_("There is no %(name)s %(value)s: it is one of %(known)s.")
                      % {"name": name, "value": value[:40], "known": ", ".join(sorted(known))},
                      fields={name: [_("Not one of %(known)s.") % {"known": ", ".join(
                          sorted(known))}]})
    return value or None


SESSIONS_FILTERS = [OpenApiParameter("game", str, enum=InstalledGames(),
                                     description="a game's slug (/api/games/)"),
                    OpenApiParameter("status", str, enum=sorted(Session.Status.values)), *PAGE]


def sessions_page(request, view, sessions):
    """A page of `sessions` (a host's, a group's), newest first, filtered by ?game= and
    ?status=."""
    sessions = sessions.order_by("-created_at", "-id")
    if game := _filter_value(request, "game", {rules.slug for rules in plugins.all_rules()}):
        sessions = sessions.filter(game=game)
    if state := _filter_value(request, "status", set(Session.Status.values)):
        sessions = sessions.filter(status=state)
    paginator = SessionPagination()
    page = paginator.paginate_queryset(sessions, request, view=view)
    data = s.SessionSerializer(page, many=True, context={"viewer": None}).data
    return paginator.get_paginated_response(data)


class SessionList(SessionAnswer):
    permission_classes = [SignedIn]

    @extend_schema(
        parameters=SESSIONS_FILTERS,
        responses={200: s.SessionPageSerializer, **ERRORS},
        operation_id="sessions_list",
    )
    def get(self, request):
        return sessions_page(request, self, sessions_with_seats().filter(owner=request.user))

    @extend_schema(request=s.SessionCreateSerializer, responses={201: s.SessionSerializer,
                                                                  **ERRORS})
    def post(self, request):
        user = request.user
        body = s.SessionCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        session = services.session_create(owner=user, **body.validated_data)
        session = sessions_with_seats().get(pk=session.pk)
        return session_response(session, services.Actor.host(session),
                                code=status.HTTP_201_CREATED)


class SessionDetail(SessionAnswer):
    @extend_schema(parameters=[GUEST_TOKEN, IF_NONE_MATCH],
                   responses={200: s.SessionSerializer, 304: None, **ERRORS})
    def get(self, request, pk):
        session, actor = session_access(request, pk, queryset=sessions_with_seats())
        if none_match(request, session.version):
            return Response(status=status.HTTP_304_NOT_MODIFIED,
                            headers={"ETag": f'"{session.version}"'})
        return session_response(session, actor)


MOVES_PAGE = 500
AFTER = OpenApiParameter("after", number_schema(0),
                         description="only the moves after this seq (0: from the first); the "
                                     "Link header names the next page while there is one")
LIMIT = OpenApiParameter("limit", number_schema(0),
                         description=f"at most this many moves ({MOVES_PAGE} at most, the "
                                     "default)")


class MoveList(SessionAnswer):
    @extend_schema(parameters=[GUEST_TOKEN, AFTER, LIMIT],
                   responses={200: s.MoveOutSerializer(many=True), **ERRORS})
    def get(self, request, pk):
        session, actor = session_access(request, pk)
        rules = plugins.rules_of(session.game)
        after = inputs.optional_number(request.query_params.get("after"), label="after") or 0
        limit = inputs.optional_number(request.query_params.get("limit"), label="limit")
        limit = min(limit or MOVES_PAGE, MOVES_PAGE)
        page = list(session.moves.filter(seq__gt=after).order_by("seq")[:limit + 1])
        more = len(page) > limit
        data = s.MoveOutSerializer(page[:limit], many=True).data
        response = Response([rules.redact_move(move, session.state, viewer_of(actor))
                             for move in data])
        if more:
            url = request.build_absolute_uri(request.path)
            response["Link"] = f'<{url}?after={page[limit - 1].seq}&limit={limit}>; rel="next"'
        return response

    @extend_schema(
        request=move_request(),
        parameters=[IF_MATCH, IDEMPOTENCY_KEY, GUEST_TOKEN],
        responses={201: s.MovePlayedSerializer, **ERRORS, **STALE},
        description="The body is {\"type\": ..., ...the move's fields}: one of the moves of "
                    "the session's game, each with its own fields (components <Game><Move>Move).",
    )
    def post(self, request, pk):
        session, actor = session_access(request, pk)
        fields = dict(request.data) if isinstance(request.data, dict) else {}
        move_type = fields.pop("type", None)
        move = services.move_play(
            session=session, type=move_type, actor=actor,
            data=move_payload(game=session.game, move_type=move_type, fields=fields,
                              owner=session.owner_id),
            expected_version=version_header(request, "If-Match"),
            key=inputs.text(request.headers.get("Idempotency-Key"), field="Idempotency-Key",
                            label=_("The Idempotency-Key"),
                            max_length=IDEMPOTENCY_KEY_LENGTH) or None,
            answer=lambda played: played_reply(played, actor)[0])
        if move.repeated:
            return Response(repeat_reply(move, actor), status=status.HTTP_201_CREATED)
        reply, version = played_reply(move, actor)
        return Response(reply, status=status.HTTP_201_CREATED, headers={"ETag": f'"{version}"'})


def played_reply(move, actor):
    """The answer to a move: the session exactly as the move left it (not as a later move did)."""
    played = move.session
    reply = {"seq": move.seq, "type": move.type, "summary": say(move.line),
             "session": s.session_data(played, viewer=viewer_of(actor))}
    return reply, played.version


class Undo(SessionAnswer):
    @extend_schema(request=None, parameters=[IF_MATCH, GUEST_TOKEN],
                   responses={200: s.SessionSerializer, **ERRORS, **STALE})
    def post(self, request, pk):
        session, actor = session_access(request, pk)
        session, _undone = services.move_undo(session=session, actor=actor,
                                        expected_version=version_header(request, "If-Match"))
        return session_response(sessions_with_seats().get(pk=session.pk), actor)


class SeatColour(SessionAnswer):
    @extend_schema(request=s.SeatColourSerializer, parameters=[GUEST_TOKEN],
                   responses={200: s.SessionSerializer, **ERRORS})
    def post(self, request, pk, index):
        session, actor = session_access(request, pk)
        body = s.SeatColourSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        session = services.seat_colour_set(session=session, actor=actor, seat=index,
                                           colour=body.validated_data["colour"])
        return session_response(sessions_with_seats().get(pk=session.pk), actor)


class Redo(SessionAnswer):
    @extend_schema(request=s.RedoSerializer, parameters=[IF_MATCH, IDEMPOTENCY_KEY, GUEST_TOKEN],
                   responses={201: s.MovePlayedSerializer, **ERRORS, **STALE},
                   description="Plays an undone move again, as a new move (the dice it rolled, "
                               "the cards it drew), under the rules of any move; what the host "
                               "undid, only the host redoes (403 for a guest).")
    def post(self, request, pk):
        session, actor = session_access(request, pk)
        body = s.RedoSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        move = services.move_redo(
            session=session, actor=actor, seq=body.validated_data["seq"],
            expected_version=version_header(request, "If-Match"),
            key=inputs.text(request.headers.get("Idempotency-Key"), field="Idempotency-Key",
                            label=_("The Idempotency-Key"), max_length=100) or None,
            answer=lambda played: played_reply(played, actor)[0])
        if move.repeated:
            return Response(repeat_reply(move, actor), status=status.HTTP_201_CREATED)
        reply, version = played_reply(move, actor)
        return Response(reply, status=status.HTTP_201_CREATED, headers={"ETag": f'"{version}"'})


class Join(Public):
    @extend_schema(request=s.JoinSerializer, responses={201: s.JoinedSerializer, **LIMITED})
    def post(self, request):
        body = s.JoinSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        with limits.join_counted(request):
            guest = services.guest_join(**body.validated_data)
        return Response({"token": guest.token, "session": guest.session_id},
                        status=status.HTTP_201_CREATED)


def players_page(request, view, roster):
    """A page of a roster (a host's own, a group's), by name, each with its account's name."""
    paginator = SessionPagination()
    page = paginator.paginate_queryset(roster.select_related("account").order_by("name", "id"),
                                       request, view=view)
    return paginator.get_paginated_response(s.PlayerSerializer(page, many=True).data)


class PlayerList(APIView):
    permission_classes = [SignedIn]

    @extend_schema(parameters=PAGE, responses={200: s.PlayerPageSerializer, **ERRORS},
                   operation_id="players_list")
    def get(self, request):
        return players_page(request, self, roster_of(owner=request.user))

    @extend_schema(request=s.PlayerSerializer, responses={201: s.PlayerSerializer, **ERRORS})
    def post(self, request):
        user = request.user
        body = s.PlayerSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        player = services.player_create(owner=user, name=body.validated_data["name"])
        return Response(s.PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerStats(APIView):
    permission_classes = [SignedIn]

    @extend_schema(responses={200: figures.PlayerStatsSerializer, **ERRORS})
    def get(self, request, pk):
        user = request.user
        return player_stats_answer(owned_or_404(roster_of(owner=user), user, pk=pk))


class Versus(APIView):
    permission_classes = [SignedIn]

    @extend_schema(responses={200: figures.VersusSerializer, **ERRORS},
                   description="Who finishes ahead of whom among your players.")
    def get(self, request):
        return Response(play_figures.versus(owner=request.user))


class GameStats(APIView):
    permission_classes = [SignedIn]

    @extend_schema(parameters=[GAME_TITLE], responses={200: figures.GameStatsSerializer,
                                                       **ERRORS})
    def get(self, request, slug):
        return game_stats_answer(request, slug, owner=request.user)


class ResultsCsv(APIView):
    """Every result of the host's finished sessions, as CSV (one row per seat)."""

    permission_classes = [SignedIn]

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR, **ERRORS})
    def get(self, request):
        from companion.history import csv_response

        return csv_response(request.user)


class Export(SessionAnswer):
    permission_classes = [SignedIn]

    @extend_schema(responses={200: s.ExportSerializer, **ERRORS})
    def get(self, request, pk):
        user = request.user
        session = owned_or_404(sessions_with_seats(), user, pk=pk)
        rules = plugins.rules_of(session.game)
        # An export carries the whole log: it waits until no choice is sealed, so that not even
        # the host sees one early (a redacted export could not be imported back).
        if (rules.pending(session.state) if rules.pending
                else rules.redact(session.state, None) != session.state):
            raise Conflict(_("Sealed choices are pending: export once they are all in."))
        return Response(stats.session_export(session=session))


class Import(APIView):
    permission_classes = [SignedIn]

    @extend_schema(request=s.ExportSerializer, responses={201: s.SessionSerializer, **ERRORS})
    def post(self, request):
        user = request.user
        session = services.session_import(owner=user, data=request.data)
        return session_response(sessions_with_seats().get(pk=session.pk),
                                services.Actor(user=user), code=status.HTTP_201_CREATED)


class PlayLog(APIView):
    permission_classes = [SignedIn]

    @extend_schema(request=s.PlayLogSerializer, responses={201: s.SessionSerializer, **ERRORS},
                   description="Log a play not played in the app: it becomes a finished session "
                               "(logged: true) with its standings and no moves, in history and "
                               "statistics. Bad input is a 400 with a sentence; nothing is "
                               "written.")
    def post(self, request):
        user = request.user
        body = s.PlayLogSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        fields = dict(body.validated_data)
        players = [{key: value for key, value in player.items()
                    if not (key == "player" and value is None)}
                   for player in fields.pop("players")]
        try:
            session = services.play_log(owner=user, players=players, **fields)
        except Refused as refusal:
            # The length's refusal under the name the client sent it by (api.md: duration_min).
            if "minutes" in refusal.fields and "minutes" not in request.data:
                refusal.fields["duration_min"] = refusal.fields.pop("minutes")
            raise
        return session_response(sessions_with_seats().get(pk=session.pk),
                                services.Actor(user=user), code=status.HTTP_201_CREATED)
