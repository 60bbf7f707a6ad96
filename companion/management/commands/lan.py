import sys

import segno
from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from companion.lan import lan_address


class Command(BaseCommand):
    help = "Print the address phones on this network open, with its QR code."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000)

    def handle(self, *args, port, **options):
        url = f"http://{lan_address()}:{port}/"
        serving = _("Companion is serving on your network at  %(url)s") % {"url": url}
        scan = _("Open it on the phones at the table, or scan this:")
        self.stdout.write(f"\n{serving}\n{scan}\n")
        self.stdout.flush()
        segno.make(url, error="m").terminal(out=sys.stdout, compact=True)
        sys.stdout.flush()
