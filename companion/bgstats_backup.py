"""A BG Stats backup file read into plays to log, checked whole: anything amiss is one sentence.

The backup. BG Stats documents no format for its backup file that could be found here; its shape
is taken from public code that reads or writes it, and only the fields below are used:
- top level: `games`, `players`, `locations`, `plays` (lists; also `challenges`, `tags`,
  `userInfo`, `deletedObjects`, which are ignored). A pastebin of a BG Stats "Play file"
  (https://pastebin.com/iDbHyBui) shows `players`, `locations`, `games` with these fields;
- a game: `id`, `uuid`, `name`, `bggId`, `highestWins`, `noPoints`, `cooperative`;
- a player: `id`, `uuid`, `name`, `isAnonymous`;
- a location: `id`, `uuid`, `name`;
- a play (code converting Board Game Arena tables into a backup, and code loading a backup into
  PostgreSQL): `uuid`, `gameRefId` (a game's `id`), `locationRefId` (a location's `id`),
  `playDate` ("yyyy-MM-dd HH:mm:ss"), `durationMin`, `comments`, `ignored`, `usesTeams`,
  `rounds`, `manualWinner`, `playerScores` [{`playerRefId` (a player's `id`), `score` (a string,
  possibly empty), `winner`, `rank`, `startPlayer`, `newPlayer`, `seatOrder`, `team`}],
  `expansionPlays` [{`gameRefId`: the expansion, a game of the file}], `board` (the board or
  scenario played, a string). A player's `team` (a name or a number) is read only where the play
  `usesTeams`.
`ignored` is read as BG Stats' own flag for a play left out of its statistics (the Board Game
Arena converter sets it for games that did not end normally); such plays are skipped, with that
reason. A backup's `playDate` is the phone's local time: read in the server's time zone
(TIME_ZONE), as we write it.
"""

import datetime
import hashlib
import json

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from companion.engine import is_int
from companion.errors import Invalid

BACKUP_MAX_BYTES = 20 * 1024 * 1024
# The most a backup may hold of each list, counted before any of it is read: far above a real
# history's (a keen player's backup holds a few thousand plays and a few hundred players), far
# below what 20 MB of JSON can list.
BACKUP_MOST = {"plays": 50_000, "games": 20_000, "players": 20_000, "locations": 20_000}
# The most players a play may name: no table seats more.
PLAY_SEATS_MOST = 100
# The most expansions a play may name, and the length kept of a board's, a team's or an
# expansion's name (services.play_log checks what it is given against the same).
PLAY_EXPANSIONS_MOST = 100
KEPT_NAME_LENGTH = 60
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


def _not_a_backup():
    return Invalid(_("This file is not a BG Stats backup: a backup is the JSON file BG Stats "
                     "exports, with its games, players and plays."))


