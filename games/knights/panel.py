"""What the Knights & Damosels panel shows one phone, derived from the (already redacted) state.

Pure (no Django): `panel_model` is the model of templates/games/knights/panel.html (`panel`), and
`preview` that of the worship preview (games.knights.views). Read-only: every legality shown (a
greyed card and its reason, the offers a knight may make, the cards a joust may challenge) is
asked of rules.py itself, so the page never disagrees with the server.
"""

from companion.engine import RuleViolation
from companion.engine import mark as _
from games.knights import rules

GROUPS = [("Arms", rules.ARMS), ("Virtue", rules.VIRTUES), ("Vassalage", rules.VASSALAGE)]


def short(name):
    return name[:3]


def _name(state, seat):
    return state["seats"][seat]["name"]


def _reason(check, *args):
    try:
        check(*args)
    except RuleViolation as refusal:
        return refusal.message
    return None


def event_info(state):
    event = state["event"]
    if not event:
        return None
    kind, bonus = rules.EVENTS[event]
    return {"name": event, "kind": rules.KIND_NAMES[kind], "key": kind,
            "listed": rules.event_list(state, event), "bonus": bonus}


def event_step(state):
    """What the event phase waits for: "table" (Merlin names the event drawn at the table),
    "draw" (Arthur draws), "pass" (Arthur discards one) or "reveal" (Merlin reveals one)."""
    if state["options"]["deck"] == "table":
        return "table"
    choices = len(state["event_choices"])
    if choices == 0:
        return "draw"
    return "pass" if choices == rules.EVENTS_DRAWN else "reveal"


def ask(state):
    """The phase and what it asks of whom, as one sentence."""
    arthur, merlin = _name(state, state["arthur"]), _name(state, state["merlin"])
    phase = state["phase"]
    if phase == "finished":
        victory = state["victory"]
        return _("The game is over: %(name)s wins (%(kind)s victory).") % {
            "name": _name(state, victory["winner"]), "kind": victory["class"]}
    if phase == "event":
        step = event_step(state)
        if step == "table":
            return _("Merlin (%(name)s) reveals the event drawn at the table.") % {"name": merlin}
        if step == "draw":
            return _("Arthur (%(name)s) draws %(n)s events.") % {
                "name": arthur, "n": rules.EVENTS_DRAWN}
        if step == "pass":
            return _("Arthur (%(name)s) discards one of the %(n)s events.") % {
                "name": arthur, "n": rules.EVENTS_DRAWN}
        return _("Merlin (%(name)s) reveals one of the %(n)s events.") % {
            "name": merlin, "n": rules.EVENTS_PASSED}
    if state["resolution"] is not None:
        return _("The round's worship is entered: end the round.")
    kind = rules.event_kind(state["event"])
    waiting = [_name(state, seat) for seat in rules.waiting_seals(state)]
    if phase == "knight":
        then = (_("then the disaster is entered") if kind == "disaster"
                else _("the first offer closes this phase"))
        return _("Merlin (%(name)s) grants the damosels' cards: choose a knight, tap a card; "
                 "%(then)s.") % {"name": merlin, "then": then}
    if phase == "service":
        return _("The knights offer the chivalries the event lists; then enter the worship.")
    if waiting:
        return _("Sealed placements: waiting for %(names)s.") % {"names": ", ".join(waiting)}
    return _("Enter the worship.")


