"""What the Knights & Damosels panel shows one phone, derived from the (already redacted) state.

Pure (no Django): `panel_model` is the model of templates/games/knights/panel.html (`panel`), and
`preview` that of the worship preview (games.knights.views). Read-only: every legality shown (a
greyed card and its reason, the offers a knight may make, the cards a joust may challenge) is
asked of rules.py itself, so the page never disagrees with the server.
"""

from companion.engine import RuleViolation, _, joined, listing, n_
from games.knights import rules

GROUPS = [(_("Arms"), rules.ARMS), (_("Virtue"), rules.VIRTUES),
          (_("Vassalage"), rules.VASSALAGE)]
# A phase in one word, for the table's head.
PHASE_WORDS = {"event": _("event"), "knight": _("knight"), "service": _("service"),
               "worship": _("worship"), "finished": _("finished")}


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
    # Names to show (Texts): the template finds the bonus among those listed by comparing them,
    # a Text being equal to its English name.
    return {"name": rules.event_name(event), "kind": rules.KIND_NAMES[kind], "key": kind,
            "listed": [rules.chivalry_name(c) for c in rules.event_list(state, event)],
            "bonus": rules.chivalry_name(bonus) if bonus else None}


def ask(state):
    """The phase and what it asks of whom, as one sentence."""
    arthur, merlin = _name(state, state["arthur"]), _name(state, state["merlin"])
    phase = state["phase"]
    if phase == "finished":
        victory = state["victory"]
        return _("The game is over: {name} wins ({victory}).",
                 name=_name(state, victory["winner"]),
                 victory=rules.VICTORY_NAMES[victory["class"]])
    if phase == "event":
        step = rules.event_step(state)
        if step == "table":
            return _("Merlin ({name}) reveals the event drawn at the table.", name=merlin)
        if step == "draw":
            return _("Arthur ({name}) draws {n} events.", name=arthur, n=rules.EVENTS_DRAWN)
        if step == "pass":
            return _("Arthur ({name}) discards one of the {n} events.", name=arthur,
                     n=rules.EVENTS_DRAWN)
        return _("Merlin ({name}) reveals one of the {n} events.", name=merlin,
                 n=rules.EVENTS_PASSED)
    if state["resolution"] is not None:
        return _("The round's worship is entered: end the round.")
    kind = rules.event_kind(state["event"])
    waiting = [_name(state, seat) for seat in rules.waiting_seals(state)]
    if phase == "knight":
        then = (_("then the disaster is entered") if kind == "disaster"
                else _("the first offer closes this phase"))
        return _("Merlin ({name}) grants the damosels' cards: choose a knight, tap a card; "
                 "{then}.", name=merlin, then=then)
    if phase == "service":
        return _("The knights offer the chivalries the event lists; then enter the worship.")
    if waiting:
        return n_("Sealed placements: waiting for {names}.",
                  "Sealed placements: waiting for {names}.", len(waiting),
                  names=listing(waiting))
    return _("Enter the worship.")


def card_grid(state, *, reasons=True):
    """Rows of chivalries (grouped), one cell per damosel: where every card is. `reasons`: why
    each knight may not take a card (the grant form's greying), not needed where nobody taps."""
    knight_phase = reasons and state["phase"] == "knight"
    granted = {(g["damosel"], g["chivalry"]) for g in state["granted"]}
    seats = range(len(state["seats"]))
    rows = []
    for group, chivalries in GROUPS:
        for chivalry in chivalries:
            cells = []
            for damosel in rules.DAMOSELS:
                holder = state["cards"][damosel][chivalry]
                card = rules.card_name(damosel, chivalry)
                if holder is None:
                    where = _("{card}: with {damosel}", card=card, damosel=damosel)
                else:
                    row = state["seats"][holder]
                    where = _("{card}: with {name}'s {knight}", card=card, name=row["name"],
                              knight=row["knight"])
                offered = holder is not None and chivalry in state["seats"][holder]["offered"]
                if offered:
                    where = joined(" ", [where, _("(offered this round)")])
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
            rows.append({"chivalry": chivalry, "name": rules.chivalry_name(chivalry),
                         "group": group,
                         "first": chivalry == chivalries[0], "cells": cells})
    return rows


def damosel_columns(state):
    played = {row["damosel"]: row["name"] for row in state["seats"]}
    return [{"name": damosel, "short": short(damosel), "played_by": played.get(damosel)}
            for damosel in rules.DAMOSELS]


def hidden_grants(state):
    """This round's grants whose damosel this viewer may not see yet (the redacted state names
    none): who holds which chivalry."""
    return [{"name": _name(state, g["seat"]), "knight": state["seats"][g["seat"]]["knight"],
             "chivalry": rules.chivalry_name(g["chivalry"])}
            for g in state["granted"] if g["damosel"] is None]


