"""`make run` serves the table in the machine's own time zone (companion/machine_zone.py)."""

import subprocess
import sys

from companion.machine_zone import zone

NOWHERE = "/nonexistent/localtime"


def test_tz_names_the_zone_first(tmp_path):
    link = tmp_path / "localtime"
    link.symlink_to("/usr/share/zoneinfo/America/Lima")
    assert zone(environ={"TZ": "Europe/Madrid"}, localtime=link) == "Europe/Madrid"
    assert zone(environ={"TZ": ":Asia/Tokyo"}, localtime=link) == "Asia/Tokyo"


def test_else_the_link_into_the_zone_database(tmp_path):
    link = tmp_path / "localtime"
    link.symlink_to("/var/db/timezone/zoneinfo/Europe/Madrid")  # macOS's; need not exist here
    assert zone(environ={}, localtime=link, timezone=tmp_path / "none") == "Europe/Madrid"


def test_else_debian_s_file(tmp_path):
    named = tmp_path / "timezone"
    named.write_text("Atlantic/Canary\n")
    assert zone(environ={}, localtime=NOWHERE, timezone=named) == "Atlantic/Canary"


def test_utc_when_nothing_names_a_zone_django_can_take(tmp_path):
    named = tmp_path / "timezone"
    named.write_text("../../etc/passwd\n")
    assert zone(environ={"TZ": "CET-1"}, localtime=NOWHERE, timezone=named) == "UTC"
    assert zone(environ={}, localtime=NOWHERE, timezone=tmp_path / "none") == "UTC"


def test_the_command_prints_it():
    printed = subprocess.run([sys.executable, "-m", "companion.machine_zone"], check=True,
                             capture_output=True, text=True, env={"TZ": "Europe/Madrid"})
    assert printed.stdout == "Europe/Madrid\n"
