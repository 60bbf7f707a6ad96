"""What the panel shows beyond the raw state: the catalogue, badges and the last fight's sums."""

from django import template
from django.utils.translation import gettext as _

from games.alatriste import rules
from games.alatriste.models import Card

register = template.Library()

FACES = range(1, 7)
SPLITS = [(fencing, rules.SETUP_POINTS - fencing)
          for fencing in range(rules.MIN_SETUP, rules.SETUP_POINTS - rules.MIN_SETUP + 1)]


def _badges(seat):
    badges = []
    if seat["status"] != "free":
        badges.append((seat["status"], rules.STATUS_WORDS[seat["status"]]))
    if seat["wanted_turns"]:
        badges.append(("wanted", _("wanted %(n)s turns") % {"n": seat["wanted_turns"]}))
    if seat["lost_turns"]:
        badges.append(("lost", _("%(n)s lost turns") % {"n": seat["lost_turns"]}))
    if seat["recovering"]:
        badges.append(("recovering", _("recovering")))
    if seat["attacks"]:
        badges.append(("attacks", _("%(n)s attack cards waiting") % {"n": seat["attacks"]}))
    return badges


def _changes(state, last):
    """Who gained or lost what in the last duel or combat, in words."""
    lines = {}

    def note(index, text):
        lines.setdefault(index, []).append(text)

    for key, delta in (last.get("fame") or {}).items():
        if delta:
            note(int(key), _("Fame %(d)+d") % {"d": delta})
    fight = last.get("fight")
    if fight:
        for index, side in zip(fight["seats"], fight["sides"], strict=True):
            if side["fencing_gained"]:
                note(index, _("Fencing +1"))
            if side["vigour_lost"]:
                note(index, _("Vigour -%(d)s") % {"d": side["vigour_lost"]})
    if last.get("take"):
        verb = _("keeps") if last["take"]["keep"] else _("discards")
        note(last["winner"], f"{verb} {last['take']['card']}")
    for name in last.get("discarded") or []:
        note(last["loser"], _("discards %(card)s") % {"card": name})
    if (last.get("patrol") or {}).get("acts"):
        for role in ("challenger", "challenged", "attacker", "defender"):
            if role in last:
                note(last[role], _("to the town jail"))
    for index in last.get("deaths", []):
        note(index, _("dies"))
    for index in last.get("saved", []):
        note(index, _("saved by his cards"))
    for index in last.get("wanted", []):
        note(index, _("wanted %(n)s turns") % {"n": rules.WANTED_TURNS})
    return [{"name": state["seats"][i]["name"], "what": ", ".join(texts)}
            for i, texts in sorted(lines.items())]


@register.simple_tag
def alatriste_panel(state):
    seats = []
    for index, seat in enumerate(state["seats"]):
        seats.append({"index": index, "sheet": seat, "badges": _badges(seat),
                      "dead": seat["status"] == "dead",
                      "playing": seat["ready"] and seat["status"] != "dead",
                      "chips": [("vigour", _("Vigour"), seat["vigour"]),
                                ("fame", _("Fame"), seat["fame"]),
                                ("fencing", _("Fencing"), seat["fencing"]),
                                ("ducats", _("Ducats"), seat["ducats"])]})
    board = [{"name": card["name"], "owner": seat["name"]}
             for seat in state["seats"] for card in seat["cards"]]
    last = state.get("last") or {}
    view = {"type": last.get("type"), "sides": [], "changes": [], "line": ""}
    if last.get("type") in ("duel", "combat"):
        if last.get("fight"):
            view["sides"] = last["fight"]["sides"]
            view["line"] = last["fight"]["line"]
        if last.get("patrol"):
            view["patrol"] = last["patrol"]
        view["outcome"] = last.get("outcome")
        view["changes"] = _changes(state, last)
    return {"seats": seats, "board": board, "last": view, "faces": FACES, "splits": SPLITS,
            "catalogue": list(Card.objects.filter(kind__in=rules.BOARD_KINDS)),
            "statuses": [(key, rules.STATUS_WORDS[key]) for key in rules.STATUSES],
            "finished": bool(state.get("finished"))}