def grant_default(state):
    """The knight the grant form starts on: the first not yet granted a card this round."""
    done = {g["seat"] for g in state["granted"]}
    return next((seat for seat in range(len(state["seats"])) if seat not in done), 0)


def offers(state):
    """Per seat, what it offered (the names) and the offers the rules would take now, each
    (the chivalry, its name)."""
    if not rules.offering_open(state):
        return None
    listed = rules.event_list(state, state["event"])
    rows = []
    for seat, row in enumerate(state["seats"]):
        legal = [(chivalry, rules.chivalry_name(chivalry)) for chivalry in listed
                 if not _reason(rules.check_offer, state, seat, chivalry)]
        rows.append({"seat": seat, "name": row["name"], "knight": row["knight"],
                     "offered": [rules.chivalry_name(c) for c in row["offered"]],
                     "legal": legal})
    return rows


def joust_targets(state):
    """The cards that may still be challenged in this phase (rules.challengeable), as the joust
    form's options: [(value "<holder>:<damosel>:<chivalry>", label)]."""
    targets = []
    for card in rules.challengeable(state):
        holder, damosel, chivalry = card["holder"], card["damosel"], card["chivalry"]
        # A hidden damosel: none.
        label = rules.card_name(damosel, chivalry) if damosel else rules.chivalry_name(chivalry)
        targets.append((f"{holder}:{damosel or ''}:{chivalry}",
                        joined(": ", [_name(state, holder), label])))
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


def _card(card):
    """A disaster's card by its damosel, or by its chivalry alone where this viewer may not see
    the damosel yet (a grant of the knight phase)."""
    return rules.card_name(card["damosel"], card["chivalry"]) if card["damosel"] \
        else rules.chivalry_name(card["chivalry"])


def _card_points(card):
    """One offered card's worship in the preview: "honor up: 3", "farmer: 2"."""
    chivalry = rules.chivalry_name(card["chivalry"])
    if card["face"] == "up":
        return _("{chivalry} up: {points}", chivalry=chivalry, points=card["points"])
    if card["face"] == "down":
        return _("{chivalry} down: {points}", chivalry=chivalry, points=card["points"])
    return _("{chivalry}: {points}", chivalry=chivalry, points=card["points"])


def outcome_rows(state, outcome, *, applied=False):
    """Per seat: the cards' worship and the change; `applied` when the state already has it."""
    rows = []
    for seat, row in enumerate(state["seats"]):
        if outcome["kind"] == "disaster":
            cards = [_("{card} back to her", card=_card(c))
                     for c in outcome["returned"] if c["seat"] == seat]
            cards += [_("{card} in the minority: −{n}", card=_card(c), n=rules.DISASTER_LOSS)
                      for c in outcome["minority"] if c["seat"] == seat]
        else:
            cards = [_card_points(c) for c in outcome["cards"] if c["seat"] == seat]
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
        # "faces": each card to place (the chivalry, its name, the face this phone sealed).
        seats.append({"seat": seat, "key": key, "name": _name(state, seat),
                      "chivalries": [rules.chivalry_name(c) for c in chivalries],
                      "sealed": key in sealed, "own": own, "phone": seat in phones,
                      "faces": [(c, rules.chivalry_name(c), (mine or {}).get(c, "up"))
                                for c in chivalries]})
    defaults = {key: dict.fromkeys(chivalries, "up") for key, chivalries in needed.items()}
    return {
        "move": "disaster" if kind == "disaster" else "worship",
        "kind": kind, "seats": seats, "needed": bool(needed),
        "sealing": rules.faces_secret(state),
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
            "victory_name": rules.VICTORY_NAMES.get(rules.victory_class(state, seat)),
        })
    return rows




def live_model(state, standings=None):
    """The part every phone sees alike, pushed once per version: the round, the event, where
    every card is, who has sealed, the round's worship, the way to victory. `state` is redacted
    as the board sees it (no viewer): no sealed face, no hidden damosel, no event of Arthur's
    draw."""
    finished = state["phase"] == "finished"
    resolution = state.get("resolution")
    placed = placements(state, None, ())
    return {
        "round": state["round"],
        "phase": state["phase"],
        "phase_name": PHASE_WORDS[state["phase"]],
        "ask": ask(state),
        "arthur": _name(state, state["arthur"]),
        "merlin": _name(state, state["merlin"]),
        "event": event_info(state),
        "columns": damosel_columns(state),
        "grid": card_grid(state, reasons=False),
        "hidden_grants": hidden_grants(state),
        "offered": [{"name": row["name"],
                     "chivalries": [rules.chivalry_name(c) for c in row["offered"]]}
                    for row in state["seats"] if row["offered"]],
        "sealed": placed["seats"] if placed and placed["sealing"] else [],
        "resolution": outcome_rows(state, resolution, applied=True) if resolution else None,
        "progress": progress(state),
        "finished": finished,
        "order": [_name(state, seat) for seat in state["victory"]["order"]]
        if finished and state["victory"] else [],
    }


