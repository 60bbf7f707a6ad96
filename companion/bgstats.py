"""BG Stats in and out: a finished session as BG Stats' "create play" link, a BG Stats backup read
into plays to log, and a host's history in the backup's shape. Nothing here writes: the import's
writes are services.bgstats_import (which calls services.play_log).

Where each field's meaning comes from. The create-play link: BG Stats' support page "Push plays
to BG Stats from other apps or websites"
(https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/) gives:
the link `https://app.bgstatsapp.com/createPlay.html?data=<data>` (`bgstats://app.bgstatsapp.com/
createPlay.html?data=<data>` works as well), <data> being a url-encoded JSON string; the app
suggests matches "based on the provided game's BGG id (if any), name, and player names" and
remembers the matches the user makes. Its example JSON has these fields, which are all we send:
`board`, `durationMin`, `comments`, `game` {`bggId`, `highestWins`, `name`, `noPoints`,
`sourceGameId`}, `location`, `playDate` ("2020-10-23 19:16:58"), `players` [{`startPlayer`,
`name`, `rank`, `role`, `score`, `sourcePlayerId`, `winner`}], and `sourceName`,
`sourcePlayId`. Only the beginning of that page could be read here (up to the second player of
the example); `sourceName` and `sourcePlayId` are known from public code that builds these links
(e.g. a Discord bot's bgStats.ts: "the first three [sourceName, sourcePlayId, playDate] are
required", and "sourcePlayId ... so it can re-match/de-dupe pushed plays"). Not confirmed from
BG Stats itself: which fields are required, and the time zone of `playDate` (the same public
code sends UTC, "yyyy-MM-dd HH:mm:ss"; BG Stats' own backups hold the phone's local time, and so
do we, in the server's zone: a play is shown at the hour it was played). `score` is sent as a
number, as in the example (47.3); a play without points (`noPoints`) sends none. BG Stats
documents no field for a cooperative game in this link, so a cooperative play is sent as
highest-wins with its winners.

The backup is read by companion/bgstats_backup.py, which says where its fields' meanings come from.
"""

import json
import math
import urllib.parse
import uuid

from django.utils import timezone
from django.utils.translation import gettext as _

from companion import inputs, plugins, stats
from companion.bgstats_backup import DATE_FORMAT
from companion.engine import is_int

SOURCE_NAME = "Companion"
CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"
# The ids of what we export are stable: the same session is the same BG Stats play every time.
NAMESPACE = uuid.UUID("0b7f6c1e-4d0a-5d2b-9a57-6c1f3b2e8a40")


# Send: a finished session as BG Stats' create-play link -------------------------------------

def start_seat(session, rules):
    """The seat that began, where the game declares it as a set-up option of kind "seat"."""
    for option in rules.option_fields:
        if option.kind == "seat":
            seat = session.options.get(option.name)
            if isinstance(seat, int) and not isinstance(seat, bool):
                return seat
    return None


def play_date(moment):
    """A play's time as BG Stats keeps it: the phone's local time, here the server's zone
    (TIME_ZONE, the machine's under make run), as the host entered it."""
    return timezone.localtime(moment).strftime(DATE_FORMAT)


def minutes_of(session):
    if session.logged:
        return session.state.get("logged", {}).get("minutes")
    if session.finished_at is None:
        return None
    return max(1, round((session.finished_at - session.created_at).total_seconds() / 60))


def player_source_id(player_id, session_id, seat):
    return f"player-{player_id}" if player_id else f"session-{session_id}-seat-{seat}"


def send_play(session, *, standings, seats, rules=None):
    """The play BG Stats' create-play link carries, from a finished session, its standings
    (rows with "seat", "name", "score", "rank", "winner") and its seats (objects with index,
    name, player_id)."""
    rules = rules or plugins.rules_of(session.game)
    win = session.win
    # A game whose standings score no one (Jack Rabbits: the royals held rank the seats, but
    # the game has no points) is sent as one without points, as a "no points" play is.
    no_points = win == "none" or all(stats.result_score(row) is None for row in standings)
    game = {"name": session.game_name, "highestWins": win != "low", "noPoints": no_points,
            "sourceGameId": stats.game_key(session.game, session.title)}
    if rules.bgg_id and not session.title:
        game["bggId"] = rules.bgg_id
    by_seat = {row["seat"]: row for row in standings}
    first = start_seat(session, rules)
    players = []
    for seat in sorted(seats, key=lambda seat: seat.index):
        row = by_seat.get(seat.index, {})
        player = {"name": seat.name, "rank": row.get("rank"), "winner": bool(row.get("winner")),
                  "startPlayer": seat.index == first, "role": "",
                  "sourcePlayerId": player_source_id(seat.player_id, session.pk, seat.index)}
        score = stats.result_score(row) if not no_points and row else None
        if score is not None:
            player["score"] = int(score) if float(score).is_integer() else score
        players.append(player)
    # A play that came from BG Stats goes back as that play (its uuid), not as a new one.
    source = session.source_key.removeprefix("bgstats:") \
        if session.source_key.startswith("bgstats:") else f"session-{session.pk}"
    play = {"sourceName": SOURCE_NAME, "sourcePlayId": source,
            "playDate": play_date(session.created_at), "board": "", "game": game,
            "players": players}
    minutes = minutes_of(session)
    if minutes:
        play["durationMin"] = minutes
    if session.location:
        play["location"] = session.location
    note = session.state.get("logged", {}).get("note") if session.logged else ""
    if note:
        play["comments"] = note
    return play


