"""Groups: people who play together, their members and who owns the group. A group's sessions
share its roster and its history (companion.scopes); opening one is services.session_create's,
with `group`."""

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from companion import inputs
from companion.errors import Conflict, Forbidden, Invalid, NotFound
from companion.models import Group, Membership, Session
from companion.services.sessions import saved_with_a_code


def group_create(*, owner, name):
    """A new group, `owner` its first member."""
    name = inputs.text(name, field="name", label=_("The group's name"),
                       max_length=Group._meta.get_field("name").max_length)
    if not name:
        message = _("Name the group.")
        raise Invalid(message, fields={"name": [message]})
    with transaction.atomic():
        group = saved_with_a_code(Group(name=name, owner=owner))
        Membership.objects.create(group=group, user=owner)
    return group


def group_of_code(code):
    """The group an invite code opens (typed in any case, with spaces or dashes), or NotFound."""
    code = Session.typed_code(code)
    group = Group.objects.filter(code=code).first() if code else None
    if group is None:
        raise NotFound(_("No group has that code: check it with whoever invited you."),
                       field="code")
    return group


def group_join(*, user, code):
    """`user` joins the group whose code this is (already a member: nothing changes). A code that
    opens no group is NotFound: the views count it as a failed join (companion.limits)."""
    group = group_of_code(code)
    with transaction.atomic():
        Membership.objects.get_or_create(group=group, user=user)
    return group


def _member(group, username):
    """The member of `group` called `username`, or NotFound."""
    user = get_user_model().objects.filter(
        username=username if isinstance(username, str) else "",
        memberships__group=group).first()
    if user is None:
        raise NotFound(_("%(name)s is not a member of this group.")
                       % {"name": str(username)[:150]})
    return user


def group_member_remove(*, group, actor, username):
    """The owner removes a member; a member leaves. The owner leaves only once another member
    owns the group: a group always has its owner among its members."""
    with transaction.atomic():
        group = Group.objects.select_for_update().get(pk=group.pk)
        if not Membership.objects.filter(group=group, user=actor).exists():
            raise NotFound(_("There is no such group, or you are not in it."))
        member = _member(group, username)
        if member.pk != actor.pk and group.owner_id != actor.pk:
            raise Forbidden(_("Only the group's owner may remove another member."))
        if member.pk == group.owner_id:
            raise Conflict(_("The owner leaves only after passing the group to another member."))
        Membership.objects.filter(group=group, user=member).delete()
    return group


def group_owner_pass(*, group, actor, username):
    """The owner passes the group to another of its members."""
    with transaction.atomic():
        group = Group.objects.select_for_update().get(pk=group.pk)
        if group.owner_id != actor.pk:
            raise Forbidden(_("Only the group's owner may pass it to another member."))
        member = _member(group, username)
        group.owner = member
        group.save(update_fields=["owner"])
    return group
