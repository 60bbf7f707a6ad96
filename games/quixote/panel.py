"""What Don Quixote's panel shows one phone, computed from the (already redacted) state once: the
templates only lay it out. Pure: the standard library, the engine and rules.py.

`panel_model` is the platform's entry (companion.plugins); `preview_of` also serves the live score
preview of games/quixote/views.py.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from companion.engine import Refused, RuleViolation, _, joined
from games.quixote import rules

CHIPS = tuple(range(1, 9))  # the group sizes offered as buttons (any size may be typed)
SHIELDS = rules.KNIGHT_SHIELDS
BREAKDOWN_ROWS = (
    ("castle6", _("6-castle")), ("castle4", _("4-castle")),
    ("churches", _("Churches")), ("windmills", _("Windmills")),
    ("defense", _("Defense")), ("knights", _("Knights")),
)
# The score form's fields, in the order of the `score` move's serializer (its errors' order).
SCORE_NUMBERS = {"round": (rules.ROUNDS[0], rules.ROUNDS[-1]), "castle6_knights": (0, None),
                 "castle4_knights": (0, None), "defense_shields": (0, None)}
SCORE_FIELDS = ("round", "castle6_knights", "castle4_knights", "church_groups",
                "windmill_groups", "defense_shields", "knight_groups")
# Each field as the score form labels it: a refusal names what the player sees, not the field.
FIELD_LABELS = {"round": _("Round"), "castle6_knights": _("6-castle: knights"),
                "castle4_knights": _("4-castle: knights"), "church_groups": _("Churches"),
                "windmill_groups": _("Windmills"), "defense_shields": _("Defense: shields"),
                "knight_groups": _("Knight groups")}


def grid_of(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    castles = {where: number for number, where in state["castles"].items() if where}
    order = {name: position for position, name in enumerate(state["turned"])}
    rows = []
    for row in rules.ROWS:
        cells = []
        for column in rules.COLUMNS:
            name = f"{column}{row}"
            cell = {"name": name, "kind": "free", "mark": ""}
            if name in castles:
                cell.update(kind=f"castle{castles[name]}", mark=castles[name])
            elif name in order:
                current = name == state["current"] and state["phase"] != "finished"
                cell.update(kind="current" if current else "turned", mark=order[name] + 1,
                            round=rules.round_of_card(order[name]))
            cells.append(cell)
        rows.append({"row": row, "cells": cells})
    return rows


def defaults_for(round_: int) -> dict[str, Any]:
    """What a score form starts with: what it takes to score each castle and the defense (one
    tap on "−" says it was missed); no groups."""
    return {"round": round_, "castle6_knights": rules.castle_knights_needed(round_),
            "castle4_knights": rules.castle_knights_needed(round_),
            "church_groups": "", "windmill_groups": "",
            "defense_shields": rules.shields_needed(round_), "knight_groups": ""}


def _sizes(text: Any) -> list[int]:
    return [int(part) for part in str(text or "").replace(",", " ").split() if part.isdigit()]


# A form's whole number as the move's serializer reads it (DRF's IntegerField: "3", " 3 ", "3.0").
_DECIMAL_TAIL = re.compile(r"\.0*\s*$")


def _form_number(value: Any, low: int, high: int | None) -> int:
    if isinstance(value, str) and len(value) > 1000:
        raise ValueError(value)
    number = int(_DECIMAL_TAIL.sub("", str(value)))
    if number < low or (high is not None and number > high):
        raise ValueError(value)
    return number


def form_score(values: Mapping[str, Any]) -> dict[str, Any]:
    """A score form's texts as a score, read as the `score` move reads them (for the first
    preview; the live one goes through the move's serializer), or RuleViolation naming the
    fields it cannot read."""
    score: dict[str, Any] = {}
    unreadable = []
    for name in SCORE_FIELDS:
        if name not in values:
            if name in SCORE_NUMBERS:  # the groups may be left out (the rules then ask)
                unreadable.append(name)
            continue
        value = values[name]
        try:
            if name in SCORE_NUMBERS:
                score[name] = _form_number(value, *SCORE_NUMBERS[name])
            elif name == "knight_groups":
                score[name] = None if value is None else rules.written_knight_groups(value)
            else:
                building = "church" if name == "church_groups" else "windmill"
                score[name] = rules.written_group_sizes(value, building)
        except (ValueError, TypeError, Refused):
            unreadable.append(name)
    if unreadable:
        # Each as its label reads, quoted: a label may hold a colon ("Defense: shields").
        raise RuleViolation(_("Check the numbers: {fields}.", fields=joined(", ", (
            joined("", ("“", FIELD_LABELS[name], "”")) for name in unreadable))))
    return score


def preview_of(seat: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    """The round's breakdown and the seat's total after it, or the sentence refusing it."""
    try:
        breakdown = rules.round_points(data.get("round"), data)
    except RuleViolation as refusal:
        return {"error": refusal.message}
    earlier = sum(entry["total"] for entry in seat["rounds"]
                  if entry["round"] != breakdown["round"])
    total = earlier + breakdown["total"]
    return {"breakdown": breakdown, "total": total, "track": rules.track_of(total),
            "rows": [(label, breakdown[key]) for key, label in BREAKDOWN_ROWS
                     if key != "knights" or breakdown["round"] == rules.KNIGHTS_ROUND]}


def _posted(posted: Mapping[str, list[str]], name: str, default: Any) -> Any:
    """A refused form's field as the form sent it (the last of its values), or `default`."""
    given = posted.get(name)
    if given is None:
        return default
    return given[-1] if isinstance(given, list | tuple) and given else given


