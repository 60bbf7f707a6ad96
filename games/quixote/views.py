"""Don Quixote's own page: the live preview of a round's points while a player fills the score
form. It reads only; the score itself is saved by the table's `move` view."""

from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from companion.access import page_access
from companion.engine import Refused, RuleViolation
from companion.payloads import move_payload
from games.quixote import panel

SCORE_FIELDS = ("seat", *panel.SCORE_FIELDS)


@require_POST
def preview(request, pk):
    session, _actor = page_access(request, pk, game="quixote")
    fields = {name: request.POST[name] for name in SCORE_FIELDS if name in request.POST}
    seats = session.state["seats"]
    try:
        data = move_payload(game=session.game, move_type="score", fields=fields)
        seat = data.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < len(seats):
            raise RuleViolation(_("There is no such seat."), field="seat")
        result = panel.preview_of(seats[seat], data)
    except Refused as refusal:
        result = {"error": refusal.message}
    return render(request, "games/quixote/_preview.html", {"preview": result})
