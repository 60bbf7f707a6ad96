"""The score pad ("Any game"): the rules of no game in particular, so that any game the table plays
can be kept. Pure Python: no Django.

The host names the game and says how it is won:

- "high": the highest total wins; "low": the lowest total wins;
- "coop": the table plays together, and every seat wins or every seat loses;
- "none": no points are kept; the winners are named at the end.

Optional: an end after N rounds (`rounds`), an end when someone reaches or passes a `target`
(read the same way for high and low: the game ends once a total is at or past the target, as in
Hearts, where the game ends at 100 and the lowest total then wins; in a cooperative game the
target is the table's total, and reaching it wins), teams of seats (a team's score is the sum of
its seats' and teams are ranked, every seat of the first team placed first; a seat in no team
plays alone), and a starting
player.

A round's score is a whole number (negative allowed; no halves: a pad that needs halves doubles
its points). A seat scores its rounds in order; the next round opens once every seat has scored
the one before, so that the pad's columns are rounds the whole table played. The end is checked
when a round is complete: a target reached mid-round lets the others finish the round.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.engine import (
    Game,
    Option,
    RuleViolation,
    Text,
    _,
    copied,
    is_int,
    is_seat_index,
    joined,
    listing,
    n_,
    rank_by_score,
    seat_name,
    signed,
)

WINS = ("high", "low", "coop", "none")
WIN_WORDS = {
    "high": _("Highest score wins"),
    "low": _("Lowest score wins"),
    "coop": _("Cooperative: all win or all lose together"),
    "none": _("No points: the winner is named"),
}
# The same as a sentence, for the scoreboard's rule (a sentence of its own: a Text is not
# added to).
RANK_RULES = {
    "high": _("Highest score wins."),
    "low": _("Lowest score wins."),
    "coop": _("Cooperative: all win or all lose together."),
    "none": _("No points: the winner is named."),
}
TITLE_LENGTH = 60
# Said by the rules and by the new-game form beside its field (Option.required).
UNNAMED = _("Name the game you play (such as Catan or Hearts): its history and statistics are "
            "kept under that name.")
MAX_ROUNDS = 1000
# A round's points and a target, either sign: far beyond any game's, short of nonsense.
MAX_POINTS = 1_000_000
OUTCOMES = ("won", "lost")


# --- reading what was given ---------------------------------------------------------------------

def _seat_list(names: list[str]) -> str:
    return ", ".join(f"{index} {name}" for index, name in enumerate(names))


def _check_seat(value: int, names: list[str], field: str) -> int:
    if not 0 <= value < len(names):
        raise RuleViolation(_("There is no seat {seat}: the seats are {seats}.",
                              seat=str(value)[:20], seats=_seat_list(names)), field=field)
    return value


def check_teams(teams: Any, seat_count: int) -> None:
    if not isinstance(teams, list) or not teams or not all(
            isinstance(team, list) and team for team in teams):
        raise RuleViolation(_("Teams are a list of teams, each the list of its seats, such as "
                              "[[0, 2], [1, 3]]."), field="options")
    seen: set[int] = set()
    for team in teams:
        for seat in team:
            if not is_seat_index(seat, seat_count=seat_count):
                raise RuleViolation(
                    _("A team names seat {seat}, but the seats are 0 to {last}.",
                      seat=str(seat)[:20], last=seat_count - 1), field="options")
            if seat in seen:
                raise RuleViolation(_("Seat {seat} is in two teams: a seat plays for one team.",
                                      seat=seat), field="options")
            seen.add(seat)


def check_options(options: dict[str, Any], seat_count: int) -> None:
    title = options.get("game")
    if not isinstance(title, str) or not title.strip():
        raise RuleViolation(UNNAMED, field="options")
    if len(title.strip()) > TITLE_LENGTH:
        raise RuleViolation(_("The game's name is {n} letters at most.", n=TITLE_LENGTH),
                            field="options")
    win = options.get("win")
    if win not in WINS:
        raise RuleViolation(_("How the game is won is one of {wins} (highest score, lowest "
                              "score, cooperative, no points), not {given}.",
                              wins=", ".join(WINS), given=repr(str(win)[:20])), field="options")
    rounds = options.get("rounds")
    if rounds is not None and (not is_int(rounds) or not 1 <= rounds <= MAX_ROUNDS):
        raise RuleViolation(_("The number of rounds is a whole number from 1 to {most}, not "
                              "{given}.", most=MAX_ROUNDS, given=repr(str(rounds)[:20])),
                            field="options")
    target = options.get("target")
    if target is not None and (not is_int(target) or abs(target) > MAX_POINTS):
        raise RuleViolation(_("The target is a number of points, such as 100, not {given}.",
                              given=repr(str(target)[:20])), field="options")
    if win == "none" and (rounds is not None or target is not None):
        raise RuleViolation(_("A game without points has no target and no count of rounds: the "
                              "winners are named when it ends."), field="options")
    teams = options.get("teams")
    if teams is not None:
        if win == "coop":
            raise RuleViolation(_("A cooperative game is one team already: leave teams out."),
                                field="options")
        check_teams(teams, seat_count)
    first = options.get("first")
    if first is not None and not is_seat_index(first, seat_count=seat_count):
        raise RuleViolation(_("The starting player is one of the seats, 0 to {last}, not "
                              "{given}.", last=seat_count - 1, given=repr(str(first)[:20])),
                            field="options")


def title(options: Mapping[str, Any]) -> str:
    return str(options.get("game") or "").strip()


# --- the state ----------------------------------------------------------------------------------

def setup(seat_names: list[str], options: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    return {
        "game": title(options),
        "win": options["win"],
        "rounds": options.get("rounds"),
        "target": options.get("target"),
        "teams": copied(options.get("teams")),
        "first": options.get("first"),
        "seats": [{"name": name, "scores": []} for name in seat_names],
        "over": False,
        "ended_by": None,  # "rounds", "target", "end" or "winners"
        "outcome": None,  # a cooperative game's "won" or "lost"
        "winners": [],  # the seats named (win "none")
        "last": None,
    }


def names_of(state: Mapping[str, Any]) -> list[str]:
    return [seat["name"] for seat in state["seats"]]


def totals(state: Mapping[str, Any], rounds: int | None = None) -> list[int]:
    """Each seat's points, over its first `rounds` rounds when given."""
    return [sum(seat["scores"][:rounds]) for seat in state["seats"]]


