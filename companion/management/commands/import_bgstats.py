"""manage.py import_bgstats FILE --host NAME: a BG Stats backup into a host's history, the same
import as the page (services.bgstats_import), players matched to the roster by name (any case),
with a progress bar on stderr for large files."""

import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from companion import bgstats, services
from companion.errors import Refused
from companion.models import Player

BAR = 40


class Progress:
    """A plain text bar, redrawn in place at most ten times a second."""

    def __init__(self, stream):
        self.stream, self.shown = stream, 0.0  # a command's OutputWrapper

    def __call__(self, done, total):
        now = time.monotonic()
        if done < total and now - self.shown < 0.1:
            return
        self.shown = now
        filled = BAR * done // total if total else BAR
        self.stream.write(f"\r[{'#' * filled}{'.' * (BAR - filled)}] {done}/{total} plays",
                          ending="\n" if done >= total else "")
        self.stream.flush()


class Command(BaseCommand):
    help = "Import a BG Stats backup (JSON) into a host's history."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file BG Stats exported")
        parser.add_argument("--host", required=True, help="the host's user name")
        parser.add_argument("--quiet-progress", action="store_true", help="no progress bar")

    def handle(self, *args, file, host, quiet_progress=False, **options):
        user = get_user_model().objects.filter(username__iexact=host).first()
        if user is None:
            raise CommandError(f"There is no host called {host}.")
        try:
            with open(file, "rb") as handle:
                raw = handle.read(bgstats.BACKUP_MAX_BYTES + 1)
        except OSError as error:
            raise CommandError(f"The file cannot be read: {error.strerror}.") from None
        try:
            backup = bgstats.read_backup(raw)
        except Refused as refusal:
            raise CommandError(refusal.message) from None
        roster = dict(Player.objects.filter(owner=user).values_list("id", "name"))
        matches = bgstats.suggested_matches(backup, roster.items())
        entries, skipped = bgstats.plan(backup, matches=matches, roster=roster)
        progress = None if quiet_progress else Progress(self.stderr)
        started = time.monotonic()
        summary = services.bgstats_import(owner=user, plays=entries, progress=progress)
        seconds = time.monotonic() - started
        matched = sorted({roster[pid] for pid in matches.values() if pid is not None})
        skipped = skipped + summary["skipped"]
        out = self.stdout
        out.write(f"{len(summary['added'])} plays added, "
                  f"{len(summary['already'])} imported before (not added again), "
                  f"{len(skipped)} skipped, in {seconds:.1f} s.")
        out.write(f"{len(matched)} players matched to the roster"
                  + (f": {', '.join(matched)}" if matched else "") + ".")
        out.write(f"{len(summary['new_players'])} new players"
                  + (f": {', '.join(summary['new_players'])}" if summary["new_players"] else "")
                  + ".")
        for label, why in skipped:
            out.write(f"Skipped {label}: {why}")