def _refused_form(refusal: Mapping[str, Any] | None, form: str) -> bool:
    return bool(refusal and refusal.get("form") == form)


def score_forms(state: Mapping[str, Any], viewer: int | None,
                refusal: Mapping[str, Any] | None,
                posted: Mapping[str, list[str]] | None) -> list[dict[str, Any]]:
    forms, opened = [], False
    finished = state["phase"] == "finished"
    for index, seat in enumerate(state["seats"]):
        scored = rules.scored_rounds(seat)
        following = next((round_ for round_ in rules.ROUNDS if round_ not in scored), None)
        due = (following is not None and rules.cards_left(state, following) == 0
               and not finished)
        choices = sorted(set(scored) | ({following} if due else set()))
        if finished or not choices:
            continue
        name = f"score-{index}"
        round_ = following if due else max(scored)
        values = defaults_for(round_)
        refused = _refused_form(refusal, name)
        if refused and posted is not None:
            values.update({key: _posted(posted, key, value) for key, value in values.items()})
            try:
                values["round"] = int(values["round"])
            except (TypeError, ValueError):
                values["round"] = round_
        mine = viewer == index
        # A phone opens its own due round; the host with no seat the first due one (inside
        # the folded "Play for another seat").
        open_ = refused or (due and (mine or (viewer is None and not opened)))
        opened = opened or open_
        try:
            preview = preview_of(seat, form_score(values))
        except RuleViolation as problem:
            preview = {"error": problem.message}
        forms.append({
            "index": index, "name": seat["name"], "form": name, "mine": mine, "due": due,
            "open": open_, "refused": refused, "choices": choices, "values": values,
            "preview": preview,
            "knights": rules.KNIGHTS_ROUND in choices,  # the knight groups' field shows
            # The inputs' max: what the tiles hold after the latest round the form may score
            # (a lower round picked in the form is checked by the rules, with their sentence).
            "most": rules.ceilings(max(choices)),
            "castle_need": rules.castle_knights_needed(values["round"]),
            "shields_need": rules.shields_needed(values["round"]),
            "groups": {"church": _sizes(values["church_groups"]),
                       "windmill": _sizes(values["windmill_groups"])},
        })
    return forms




