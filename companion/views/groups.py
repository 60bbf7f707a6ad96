"""A group's pages: the groups of an account (make one, join with a code), a group's page
(members, the invite, who owns it) and the invite link. Its history is companion.history's
pages in the group's scope. Who may do what is the services' to decide (services.groups); a
group's pages are its members' only, 404 to anyone else."""

import json

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from companion import bgstats, limits, play_figures, services
from companion.access import group_or_404, groups_of
from companion.errors import Refused
from companion.lan import public_base
from companion.models import Group, Session
from companion.scopes import roster_of
from companion.services.groups import group_of_code
from companion.views.accounts import VERSUS_MOST, refused_page


def _groups_page(request, refusal=None, **posted):
    context = {"groups": groups_of(request.user), **posted}
    if refusal is not None:
        return refused_page(request, "companion/groups/list.html", context, refusal)
    return render(request, "companion/groups/list.html", context)


@login_required
def groups(request):
    """The account's groups; a post makes one."""
    if request.method == "POST":
        name = request.POST.get("name", "")
        try:
            group = services.group_create(owner=request.user, name=name)
        except Refused as refusal:
            return _groups_page(request, refusal,
                                name=name[:Group._meta.get_field("name").max_length])
        return redirect("group", pk=group.pk)
    return _groups_page(request)


@login_required
@require_POST
def group_join(request):
    code = request.POST.get("code", "")
    try:
        with limits.join_counted(request):
            group = services.group_join(user=request.user, code=code)
    except Refused as refusal:
        return _groups_page(request, refusal, code=Session.typed_code(code)[:20])
    return redirect("group", pk=group.pk)


@login_required
def group_invite(request, code):
    """The invite link: who is signed in is asked to join (a button: a link opened by a preview
    joins nobody); who is not signs in first (login_required)."""
    code = Session.typed_code(code)[:20]
    if request.method == "POST":
        return group_join(request)
    try:
        with limits.join_counted(request):
            group = group_of_code(code)
    except Refused as refusal:
        return _groups_page(request, refusal, code=code)
    member = group.memberships.filter(user=request.user).exists()
    return render(request, "companion/groups/invite.html", {"group": group, "member": member})


def _group_page(request, group, refusal=None):
    versus = play_figures.versus(group=group, most=VERSUS_MOST)
    context = {
        "group": group, "members": group.members.order_by("username"),
        "is_owner": group.owner_id == request.user.pk,
        "roster": roster_of(group=group),
        "invite": public_base(request) + reverse("group-invite", args=[group.code]),
        "versus": [(player, row) for player, row in zip(versus["players"], versus["rows"],
                                                         strict=True)],
        "columns": versus["players"],
    }
    if refusal is not None:
        return refused_page(request, "companion/groups/group.html", context, refusal)
    return render(request, "companion/groups/group.html", context)


def _member_group(request, pk):
    try:
        return group_or_404(request.user, pk)
    except Refused as refusal:
        raise Http404(refusal.message) from None


@login_required
def group_detail(request, pk):
    return _group_page(request, _member_group(request, pk))


@login_required
@require_POST
def group_member_remove(request, pk, username):
    group = _member_group(request, pk)
    try:
        services.group_member_remove(group=group, actor=request.user, username=username)
    except Refused as refusal:
        return _group_page(request, group, refusal)
    if username == request.user.get_username():  # left: the group is no longer theirs to see
        return redirect("groups")
    return redirect("group", pk=group.pk)


@login_required
@require_POST
def group_owner(request, pk):
    group = _member_group(request, pk)
    try:
        services.group_owner_pass(group=group, actor=request.user,
                                  username=request.POST.get("username", ""))
    except Refused as refusal:
        return _group_page(request, group, refusal)
    return redirect("group", pk=group.pk)


@login_required
def group_bgstats_export(request, pk):
    group = _member_group(request, pk)
    data = bgstats.backup_of(group=group)
    response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=1),
                            content_type="application/json; charset=utf-8")
    day = timezone.localdate().isoformat()
    response["Content-Disposition"] = (
        f'attachment; filename="companion-group-{group.pk}-bgstats-{day}.json"')
    return response