def rounds_complete(state: Mapping[str, Any]) -> int:
    """The rounds every seat has scored."""
    return min(len(seat["scores"]) for seat in state["seats"])


def rounds_played(state: Mapping[str, Any]) -> int:
    """The rounds begun: the columns of the pad."""
    return max(len(seat["scores"]) for seat in state["seats"])


def teams_of(state: Mapping[str, Any]) -> list[list[int]]:
    """The sides that are ranked: the teams, and each seat in no team alone."""
    teams = [list(team) for team in state["teams"] or []]
    placed = {seat for team in teams for seat in team}
    return teams + [[seat] for seat in range(len(state["seats"])) if seat not in placed]


def team_index(state: Mapping[str, Any], seat: int) -> int | None:
    if not state["teams"]:
        return None
    return next((index for index, team in enumerate(state["teams"]) if seat in team), None)


def side_totals(state: Mapping[str, Any], rounds: int | None = None) -> list[int]:
    """Each seat's side's total: its team's (the sum of its seats') or its own."""
    own = totals(state, rounds)
    side = list(own)
    for team in teams_of(state):
        for seat in team:
            side[seat] = sum(own[member] for member in team)
    return side


def table_total(state: Mapping[str, Any]) -> int:
    return sum(totals(state))


def target_distance(state: Mapping[str, Any]) -> list[int | None]:
    """How far each seat (its side, or in a cooperative game the table) is from the target:
    the points still to go, 0 once reached or passed; None without a target."""
    target = state["target"]
    if target is None:
        return [None] * len(state["seats"])
    if state["win"] == "coop":
        return [max(0, target - table_total(state))] * len(state["seats"])
    return [max(0, target - total) for total in side_totals(state)]


def scored(state: Mapping[str, Any]) -> bool:
    return state["win"] != "none"


def next_round(state: Mapping[str, Any], seat: int) -> int:
    return len(state["seats"][seat]["scores"]) + 1


def behind(state: Mapping[str, Any]) -> list[int]:
    """The seats yet to score the round in progress (none when no round is open)."""
    played = rounds_played(state)
    return [index for index, seat in enumerate(state["seats"]) if len(seat["scores"]) < played]


def waiting_for(state: Mapping[str, Any]) -> list[str]:
    return [state["seats"][index]["name"] for index in behind(state)]


# --- moves --------------------------------------------------------------------------------------

