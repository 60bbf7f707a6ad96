from django.contrib.auth import get_user_model

from tests.views.helpers import browser_for


def test_the_admin_lists_sessions_but_never_deletes_one(game):
    admin = get_user_model().objects.create_superuser("root", password="a long admin pass")
    client = browser_for(admin)
    assert client.get("/admin/companion/session/").status_code == 200
    assert client.get(f"/admin/companion/session/{game.pk}/delete/").status_code == 403
    assert client.get("/admin/companion/move/").status_code == 200
