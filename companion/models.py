"""Players, sessions and their seats, the append-only move log, results, and guest devices."""

import secrets

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from companion import engine, plugins
from companion.colours import HEXES, colour_index

# No 0/O, 1/I/L: a code is read aloud across a table and typed on a phone.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


def new_code():
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_token():
    return secrets.token_urlsafe(24)


def new_seed():
    return secrets.token_hex(8)


class Group(models.Model):
    """People who play together ("Thursday night"): its members host its sessions, which share
    one roster and one history. Joined with a code, like a table."""

    name = models.CharField(max_length=60)
    code = models.CharField(max_length=CODE_LENGTH, unique=True, default=new_code)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="owned_groups")
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, through="Membership",
                                     related_name="play_groups")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self):
        return self.name


class Membership(models.Model):
    """One account in one group; the owner is a member too."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="memberships")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint("group", "user", name="membership_once")]

    def __str__(self):
        return f"{self.user_id} in {self.group_id}"


class Player(models.Model):
    """Someone in a roster, reused across sessions so statistics follow them. A roster is a
    host's own (group empty) or a group's (whoever of its members added the player: `owner`).
    `account` is the person's own account once they kept a seat in their history."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="players")
    group = models.ForeignKey(Group, on_delete=models.CASCADE, null=True, blank=True,
                              related_name="players")
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                blank=True, related_name="linked_players")
    name = models.CharField(max_length=60)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(Lower("name"), "owner", condition=models.Q(group=None),
                                    name="player_name_unique_per_owner"),
            models.UniqueConstraint(Lower("name"), "group",
                                    condition=models.Q(group__isnull=False),
                                    name="player_name_unique_per_group"),
        ]

    def __str__(self):
        return self.name


class Session(models.Model):
    # How a game is won: the highest score, the lowest, together (cooperative: the table wins or
    # loses as one) or with no points (the winners named). Our own games: the highest.
    WINS = ("high", "low", "coop", "none")

    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        FINISHED = "finished", _("finished")

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="game_sessions")
    # A group's session: its seats are the group's roster and it counts in the group's history
    # (and in its host's, as every session does).
    group = models.ForeignKey(Group, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="sessions")
    game = models.CharField(max_length=30)
    # The name of the game played where one game's rules serve many (the score pad's
    # "Carcassonne"); empty for a game of its own. Statistics count each title as a game.
    title = models.CharField(max_length=60, blank=True, default="")
    location = models.CharField(max_length=60, blank=True, default="")
    # A play entered afterwards (not played move by move in the app).
    logged = models.BooleanField(default=False)
    # Where a play imported from another app came from ("bgstats:<its uuid>"), so that
    # importing the same file again adds nothing; empty for a play of this app.
    source_key = models.CharField(max_length=80, blank=True, default="")
    # The seat the host plays at (None: the host only keeps the table). No guest may claim it.
    host_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # The table's language: the board screen speaks it (each phone reads its own).
    language = models.CharField(max_length=8, choices=settings.LANGUAGES,
                                default=settings.LANGUAGE_CODE)
    # The next game of the same players (Rematch): every phone at this table follows to it.
    rematch = models.OneToOneField("self", on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="rematch_of")
    code = models.CharField(max_length=CODE_LENGTH, unique=True, default=new_code)
    # The read-only board link for a screen in the middle of the table.
    board_key = models.CharField(max_length=40, unique=True, default=new_token)
    options = models.JSONField(default=dict)
    seed = models.CharField(max_length=32, default=new_seed)
    state = models.JSONField(default=dict)
    version = models.PositiveIntegerField(default=0)
    # The seq of its newest move (0: none yet), read with the lock a move takes on this row: a
    # subquery beside the lock would read the moves as they were before the wait for it.
    last_seq = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    # Now, unless the session was played before it was written (a logged play, an import).
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["owner", "-created_at"], name="session_owner_recent"),
            models.Index(fields=["owner", "game", "status"], name="session_owner_game_status"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["owner", "source_key"],
                                    condition=~models.Q(source_key=""),
                                    name="session_source_key_unique"),
        ]

    def __str__(self):
        return f"{self.game} {self.code}"

    @property
    def is_finished(self):
        return self.status == self.Status.FINISHED

    @property
    def win(self):
        """How its game is won (one of WINS). A logged play keeps it in its state; a named game
        played live in its option "win"; every other game is won by the highest score."""
        return self.win_of(logged=self.logged, title=self.title,
                           logged_win=self.state.get("logged", {}).get("win"),
                           option_win=self.options.get("win"))

    @staticmethod
    def win_of(*, logged, title, logged_win, option_win):
        """Session.win from the fields it reads (a query's values, without the session)."""
        win = logged_win if logged else option_win if title else "high"
        return win if win in Session.WINS else "high"

    @staticmethod
    def coop_q(prefix=""):
        """The sessions whose win_of is "coop", as a filter (`prefix` "session__" reads them
        through a Result): win_of's rule, for a query."""
        logged = models.Q(**{f"{prefix}logged": True, f"{prefix}state__logged__win": "coop"})
        live = models.Q(**{f"{prefix}logged": False, f"{prefix}options__win": "coop"}) \
            & ~models.Q(**{f"{prefix}title": ""})
        return logged | live

    @staticmethod
    def length_of(prefix=""):
        """A session's length (finished_at - created_at) as an expression; `prefix` as coop_q."""
        return models.ExpressionWrapper(
            models.F(f"{prefix}finished_at") - models.F(f"{prefix}created_at"),
            output_field=models.DurationField())

    @staticmethod
    def timed_q(prefix=""):
        """The sessions that kept their length: a play logged without one finished as it
        began."""
        return ~models.Q(**{f"{prefix}logged": True,
                            f"{prefix}finished_at": models.F(f"{prefix}created_at")})

    @staticmethod
    def typed_code(text):
        """A join code as a person types or reads it out: the spaces and dashes they put in it
        ("u69 ytt", "U69-YTT") left out, in capitals."""
        if not isinstance(text, str):
            return ""
        return "".join(text.split()).replace("-", "").upper()

    @staticmethod
    def is_code(text):
        """Whether `text` could be a join code (letters and digits only, six at most): anything
        else is refused before it reaches a query or a URL."""
        return 0 < len(text) <= CODE_LENGTH and text.isascii() and text.isalnum()

    @property
    def game_name(self):
        if self.title:
            return self.title
        from companion import engine

        try:
            return plugins.rules_of(self.game).name
        except engine.RuleViolation:  # a game no longer installed
            return self.game


