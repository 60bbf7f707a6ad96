"""`{% load i18n %}` is Django's tags with a literal's `{% translate %}` kept per language
(companion/templatetags/i18n_kept.py): what each tag renders is what Django's renders, in each
language, however the languages alternate, with `as`, `noop`, a context and no autoescape."""

import pytest
from django.template import Context, Engine, Template
from django.utils import translation

SOURCE = (
    '{% load i18n %}[{% translate "Scoreboard" %}]'
    '[{% translate "you" as you %}{{ you }}]'
    '[{% translate "Scoreboard" noop %}]'
    '[{% translate "Players" context "a heading" %}]'
    '[{% translate word %}]'
    '{% autoescape off %}[{% translate "Ann & Bob" %}]{% endautoescape %}'
    '[{% translate "Ann & Bob" %}]'
)


def with_djangos_tags():
    return Engine(libraries={"i18n": "django.templatetags.i18n"}).from_string(SOURCE)


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