def _open(state: Mapping[str, Any]) -> None:
    if state["over"]:
        raise RuleViolation(_("The game is over: undo its last move to play on."),
                            field="type")


def _needs_points(state: Mapping[str, Any], move: str) -> None:
    """A move of points (`move`: "score", "round" or "correct") in a game without them."""
    if scored(state):
        return
    game = state["game"]
    refusals = {
        "score": lambda: _("{game} is played without points here: no scores are kept; name the "
                           "winners when it ends.", game=game),
        "round": lambda: _("{game} is played without points here: no rounds are scored; name "
                           "the winners when it ends.", game=game),
        "correct": lambda: _("{game} is played without points here: no scores to correct; name "
                             "the winners when it ends.", game=game),
    }
    raise RuleViolation(refusals[move](), field="type")


def _may_score(state: Mapping[str, Any], seat: int, round_: int) -> None:
    """A seat scores its next round, once every seat has scored the round before."""
    name = seat_name(state, seat)
    limit = state["rounds"]
    if limit is not None and round_ > limit:
        raise RuleViolation(n_("The game has {n} round: {name} has scored it.",
                               "The game has {n} rounds: {name} has scored them all.", limit,
                               n=limit, name=name), field="seat")
    behind = [other["name"] for other in state["seats"] if len(other["scores"]) < round_ - 1]
    if behind:
        raise RuleViolation(
            n_("{name} has scored round {last}: round {round} opens once {names} has scored "
               "round {last}.",
               "{name} has scored round {last}: round {round} opens once {names} have scored "
               "round {last}.", len(behind),
               name=name, last=round_ - 1, round=round_, names=listing(behind)), field="seat")


def _settle(new: dict[str, Any]) -> None:
    """The end, checked once a round is complete: a target reached or passed, or the last
    round played."""
    complete = rounds_complete(new)
    if complete == 0 or rounds_played(new) != complete:
        return
    target, limit = new["target"], new["rounds"]
    if new["win"] == "coop":
        if target is not None and table_total(new) >= target:
            new.update(over=True, ended_by="target", outcome="won")
        elif limit is not None and complete >= limit and target is not None:
            new.update(over=True, ended_by="rounds", outcome="lost")
        return
    if target is not None and any(total >= target for total in side_totals(new)):
        new.update(over=True, ended_by="target")
    elif limit is not None and complete >= limit:
        new.update(over=True, ended_by="rounds")


def move_score(state: dict[str, Any], data: Any, actor: int | None,
               rng: random.Random) -> dict[str, Any]:
    """One seat's points for its next round."""
    _open(state)
    _needs_points(state, "score")
    names = names_of(state)
    seat = _check_seat(data["seat"], names, "seat")
    points = data["points"]
    round_ = next_round(state, seat)
    given = data.get("round")
    if given is not None and given != round_:
        if 1 <= given < round_:
            raise RuleViolation(_("{name} has scored round {round} already: correct it "
                                  "instead.", name=names[seat], round=given), field="round")
        raise RuleViolation(_("{name}'s next round is round {round}, not {given}.",
                              name=names[seat], round=round_, given=str(given)[:20]),
                            field="round")
    _may_score(state, seat, round_)
    new = copied(state)
    new["seats"][seat]["scores"].append(points)
    _settle(new)
    new["last"] = {"type": "score", "seat": seat, "round": round_, "points": points,
                   "total": totals(new)[seat], "over": new["over"]}
    return new


def move_round(state: dict[str, Any], data: Any, actor: int | None,
               rng: random.Random) -> dict[str, Any]:
    """A round's points for every seat at once: `scores`, one per seat in seat order; a seat
    left blank (None) is left out, to be scored later."""
    _open(state)
    _needs_points(state, "round")
    names = names_of(state)
    scores = data["scores"]
    if len(scores) != len(names):
        raise RuleViolation(_("A round has one score per seat: {n} ({names}), not {given}.",
                              n=len(names), names=listing(names), given=len(scores)),
                            field="scores")
    given = {seat: points for seat, points in enumerate(scores) if points is not None}
    if not given:
        raise RuleViolation(_("Fill in at least one seat's points."), field="scores")
    rounds = {next_round(state, seat) for seat in given}
    if len(rounds) > 1:
        ahead = [names[seat] for seat in given
                 if next_round(state, seat) == max(rounds)]
        raise RuleViolation(
            n_("{names} scored round {round} already: leave that seat blank to score round "
               "{round}.",
               "{names} scored round {round} already: leave those seats blank to score round "
               "{round}.", len(ahead), names=listing(ahead), round=min(rounds)),
            field="scores")
    round_ = rounds.pop()
    for seat in given:
        _may_score(state, seat, round_)
    new = copied(state)
    for seat, points in given.items():
        new["seats"][seat]["scores"].append(points)
    _settle(new)
    new["last"] = {"type": "round", "round": round_, "scores": [given.get(seat) for seat in
                                                                  range(len(names))],
                   "over": new["over"]}
    return new


