"""The worship preview: what the placements in the form would pay each seat, computed by
rules.worship_preview on the session's state. Read-only; it never looks at sealed choices, only
at the faces the form sends."""

from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from companion import engine
from companion.access import page_access
from games.knights import panel
from games.knights.moves import _dotted


@require_GET
def preview(request, pk):
    session, _actor = page_access(request, pk)
    state = session.state
    if state["event"] is None or state["resolution"] is not None or state["phase"] == "finished":
        result = {"error": _("There is no worship to preview now.")}
    else:
        result = panel.preview(state, _dotted(request.GET))
    if request.htmx:
        return render(request, "games/knights/_preview.html", {"preview": result})
    return render(request, "games/knights/preview_page.html",
                  {"preview": result, "session": session, "rules": engine.get(session.game)})
