"""The worship preview: what the placements in the form would pay each seat, computed by
games.knights.panel.preview (rules.worship_preview) on the session's state. Read-only; it never
looks at sealed choices, only at the faces the form sends."""

from django.shortcuts import render
from django.views.decorators.http import require_GET

from companion import engine
from companion.access import page_access
from games.knights import panel
from games.knights.moves import dotted


@require_GET
def preview(request, pk):
    session, _actor = page_access(request, pk)
    result = panel.preview(session.state, dotted(request.GET))
    if request.htmx:
        return render(request, "games/knights/_preview.html", {"preview": result})
    return render(request, "games/knights/preview_page.html",
                  {"preview": result, "session": session, "rules": engine.get(session.game)})