def move_correct(state: dict[str, Any], data: Any, actor: int | None,
                 rng: random.Random) -> dict[str, Any]:
    """An earlier entry replaced: seat, round, points."""
    _open(state)
    _needs_points(state, "correct")
    names = names_of(state)
    seat = _check_seat(data["seat"], names, "seat")
    round_ = data["round"]
    played = len(state["seats"][seat]["scores"])
    if not 1 <= round_ <= played:
        if played == 0:
            raise RuleViolation(_("{name} has no round scored yet: nothing to correct.",
                                  name=names[seat]), field="round")
        raise RuleViolation(_("{name} has scored rounds 1 to {played}: there is no round "
                              "{round} to correct.", name=names[seat], played=played,
                              round=str(round_)[:20]), field="round")
    points = data["points"]
    was = state["seats"][seat]["scores"][round_ - 1]
    if was == points:
        raise RuleViolation(_("{name}'s round {round} is {points} already.", name=names[seat],
                              round=round_, points=points), field="points")
    new = copied(state)
    new["seats"][seat]["scores"][round_ - 1] = points
    _settle(new)
    new["last"] = {"type": "correct", "seat": seat, "round": round_, "points": points,
                   "was": was, "total": totals(new)[seat], "over": new["over"]}
    return new


def move_winners(state: dict[str, Any], data: Any, actor: int | None,
                 rng: random.Random) -> dict[str, Any]:
    """A game without points ends with its winners named (one or more seats)."""
    _open(state)
    if scored(state):
        if state["win"] == "coop":
            refusal = _("{game} is won together here: no winner is named. End the game and the "
                        "pad says who won.", game=state["game"])
        else:
            refusal = _("{game} is won on points here: no winner is named. End the game and the "
                        "pad says who won.", game=state["game"])
        raise RuleViolation(refusal, field="seats")
    names = names_of(state)
    seats = data["seats"]
    chosen = sorted({_check_seat(seat, names, "seats") for seat in seats})
    if len(chosen) != len(seats):
        raise RuleViolation(_("A winner is named once."), field="seats")
    if len(chosen) == len(names) and len(names) > 1:
        raise RuleViolation(_("Everyone cannot win a game without points: name the winners "
                              "only (or play it as cooperative)."), field="seats")
    new = copied(state)
    new.update(over=True, ended_by="winners", winners=chosen)
    new["last"] = {"type": "winners", "seats": chosen}
    return new


def move_end(state: dict[str, Any], data: Any, actor: int | None,
             rng: random.Random) -> dict[str, Any]:
    """The game ends now: scored, on the totals as they stand; cooperative, won or lost."""
    _open(state)
    outcome = data.get("outcome")
    win = state["win"]
    if win == "none":
        raise RuleViolation(_("A game without points ends when its winners are named."),
                            field="type")
    if win == "coop":
        if outcome not in OUTCOMES:
            raise RuleViolation(_("Say whether the table won or lost."), field="outcome")
    elif outcome is not None:
        raise RuleViolation(_("{game} is won on points here: the totals say who won (leave the "
                              "outcome out).", game=state["game"]), field="outcome")
    elif rounds_played(state) == 0:
        raise RuleViolation(_("No score has been entered yet: enter a round before the end."),
                            field="type")
    elif waiting_for(state):
        # A seat left out of the last round would be ranked on one round fewer: first, where
        # the lowest total wins.
        raise RuleViolation(_("Round {round} still needs {names}: enter their points (0 counts "
                              "too) before the end.", round=rounds_played(state),
                              names=listing(waiting_for(state))), field="type")
    new = copied(state)
    new.update(over=True, ended_by="end", outcome=outcome if win == "coop" else None)
    new["last"] = {"type": "end", "outcome": new["outcome"], "round": rounds_played(new),
                   "unfinished": waiting_for(new)}
    return new


