"""The worship preview: what the placements in the form would pay each seat, computed by
games.knights.panel.preview (rules.worship_preview) on the state as this phone sees it, as its
panel's own preview is (a granted card's damosel stays hidden while the knight phase is open).
Read-only; it never looks at sealed choices, only at the faces the form sends."""

from django.shortcuts import render
from django.views.decorators.http import require_GET

from companion import plugins
from companion.access import page_access
from games.knights import panel
from games.knights.moves import dotted


@require_GET
def preview(request, pk):
    session, actor = page_access(request, pk, game="knights")
    rules = plugins.rules_of(session.game)
    result = panel.preview(rules.redact(session.state, actor.seat), dotted(request.GET))
    if request.htmx:
        return render(request, "games/knights/_preview.html", {"preview": result})
    return render(request, "games/knights/preview_page.html",
                  {"preview": result, "session": session, "rules": rules})