def link_of(play):
    return CREATE_PLAY + "?data=" + urllib.parse.quote(
        json.dumps(play, ensure_ascii=False, separators=(",", ":")), safe="")


def send_link(session, *, standings=None, rules=None):
    """BG Stats' create-play link for a finished session; None while it is being played."""
    if not session.is_finished:
        return None
    rules = rules or plugins.rules_of(session.game)
    if standings is None:
        standings = stats.session_standings(session, rules)
    return link_of(send_play(session, standings=standings, seats=list(session.seats.all()),
                             rules=rules))


def data_of(link):
    """The play a create-play link carries (the inverse of link_of)."""
    query = urllib.parse.urlsplit(link).query
    return json.loads(urllib.parse.parse_qs(query)["data"][0])


# In: a backup (as bgstats_backup reads it) planned into plays to log ------------------------

def players_used(backup):
    """The backup's players who sat in a play, by name: [{"id", "name", "plays"}]; not its
    anonymous player, who is nobody's."""
    counts = {}
    for play in backup["plays"]:
        for seat in play["seats"]:
            if not seat["anonymous"]:
                counts[seat["player"]] = counts.get(seat["player"], 0) + 1
    return sorted(({"id": pid, "name": backup["players"][pid]["name"].strip()[:60] or "?",
                    "plays": count} for pid, count in counts.items()),
                  key=lambda row: (row["name"].lower(), row["id"]))


def suggested_matches(backup, roster):
    """{backup player id: roster player id or None (a new player)}: the same name, any case.
    `roster` is [(id, name)]."""
    by_name = {name.lower(): pid for pid, name in roster}
    return {row["id"]: by_name.get(row["name"].lower()) for row in players_used(backup)}


def logged_game_of(game, games=None):
    """(slug, title, win) a BG Stats game is logged as: one of ours by its BoardGameGeek id or
    its name, else a named game won as BG Stats says (noPoints, cooperative, highestWins)."""
    games = games if games is not None else plugins.all_rules()
    name = game["name"].strip()
    bgg = game.get("bggId")
    for rules in games:
        if rules.title is not None:
            continue
        if (rules.bgg_id and bgg == rules.bgg_id) or name.lower() == rules.name.lower():
            return rules.slug, "", "high"
    # A cooperative game is won or lost by the whole table, points or none (BG Stats marks many
    # cooperative games noPoints too: read as "none", a lost play would have no winner to tick).
    if game.get("cooperative") is True:
        win = "coop"
    elif game.get("noPoints") is True:
        win = "none"
    elif game.get("highestWins") is False:
        win = "low"
    else:
        win = "high"
    return "", name[:60], win