class Seat(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=60)
    player = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="seats")
    # Its colour's hex (companion.colours.PALETTE); seats of before colours have the default.
    colour = models.CharField(max_length=7, blank=True, default="")

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["session", "index"], name="seat_index_unique"),
        ]

    def __str__(self):
        return self.name

    @property
    def shown_colour(self):
        """Its colour, or for a seat of before colours the one the palette gives its place."""
        return self.colour or HEXES[self.index % len(HEXES)]

    @property
    def colour_class(self):
        return f"seat-colour-{colour_index(self.shown_colour)}"


class Guest(models.Model):
    """A device that joined a session with its code; its token is good for that session only."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="guests")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The phone of the finished game this guest is at its rematch (services.guest_follow): that
    # phone follows to this guest, and no other does.
    came_from = models.OneToOneField("self", on_delete=models.SET_NULL, null=True, blank=True,
                                     related_name="follower")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "seat"], name="guest_seat_claimed_once",
                                    condition=models.Q(seat__isnull=False)),
        ]

    def __str__(self):
        return _("guest of %(session)s (seat %(seat)s)") % {"session": self.session_id,
                                                            "seat": self.seat}


# What each phone calls the host, or a phone without a seat, that undid (or redid) a move, in its
# own language: (within a sentence, opening one).
_UNDOERS = {"host": (_("the host"), _("The host")), "phone": (_("a phone"), _("A phone"))}


class Move(models.Model):
    """One entry of the append-only log. Never deleted: undo marks it `undone`."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    data = models.JSONField(default=dict)
    # The seat the move is about (its `seat` field) or, failing that, the acting device's seat.
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    actor_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    actor_guest = models.ForeignKey(Guest, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="moves")
    actor_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    summary = models.CharField(max_length=300)
    # The same line as its game made it (engine.Text.as_data): shown in each reader's language.
    message = models.JSONField(null=True, blank=True)
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)
    request_hash = models.CharField(max_length=64, blank=True)
    # The first answer, kept only for moves posted with an Idempotency-Key.
    reply = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    undone = models.BooleanField(default=False)
    undone_at = models.DateTimeField(null=True, blank=True)
    # Who undid it, every phone is told: a seat's name ("Ben") as the table knows it, or, for the
    # host or a phone without a seat, that role, which each phone says in its own language.
    undone_by = models.CharField(max_length=60, blank=True, default="")
    undone_by_role = models.CharField(max_length=5, blank=True, default="",
                                      choices=[(role, said[0]) for role, said in _UNDOERS.items()])
    # Undone by the host (seated or not): a Redo of it is then the host's alone.
    undone_by_host = models.BooleanField(default=False)
    # A Redo (services.move_redo) is a new move: who redid it, kept as undone_by is, and told.
    redone_by = models.CharField(max_length=60, blank=True, default="")
    redone_by_role = models.CharField(max_length=5, blank=True, default="",
                                      choices=[(role, said[0]) for role, said in _UNDOERS.items()])
    # A redo rolls the dice (draws the card) its undone move rolled, as the table has them: the
    # seq whose random source this move plays with (engine.move_rng); None: its own seq.
    dice_of = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seq"], name="move_seq_unique"),
            models.UniqueConstraint(fields=["session", "idempotency_key"],
                                    name="move_idempotency_key_unique",
                                    condition=models.Q(idempotency_key__isnull=False)),
        ]

    def __str__(self):
        return f"#{self.seq} {self.summary}"

    @cached_property
    def line(self):
        """The log line, in the language of whoever reads it (a page shows a Text translated).
        Made once per move read: a move's message never changes, and a push shows its line
        three times (the now line, the undo button, the log)."""
        return engine.Text.from_data(self.message) if self.message else self.summary

    @property
    def undoer(self):
        """Who undid it, in the reader's language, within a sentence ("undone by the host")."""
        said = _UNDOERS.get(self.undone_by_role)
        return said[0] if said else self.undone_by

    @property
    def undoer_first(self):
        """The same, opening a sentence ("The host undid: …"); a seat's name as it was typed."""
        said = _UNDOERS.get(self.undone_by_role)
        return said[1] if said else self.undone_by

    @property
    def redoer(self):
        """Who redid it (a Redo's move), within a sentence ("redone by the host"); "" otherwise."""
        said = _UNDOERS.get(self.redone_by_role)
        return said[0] if said else self.redone_by

    @property
    def redoer_first(self):
        said = _UNDOERS.get(self.redone_by_role)
        return said[1] if said else self.redone_by

    def as_replay(self):
        return {"seq": self.seq, "type": self.type, "data": self.data, "actor": self.actor_seat,
                "undone": self.undone, "dice_of": self.dice_of}


