"""What the API reads and answers. Move payloads are checked by each game's `moves.py`."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from companion import bgstats, engine, plugins, stats
from companion.colours import HEXES
from companion.language import said_deep, say
from companion.models import Move, Player, Seat, Session
from companion.services.play_log import LOG_MINUTES_MAX, LOG_NUMBER_MAX


class SeatSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    name = serializers.CharField()
    player = serializers.IntegerField(source="player_id", allow_null=True)
    colour = serializers.ChoiceField(
        choices=HEXES, source="shown_colour",
        help_text="The seat's colour (a colour-blind-safe palette), shown with its initial.")


@extend_schema_field({"type": "string", "enum": list(HEXES)})
class ColourField(serializers.CharField):
    """A palette colour: the schema lists them; the service says what is wrong, in the page's
    sentence (companion.colours.colour_checked)."""


class SeatColourSerializer(serializers.Serializer):
    colour = ColourField(help_text="One of the palette's colours.")


class StandingSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    score = serializers.FloatField()
    rank = serializers.IntegerField()
    winner = serializers.BooleanField(
        help_text="Won the game: only once the game is finished (false while it is played).")
    leader = serializers.BooleanField(
        help_text="First place now (rank 1), while the game is played and once it is over.")
    details = serializers.DictField()


class ShareSerializer(serializers.Serializer):
    bgstats = serializers.URLField(
        help_text="BG Stats' create-play link with the play filled in (game, date, length, "
                  "place, each player's score, rank and winner, Companion's ids as source ids): "
                  "opened on a phone with BG Stats, it asks to save the play there.")


FIRST_SCHEMA = {"oneOf": [{"type": "integer", "minimum": 0},
                          {"type": "string", "enum": [engine.DRAW]}]}


@extend_schema_field({**FIRST_SCHEMA, "nullable": True})
class FirstField(serializers.Field):
    """Who starts: a seat (0 and up) or "draw"."""

    default_error_messages = {"invalid": gettext_lazy('Who starts is a seat (0 and up) or '
                                                      '"draw".')}

    def to_internal_value(self, data):
        if data == engine.DRAW or (engine.is_int(data) and data >= 0):
            return data
        self.fail("invalid")

    def to_representation(self, value):
        return value


def first_of(session, rules):
    """The seat that started the game: the one named at set-up, or the one drawn (the seats are
    counted only for a draw)."""
    if rules.first is None or session.options.get(rules.first) != engine.DRAW:
        return engine.first_seat(rules, session.options, 0, session.seed)
    return engine.first_seat(rules, session.options, len(session.seats.all()), session.seed)


class SessionSerializer(serializers.ModelSerializer):
    """A session as a viewer may see it: `viewer` (a seat or None) hides others' sealed choices."""

    seats = SeatSerializer(many=True, read_only=True)
    first = serializers.SerializerMethodField()
    state = serializers.SerializerMethodField()
    standings = serializers.SerializerMethodField()
    share = serializers.SerializerMethodField()

    class Meta:
        model = Session
        fields = ["id", "code", "game", "title", "location", "logged", "host_seat", "language",
                  "status",
                  "version", "options", "created_at", "finished_at", "seats", "first", "state",
                  "standings", "share", "group"]
        extra_kwargs = {
            "group": {"help_text": "The group the session was opened for (its history counts "
                                   "it); null: the host's own."},
            "title": {"help_text": "The name of the game played where one game's rules serve "
                                   "many (the score pad); empty otherwise."},
            "logged": {"help_text": "A play entered afterwards, not move by move."},
            "host_seat": {"help_text": "The seat the host plays at (null: the host only keeps "
                                       "the table). See 'Who may do what' in the API's "
                                       "description."},
        }

    def _rules(self, session):
        return plugins.rules_of(session.game)

    @extend_schema_field(serializers.IntegerField(
        allow_null=True, help_text="The seat that starts (started) the game: the one named at "
        "set-up, or the one drawn (options: \"draw\"); null where the game has no first player "
        "or the table decides."))
    def get_first(self, session):
        return first_of(session, self._rules(session))

    @extend_schema_field(serializers.DictField(help_text="The game's state, as its spec says."))
    def get_state(self, session):
        return self._rules(session).redact(session.state, self.context.get("viewer"))

    @extend_schema_field(StandingSerializer(many=True))
    def get_standings(self, session):
        # A game in play: its rules' words in the details (a rating, a phase) said here.
        return said_deep(stats.session_standings(session, self._rules(session)))

    @extend_schema_field(ShareSerializer(allow_null=True, help_text="Links that send a finished "
                                         "play to other apps; null while it is played."))
    def get_share(self, session):
        if not session.is_finished:
            return None
        return {"bgstats": bgstats.send_link(session, rules=self._rules(session))}