def _score(raw):
    """A seat's score: None when not given; raises ValueError when it is not a number. BG Stats
    keeps a score as the player typed it: "87+77" is 164 (inputs.score_sum)."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if isinstance(raw, bool):
        raise ValueError
    if isinstance(raw, str):
        return inputs.score_sum(raw)
    value = float(raw)
    if not math.isfinite(value):
        raise ValueError
    return int(value) if value.is_integer() else value


def new_names(backup, roster):
    """{backup player id: the name the player gets as a new roster player}: its own, or, where
    the roster (or another of the backup's new players) has that name in any case, "Ben 2": a
    host who says this Ben is not the roster's Ben gets a Ben of their own. `roster` {id: name}."""
    taken = {name.casefold() for name in roster.values()}
    names = {}
    for row in players_used(backup):
        name, count = row["name"], 1
        while name.casefold() in taken:
            count += 1
            name = f"{row['name'][:57]} {count}"
        taken.add(name.casefold())
        names[row["id"]] = name
    return names


def plan(backup, *, matches, roster):
    """What the import logs: ([{"key", "label", "log": services.play_log's keywords}], skipped
    [(label, why)]). `matches` {backup player id: roster player id or None}, `roster`
    {id: name}."""
    games = plugins.all_rules()
    game_map = {gid: logged_game_of(game, games) for gid, game in backup["games"].items()}
    names = new_names(backup, roster)
    entries, skipped = [], list(backup["refused"])
    for play in backup["plays"]:
        if play["ignored"]:
            skipped.append((play["label"], _("BG Stats marks it ignored (left out of its "
                                             "statistics).")))
            continue
        slug, title, win = game_map[play["game"]]
        players, seated, unkept = [], {}, []
        for seat in play["seats"]:
            try:
                score = _score(seat["score"]) if win != "none" else None
            except (ValueError, TypeError, OverflowError):
                score = None
                unkept.append("score")
            matched = matches.get(seat["player"])
            if seat["anonymous"]:  # a seat of nobody's: no roster player
                entry = {"name": backup["players"][seat["player"]]["name"].strip()[:60]
                         or _("Anonymous"), "anonymous": True}
            elif matched in roster:
                entry = {"name": roster[matched], "player": matched}
            else:
                entry = {"name": names[seat["player"]]}
            # One name twice in a play (BG Stats' anonymous player at two seats, or "Ana" and
            # "ana"): the second is "Ana 2", a seat of its own, not the roster's Ana.
            count = seated[entry["name"].casefold()] = \
                seated.get(entry["name"].casefold(), 0) + 1
            if count > 1:
                entry = {**entry, "name": f"{entry['name'][:57]} {count}"}
                entry.pop("player", None)
            players.append({**entry, "score": score, "winner": seat["winner"],
                            "rank": seat["rank"], "team": seat["team"]})
        bgg_id = backup["games"][play["game"]].get("bggId")
        entries.append({"key": play["key"], "label": play["label"], "unkept": unkept, "log": {
            "game": slug, "title": title, "played_at": play["when"],
            "minutes": play["minutes"], "location": play["location"][:60],
            "players": players, "note": play["note"][:1000], "win": win, "marked": True,
            "kept": {"board": play["board"], "expansions": play["expansions"],
                     # a named game's BoardGameGeek id; one of ours has its own (rules.bgg_id)
                     "bgg_id": bgg_id if title and is_int(bgg_id) and bgg_id > 0 else None}}})
    return entries, skipped


def unkept_words(counts):
    """[(field, what BG Stats keeps that the import could not in plain words, how many plays)]
    from services.bgstats_import's {"field": plays}."""
    words = {"score": _("a score that is not a number")}
    return [(field, words.get(field, field), count) for field, count in sorted(counts.items())]


# Out: a host's history in the backup's shape -------------------------------------------------

def _uuid(kind, value):
    return str(uuid.uuid5(NAMESPACE, f"{kind}:{value}"))


def session_key(session_id):
    """The source key a play of this app has when its export comes back (its exported uuid)."""
    return f"bgstats:{_uuid('session', session_id)}"


def _backup_game(session, rules, key, *, number, win, bgg_id):
    """A game of the backup: one of ours by its name, a named game by the name it was given
    (and the BoardGameGeek id its plays from BG Stats brought)."""
    name = session["title"] or (rules.name if rules else session["game"])
    return {"id": number, "uuid": _uuid("game", key), "name": name,
            "bggId": (rules.bgg_id or 0) if rules and not session["title"] else bgg_id or 0,
            "highestWins": win != "low", "noPoints": win == "none",
            "cooperative": win == "coop", "isExpansion": False}


def _backup_expansion(name, *, number):
    return {"id": number, "uuid": _uuid("expansion", name), "name": name, "bggId": 0,
            "highestWins": True, "noPoints": False, "cooperative": False, "isExpansion": True}


def _backup_score(row, *, win, players, guests, team):
    """A seat's result as a play's playerScores entry; a seat whose roster player was deleted
    is a guest known by name (a negative id until the players are numbered)."""
    pid = row["player_id"]
    if pid is None:
        pid = guests.setdefault(row["name"].lower(), -(len(guests) + 1))
        players.setdefault(pid, row["name"])
    return {"playerRefId": pid, "seatOrder": row["seat"],
            "score": "" if win == "none" or row["score"] is None
            else stats.score_text(row["score"]),
            "rank": row["rank"], "winner": row["winner"], "team": team,
            "startPlayer": False, "newPlayer": False}


def _backup_play(session, logged, *, game, scores, location, expansions):
    """A finished session as a play of the backup; a play imported from BG Stats keeps its uuid."""
    played = (session["finished_at"] - session["created_at"]).total_seconds() / 60
    minutes = (logged.get("minutes") or 0) if session["logged"] else max(1, round(played))
    source = session["source_key"]
    uuid = source.removeprefix("bgstats:") if source.startswith("bgstats:") else None
    return {
        "uuid": uuid or _uuid("session", session["id"]), "gameRefId": game,
        "locationRefId": location,
        "playDate": play_date(session["created_at"]), "durationMin": minutes,
        "comments": logged.get("note") or "" if session["logged"] else "",
        "ignored": False, "usesTeams": any(score["team"] for score in scores),
        "manualWinner": False, "rounds": 0, "board": logged.get("board") or "",
        "expansionPlays": [{"gameRefId": number} for number in expansions],
        "playerScores": scores}


def _backup_reads(scope):
    """(sessions, {session id: [results]}, {player id: name}) of a scope's finished plays:
    three queries."""
    from companion.models import Player, Result, Session

    sessions = list(Session.objects.filter(scope.sessions(), status=Session.Status.FINISHED)
                    .order_by("created_at", "id")
                    .values("id", "game", "title", "location", "logged", "options",
                            "created_at", "finished_at", "source_key", "state__logged"))
    results = {}
    for row in (Result.objects.filter(scope.results())
                .order_by("session_id", "seat")
                .values("session_id", "seat", "name", "player_id", "score", "rank", "winner")):
        results.setdefault(row["session_id"], []).append(row)
    # The players who sat: a host's group sessions seat the group's players, not the host's own.
    seated = {row["player_id"] for rows in results.values() for row in rows} - {None}
    return sessions, results, dict(Player.objects.filter(pk__in=seated)
                                   .values_list("id", "name"))


def backup_of(*, owner=None, group=None):
    """A host's (or a group's: scopes.Scope) finished sessions as a BG Stats-shaped backup (the
    fields read_backup reads), so that a history can go the other way. Three queries."""
    from companion.models import Session
    from companion.scopes import scope_of

    sessions, results, players = _backup_reads(scope_of(owner=owner, group=group))
    games, locations, plays, guests = {}, {}, [], {}
    rules_of = {rules.slug: rules for rules in plugins.all_rules()}
    for session in sessions:
        logged = session["state__logged"] or {}
        win = Session.win_of(logged=session["logged"], title=session["title"],
                             logged_win=logged.get("win"), option_win=session["options"].get("win"))
        key = stats.game_key(session["game"], session["title"])
        if key not in games:
            games[key] = _backup_game(session, rules_of.get(session["game"]), key,
                                      number=len(games) + 1, win=win,
                                      bgg_id=logged.get("bgg_id"))
        for name in logged.get("expansions") or ():
            if ("expansion", name) not in games:
                games[("expansion", name)] = _backup_expansion(name, number=len(games) + 1)
        location = session["location"]
        if location and location not in locations:
            locations[location] = {"id": len(locations) + 1, "uuid": _uuid("location", location),
                                   "name": location}
        teams = {row["seat"]: row.get("team") or "" for row in logged.get("standings") or ()}
        scores = [_backup_score(row, win=win, players=players, guests=guests,
                                team=teams.get(row["seat"], ""))
                  for row in results.get(session["id"], [])]
        plays.append(_backup_play(
            session, logged, game=games[key]["id"], scores=scores,
            location=locations[location]["id"] if location else 0,
            expansions=[games[("expansion", name)]["id"]
                        for name in logged.get("expansions") or ()]))
    used = {score["playerRefId"] for play in plays for score in play["playerScores"]}
    # Negative ids (guests kept only by name) are renumbered above the roster's.
    top = max(players, default=0)
    renumber = {pid: (pid if pid > 0 else top - pid) for pid in used}
    for play in plays:
        for score in play["playerScores"]:
            score["playerRefId"] = renumber[score["playerRefId"]]
    return {
        "about": "A Companion history in the shape of a BG Stats backup.",
        "exportedAt": play_date(timezone.now()),
        "games": list(games.values()),
        "players": [{"id": renumber[pid], "uuid": _uuid("player", renumber[pid]),
                     "name": players[pid], "isAnonymous": False}
                    for pid in sorted(used, key=lambda pid: renumber[pid])],
        "locations": list(locations.values()),
        "plays": plays,
    }