def _own_seat(state, viewer):
    """This phone's seat: its knight, its damosel, the cards granted to it this round."""
    row = state["seats"][viewer]
    return {"seat": viewer, "name": row["name"], "knight": row["knight"],
            "damosel": row["damosel"],
            "grants": [rules.card_name(g["damosel"], g["chivalry"]) for g in state["granted"]
                       if g["seat"] == viewer and g["damosel"]]}


def _table_view(state):
    """What every viewer's controls show of the table: who is Arthur and Merlin, the event, the
    card grid (with the reasons a card cannot move), the progress, the game's constants."""
    return {
        "ask": ask(state),
        "arthur": _name(state, state["arthur"]),
        "merlin": _name(state, state["merlin"]),
        "event": event_info(state),
        # (the event, its name), by kind as the spec lists them: an order any language reads.
        "events": list(rules.EVENT_NAMES.items()),
        "events_drawn": rules.EVENTS_DRAWN,
        "app_deck": state["options"]["deck"] == "app",
        "columns": damosel_columns(state),
        "grid": card_grid(state),
        "grant_default": grant_default(state),
        "joust_stake": rules.JOUST_STAKE,
        "similar_max": rules.MAX_SIMILAR_PAIRS,
        "progress": progress(state),
    }


def _joust_part(joust, *, joust_own, challenger, refused):
    """A guest jousts as its own knight first; the host names any challenger. The fold opens
    again on its own refusal."""
    return {"joust": joust, "joust_own": joust_own, "joust_open": refused == "joust",
            "challenger": challenger}


def panel_model(state, *, viewer, is_host, data, posted, refusal):
    """The controls of one viewer (a seat, or None for the host with no seat), seat-first: this
    seat's own part (its offers, its seal, its joust; Arthur's and Merlin's steps on their
    phones; Merlin's grants), then the table's (a step or a grant for a seat without its phone,
    the worship, the end of the round), then, for the host only, the other seats' controls
    folded away: a guest's phone is given no button that could only be refused. The table's
    part every phone sees alike is `live_model`'s. `data` is games.knights.panel_data.phones:
    the seats held by a phone. The forms refill nothing from a refused post (`posted`): each is
    a button or a fresh choice."""
    phones = set(data or ())
    finished = state["phase"] == "finished"
    seated = viewer is not None and 0 <= viewer < len(state["seats"])
    own = _own_seat(state, viewer) if seated else None
    # A step or a grant for Arthur or Merlin from another phone is the host's (for a seat
    # without its phone): a guest's phone shows the sentence of whose step it is.
    stepper = rules.step_seat(state)
    all_offers = offers(state) or []
    placed = placements(state, viewer, phones)
    joust = joust_targets(state)
    step = rules.event_step(state) if state["phase"] == "event" else None
    own_offers = next((row for row in all_offers if row["seat"] == viewer), None)
    step_own = step is not None and seated and viewer == stepper
    grant_own = state["phase"] == "knight" and seated and viewer == state["merlin"]
    joust_own = bool(joust) and seated and not is_host
    refused = (refusal or {}).get("form") or ""
    return {
        **_table_view(state),
        "event_step": step,
        # Arthur's draw: the events' names reach only the seats that see them (redacted).
        "choices_seen": all(state["event_choices"]),
        "choices": [(event, rules.event_name(event)) for event in state["event_choices"]
                    if event],
        # Arthur's and Merlin's own steps come first on their phones; the table's otherwise.
        "step_own": step_own,
        "step_table": step is not None and is_host and not (seated and viewer == stepper),
        "grant_own": grant_own,
        "grant_table": state["phase"] == "knight" and is_host
        and not (seated and viewer == state["merlin"]),
        "own": own,
        "own_offers": own_offers,
        # Nothing of this seat's own to do now: its part says whose turn it is instead.
        "own_idle": not (step_own or grant_own or joust_own or (own_offers and own_offers["legal"])
                         or (placed and placed["own"] and placed["sealing"])),
        "other_offers": [{**row, "form": f"offer-{row['seat']}"} for row in all_offers
                         if row["seat"] != viewer] if is_host else [],
        "offers": bool(all_offers),
        **_joust_part(joust, joust_own=joust_own, challenger=viewer if seated else 0,
                      refused=refused),
        "placements": placed,
        # Every placement at once: the host's (it would enter the others' secret choices), or
        # anyone's when nothing is secret (a Prosperity is applied with no placement).
        "whole": bool(placed) and (is_host or not placed["sealing"]),
        "is_host": is_host,
        # The host's fold of the other seats opens on its own refusal ("offer-2", "seal-2").
        "others_open": refused.startswith(("offer-", "seal-")),
        "can_end": state.get("resolution") is not None and not finished,
        "finished": finished,
    }
