"""What the score pad's panel shows one phone, computed from the state once: the template only
lays it out. Pure: the standard library, the engine and rules.py.

The pad is a table of rounds (rows) by seats (columns), so that it grows downwards on a phone as
rounds are played; its foot holds the totals (the team's with teams), each seat's distance to the
target, and the leader marked. Below it: one form for a round of every seat at once, a
correction, and the end (or, without points, the winners).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine import _, n_
from games.pad import rules


def _posted(posted: Mapping[str, list[str]] | None, name: str) -> list[str]:
    if not posted:
        return []
    values = posted.get(name) or posted.get(name + "[]") or []
    return list(values) if isinstance(values, list | tuple) else [values]


def _refused(refusal: Mapping[str, Any] | None, form: str) -> bool:
    return bool(refusal and refusal.get("form") == form)


def pad_table(state: Mapping[str, Any]) -> dict[str, Any]:
    rows_by_seat = {row["seat"]: row for row in rules.standings(dict(state))}
    played = rules.rounds_played(state)
    distance = rules.target_distance(state)
    side = rules.side_totals(state)
    own = rules.totals(state)
    scored = rules.scored(state)
    teams = state["teams"]
    # A leader once someone is behind (not while every seat shares the first place).
    ahead = any(row["rank"] > 1 for row in rows_by_seat.values())
    seats = []
    for index, seat in enumerate(state["seats"]):
        row = rows_by_seat[index]
        team = rules.team_index(state, index)
        seats.append({
            "index": index, "name": seat["name"], "total": own[index],
            "side_total": side[index], "team": None if team is None else team + 1,
            "rank": row["rank"], "to_target": distance[index],
            # Once the game is over the first is the winner, not the leader.
            "leader": (scored and state["win"] != "coop" and row["rank"] == 1 and ahead
                       and not state["over"]),
            "winner": state["over"] and row.get("winner", False),
            "first": state["first"] == index,
        })
    rounds = []
    for number in range(1, played + 1):
        cells = []
        for seat in state["seats"]:
            scores = seat["scores"]
            cells.append(scores[number - 1] if len(scores) >= number else None)
        rounds.append({"number": number, "cells": cells})
    return {"seats": seats, "rounds": rounds, "teams": bool(teams),
            "has_target": state["target"] is not None}


def round_form(state: Mapping[str, Any], posted: Mapping[str, list[str]] | None,
               refusal: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Every seat's points for the round to fill: the seats that scored it already show theirs
    and send a blank."""
    if state["over"] or not rules.scored(state):
        return None
    played = rules.rounds_played(state)
    complete = rules.rounds_complete(state)
    number = complete + 1
    if state["rounds"] is not None and number > state["rounds"]:
        return None
    again = _posted(posted, "scores") if _refused(refusal, "round") else []
    fields = []
    for index, seat in enumerate(state["seats"]):
        done = played > complete and len(seat["scores"]) > complete
        value = again[index] if index < len(again) else ""
        fields.append({"index": index, "name": seat["name"], "done": done,
                       "scored": seat["scores"][complete] if done else None,
                       "value": "" if done else value})
    return {"number": number, "fields": fields, "open_round": played > complete}


def own_form(state: Mapping[str, Any], viewer: int | None,
             posted: Mapping[str, list[str]] | None,
             refusal: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """This phone's own seat's points for its next round: what a seat's phone enters first."""
    if viewer is None or state["over"] or not rules.scored(state):
        return None
    number = rules.next_round(state, viewer)
    if state["rounds"] is not None and number > state["rounds"]:
        return None
    again = _posted(posted, "points") if _refused(refusal, "score") else []
    return {"index": viewer, "name": state["seats"][viewer]["name"], "number": number,
            "value": again[-1] if again else "",
            # Round N opens once every seat has scored round N - 1.
            "waits": rules.rounds_complete(state) < number - 1}


def correct_form(state: Mapping[str, Any], posted: Mapping[str, list[str]] | None,
                 refusal: Mapping[str, Any] | None, seat: str = "") -> dict[str, Any] | None:
    """`seat`: the seat chosen at first ("": none yet)."""
    played = rules.rounds_played(state)
    if state["over"] or not rules.scored(state) or played == 0:
        return None
    again = _refused(refusal, "correct")

    def last(name: str, default: str) -> str:
        values = _posted(posted, name) if again else []
        return values[-1] if values else default

    return {"rounds": list(range(1, played + 1)), "seat": last("seat", seat),
            "round": last("round", str(played)), "points": last("points", ""),
            "open": again}




def live_model(state: Mapping[str, Any], standings: Any = None) -> dict[str, Any]:
    """What every phone (and the board) sees alike, rendered once per version and pushed: the
    game's name and how it is won, the leader or the verdict, who the round still needs, and
    the table of rounds with its totals."""
    names = rules.names_of(state)
    win = state["win"]
    table = pad_table(state)
    leaders = [seat["name"] for seat in table["seats"] if seat["leader"]]
    over = state["over"]
    winners = [seat["name"] for seat in table["seats"] if seat["winner"]]
    if not over:
        verdict = ""
    elif win == "coop":
        verdict = _("The table wins!") if state["outcome"] == "won" else _("The table loses.")
    elif winners:
        verdict = n_("{names} wins!", "{names} win!", len(winners),
                     names=rules.listing(winners))
    else:
        verdict = ""
    return {
        "game": state["game"],
        "win": win,
        "win_words": rules.WIN_WORDS[win],
        "scored": rules.scored(state),
        "target": state["target"],
        "rounds_limit": state["rounds"],
        "first_name": names[state["first"]] if state["first"] is not None else None,
        "over": over,
        "verdict": verdict,
        "ended_by": state["ended_by"],
        "leaders": rules.listing(leaders),
        "waiting": rules.listing(rules.waiting_for(state)),
        "table": table,
    }


def panel_model(state: Mapping[str, Any], *, viewer: int | None, is_host: bool = False,
                data: Any = None, posted: Mapping[str, list[str]] | None = None,
                refusal: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """This phone's forms (None: the host with no seat), seat-first, with a refused form's own
    values; the table itself is the live part's (`live_model`)."""
    names = rules.names_of(state)
    win = state["win"]
    over = state["over"]
    seats = [{"index": index, "name": name, "mine": index == viewer}
             for index, name in enumerate(names)]
    # A guest's phone corrects its own seat's entries and leaves the end to the host: it is
    # given no choice that could only be refused (services.move_authorize refuses them).
    guest = not is_host and viewer is not None
    return {
        "win": win,
        "over": over,
        "own_form": own_form(state, viewer, posted, refusal),
        # A round for every seat at once is the host's convenience (a guest's phone enters its
        # own seat's score): folded away below the host's own score when the host sits.
        "round_form": round_form(state, posted, refusal) if is_host else None,
        "round_open": _refused(refusal, "round") or viewer is None,
        "correct_form": correct_form(state, posted, refusal, seat=str(viewer) if guest else ""),
        "correct_seats": [seat for seat in seats if seat["mine"]] if guest else seats,
        "winners_form": is_host and not over and not rules.scored(state),
        "picked": {int(value) for value in _posted(posted, "seats")  # "²".isdigit() too
                   if str(value).isascii() and str(value).isdigit()}
        if _refused(refusal, "winners") else set(),
        # A cooperative game may end with no score at all (won or lost is all it keeps).
        "may_end": is_host and not over and rules.scored(state) and (
            win == "coop" or rules.rounds_played(state) > 0),
        "seats": seats,
        "is_host": bool(is_host),
    }
