"""This machine's own time zone, for `make run`: a laptop serving the table on the local network
shows the times, and takes the "today", of the room it is in. A server elsewhere says its zone
with TIME_ZONE (UTC when it does not).

    python -m companion.machine_zone     # prints e.g. Europe/Madrid; UTC when it cannot tell
"""

import contextlib
import os
import zoneinfo
from pathlib import Path

LOCALTIME = Path("/etc/localtime")  # Linux and macOS: a link into the zone database
TIMEZONE = Path("/etc/timezone")  # Debian's name of it, where /etc/localtime is a copy


def zone(*, environ=os.environ, localtime=LOCALTIME, timezone=TIMEZONE):
    """The zone's IANA name, from TZ, the link or the file, in that order; UTC when none names a
    zone Python knows (TZ may be a POSIX rule such as "CET-1", which Django cannot take)."""
    named = [environ.get("TZ", "").lstrip(":")]
    try:
        link = os.readlink(localtime)
    except OSError:
        link = ""
    named.append(link.partition("zoneinfo/")[2])
    with contextlib.suppress(OSError):
        named.append(timezone.read_text().strip())
    for name in named:
        if name and _known(name):
            return name
    return "UTC"


def _known(name):
    try:
        zoneinfo.ZoneInfo(name)
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        return False
    return True


if __name__ == "__main__":
    print(zone())