def card_grid(state):
    """Rows of chivalries (grouped), one cell per damosel: where every card is."""
    knight_phase = state["phase"] == "knight"
    granted = {(g["damosel"], g["chivalry"]) for g in state["granted"]}
    seats = range(len(state["seats"]))
    rows = []
    for group, chivalries in GROUPS:
        for chivalry in chivalries:
            cells = []
            for damosel in rules.DAMOSELS:
                holder = state["cards"][damosel][chivalry]
                card = f"{damosel}'s {chivalry}"
                if holder is None:
                    where = _("%(card)s: with %(damosel)s") % {"card": card, "damosel": damosel}
                else:
                    row = state["seats"][holder]
                    where = _("%(card)s: with %(name)s's %(knight)s") % {
                        "card": card, "name": row["name"], "knight": row["knight"]}
                offered = holder is not None and chivalry in state["seats"][holder]["offered"]
                if offered:
                    where += " " + _("(offered this round)")
                why = {}
                if knight_phase:
                    for seat in seats:
                        reason = _reason(rules.check_grant, state, seat, damosel, chivalry)
                        if reason:
                            why[seat] = reason
                cells.append({
                    "damosel": damosel, "chivalry": chivalry, "holder": holder,
                    "label": short(state["seats"][holder]["knight"]) if holder is not None
                    else "", "granted": (damosel, chivalry) in granted, "offered": offered,
                    "where": where, "value": f"{damosel}:{chivalry}", "why": why,
                    "no": " ".join(f"no{seat}" for seat in why),
                })
            rows.append({"chivalry": chivalry, "group": group,
                         "first": chivalry == chivalries[0], "cells": cells})
    return rows


def damosel_columns(state):
    played = {row["damosel"]: row["name"] for row in state["seats"]}
    return [{"name": damosel, "short": short(damosel), "played_by": played.get(damosel)}
            for damosel in rules.DAMOSELS]


def grant_default(state):
    """The knight the grant form starts on: the first not yet granted a card this round."""
    done = {g["seat"] for g in state["granted"]}
    return next((seat for seat in range(len(state["seats"])) if seat not in done), 0)


def offers(state):
    """Per seat, what it offered and the offers the rules would take now."""
    if not rules.offering_open(state):
        return None
    listed = rules.event_list(state, state["event"])
    rows = []
    for seat, row in enumerate(state["seats"]):
        legal = [chivalry for chivalry in listed
                 if not _reason(rules.check_offer, state, seat, chivalry)]
        rows.append({"seat": seat, "name": row["name"], "knight": row["knight"],
                     "offered": row["offered"], "legal": legal})
    return rows


def joust_targets(state):
    """The cards that may still be challenged in this phase (rules.challengeable), as the joust
    form's options: [(value "<holder>:<damosel>:<chivalry>", label)]."""
    targets = []
    for card in rules.challengeable(state):
        holder, damosel, chivalry = card["holder"], card["damosel"], card["chivalry"]
        label = f"{damosel}'s {chivalry}" if damosel else chivalry
        targets.append((f"{holder}:{damosel or ''}:{chivalry}",
                        f"{_name(state, holder)}: {label}"))
    return targets


def preview(state, placements):
    """rules.worship_preview, made readable per seat; or the refusal's sentence."""
    if not rules.round_open(state):
        return {"error": _("There is no worship to preview now.")}
    try:
        outcome = rules.worship_preview(state, placements)
    except RuleViolation as refusal:
        return {"error": refusal.message}
    return outcome_rows(state, outcome)


def outcome_rows(state, outcome, *, applied=False):
    """Per seat: the cards' worship and the change; `applied` when the state already has it."""
    rows = []
    for seat, row in enumerate(state["seats"]):
        if outcome["kind"] == "disaster":
            cards = [f"{c['damosel']}'s {c['chivalry']} " + _("back to her")
                     for c in outcome["returned"] if c["seat"] == seat]
            cards += [f"{c['damosel']}'s {c['chivalry']} "
                      + _("in the minority: −%(n)s") % {"n": rules.DISASTER_LOSS}
                      for c in outcome["minority"] if c["seat"] == seat]
        else:
            cards = [f"{c['chivalry']}{' ' + c['face'] if c['face'] else ''}: {c['points']}"
                     for c in outcome["cards"] if c["seat"] == seat]
        change = outcome["change"][seat]
        rows.append({"seat": seat, "name": row["name"], "change": change,
                     "signed": f"+{change}" if change >= 0 else f"−{-change}",
                     "worship": row["worship"] + (0 if applied else change), "cards": cards})
    return {"kind": outcome["kind"], "rows": rows, "up": outcome.get("up"),
            "down": outcome.get("down"), "majority": outcome.get("majority"),
            "loss": rules.DISASTER_LOSS, "error": None}


