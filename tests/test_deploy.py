"""The production recipe of the README passes Django's deployment checks, and a server started
without SECRET_KEY never signs with a key anyone could read."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def manage(*args, env):
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_check_deploy_with_the_readme_variables_finds_no_issue():
    readme = (ROOT / "README.md").read_text()
    recipe = readme[readme.index("## Running it in production"):]
    assert "SECURE=1" in recipe and "check --deploy" in recipe
    env = {**os.environ, "SECRET_KEY": "x" * 30 + "-a-long-random-production-key-" + "y" * 20,
           "ALLOWED_HOSTS": "companion.example.org",
           "CSRF_TRUSTED_ORIGINS": "https://companion.example.org", "SECURE": "1"}
    env.pop("DEBUG", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the browser tests' own, not production's
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_without_secret_key_the_machine_makes_its_own(tmp_path):
    from companion.settings import local_secret_key

    first = local_secret_key(tmp_path / "key")
    assert first == local_secret_key(tmp_path / "key")  # kept, so sessions outlive a restart
    assert len(first) >= 50 and first != local_secret_key(tmp_path / "other")
    assert oct((tmp_path / "key").stat().st_mode & 0o777) == "0o600"
    settings_text = (ROOT / "companion" / "settings.py").read_text()
    assert not re.search(r"SECRET_KEY\s*=\s*os\.environ\.get\([^)]*,\s*['\"]", settings_text)


def test_a_server_started_without_secret_key_signs_with_a_key_no_file_of_the_repository_holds():
    env = {key: value for key, value in os.environ.items() if key != "SECRET_KEY"}
    env["DJANGO_SETTINGS_MODULE"] = "companion.settings"
    key = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; print(settings.SECRET_KEY)"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True).stdout.strip()
    assert len(key) >= 50
    # The key file is never committed, and no committed file holds the key.
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    assert subprocess.run([git, "check-ignore", "-q", ".secret_key"], cwd=ROOT).returncode == 0
    # -e: a key may begin with "-" (about one in 64), which git would read as an option.
    published = subprocess.run([git, "grep", "-l", "-F", "-e", key], cwd=ROOT,
                               capture_output=True, text=True)
    assert published.returncode == 1 and not published.stdout


def test_a_database_made_by_migrate_alone_and_no_collected_files_serve_a_table(tmp_path):
    """Django's conventional set-up: `migrate` (no createcachetable) and no `collectstatic`. The
    server (bin/serve, as production starts it) registers a host, and its pages and their
    files are served, from the apps' folders, with one warning in the log."""
    import httpx

    from tests.servers import ProcessServer

    env = {key: value for key, value in os.environ.items()
           if key not in {"PYTEST_VERSION", "STATIC_HASHED", "DJANGO_SETTINGS_MODULE"}}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'fresh.sqlite3'}",
               STATIC_ROOT=str(tmp_path / "static"), DJANGO_SETTINGS_MODULE="companion.settings")
    migrated = manage("migrate", "--noinput", env=env)
    assert migrated.returncode == 0, migrated.stderr
    log = tmp_path / "server.log"
    server = ProcessServer(env["DATABASE_URL"], env=env, log=log,
                           unset=("PYTEST_VERSION", "STATIC_HASHED"))
    try:
        with httpx.Client(base_url=server.url, timeout=10) as client:
            registered = client.post("/api/auth/register/", json={
                "username": "dora", "password": "windmills at dusk"})
            assert registered.status_code == 201, registered.text
            page = client.get("/login/")
            assert page.status_code == 200
            stylesheet = re.search(r'href="(/static/css/companion\.css)"', page.text)
            assert stylesheet, "the page names its stylesheet plainly"
            assert client.get(stylesheet.group(1)).status_code == 200
    finally:
        server.stop()
    assert log.read_text().count("No static files collected") == 1


def _names(lock):
    """The packages a lock file pins, their names normalized."""
    return {re.sub(r"[-_.]+", "-", line.split("==")[0]).lower()
            for line in (ROOT / lock).read_text().splitlines()
            if line and not line.startswith(("#", "-"))}


def _needed(roots):
    """The packages `roots` (requirement strings) need, themselves included, as installed."""
    from importlib.metadata import PackageNotFoundError, distribution

    from packaging.requirements import Requirement

    needed, todo = set(), [Requirement(root) for root in roots]
    while todo:
        requirement = todo.pop()
        name = re.sub(r"[-_.]+", "-", requirement.name).lower()
        key = (name, frozenset(requirement.extras))
        if key in needed:
            continue
        needed.add(key)
        try:
            requires = distribution(requirement.name).requires or []
        except PackageNotFoundError:  # a requirement of another platform
            continue
        extras = requirement.extras or {""}
        todo += [needs for needs in map(Requirement, requires)
                 if needs.marker is None or any(needs.marker.evaluate({"extra": extra})
                                                for extra in extras)]
    return {name for name, _extras in needed}


def test_a_server_installs_what_the_app_needs_and_no_test_tool():
    """make run installs requirements.txt alone: it pins what requirements.in needs, all of it
    and nothing more; the tests' and tools' packages are requirements-test.txt's, on top."""
    roots = [line.strip() for line in (ROOT / "requirements.in").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    assert _names("requirements.txt") == _needed(roots)
    assert (ROOT / "requirements-test.txt").read_text().splitlines()[1] == "-r requirements.txt"
    tools = {"pytest", "playwright", "schemathesis", "hypothesis", "ruff", "zxing-cpp", "pillow"}
    assert tools <= _names("requirements-test.txt")
    assert not _names("requirements.txt") & _names("requirements-test.txt")
