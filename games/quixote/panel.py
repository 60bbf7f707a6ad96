"""What Don Quixote's panel shows, computed from the state once (the templates only lay it out).

Read-only: used by the panel's template tag and by the live score preview.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from companion.engine import RuleViolation
from games.quixote import rules

CHIPS = tuple(range(1, 9))
SHIELDS = (1, 2, 3)
BREAKDOWN_ROWS = (
    ("castle6", gettext_lazy("6-castle")), ("castle4", gettext_lazy("4-castle")),
    ("churches", gettext_lazy("Churches")), ("windmills", gettext_lazy("Windmills")),
    ("defense", gettext_lazy("Defense")), ("knights", gettext_lazy("Knights")),
)


def round_of_card(position: int) -> int:
    """The round of the `position`-th card turned (0-based): 9, then 7, then 6 cards."""
    if position < rules.CARDS_PER_ROUND[1]:
        return 1
    return 2 if position < rules.CARDS_PER_ROUND[1] + rules.CARDS_PER_ROUND[2] else 3


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
                            round=round_of_card(order[name]))
            cells.append(cell)
        rows.append({"row": row, "cells": cells})
    return rows


def defaults_for(round_: int) -> dict[str, Any]:
    """What a score form starts with: what it takes to score each castle and the defense (one
    tap on "−" says it was missed); no groups."""
    return {"round": round_, "castle6_knights": round_, "castle4_knights": round_,
            "church_groups": "", "windmill_groups": "",
            "defense_shields": rules.SHIELDS_PER_ROUND * round_, "knight_groups": ""}


def _sizes(text: Any) -> list[int]:
    return [int(part) for part in str(text or "").replace(",", " ").split() if part.isdigit()]


def _form_data(values: Mapping[str, Any]) -> dict[str, Any]:
    """The form's texts as a score (for the first preview; the live one goes through moves.py)."""
    from games.quixote.moves import ScoreSerializer

    serializer = ScoreSerializer(data={"seat": 0, **values})
    if not serializer.is_valid():
        raise RuleViolation(_("Check the numbers: %(fields)s.")
                            % {"fields": ", ".join(serializer.errors)})
    return dict(serializer.validated_data)


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
                     if key != "knights" or breakdown["round"] == 3]}


def _ready(state: Mapping[str, Any], round_: int) -> bool:
    return state["deck"] == "none" or rules._cards_left(state, round_) == 0


def score_forms(state: Mapping[str, Any], viewer: int | None, refusal: Any,
                posted: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    forms, opened = [], False
    finished = state["phase"] == "finished"
    for index, seat in enumerate(state["seats"]):
        scored = rules.scored_rounds(seat)
        following = next((round_ for round_ in rules.ROUNDS if round_ not in scored), None)
        due = following is not None and _ready(state, following) and not finished
        choices = sorted(set(scored) | ({following} if due else set()))
        if finished or not choices:
            continue
        name = f"score-{index}"
        round_ = following if due else max(scored)
        values = defaults_for(round_)
        refused = bool(refusal and refusal.get("form") == name)
        if refused and posted is not None:
            values.update({key: posted.get(key, value) for key, value in values.items()})
            try:
                values["round"] = int(values["round"])
            except (TypeError, ValueError):
                values["round"] = round_
        mine = viewer == index
        open_ = refused or (due and (mine or (viewer is None and not opened)))
        opened = opened or open_
        try:
            preview = preview_of(seat, _form_data(values))
        except RuleViolation as problem:
            preview = {"error": problem.message}
        forms.append({
            "index": index, "name": seat["name"], "form": name, "mine": mine, "due": due,
            "open": open_, "choices": choices, "values": values, "preview": preview,
            "castle_need": values["round"],
            "shields_need": rules.SHIELDS_PER_ROUND * values["round"],
            "groups": {"church": _sizes(values["church_groups"]),
                       "windmill": _sizes(values["windmill_groups"])},
        })
    # A guest sees its own seat first.
    forms.sort(key=lambda form: (not form["mine"], form["index"]))
    return forms


def score_table(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    tables = []
    for index, seat in enumerate(state["seats"]):
        by_round = {entry["round"]: entry for entry in seat["rounds"]}
        rows = []
        for key, label in (*BREAKDOWN_ROWS, ("total", gettext_lazy("Round"))):
            cells = [by_round[r][key] if r in by_round else None for r in rules.ROUNDS]
            if key == "knights":  # scored in round 3 only
                cells = ["–", "–", cells[2]]
            rows.append({"key": key, "label": label, "cells": cells})
        tables.append({"index": index, "name": seat["name"], "rows": rows,
                       "total": seat["total"], "track": seat["track"]})
    return tables


def waiting_names(state: Mapping[str, Any]) -> list[str]:
    round_ = state["round"]
    return [seat["name"] for seat in state["seats"]
            if round_ not in rules.scored_rounds(seat)]


def panel_model(state: Mapping[str, Any], *, viewer: int | None, refusal: Any = None,
                posted: Mapping[str, Any] | None = None) -> dict[str, Any]:
    deck = state["deck"]
    cards = deck != "none"
    turned_in_round = state.get("turned_in_round") or 0
    last = state.get("last") or {}
    return {
        "deck": deck,
        "cards": cards,
        "phase": state["phase"],
        "round": state["round"],
        "current": state["current"],
        "card": turned_in_round,
        "of": state.get("cards_in_round"),
        "next_card": turned_in_round + 1,
        "fresh_round": cards and turned_in_round == 0 and state["phase"] == "placing",
        "set_aside": last.get("type") == "turn" and last.get("set_aside"),
        "refused_castles": last.get("refused") if last.get("type") == "castles" else None,
        "castles": state["castles"],
        "grid": grid_of(state) if cards else [],
        "columns": rules.COLUMNS,
        "free": rules.free_fields(state) if cards else [],
        "fields": rules.FIELDS,
        "waiting": waiting_names(state),
        "forms": score_forms(state, viewer, refusal, posted),
        "table": score_table(state),
        "chips": CHIPS,
        "shields": SHIELDS,
    }