class SessionPageSerializer(serializers.Serializer):
    """One page of a host's sessions, newest first."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = SessionSerializer(many=True)


_DATETIME = serializers.DateTimeField()


def session_data(session, *, viewer=None):
    """SessionSerializer's answer, made without building the serializer: a ModelSerializer
    builds and copies its fields anew for each session, the most of a move's answer. The
    serializer stays what the schema says and what tests/api/test_session_data.py holds this
    answer to, field by field."""
    rules = plugins.rules_of(session.game)
    return {
        "id": session.pk,
        "code": session.code,
        "game": session.game,
        "title": session.title,
        "location": session.location,
        "logged": session.logged,
        "host_seat": session.host_seat,
        "language": session.language,
        "status": str(session.status),
        "version": session.version,
        "options": session.options,
        "created_at": _DATETIME.to_representation(session.created_at),
        "finished_at": _DATETIME.to_representation(session.finished_at),
        "seats": [{"index": seat.index, "name": seat.name, "player": seat.player_id,
                   "colour": seat.shown_colour} for seat in session.seats.all()],
        "first": first_of(session, rules),
        "state": rules.redact(session.state, viewer),
        "standings": said_deep(stats.session_standings(session, rules)),
        "share": ({"bgstats": bgstats.send_link(session, rules=rules)}
                  if session.is_finished else None),
        "group": session.group_id,
    }


class GameField(serializers.CharField):
    """The slug of a game: the schema lists the installed ones (companion.api.schema)."""


class OptionsField(serializers.DictField):
    """A game's set-up options by name: the schema lists every installed game's
    (companion.api.schema); the game itself checks the names and values it takes."""


_SEAT_NAME = {"type": "string", "minLength": 1,
              "maxLength": Seat._meta.get_field("name").max_length}


@extend_schema_field({"type": "array", "minItems": 1, "items": {"oneOf": [
    _SEAT_NAME,
    {"type": "object", "required": ["name"], "properties": {
        "name": _SEAT_NAME,
        "player": {"type": "integer", "nullable": True,
                   "description": "a roster player's id (GET /api/players/)"},
        "colour": {"type": "string", "enum": list(HEXES),
                   "description": "the seat's colour (by default a distinct one)"}}},
]}})
class SeatPlayersField(serializers.ListField):
    """The seats' players, each a name or {"name", "player": id} to reuse a roster player:
    services.seat_players reads them and says what is wrong in its own sentences ("Name the
    players."), the schema says their shape."""

    child = serializers.JSONField()


class SessionCreateSerializer(serializers.Serializer):
    game = GameField(help_text="The slug of a game: GET /api/games/ lists them.")
    players = SeatPlayersField(
        help_text='Names, or {"name": ..., "player": id} to reuse a roster player; '
                  '{"name": ..., "colour": "#e69f00"} gives the seat its colour (one of the '
                  'seats\' palette; by default each seat gets a distinct one).')
    options = OptionsField(required=False, default=dict)
    host_seat = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=0,
        help_text="The seat the host plays at; null (the default): the host only keeps the table.")
    location = serializers.CharField(required=False, allow_blank=True, default="", max_length=60,
                                     help_text="Where the game is played.")
    language = serializers.ChoiceField(
        choices=settings.LANGUAGES, required=False, default=None, allow_null=True,
        help_text="The table's language, which the board screen speaks; by default the "
                  "request's (Accept-Language).")
    first = FirstField(
        required=False, allow_null=True, default=None,
        help_text='Who starts, for a game with a first player (GET /api/games/: first_option): '
                  'a seat, or "draw": the set-up draws it from the game\'s seed, and the table\'s '
                  'log tells who. It is that game\'s option (the session\'s options keep it); '
                  'null (the default): as the options say.')
    group = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1, max_value=2 ** 31 - 1,
        help_text="A group of yours (GET /api/groups/): the seats are its roster's players and "
                  "the game counts in its history; null (the default): your own.")


class MoveInSerializer(serializers.Serializer):
    """The envelope: `type` plus the move's own fields, which its game's serializer checks."""

    type = serializers.CharField()


class SaidField(serializers.CharField):
    """A sentence of a game (engine.Text) in the language of the request's Accept-Language."""

    def to_representation(self, value):
        return str(say(value))