class Result(models.Model):
    """One seat's outcome of a finished session: what history and statistics read."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="results")
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=60)
    player = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="results")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="+")
    game = models.CharField(max_length=30)
    title = models.CharField(max_length=60, blank=True, default="")  # the session's title
    # None: the play had no scores (a game without points, a play logged with its winners
    # only): left out of every average, record and distribution, where 0 would count.
    score = models.FloatField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField()
    winner = models.BooleanField()
    details = models.JSONField(default=dict)
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["session", "rank", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seat"], name="result_seat_unique"),
        ]
        indexes = [
            models.Index(fields=["player", "finished_at"], name="result_player_time"),
            models.Index(fields=["owner", "game", "-score"], name="result_owner_game_score"),
        ]

    def __str__(self):
        return f"{self.name}: {self.score} (rank {self.rank})"


class ResultTally(models.Model):
    """The sum and count of one number a game tallies (Game.tallies) over a host's results of
    that game, kept by the services with the Result rows: statistics average it in one read."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="+")
    game = models.CharField(max_length=30)
    name = models.CharField(max_length=60)
    total = models.FloatField()
    count = models.IntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "game", "name"],
                                    name="result_tally_unique"),
        ]

    def __str__(self):
        return f"{self.game} {self.name}: {self.total} / {self.count}"


class BackupUpload(models.Model):
    """A BG Stats backup as uploaded, waiting for its host to confirm who is who: kept in the
    database, so that any server process finds it and a restart keeps it
    (services.backup_upload_keep bounds how many an account keeps, and for how long)."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="+")
    backup = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.owner_id}: {len(self.backup)} bytes at {self.created_at:%Y-%m-%d %H:%M}"


class BackupImport(models.Model):
    """A BG Stats backup being imported in the background (services.bgstats_import_run): what
    the worker reads (the file, who is who, the host's language), how far it is, what it did,
    and what it has written so far, so that a failed import can take it all back."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    backup = models.BinaryField()  # emptied once the import is over
    # {backup player id: roster player id or None}; None: matched by name (the API's, the
    # command's).
    matches = models.JSONField(null=True, blank=True)
    language = models.CharField(max_length=16)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    summary = models.JSONField(default=dict, blank=True)
    # {"sessions": [id], "players": [id]} written so far, committed with each part of the import.
    written = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"{self.owner_id}: {self.status} {self.done}/{self.total}"

    @property
    def is_over(self):
        return self.status in (self.Status.DONE, self.Status.FAILED)
