import re

from django.test import Client

# What a page loads (scripts, images, styles, fonts): never from an absolute address. Links to
# click (<a href>) may be absolute: the join link shown on the table page is.
EXTERNAL = re.compile(r"""(?:\bsrc\s*=\s*|<link\b[^>]*\bhref\s*=\s*|url\()["']?(?:https?:)?//""",
                      re.I)


def browser_for(user=None):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def assert_phone_ready(response):
    """Every page: the phone viewport, our own stylesheet, nothing loaded from another host."""
    html = response.content.decode()
    assert 'name="viewport" content="width=device-width, initial-scale=1"' in html
    assert "/static/css/companion.css" in html
    assert not EXTERNAL.search(html), EXTERNAL.search(html).group(0)
