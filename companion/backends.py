"""Signing in by the user name in any case."""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend


class AnyCaseBackend(ModelBackend):
    """Django's own check of the password, for the account whose name matches in any case: sign-up
    refuses a name taken in another case ("hostA" beside "hosta"), so a name is one account, and
    a phone's keyboard that capitalises its first letter still signs its host in."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if isinstance(username, str):
            found = (get_user_model()._default_manager.filter(username__iexact=username.strip())
                     .order_by("pk").values_list("username", flat=True).first())
            username = found or username
        return super().authenticate(request, username=username, password=password, **kwargs)
