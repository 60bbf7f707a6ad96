"""What Lenino's Jack Rabbits' panel shows one phone, derived from the (redacted) state; and the
card picker's running total. Pure: every number is asked of rules.py, so the page never disagrees
with the server."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine import RuleViolation, _
from games.rabbits import rules

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
PREVIEW_KINDS = ("pay", "audience", "arrive")
# The ranks a lottery card may show: a card matching a die (royals never match).
LOTTERY_RANKS = ["A", "2", "3", "4", "5", "6"]


def card_label(card: str) -> str:
    """"QH" -> "Q♥"."""
    return card[:-1] + SUIT_SYMBOLS[card[-1]] if card else ""


def _grid(state: Mapping[str, Any], names: list[str]) -> list[dict[str, Any]]:
    tiles = state.get("tiles", {})
    return [{"suit": suit, "symbol": SUIT_SYMBOLS[suit], "name": rules.SUIT_NAMES[suit],
             "royals": [{"card": rank + suit, "label": rank + SUIT_SYMBOLS[suit],
                         "holder": tiles.get(rank + suit),
                         "holder_name": names[tiles[rank + suit]]
                         if rank + suit in tiles else None}
                        for rank in rules.ROYAL_RANKS]}
            for suit in rules.SUITS]


def _seat_rows(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    options, turn = state["options"], state["turn"]
    return [{
        "index": index, "name": player["name"], "royals": player["royals"],
        "carrots": player["carrots"], "first_ace_spent": player["first_ace_spent"],
        "place": player["place"], "place_name": rules.PLACE_NAMES[player["place"]],
        "missing": rules.ending_missing(player["royals"], options["ending"], sheet=True),
        "in_turn": index == turn["seat"],
    } for index, player in enumerate(state["seats"])]




def standing_note(details: Mapping[str, Any]) -> str | None:
    """Where the rabbit is, beside its name on the scoreboard: what a `where` tapped on one
    phone changes on every other's first screen."""
    place = details.get("place")
    return rules.PLACE_NAMES.get(place) if place else None


def live_model(state: Mapping[str, Any], standings: Any = None) -> dict[str, Any]:
    """What every phone sees alike, pushed once per version: the turn's roll and price, the royal
    line and the rabbits. Its data-* attributes also tell panel.js which seat rolls and which
    acts, so that each phone's own controls (not pushed) show the moves that are now theirs."""
    names = [seat["name"] for seat in state["seats"]]
    turn, options = state["turn"], state["options"]
    finished = state["winner"] is not None
    rolled = turn["dice"] is not None
    roller = rules.roller(state)
    return {
        "names": names,
        "finished": finished,
        "winner_name": names[state["winner"]] if finished else None,
        "turn_seat": turn["seat"], "turn_name": names[turn["seat"]],
        "dice": turn["dice"], "price": turn["price"], "rolled": rolled,
        "lottery_played": turn.get("lottery", False), "ended": rules.ended_text(turn),
        "lottery_over": rules.lottery_over(turn),
        "roller": roller, "roller_name": names[roller],
        # The seat that may play the turn's moves now (None: the next roll comes first).
        "acting": turn["seat"] if rolled and not turn.get("ended") and not finished else None,
        "grid": _grid(state, names),
        "seats": _seat_rows(state),
        "ending_text": rules.ENDING_WORDS[options["ending"]],
        "values": options["values"], "advanced_citadel": options["advanced_citadel"],
        "first_ace_value": rules.first_ace_value(options["values"]),
    }


def _controls(state: Mapping[str, Any], seat: int, *, own: bool) -> dict[str, Any]:
    """One seat's moves, all of them: which show is the live part's to say (panel.js), since
    these are not pushed; stale, a form is refused by the rules with a sentence."""
    turn = state["turn"]
    rolled = turn["dice"] is not None
    rows = _seat_rows(state)
    me = rows[seat]
    others = [row for row in rows if row["index"] != seat]
    return {
        "index": seat, "name": me["name"], "own": own, "place": me["place"],
        "prefix": f"rb-{seat}",
        "rolls": rules.roller(state) == seat,
        "acts": rolled and not turn.get("ended") and turn["seat"] == seat,
        "royals": me["royals"], "full": len(me["royals"]) >= 3, "missing": me["missing"],
        "victims": [{"index": row["index"], "name": row["name"], "royals": row["royals"],
                     "form": f"steal-{seat}-{row['index']}"}
                    for row in others if row["royals"]],
        # The rabbits that may have won a spades attack against this one (the seat in turn
        # first): the victim's phone may enter the steal too.
        "thieves": sorted(others, key=lambda row: row["index"] != turn["seat"]),
        "forms": {kind: f"{kind}-{seat}"
                  for kind in ("roll", "dice", "lottery", "pay", "audience", "arrive", "where",
                               "stolen")},
    }


