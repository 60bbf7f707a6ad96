"""BG Stats pages: send a finished play to BG Stats, import a BG Stats backup (upload, then one
page where the host confirms who is who before anything is written, then what was done), and
download a history in the backup's shape. The mapping is companion.bgstats; the import runs in
the background (services.bgstats_import_start), and its page shows its progress, then its
summary."""

import json

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from companion import access, bgstats, bgstats_backup, inputs, services
from companion.errors import Refused
from companion.models import BackupImport
from companion.scopes import roster_of


def send(request, pk):
    """Opens BG Stats' create-play link for a finished game (the host's or a seated phone's)."""
    session, _actor = access.page_access(request, pk)
    link = bgstats.send_link(session)
    if link is None:
        return HttpResponse(_("This game is still being played: send it to BG Stats once it is "
                              "over."), status=409, content_type="text/plain; charset=utf-8")
    return HttpResponseRedirect(link)


@login_required
def upload(request):
    error = None
    if request.method == "POST":
        upload_file = request.FILES.get("backup")
        if upload_file is None:
            error = _("Choose the backup file BG Stats exported.")
        elif upload_file.size > bgstats_backup.BACKUP_MAX_BYTES:
            error = _("This file is %(size)s MB; a BG Stats backup of up to %(max)s MB can be "
                      "imported.") % {"size": round(upload_file.size / 1e6, 1),
                                      "max": bgstats_backup.BACKUP_MAX_BYTES // (1024 * 1024)}
        else:
            raw = upload_file.read(bgstats_backup.BACKUP_MAX_BYTES + 1)
            try:
                bgstats_backup.read_backup(raw)
            except Refused as refusal:
                error = refusal.message
            else:
                upload = services.backup_upload_keep(owner=request.user, backup=raw)
                return HttpResponseRedirect(reverse("bgstats-confirm", args=[upload]))
    return render(request, "companion/bgstats/upload.html", {"error": error},
                  status=400 if error else 200)


def _roster(user):
    return dict(roster_of(owner=user).values_list("id", "name"))


@login_required
def confirm(request, upload):
    raw = services.backup_upload_get(owner=request.user, pk=upload)
    if raw is None:
        return render(request, "companion/bgstats/upload.html", {
            "error": _("That upload is no longer waiting (an hour has passed, it was imported, "
                       "or %(kept)s newer ones took its place): upload the file again.")
            % {"kept": services.UPLOADS_KEPT}}, status=410)
    backup = bgstats_backup.read_backup(raw)
    roster = _roster(request.user)
    suggested = bgstats.suggested_matches(backup, roster.items())
    people = bgstats.players_used(backup)
    if request.method == "POST":
        matches = {}
        for person in people:
            chosen = inputs.whole_number(request.POST.get(f"player-{person['id']}", ""))
            matches[person["id"]] = chosen if chosen in roster else None
        job = services.bgstats_import_start(owner=request.user, backup=raw, matches=matches,
                                            read=backup)
        services.backup_upload_delete(owner=request.user, pk=upload)
        return HttpResponseRedirect(reverse("bgstats-progress", args=[job.pk]))
    games = {}
    for play in backup["plays"]:
        games[play["game"]] = games.get(play["game"], 0) + 1
    rows = []
    for gid, count in sorted(games.items(), key=lambda item: -item[1]):
        slug, title, _win = bgstats.logged_game_of(backup["games"][gid])
        rows.append({"name": backup["games"][gid]["name"], "plays": count, "ours": not title})
    new = bgstats.new_names(backup, roster)
    return render(request, "companion/bgstats/confirm.html", {
        "people": [{**person, "match": suggested.get(person["id"]), "new_name": new[person["id"]]}
                   for person in people],
        "roster": sorted(roster.items(), key=lambda item: item[1].lower()),
        "games": rows, "plays": len(backup["plays"]) + len(backup["refused"])})


@login_required
def progress(request, pk):
    """An import's progress until it is over, then its summary; an htmx poll gets the partial."""
    job = get_object_or_404(BackupImport.objects.defer("backup"), owner=request.user, pk=pk)
    template = "companion/bgstats/summary.html"
    return render(request, f"{template}#import-progress" if request.htmx else template,
                  {"job": job})


@login_required
def export(request):
    data = bgstats.backup_of(owner=request.user)
    response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=1),
                            content_type="application/json; charset=utf-8")
    day = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="companion-bgstats-{day}.json"'
    return response


urlpatterns = [
    path("s/<int:pk>/bgstats/", send, name="bgstats-send"),
    path("bgstats/import/", upload, name="bgstats-import"),
    path("bgstats/import/confirm/<int:upload>/", confirm, name="bgstats-confirm"),
    path("bgstats/import/<int:pk>/", progress, name="bgstats-progress"),
    path("bgstats/export.json", export, name="bgstats-export"),
]