def read_backup(raw):
    """The backup in `raw` (bytes), checked whole: {"games", "players", "locations", "plays",
    "refused"}, games, players and locations by id; a play that cannot be imported is refused
    alone ("refused": [(label, why)]). A file amiss is one sentence (Invalid)."""
    if len(raw) > BACKUP_MAX_BYTES:
        raise Invalid(_("This file is %(size)s MB; a BG Stats backup of up to %(max)s MB can be "
                        "imported.") % {"size": round(len(raw) / 1e6, 1),
                                        "max": BACKUP_MAX_BYTES // (1024 * 1024)})
    try:
        data = json.loads(raw.decode("utf-8-sig"))
        json.dumps(data, ensure_ascii=False).encode()  # half a character ("\ud800") is refused
    except UnicodeEncodeError:
        raise Invalid(_("This backup holds half a character (a lone surrogate such as \\ud800) "
                        "in its text, which cannot be kept: export it again.")) from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Invalid(_("This file is not JSON, so it is not a BG Stats backup (BG Stats "
                        "exports its backup as a .json file).")) from None
    if not isinstance(data, dict):
        raise _not_a_backup()
    if data.get("format") == "companion-session":
        raise Invalid(_("This is a Companion export of one game, not a BG Stats backup: "
                        "import it on the API's sessions/import."))
    if not all(isinstance(data.get(name), list) for name in ("games", "players", "plays")):
        raise _not_a_backup()
    locations = data.get("locations") or []
    if not isinstance(locations, list):
        raise _not_a_backup()
    words = {"plays": _("plays"), "games": _("games"), "players": _("players"),
             "locations": _("locations")}
    for name, most in BACKUP_MOST.items():
        if len(data.get(name) or []) > most:
            raise Invalid(_("This backup lists %(count)s %(what)s; an import takes %(most)s at "
                            "most.") % {"count": len(data[name]), "what": words[name],
                                        "most": most})

    def by_id(rows, what):
        found = {}
        for row in rows:
            if not isinstance(row, dict) or not is_int(row.get("id")) \
                    or not isinstance(row.get("name"), str):
                raise Invalid(_("This BG Stats backup is damaged: one of its %(what)s has no id "
                                "or no name.") % {"what": what})
            if row["id"] in found:  # the second would take the first one's plays
                raise Invalid(_("This BG Stats backup is damaged: two of its %(what)s have the "
                                "id %(id)s.") % {"what": what, "id": row["id"]})
            found[row["id"]] = row
        return found

    backup = {"games": by_id(data["games"], words["games"]),
              "players": by_id(data["players"], words["players"]),
              "locations": by_id(locations, words["locations"]), "plays": [], "refused": []}
    for number, play in enumerate(data["plays"], start=1):
        try:
            backup["plays"].append(_read_play(play, number, backup))
        except DamagedPlay as damaged:  # that play alone: the others are imported
            backup["refused"].append((damaged.label, damaged.message))
    return backup


class DamagedPlay(Invalid):
    """A play of the file that cannot be imported (no game, no players, no date, a player not in
    the file): refused alone, named in the summary by `label` with the sentence."""

    def __init__(self, message, *, label):
        super().__init__(message)
        self.label = label


def _by_ref(rows, ref):
    """The row a play's reference names (gameRefId, playerRefId, locationRefId), or None: a
    reference that is not a whole number names nothing (a list or an object is no key)."""
    return rows.get(ref) if is_int(ref) else None


def _read_play(play, number, backup):
    label = _("Play %(n)s in the file") % {"n": number}
    if not isinstance(play, dict):
        raise DamagedPlay(_("It is not a play."), label=label)
    game = _by_ref(backup["games"], play.get("gameRefId"))
    if game is None:
        raise DamagedPlay(_("It names a game that is not in the file."), label=label)
    label = _("Play %(n)s in the file (%(game)s)") % {"n": number, "game": game["name"]}
    when = parse_date(play.get("playDate"))
    if when is None:
        raise DamagedPlay(_("It has no date like 2024-03-02 19:30:00."), label=label)
    label = _("%(game)s on %(day)s") % {"game": game["name"],
                                        "day": formats.date_format(when, "DATE_FORMAT")}
    scores = play.get("playerScores")
    if not isinstance(scores, list) or not scores:
        raise DamagedPlay(_("It has no players, so it cannot be counted."), label=label)
    if len(scores) > PLAY_SEATS_MOST:
        raise DamagedPlay(_("It names %(count)s players; a play has %(most)s at most.")
                          % {"count": len(scores), "most": PLAY_SEATS_MOST}, label=label)
    uses_teams = play.get("usesTeams") is True
    seats = []
    for entry in scores:
        player = _by_ref(backup["players"], entry.get("playerRefId")) \
            if isinstance(entry, dict) else None
        if player is None:
            raise DamagedPlay(_("It names a player who is not in the file."), label=label)
        rank = entry.get("rank")
        team = entry.get("team") if uses_teams else None
        seats.append({"player": player["id"], "score": entry.get("score"),
                      # BG Stats' anonymous player stands for anyone, not one person.
                      "anonymous": player.get("isAnonymous") is True,
                      "winner": entry.get("winner") is True,
                      "rank": rank if is_int(rank) and rank > 0 else None,
                      "team": str(team).strip()[:KEPT_NAME_LENGTH]
                      if isinstance(team, str) or is_int(team) else "",
                      "order": entry.get("seatOrder") if is_int(entry.get("seatOrder")) else 0})
    seats.sort(key=lambda seat: seat["order"])  # stable: the file's order where none is given
    location = _by_ref(backup["locations"], play.get("locationRefId"))
    minutes = play.get("durationMin")
    key = play.get("uuid")
    if not (isinstance(key, str) and 0 < len(key) <= 64):
        # No uuid: the play's own content stands for it, the same in every export of it.
        key = hashlib.sha256(json.dumps(play, sort_keys=True, default=str).encode())\
            .hexdigest()[:40]
    comments = play.get("comments")
    board = play.get("board")
    return {"number": number, "key": f"bgstats:{key}", "label": label,
            "game": game["id"],
            # A length past a day is not one Companion logs: the play keeps its date only.
            "when": when, "minutes": minutes if is_int(minutes) and 0 < minutes <= 24 * 60
            else None,
            "location": location["name"] if location else "",
            "note": comments if isinstance(comments, str) else "",
            "board": board.strip()[:KEPT_NAME_LENGTH] if isinstance(board, str) else "",
            "expansions": _expansions(play, label, backup),
            "ignored": play.get("ignored") is True, "seats": seats}


def _expansions(play, label, backup):
    """The names of the expansions a play lists (games of the file), in its order, once each."""
    listed = play.get("expansionPlays") or []
    if not isinstance(listed, list):
        return []
    if len(listed) > PLAY_EXPANSIONS_MOST:
        raise DamagedPlay(_("It names %(count)s expansions; a play has %(most)s at most.")
                          % {"count": len(listed), "most": PLAY_EXPANSIONS_MOST}, label=label)
    names = []
    for entry in listed:
        game = _by_ref(backup["games"], entry.get("gameRefId")) \
            if isinstance(entry, dict) else None
        name = game["name"].strip()[:KEPT_NAME_LENGTH] if game else ""
        if name and name not in names:
            names.append(name)
    return names


def parse_date(text):
    if not isinstance(text, str):
        return None
    try:
        moment = datetime.datetime.strptime(text.strip()[:19], DATE_FORMAT)
    except ValueError:
        try:
            moment = datetime.datetime.combine(datetime.date.fromisoformat(text.strip()[:10]),
                                               datetime.time(12))
        except ValueError:
            return None
    # Before 1900 is no date a play was played on (services.EARLIEST_PLAY). BG Stats writes the
    # phone's local time: read in the importing server's zone, an evening play stays evening.
    return timezone.make_aware(moment) if moment.year >= 1900 else None
