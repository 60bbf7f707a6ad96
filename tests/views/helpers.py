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


def guest_browser(session, seat=None):
    """A phone that joined `session` with its code (taking `seat`): its cookie is set."""
    from companion import services
    from companion.access import guest_cookie_name

    guest = services.guest_join(code=session.code, seat=seat)
    client = Client()
    client.cookies[guest_cookie_name(session.pk)] = guest.token
    return client


def assert_phone_ready(response):
    """Every page: the phone viewport, our own stylesheet, nothing loaded from another host."""
    html = response.content.decode()
    assert 'name="viewport" content="width=device-width, initial-scale=1"' in html
    assert "/static/css/companion.css" in html
    assert not EXTERNAL.search(html), EXTERNAL.search(html).group(0)


def off_the_loop(call):
    """`call()` on a thread of its own: a browser test that ran earlier on the same worker leaves
    an event loop on this thread, from which Django refuses to call an async view (the stream)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(call).result()
