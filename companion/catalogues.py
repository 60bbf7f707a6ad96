"""The translation catalogues: where each message lives, extracting them from the code, updating
the .po files, compiling them, and checking that every message has its Spanish.

One catalogue for the platform (locale/) and one per game (games/<slug>/locale/, found by Django
as the game app's own), so that a game brings its sentences with it. Pure Python (Babel): no
gettext binaries on the machine.
"""

import contextlib
import io
import os
import re
import string
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from django.conf import settings
from django.utils.translation.template import templatize

LANGUAGES = ("es",)
DOMAIN = "django"
# Django's own names, the pure modules' `_` (engine.Text) and `n_` (a sentence with a number).
KEYWORDS = {
    "_": None, "gettext": None, "gettext_lazy": None, "gettext_noop": None,
    "n_": (1, 2), "ngettext": (1, 2), "ngettext_lazy": (1, 2),
    "pgettext": ((1, "c"), 2), "pgettext_lazy": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3), "npgettext_lazy": ((1, "c"), 2, 3),
}
SKIPPED = ("migrations", "tests", "__pycache__")


def base():
    return Path(settings.BASE_DIR)


def sources():
    """Every file whose sentences a person reads: the code of the platform and the games, and
    the templates."""
    root = base()
    for folder, pattern in (("companion", "*.py"), ("games", "*.py"), ("games", "*.html"),
                            ("templates", "*.html")):
        for path in sorted((root / folder).rglob(pattern)):
            if not any(part in SKIPPED for part in path.relative_to(root).parts):
                yield path


def area_of(path):
    """The catalogue a source's messages belong to: its game's, or the platform's."""
    parts = Path(path).relative_to(base()).parts
    if parts[0] == "games" and len(parts) > 2:
        return f"games/{parts[1]}"
    return ""


def po_path(area, language):
    return base() / area / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def extracted():
    """{(area, context, msgid): {"plural": msgid_plural or None, "where": ["path:line"]}}."""
    found = {}
    root = base()
    for path in sources():
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".html":
            if "{%" not in text or "trans" not in text:
                continue
            # Django's own reading of the template: its text blanked out (X), each translated
            # string a gettext call, lines unindented so that Python's tokenizer takes them.
            text = "\n".join(line.lstrip() for line in
                             templatize(text, origin=str(path)).splitlines())
        elif not re.search(r"\b(_|n_|gettext\w*|ngettext\w*|pgettext\w*)\(", text):
            continue
        fileobj = io.BytesIO(text.encode("utf-8"))
        for line, message, _comments, context in extract(
                "python", fileobj, keywords=KEYWORDS, options={"encoding": "utf-8"}):
            msgid, plural = (message[0], message[1]) if isinstance(message, tuple) \
                else (message, None)
            if not msgid:
                continue
            entry = found.setdefault((area_of(path), context, msgid),
                                     {"plural": plural, "where": []})
            entry["where"].append(f"{path.relative_to(root)}:{line}")
    return found


def areas():
    """Every area with sources: the platform and each game folder."""
    names = {""}
    names.update(f"games/{path.name}" for path in (base() / "games").iterdir()
                 if (path / "apps.py").exists())
    return sorted(names)


def read(area, language):
    path = po_path(area, language)
    if not path.exists():
        return Catalog(locale=language, domain=DOMAIN)
    with path.open("rb") as file:
        return read_po(file, locale=language, domain=DOMAIN)


def update(language="es", only=None):
    """Adds every new message (untranslated) to its area's .po and drops the ones no source
    has any more; translations already there are kept. `only`: one area ("" the platform's,
    "games/<slug>"). Returns {area: count of messages}."""
    messages = extracted()
    counts = {}
    for area in areas():
        if only is not None and area != only:
            continue
        template = Catalog(domain=DOMAIN)
        for (where, context, msgid), entry in messages.items():
            if where == area:
                key = (msgid, entry["plural"]) if entry["plural"] else msgid
                template.add(key, context=context,
                             locations=[(w.rsplit(":", 1)[0], int(w.rsplit(":", 1)[1]))
                                        for w in entry["where"]])
        catalog = read(area, language)
        # Nothing changes in the file when no message did (not even its header's date).
        template.creation_date = catalog.creation_date
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        catalog.project, catalog.language_team = "Companion", "Companion"
        path = po_path(area, language)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as file:
            write_po(file, catalog, width=100, omit_header=False, include_previous=False,
                     sort_output=False)
        counts[area] = len(catalog)
    return counts


def compile_all(only_stale=True):
    """Writes each .po's .mo beside it (fuzzy entries left out); with only_stale, only where
    the .po is newer. Returns the paths written."""
    written = []
    for language in LANGUAGES:
        for area in areas():
            po = po_path(area, language)
            mo = po.with_suffix(".mo")
            if not po.exists() or (only_stale and mo.exists()
                                   and mo.stat().st_mtime >= po.stat().st_mtime):
                continue
            catalog = read(area, language)
            buffer = io.BytesIO()
            write_mo(buffer, catalog, use_fuzzy=False)
            # Whole or not at all: test workers start at once and may read it meanwhile.
            partial = mo.with_name(f"{mo.name}.{os.getpid()}")
            partial.write_bytes(buffer.getvalue())
            os.replace(partial, mo)
            written.append(mo)
    return written


def _fields(text):
    """The placeholders of a message: {name} fields and %(name)s / %s conversions."""
    names = set(re.findall(r"%\((\w+)\)[sdif]", text))
    names.update(f"%{n}" for n, _ in enumerate(re.findall(r"(?<!%)%[sdif]", text)))
    with contextlib.suppress(ValueError):  # a lone brace: a Django sentence, no fields
        names.update(f"{{{name}}}" for _, name, _, _ in string.Formatter().parse(text)
                     if name is not None)
    return names


def problems(language="es", only=None):
    """Every message a source has that its catalogue lacks, leaves untranslated or fuzzy, or
    translates with other placeholders: [(where, msgid, what is wrong)]."""
    found = []
    catalogues = {area: read(area, language) for area in areas()}
    for (area, context, msgid), entry in sorted(extracted().items(),
                                                 key=lambda item: item[1]["where"][0]):
        if only is not None and area != only:
            continue
        where = entry["where"][0]
        message = catalogues[area].get(msgid, context=context)
        if message is None:
            found.append((where, msgid, "not in the catalogue (run: make messages)"))
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            found.append((where, msgid, "fuzzy"))
        elif not all(strings):
            found.append((where, msgid, "not translated"))
        else:
            wanted = _fields(msgid) | (_fields(entry["plural"]) if entry["plural"] else set())
            for translated in strings:
                has = _fields(translated)
                if not has <= wanted or (not entry["plural"] and has != wanted):
                    found.append((where, msgid, f"placeholders {sorted(has)} for "
                                                f"{sorted(wanted)}: {translated!r}"))
    return found
