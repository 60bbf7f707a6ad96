"""`{% load translations %}` is Django's i18n tags with a literal's `{% translate %}` kept per
language (companion/templatetags/translations.py): what each tag renders is what Django's renders,
in each language, however the languages alternate, with `as`, `noop`, a context and no
autoescape; and every template of ours loads it."""

import re
from pathlib import Path

import pytest
from django.template import Context, Engine, Template
from django.utils import translation

SOURCE = (
    '{% load translations %}[{% translate "Scoreboard" %}]'
    '[{% translate "you" as you %}{{ you }}]'
    '[{% translate "Scoreboard" noop %}]'
    '[{% translate "Players" context "a heading" %}]'
    '[{% translate word %}]'
    '{% autoescape off %}[{% translate "Ann & Bob" %}]{% endautoescape %}'
    '[{% translate "Ann & Bob" %}]'
)


def with_djangos_tags():
    django = Engine(libraries={"i18n": "django.templatetags.i18n"})
    return django.from_string(SOURCE.replace("load translations", "load i18n"))


@pytest.mark.parametrize("languages", [("es", "en", "es"), ("en", "es", "en")])
def test_a_kept_translation_is_djangos_in_each_language(languages):
    kept = Template(SOURCE)
    assert type(kept.nodelist[2]).__name__ == "KeptTranslateNode"
    for language in languages:
        with translation.override(language):
            for word in ("Round", "Total"):
                context = {"word": word}
                assert kept.render(Context(context)) == with_djangos_tags().render(Context(context))
    with translation.override("es"):
        assert "[Marcador]" in kept.render(Context({"word": "Total"}))


def test_every_template_loads_the_kept_translations():
    root = Path(__file__).resolve().parent.parent
    loading_djangos = [
        str(path.relative_to(root)) for folder in ("templates", "games", "companion")
        for path in (root / folder).rglob("*.html")
        if re.search(r"{%\s*load\s[^%]*\bi18n\b", path.read_text())]
    assert loading_djangos == []