class MoveOutSerializer(serializers.ModelSerializer):
    summary = SaidField(source="line", read_only=True,
                        help_text="The move's log line, in the request's language.")

    class Meta:
        model = Move
        fields = ["seq", "type", "data", "seat", "summary", "created_at", "undone"]


class MovePlayedSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    summary = SaidField(help_text="The move's log line, in the request's language.")
    session = SessionSerializer()


class RedoSerializer(serializers.Serializer):
    seq = serializers.IntegerField(min_value=1, max_value=2_000_000_000,
                                   help_text="the undone move to play again (its `seq`)")


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(
        max_length=get_user_model()._meta.get_field("username").max_length)
    password = serializers.CharField(style={"input_type": "password"})


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class DeviceSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The device's token, named without giving it away: "
                                         "DELETE /api/auth/devices/{id}/ ends it.")
    created = serializers.DateTimeField(help_text="When the device signed in.")
    last_used = serializers.DateTimeField(help_text="Its last request, to the minute.")
    current = serializers.BooleanField(help_text="Whether it is the token of this request.")


class JoinSerializer(serializers.Serializer):
    code = serializers.CharField()
    seat = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0)


class JoinedSerializer(serializers.Serializer):
    token = serializers.CharField()
    session = serializers.IntegerField()


class PlayerSerializer(serializers.ModelSerializer):
    account = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True,
        help_text="The user name of the account this player is linked to (who kept a seat of "
                  "theirs in their history); null: none.")

    class Meta:
        model = Player
        fields = ["id", "name", "created_at", "account"]
        read_only_fields = ["id", "created_at"]
        # The roster's own rule (unique per host, any case) is checked by player_create.
        validators = []


