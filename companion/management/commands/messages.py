"""`manage.py messages`: every message of the code into its catalogue (new ones untranslated),
then the catalogues compiled; `--check` only lists what lacks a translation."""

from django.core.management.base import BaseCommand, CommandError

from companion import catalogues


class Command(BaseCommand):
    help = "Update the translation catalogues from the code and compile them."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true",
                            help="list the messages without a Spanish translation, and fail")
        parser.add_argument("--area", default=None,
                            help='one catalogue: "platform" or "games/<slug>"')
        parser.add_argument("--compile", action="store_true",
                            help="only compile the catalogues that changed")

    def handle(self, *args, check=False, compile=False, area=None, **options):
        if compile:
            catalogues.compile_all()
            return
        area = "" if area == "platform" else area
        if not check:
            for name, count in catalogues.update(only=area).items():
                self.stdout.write(f"{name or 'platform'}: {count} messages")
            catalogues.compile_all(only_stale=False)
        missing = catalogues.problems(only=area)
        for where, msgid, what in missing:
            self.stdout.write(f"{where}: {what}: {msgid!r}")
        if missing and check:
            raise CommandError(f"{len(missing)} messages lack a Spanish translation.")
        self.stdout.write(f"{len(missing)} messages to translate.")