def score_table(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    tables = []
    knights_column = rules.ROUNDS.index(rules.KNIGHTS_ROUND)
    for index, seat in enumerate(state["seats"]):
        by_round = {entry["round"]: entry for entry in seat["rounds"]}
        rows = []
        for key, label in (*BREAKDOWN_ROWS, ("total", _("Round"))):
            cells = [by_round[r][key] if r in by_round else None for r in rules.ROUNDS]
            if key == "knights":  # scored in one round only
                cells = [cell if column == knights_column else "–"
                         for column, cell in enumerate(cells)]
            rows.append({"key": key, "label": label, "cells": cells})
        tables.append({"index": index, "name": seat["name"], "rows": rows,
                       "total": seat["total"], "track": seat["track"]})
    return tables


def castles_picked(posted: Mapping[str, list[str]] | None,
                   refusal: Mapping[str, Any] | None) -> dict[str, Any]:
    """The fields a refused castles form had chosen (deck=table), to choose them again."""
    if posted is None or not _refused_form(refusal, "castles"):
        return {"castle6": None, "castle4": None}
    return {name: _posted(posted, name, None) for name in ("castle6", "castle4")}


def _now_of(state: Mapping[str, Any]) -> dict[str, Any]:
    """Where the table is: the field to fill, the card, the table's next step."""
    deck = state["deck"]
    cards = deck != "none"
    turned_in_round = state.get("turned_in_round") or 0
    last = state.get("last") or {}
    finished = state["phase"] == "finished"
    return {
        "deck": deck,
        "cards": cards,
        "phase": state["phase"],
        "finished": finished,
        "round": state["round"],
        # Once finished there is no field to fill: the final screen shows none.
        "current": None if finished else state["current"],
        "card": turned_in_round,
        "of": state.get("cards_in_round"),
        "next_card": turned_in_round + 1,
        "fresh_round": cards and turned_in_round == 0 and state["phase"] == "placing",
        "set_aside": last.get("type") == "turn" and last.get("set_aside"),
        "refused_castles": last.get("refused") if last.get("type") == "castles" else None,
        "castles": state["castles"],
        "waiting": rules.not_scored(state, state["round"]),
    }


def live_model(state: Mapping[str, Any],
               standings: list[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """What every phone sees alike, pushed once per version: the field to fill and the table's
    own controls (the castles, turning a card: any seated phone's move, so the same for all),
    the principality's grid and the score table; at the end the final standings."""
    model = _now_of(state)
    cards = model["cards"]
    model.update({
        "grid": grid_of(state) if cards else [],
        "columns": rules.COLUMNS,
        "free": rules.free_fields(state) if cards else [],
        "fields": rules.FIELDS,
        "table": score_table(state),
        "standings": list(standings or ()) if model["finished"] else [],
    })
    return model


def panel_model(state: Mapping[str, Any], *, viewer: int | None, is_host: bool = False,
                data: Any = None, posted: Mapping[str, list[str]] | None = None,
                refusal: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """This phone's controls, seat-first (None: the host with no seat): `own_due`, its own
    round to score, comes first; then the table's part (panel_live); then `own_later`, a
    correction of its own earlier round, folded; and for the host only `others`, every other
    seat's form in the "Play for another seat" fold. A guest's phone gets no other seat's form:
    that move would only be refused. The refused castles form's fields come back in
    `picked`."""
    forms = [] if state["phase"] == "finished" else score_forms(state, viewer, refusal, posted)
    own = next((form for form in forms if form["mine"]), None)
    others = [form for form in forms if not form["mine"]] if is_host else []
    return {
        **_now_of(state),
        "viewer": viewer,
        "is_host": is_host,
        "own_due": own if own and own["due"] else None,
        "own_later": own if own and not own["due"] else None,
        "others": others,
        # Folded, but for a refusal to show, or for the host who keeps the table from no seat
        # while a round is due: scoring the seats is then that phone's own part.
        "others_open": any(form["refused"] or (viewer is None and form["open"])
                           for form in others),
        # Kept for the templates that list every form (the host's fold lists `others`).
        "forms": forms,
        "picked": castles_picked(posted, refusal),
        "chips": CHIPS,
        "shields": SHIELDS,
    }