class PlayerPageSerializer(serializers.Serializer):
    """One page of a host's roster, by name."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = PlayerSerializer(many=True)


class GameSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    options = serializers.DictField()
    first_option = serializers.CharField(
        source="first", allow_null=True,
        help_text='The option that says who starts (a seat, or "draw"), which a session\'s '
                  '"first" sets; null: the game has no first player.')
    moves = serializers.ListField(child=serializers.CharField())

    def to_representation(self, game):
        return {"slug": game.slug, "name": say(game.name), "min_players": game.min_players,
                "max_players": game.max_players, "options": dict(game.options),
                "first_option": game.first, "moves": sorted(game.moves)}


class StaleSessionSerializer(SessionSerializer):
    """A 412 (If-Match named an older version): the Session as it is now, and the sentence."""

    detail = serializers.CharField(read_only=True, help_text="What happened, in a sentence.")

    class Meta(SessionSerializer.Meta):
        fields = [*SessionSerializer.Meta.fields, "detail"]


class ExportSeatSerializer(serializers.Serializer):
    index = serializers.IntegerField(min_value=0)
    name = serializers.CharField(max_length=Seat._meta.get_field("name").max_length)
    player = serializers.IntegerField(allow_null=True, required=False)


class ExportMoveSerializer(serializers.Serializer):
    seq = serializers.IntegerField(min_value=1, help_text="the move's number, 1 first")
    type = serializers.CharField(help_text="one of the game's moves (GET /api/games/)")
    data = serializers.DictField(help_text="the move's fields, as its game's serializer made "
                                           "them")
    seat = serializers.IntegerField(min_value=0, allow_null=True, required=False)
    actor_seat = serializers.IntegerField(min_value=0, allow_null=True, required=False)
    summary = serializers.CharField(required=False, allow_blank=True)
    created_at = serializers.DateTimeField(required=False)
    undone = serializers.BooleanField(required=False)
    dice_of = serializers.ListField(child=serializers.IntegerField(), required=False,
                                    help_text="the six-sided dice the move rolled")


class ExportSerializer(serializers.Serializer):
    """A session with its full move log (GET /api/sessions/{id}/export/), as POST
    /api/sessions/import/ takes it back: the moves are replayed through the game's rules, with
    the session's seed, so the replayed state is the exported one; a damaged or tampered export
    is refused whole. The seed of a game in play is sealed (`sealed_seed`), by this server's own
    key: it imports here only."""

    format = serializers.CharField(required=False, help_text="companion-session")
    format_version = serializers.IntegerField(required=False)
    game = GameField()
    title = serializers.CharField(required=False, allow_blank=True)
    location = serializers.CharField(required=False, allow_blank=True,
                                     max_length=Session._meta.get_field("location").max_length)
    logged = serializers.BooleanField(required=False)
    code = serializers.CharField(required=False)
    options = serializers.DictField(required=False)
    seed = serializers.RegexField(
        rf"^[A-Za-z0-9]{{1,{Session._meta.get_field('seed').max_length}}}$", allow_null=True,
        required=False, help_text="the dice's and the cards' seed: given once the game is over")
    sealed_seed = serializers.CharField(required=False, help_text="a game in play's seed, "
                                        "sealed by this server")
    status = serializers.ChoiceField(choices=Session.Status.choices, required=False)
    version = serializers.IntegerField(min_value=0, required=False)
    created_at = serializers.DateTimeField(required=False)
    finished_at = serializers.DateTimeField(required=False, allow_null=True)
    seats = ExportSeatSerializer(many=True, min_length=1)
    moves = ExportMoveSerializer(many=True)
    state = serializers.DictField(required=False, help_text="not read by an import: the replay "
                                                            "makes it")
    standings = serializers.ListField(child=serializers.DictField(), required=False)


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()
    code = serializers.CharField()
    fields = serializers.DictField(required=False)


@extend_schema_field({"oneOf": [{"type": "string", "format": "date"},
                                 {"type": "string", "format": "date-time"}]})
class PlayedAtField(serializers.Field):
    """A day ("2026-03-02") or a day and time ("2026-03-02T21:30", an offset or none: the
    server's zone), as DRF's own date and date-time fields read them."""

    def to_internal_value(self, data):
        if isinstance(data, str) and len(data.strip()) > len("2026-03-02"):
            return serializers.DateTimeField().to_internal_value(data)
        return serializers.DateField().to_internal_value(data)

    def to_representation(self, value):
        return value.isoformat()


# A logged play's length and scores: play_prepare checks their range and says it in its own
# sentence; the schema gives the same range.
@extend_schema_field({"type": "integer", "minimum": 1, "maximum": LOG_MINUTES_MAX,
                      "nullable": True})
class MinutesField(serializers.IntegerField):
    pass


@extend_schema_field({"type": "number", "minimum": -LOG_NUMBER_MAX,
                      "maximum": LOG_NUMBER_MAX, "nullable": True})
class LoggedScoreField(serializers.FloatField):
    pass


class PlayLogPlayerSerializer(serializers.Serializer):
    name = serializers.CharField(required=False, allow_blank=True, default="",
                                 help_text="A name; a new one joins the roster.")
    player = serializers.IntegerField(required=False, allow_null=True,
                                      help_text="A roster player's id, in place of the name.")
    score = LoggedScoreField(required=False, allow_null=True, default=None,
                                   help_text="The final score (every player's, or nobody's).")
    winner = serializers.BooleanField(required=False, default=False,
                                      help_text="Named a winner: where there are no points, "
                                                "or to break a tie of scores.")


class PlayLogSerializer(serializers.Serializer):
    """A play not played in the app, logged afterwards (POST /api/plays/)."""

    game = serializers.CharField(required=False, allow_blank=True, default="",
                                 help_text="The slug of one of the games (GET /api/games/); "
                                           "empty for a named game.")
    title = serializers.CharField(required=False, allow_blank=True, default="", max_length=60,
                                  help_text="The name of the game played, e.g. Carcassonne "
                                            "(kept on the score pad); empty for our own games.")
    win = serializers.ChoiceField(choices=["high", "low", "coop", "none"], default="high",
                                  help_text="How a named game is won: highest score, lowest, "
                                            "cooperative (all win or lose: tick one winner for "
                                            "a win), or no points (the winners named). Our own "
                                            "games: high.")
    played_at = PlayedAtField(required=False, allow_null=True, default=None,
                              help_text="The day it was played (today by default), or the "
                                        "day and time (ISO 8601): a time of day is kept.")
    minutes = MinutesField(required=False, allow_null=True, default=None,
                           help_text="How long it took.")
    duration_min = MinutesField(required=False, allow_null=True, default=None,
                                help_text="The same as minutes (the contract's name, as BG "
                                          "Stats calls it).")
    location = serializers.CharField(required=False, allow_blank=True, default="",
                                     max_length=60, help_text="Where it was played.")
    note = serializers.CharField(required=False, allow_blank=True, default="",
                                 max_length=1000)
    players = PlayLogPlayerSerializer(many=True)

    def validate(self, attrs):
        duration = attrs.pop("duration_min", None)
        if duration is not None:
            if attrs.get("minutes") not in (None, duration):
                message = _("Give the length once: minutes and duration_min differ.")
                raise serializers.ValidationError({"duration_min": [message]})
            attrs["minutes"] = duration
        return attrs