# --- reading the state --------------------------------------------------------------------------

def finished(state: Mapping[str, Any]) -> bool:
    return bool(state["over"])


def standings(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every seat with its own total and rounds in the details; the score ranked is its side's
    (its team's sum, with teams). Low: the fewest points rank first. Cooperative: all rank 1,
    winning or losing together. No points: the named winners rank 1."""
    win = state["win"]
    own = totals(state)
    side = side_totals(state)
    distance = target_distance(state)
    rows = []
    for seat, player in enumerate(state["seats"]):
        details = {"total": own[seat], "rounds": list(player["scores"]), "win": win,
                   "team": team_index(state, seat), "to_target": distance[seat]}
        if win == "none":
            details["scored"] = False  # shown as 0, counted by no statistics
        rows.append({"seat": seat, "name": player["name"], "score": side[seat],
                     "details": details})
    if win in ("high", "low"):
        sign = -1 if win == "low" else 1
        # While the game is on, ranked by the rounds every seat has scored: a seat yet to score
        # the round in play is not ahead for it (at lowest wins, its 0 led every round).
        ranked = side if state["over"] else side_totals(state, rounds_complete(state))
        for row in rows:
            row["score"] = sign * ranked[row["seat"]]
        rank_by_score(rows)
        # The number beside a name is the one its place is decided by (a round half entered is
        # in the pad's table, under its own "Total"; rank_rule says which rounds count).
        for row in rows:
            row["score"] = ranked[row["seat"]]
    elif win == "coop":
        for row in rows:
            row.update(rank=1, winner=state["outcome"] == "won")
    else:
        named = set(state["winners"])
        for row in rows:
            row["score"] = 0
            won = row["seat"] in named
            row.update(rank=1 if won or not named else 1 + len(named), winner=won)
    return sorted(rows, key=lambda row: (row["rank"], row["seat"]))


def round_scores(details: Mapping[str, Any]) -> list[float] | None:
    """A seat's points per round, for the charts (none in a game without points)."""
    if details.get("win") == "none":
        return None
    rounds = details.get("rounds")
    return list(rounds) if isinstance(rounds, list) else None


def _end_words(after: Mapping[str, Any]) -> Text | None:
    """How the game ended, when a move ended it: "the target is reached: Ana wins"."""
    if not after["over"]:
        return None
    target = after["ended_by"] == "target"
    if after["win"] == "coop":
        won = after["outcome"] == "won"
        if target:
            return _("the target is reached: the table wins") if won else \
                _("the target is reached: the table loses")
        return _("the last round is played: the table wins") if won else \
            _("the last round is played: the table loses")
    leaders = [row["name"] for row in standings(after) if row["rank"] == 1]
    if target:
        return n_("the target is reached: {names} wins", "the target is reached: {names} win",
                  len(leaders), names=listing(leaders))
    return n_("the last round is played: {names} wins", "the last round is played: {names} win",
              len(leaders), names=listing(leaders))


def _with_end(line: Text, after: Mapping[str, Any]) -> Text:
    """A move's line, and how the game ended after a "; " when the move ended it."""
    end = _end_words(after)
    return line if end is None else joined("; ", [line, end])


def summary(move: Mapping[str, Any], before: Mapping[str, Any],
            after: Mapping[str, Any]) -> Text | str:
    last = after.get("last") or {}
    kind = last.get("type")
    names = names_of(after)
    if kind == "score":
        return _with_end(_("{name} scores {points} in round {round} (total {total})",
                           name=names[last["seat"]], points=signed(last["points"], plus_zero=False),
                           round=last["round"], total=last["total"]), after)
    if kind == "round":
        # "Ana +4": a name and a number, the same in every language.
        parts = [f"{names[seat]} {signed(points, plus_zero=False)}"
                 for seat, points in enumerate(last["scores"]) if points is not None]
        return _with_end(_("Round {round}: {scores}", round=last["round"],
                           scores=", ".join(parts)), after)
    if kind == "correct":
        return _with_end(_("{name}'s round {round} corrected from {was} to {points} (total "
                           "{total})", name=names[last["seat"]], round=last["round"],
                           was=last["was"], points=last["points"], total=last["total"]), after)
    if kind == "winners":
        won = [names[seat] for seat in last["seats"]]
        return n_("{names} wins {game}", "{names} win {game}", len(won), names=listing(won),
                  game=after["game"])
    if kind == "end":
        if after["win"] == "coop":
            return _("The end: the table wins") if last["outcome"] == "won" else \
                _("The end: the table loses")
        leaders = [row["name"] for row in standings(after) if row["rank"] == 1]
        return joined(": ", [
            n_("The end after {n} round", "The end after {n} rounds", last["round"],
               n=last["round"]),
            n_("{names} wins", "{names} win", len(leaders), names=listing(leaders))])
    return str(move.get("type", ""))


OPTIONS = {"game": "", "win": "high", "rounds": None, "target": None, "teams": None,
           "first": None}

OPTION_FIELDS = (
    Option("game", _("The game played"), "text", suggest="titles", required=UNNAMED,
           help=_("Its name, as history and statistics keep it (60 letters at most).")),
    Option("win", _("How it is won"), "choice", choices=tuple(WIN_WORDS.items())),
    Option("rounds", _("End after this many rounds"), "number", minimum=1, maximum=MAX_ROUNDS,
           optional=True, help=_("Leave empty to end by hand.")),
    Option("target", _("End when a total reaches"), "number", optional=True,
           help=_("The round in which someone reaches or passes it is the last (lowest score "
                  "wins: the lowest total then wins; cooperative: the table's total, and "
                  "reaching it wins).")),
    Option("teams", _("Teams"), "teams", optional=True,
           help=_("Each team's player numbers, a team a line or between commas: 1 3, 2 4 puts "
                  "players 1 and 3 against 2 and 4. A team scores the sum of its players; a "
                  "player in no team plays alone.")),
    Option("first", _("Starting player"), "seat", optional=True),
)


def rank_rule(state: Mapping[str, Any]) -> Text:
    """How the places are decided, in words, for the scoreboard; while a round is half entered,
    which rounds its points count."""
    rule = RANK_RULES[state["win"]]
    done = rounds_complete(state)
    if state["win"] in ("high", "low") and not state["over"] \
            and any(len(seat["scores"]) > done for seat in state["seats"]):
        counted = (n_("The points count round {rounds}, which every seat has finished; the "
                      "round in play is in the totals below.",
                      "The points count the {rounds} rounds every seat has finished; the round "
                      "in play is in the totals below.", done, rounds=done) if done
                   else _("No round is finished by every seat yet: the points count none; the "
                          "round in play is in the totals below."))
        return joined(" ", [rule, counted])
    return rule


def now(state: Mapping[str, Any]) -> Text | None:
    """Where the game stands, for the table's "now" line: "Round 2 of 5 · target 100"."""
    if finished(state):
        return None
    number = rounds_complete(state) + 1
    if state.get("rounds"):
        parts = [_("Round {round} of {rounds}", round=number, rounds=state["rounds"])]
    else:
        parts = [_("Round {round}", round=number)]
    if state.get("target") is not None:
        parts.append(_("target {target}", target=state["target"]))
    return joined(" · ", parts)


def awaited(state: Mapping[str, Any]) -> list[int]:
    """The seats the table waits on: those yet to score a round another seat has scored. A round
    nobody has begun waits on no one: it is still being played at the table."""
    return [] if finished(state) else behind(state)


# Who may make a move (engine.move_authority): a seat's scores are that seat's phone's (or the
# host's); naming the winners and ending the game are the host's. A `round` names every seat's
# points at once (a list, which move_authority cannot read as seats), so left to the default it
# would be the table's and let any phone enter the other seats' scores: it is the host's
# convenience, and a guest's phone enters its own seat's `score`.
AUTHORITY = {"round": "host", "winners": "host", "end": "host"}


GAME = Game(
    slug="pad",
    # The score pad's own name, translated (the name a host gives a game never is).
    name=_("Any game"),
    min_players=1,
    max_players=12,
    options=OPTIONS,
    option_fields=OPTION_FIELDS,
    # The starting player, if the table names one (or draws one): the platform's "Who starts?".
    first="first",
    title=title,
    titled_options=lambda title, win: {"game": title, "win": win},
    check_options=check_options,
    setup=setup,
    moves={"score": move_score, "round": move_round, "correct": move_correct,
           "winners": move_winners, "end": move_end},
    standings=standings,
    finished=finished,
    summary=summary,
    round_scores=round_scores,
    rank_rule=rank_rule,
    now=now,
    awaited=awaited,
    authority=AUTHORITY,
)
