"""The card picker's running total: a read-only preview of what `pay`, `audience` and `arrive`
will count, computed by the rules themselves (rules.seat_selection_total). The server checks
again on submit; this only spares a refusal."""

from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from companion.access import page_access
from companion.engine import RuleViolation
from games.rabbits import rules
from games.rabbits.moves import _tokens

KINDS = ("pay", "audience", "arrive")


def _seat(raw, state):
    try:
        seat = int(raw)
    except (TypeError, ValueError):
        return state["turn"]["seat"]
    return seat if 0 <= seat < len(state["seats"]) else state["turn"]["seat"]


def selection_preview(state, kind, seat, cards_text, suits=(), royal=""):
    """The running total against the target, and what stands in the way, for the panel."""
    problems = []
    cards = []
    for word in _tokens(cards_text or ""):
        try:
            card = rules.normal_card(word)
        except RuleViolation:
            problems.append(_("%(word)s is not a card (write QH, 10D, AS...).") % {"word": word})
            continue
        if card in cards:
            problems.append(_("%(card)s is listed twice.") % {"card": card})
            continue
        cards.append(card)
    target, suit_names, need = state["turn"]["price"], None, None
    if kind == "audience":
        target = 10
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
        need = ["H"]
    if need:
        suit_names = rules.listing([rules.SUIT_NAMES[s] for s in rules.SUITS if s in need])
        wrong = [card for card in cards if card[-1] not in need]
        if wrong:
            problems.append(_("%(cards)s: not %(suits)s.") % {"cards": rules.listing(wrong),
                                                             "suits": suit_names})
    held = state["seats"][seat]["royals"]
    foreign = [card for card in cards if rules.is_royal(card) and card not in held]
    if foreign:
        problems.append(_("%(cards)s: not held by %(name)s.")
                        % {"cards": rules.listing(foreign), "name": state["seats"][seat]["name"]})
    target = target if target is not None else 0
    result = rules.seat_selection_total(state, seat, cards, price=target)
    return {"kind": kind, "cards": cards, "total": result["total"], "parts": result["parts"],
            "first_ace": result["first_ace"], "target": target, "enough": result["enough"],
            "short": max(0, target - result["total"]),
            "problems": problems, "suit_names": suit_names,
            "ready": bool(cards) and result["enough"] and not problems}


@require_GET
def total(request, pk):
    session, actor = page_access(request, pk)
    state = session.state
    # The picker's form sends its own fields: its move `type` says which total this is.
    kind = request.GET.get("type", "pay")
    if kind not in KINDS:
        kind = "pay"
    seat = _seat(request.GET.get("seat"), state)
    preview = selection_preview(
        state, kind, seat, request.GET.get("cards", ""),
        suits=request.GET.getlist("suits"), royal=request.GET.get("royal", ""))
    return render(request, "games/rabbits/_total.html", {"preview": preview, "kind": kind})