def panel_model(state: Mapping[str, Any], *, viewer: int | None, is_host: bool = False,
                data: Any = None, posted: Mapping[str, list[str]] | None = None,
                refusal: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """This phone's controls: its own seat's first (`own`, None for a phone with no seat), then,
    for the host, every other seat's (`others`, folded away: the host may play any seat). A
    guest's phone carries only its own. `posted` refills a refused form."""
    finished = state["winner"] is not None
    count = len(state["seats"])
    own = None if finished or viewer is None else _controls(state, viewer, own=True)
    others = [] if finished or not is_host else [
        _controls(state, seat, own=False) for seat in range(count) if seat != viewer]
    if refusal and refusal.get("form"):
        # The seat whose form was refused opens, so the sentence shows next to it.
        for controls in others:
            if str(refusal["form"]).endswith(f"-{controls['index']}") \
                    or f"-{controls['index']}-" in str(refusal["form"]):
                controls["refused"] = True
    posted = dict(posted or {})
    return {
        "viewer": viewer, "is_host": bool(is_host), "finished": finished,
        "own": own, "others": others,
        "others_open": any(controls.get("refused") for controls in others),
        # Every royal, in the line's order: an audience's royal (one taken meanwhile is refused
        # with a sentence, since these controls are not pushed).
        "royals": list(rules.ROYALS),
        "turn_seat": state["turn"]["seat"], "roller": rules.roller(state),
        "ranks": list(rules.RANKS),
        "lottery_ranks": LOTTERY_RANKS,
        "suits": [{"code": s, "symbol": SUIT_SYMBOLS[s], "name": rules.SUIT_NAMES[s]}
                  for s in rules.SUITS],
        "advanced_citadel": state["options"]["advanced_citadel"],
        # A refused form's own fields, to show it again as it was sent.
        "posted": posted,
        "refill": {name: values[-1] for name, values in posted.items() if values},
    }


def _problems_of(cards_text: str) -> tuple[list[str], list[str]]:
    problems: list[str] = []
    cards: list[str] = []
    for word in rules.card_words(cards_text or ""):
        try:
            card = rules.normal_card(word)
        except RuleViolation:
            problems.append(_("{word} is not a card (write QH, 10D, AS...).", word=word))
            continue
        if card in cards:
            problems.append(_("{card} is listed twice.", card=card))
            continue
        cards.append(card)
    return cards, problems


def selection_preview(state: Mapping[str, Any], kind: str, seat: int, cards_text: str,
                      suits: Any = (), royal: str = "") -> dict[str, Any]:
    """The running total of `pay`, `audience` or `arrive` against its target, and what stands in
    the way, computed by the rules themselves (rules.seat_selection_total). The server checks
    again on submit; this only spares a refusal."""
    cards, problems = _problems_of(cards_text)
    target, suit_names, need = state["turn"]["price"], None, None
    if kind == "audience":
        target = rules.AUDIENCE_POINTS
        try:
            royal = rules.normal_card(royal) if royal else ""
        except RuleViolation:
            royal = ""
        need = [royal[-1]] if royal else None
        if not royal:
            problems.append(_("Choose the royal."))
    elif kind == "pay":
        need = [s.strip().upper() for s in suits if s.strip().upper() in rules.SUIT_NAMES]
        if not need:
            problems.append(_("Tick the suits the tile accepts."))
    elif kind == "arrive":
        need = [rules.CITADEL_SUIT]
        brought = [card for card in cards if card in state["seats"][seat]["royals"]]
        if brought:
            problems.append(rules.brought_home(brought[0]))
    if need:
        suit_names = rules.cards_listed([rules.SUIT_NAMES[s] for s in rules.SUITS if s in need])
        wrong = [card for card in cards if card[-1] not in need]
        if wrong:
            problems.append(_("{cards}: not {suits}.", cards=rules.cards_listed(wrong),
                              suits=suit_names))
    held = state["seats"][seat]["royals"]
    foreign = [card for card in cards if rules.is_royal(card) and card not in held]
    if foreign:
        problems.append(_("{cards}: not held by {name}.", cards=rules.cards_listed(foreign),
                          name=state["seats"][seat]["name"]))
    target = target if target is not None else 0
    result = rules.seat_selection_total(state, seat, cards, price=target)
    return {"kind": kind, "cards": cards, "total": result["total"], "parts": result["parts"],
            "first_ace": result["first_ace"], "target": target, "enough": result["enough"],
            "short": max(0, target - result["total"]),
            "problems": problems, "suit_names": suit_names,
            "ready": bool(cards) and result["enough"] and not problems}


def preview_seat(state: Mapping[str, Any], raw: Any) -> int:
    """The seat a preview is for: the one named, else the seat in turn."""
    try:
        seat = int(raw)
    except (TypeError, ValueError):
        return state["turn"]["seat"]
    return seat if 0 <= seat < len(state["seats"]) else state["turn"]["seat"]
