"""Accounts and the host's roster of players."""


from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from knox.models import AuthToken

from companion import inputs
from companion.errors import (
    Invalid,
    NameTaken,
)
from companion.models import Player
from companion.scopes import roster_of


def user_register(*, username, password):
    """A new host account: (user, an API token for the device that registered)."""
    User = get_user_model()
    username = inputs.text(username, field="username", label=_("The user name"),
                           max_length=User._meta.get_field("username").max_length)
    if not username:
        message = _("Choose a user name.")
        raise Invalid(message, fields={"username": [message]})
    if User.objects.filter(username__iexact=username).exists():
        raise NameTaken(username)
    candidate = User(username=username)
    try:
        password_validation.validate_password(password or "", candidate)
    except ValidationError as error:
        raise Invalid(" ".join(error.messages), fields={"password": error.messages}) from None
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, password=password)
            _token, key = AuthToken.objects.create(user=user)
    except IntegrityError:  # the same name registered at the same moment (any case)
        raise NameTaken(username) from None
    return user, key


def token_for(*, user):
    """A new API token for `user`: each signed-in device has its own, which ends on its own."""
    _token, key = AuthToken.objects.create(user=user)
    return key


def token_end(*, user, device):
    """End the token of one of `user`'s signed-in devices (its `token_key`); False when
    `user` has no such device."""
    deleted, _by_model = AuthToken.objects.filter(user=user, token_key=device).delete()
    return bool(deleted)


def player_create(*, owner, name, group=None):
    """A new player in the host's own roster, or in the `group`'s (added by `owner`, a member:
    the caller has checked it)."""
    name = inputs.text(name, field="name", label=_("The name"),
                       max_length=Player._meta.get_field("name").max_length)
    if not name:
        message = _("A player needs a name.")
        raise Invalid(message, fields={"name": [message]})
    if roster_of(owner=owner, group=group).filter(name__iexact=name).exists():
        message = _("You already have a player called %(name)s.") % {"name": name}
        raise Invalid(message, fields={"name": [message]})
    try:
        with transaction.atomic():
            return Player.objects.create(owner=owner, group=group, name=name)
    except IntegrityError:
        raise Invalid(_("You already have a player called %(name)s.") % {"name": name}) from None
