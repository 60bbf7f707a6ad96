"""The card picker's running total: a read-only preview of what `pay`, `audience` and `arrive`
will count (games.rabbits.panel.selection_preview, asking the rules). The server checks again
on submit; this only spares a refusal."""

from django.shortcuts import render
from django.views.decorators.http import require_GET

from companion.access import page_access
from games.rabbits import panel


@require_GET
def total(request, pk):
    session, _actor = page_access(request, pk, game="rabbits")
    state = session.state
    # The picker's form sends its own fields: its move `type` says which total this is.
    kind = request.GET.get("type", "pay")
    if kind not in panel.PREVIEW_KINDS:
        kind = "pay"
    preview = panel.selection_preview(
        state, kind, panel.preview_seat(state, request.GET.get("seat")),
        request.GET.get("cards", ""), suits=request.GET.getlist("suits"),
        royal=request.GET.get("royal", ""))
    return render(request, "games/rabbits/_total.html", {"preview": preview, "kind": kind})