def placements(state, viewer, phones):
    """The worship (or disaster) section: who must place what, who has sealed, the forms.
    `phones`: the seats a guest's phone holds (the host seals for the others)."""
    if not rules.round_open(state):
        return None
    kind = rules.event_kind(state["event"])
    needed = rules.required_placements(state)
    sealed = state["sealed"]
    seats = []
    for key, chivalries in needed.items():
        seat = int(key)
        own = viewer is not None and viewer == seat
        mine = sealed.get(key) if own else None
        seats.append({"seat": seat, "key": key, "name": _name(state, seat),
                      "chivalries": chivalries, "sealed": key in sealed, "own": own,
                      "phone": seat in phones,
                      "faces": [(c, (mine or {}).get(c, "up")) for c in chivalries]})
    defaults = {key: dict.fromkeys(chivalries, "up") for key, chivalries in needed.items()}
    return {
        "move": "disaster" if kind == "disaster" else "worship",
        "kind": kind, "seats": seats, "needed": bool(needed),
        "sealing": kind != "prosperity" and bool(needed),
        "pending": bool(sealed),
        "waiting": [s["name"] for s in seats if not s["sealed"]],
        "own": next((s for s in seats if s["own"]), None),
        "preview": preview(state, defaults),
    }


def progress(state):
    count = len(state["seats"])
    rows = []
    for seat, row in enumerate(state["seats"]):
        roles = []
        if seat == state["arthur"]:
            roles.append("Arthur")
        if seat == state["merlin"]:
            roles.append("Merlin")
        rows.append({
            "seat": seat, "name": row["name"], "knight": row["knight"], "damosel": row["damosel"],
            "roles": roles, "earned": len(row["earned"]), "earned_goal": rules.KNIGHT_VICTORY,
            "given": rules.given_max(state, seat), "given_goal": rules.DAMOSEL_VICTORY[count],
            "worship": row["worship"], "worship_goal": rules.WORSHIP_VICTORY[count],
            "victory": rules.victory_class(state, seat), "offered": row["offered"],
        })
    return rows


def panel_model(state, *, viewer, is_host, data, posted, refusal):
    """The panel of one viewer (a seat, or None for the host). `data` is
    games.knights.panel_data.phones: the seats held by a phone. The forms refill nothing from a
    refused post (`posted`): each is a button or a fresh choice."""
    phones = set(data or ())
    resolution = state.get("resolution")
    finished = state["phase"] == "finished"
    return {
        "ask": ask(state),
        "arthur": _name(state, state["arthur"]),
        "merlin": _name(state, state["merlin"]),
        "event": event_info(state),
        "events": sorted(rules.EVENTS),
        "events_drawn": rules.EVENTS_DRAWN,
        "app_deck": state["options"]["deck"] == "app",
        "event_step": event_step(state) if state["phase"] == "event" else None,
        "columns": damosel_columns(state),
        "grid": card_grid(state),
        "grant_default": grant_default(state),
        "offers": offers(state),
        "joust": joust_targets(state),
        "joust_stake": rules.JOUST_STAKE,
        "similar_max": rules.MAX_SIMILAR_PAIRS,
        "placements": placements(state, viewer, phones),
        "resolution": outcome_rows(state, resolution, applied=True) if resolution else None,
        "progress": progress(state),
        "can_end": resolution is not None and not finished,
        "finished": finished,
        "order": [_name(state, seat) for seat in state["victory"]["order"]]
        if finished and state["victory"] else [],
    }
