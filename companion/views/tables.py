"""The table page and what its forms post: a move, undo, redo, the rematch, the host's seat and
the table's language. Each view renders the whole page, or for an htmx request its #live part
(`template#partial`); who may do what is the services' to decide."""


from urllib.parse import quote

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from companion import colours, inputs, plugins, services, setup_form, stats, who_starts
from companion.access import groups_of, sessions_with_seats, table_access
from companion.engine import RuleViolation
from companion.errors import NeedsConfirmation, Refused, Stale
from companion.fragments import fragment_context, move_described
from companion.lan import public_base
from companion.language import say
from companion.own_history import keep_card, keep_tag
from companion.payloads import move_payload
from companion.scopes import roster_of
from companion.views.joining import guest_seated


def _chosen(groups, raw):
    """The group of `groups` whose id `raw` is (a form's or a query's text), or None."""
    chosen = inputs.whole_number(raw or "")
    return next((group for group in groups if group.pk == chosen), None)


@login_required
def session_new(request):
    slug = request.POST.get("game") or request.GET.get("game")
    games = plugins.all_rules()
    if not slug:
        groups = list(groups_of(request.user))
        return render(request, "companion/new.html", {
            "games": games, "group": _chosen(groups, request.GET.get("group"))})
    try:
        game = plugins.rules_of(slug)
    except RuleViolation:
        raise Http404(_("There is no such game.")) from None
    suggest = plugins.get(game.slug).option_suggestions
    form = setup_form.NewGameForm(game, request.POST if request.method == "POST" else None,
                                  suggest=suggest and (lambda: suggest(owner=request.user)))
    if form.is_bound and not form.adding and form.refusal() is None:
        try:
            session = services.session_create(owner=request.user, game=game.slug,
                                               **form.cleaned_data)
        except Refused as refusal:
            form.refused_by(refusal)
        else:
            return redirect("table", pk=session.pk)
    error = form.refusal()
    groups = list(groups_of(request.user))
    # The roster offered: the chosen group's (one of the host's), else the host's own.
    group = _chosen(groups, form["group"].value() or request.GET.get("group"))
    context = {"game": game, "form": form, "error": error, "groups": groups, "group": group,
               "roster": roster_of(owner=request.user, group=group),
               "locations": stats.locations(owner=request.user)}
    # "Another player" by htmx: the form alone, one row longer.
    template = "companion/new.html" + ("#setup" if request.htmx else "")
    return render(request, template, context, status=400 if error else 200)


def _phones_held(session):
    """The seats phones hold: read once per page (the invite and the host's seat freeing)."""
    if not hasattr(session, "_phones_held"):
        session._phones_held = set(session.guests.exclude(seat=None)
                                   .values_list("seat", flat=True))
    return session._phones_held


def free_seats(session):
    """The seats no phone holds (the host's counts as held), while the game is on."""
    if session.is_finished or session.logged:
        return []
    held = _phones_held(session) | {session.host_seat}
    return [seat for seat in session.seats.all() if seat.index not in held]


def _phones_seats(session, actor):
    """The seats phones hold, for the host to free one (a phone lost); none for a phone."""
    if actor is None or not actor.is_host or session.is_finished:
        return []
    held = _phones_held(session)
    return [seat for seat in session.seats.all() if seat.index in held]


def _seat_moves(session, actor):
    """The free seats a guest's phone holding a seat may move to (a wrong seat tapped); the
    services say when it may not (a choice hidden)."""
    if actor is None or actor.guest is None or actor.seat is None:
        return []
    return free_seats(session)


def _invite(session, actor):
    """The host's invite while the game is on: a card while seats are free (which ones), folded
    to the code once every seat has its phone. The board shows it while seats are free."""
    if actor is not None and not actor.is_host:
        return None
    free = free_seats(session)
    if actor is None and not free or session.is_finished or session.logged:
        return None
    return {"free": free}


def _palette(session, actor, seats):
    """The colours a phone may give a seat (the host any seat's, a seat's phone its own), each
    with the seat that has it: [{"hex", "name", "index", "holder"}]; none once it is over."""
    if actor is None or session.is_finished or not (actor.is_host or actor.seat is not None):
        return []
    holders = {seat.shown_colour: seat.name for seat in seats}
    return [{"hex": hex_, "name": name, "index": index, "holder": holders.get(hex_, "")}
            for index, (hex_, name) in enumerate(colours.PALETTE)]


# table_context's `keep` when the caller has not read the card yet.
UNREAD = object()


def table_context(request, session, actor, *, refusal=None, confirm=None, keep=UNREAD):
    """The table page's context. `keep`: this phone's "Keep this in my history" card, when the
    caller has it already (read for the page's ETag, or refused with a sentence)."""
    # A refused form is shown again with what was posted.
    posted = dict(request.POST.lists()) if refusal and request.method == "POST" else None
    context = fragment_context(session, actor, posted=posted, refusal=refusal)
    if keep is UNREAD:
        keep = keep_card(request, session, actor)
    context.update({
        # What the page's script polls with: the #live part's validator.
        "etag": _live_etag(_page_etag(session, actor, keep)).strip('"')
        if actor is not None else "",
        "confirm": confirm,
        "invite": _invite(session, actor),
        "phones_seats": _phones_seats(session, actor),
        "seat_moves": _seat_moves(session, actor),
        "palette": _palette(session, actor, context["seats"]),
        "join_url": public_base(request) + reverse("join-code", args=[session.code]),
        "board_url": public_base(request) + reverse("board", args=[session.board_key]),
        "keep": keep,
        # The game's live part is drawn apart from the page ({{ live_html }}, as a push draws
        # it): its forms read the token from here, so that they post without JavaScript too.
        "csrf_token": get_token(request),
    })
    return context


def unweakened(validator):
    """An If-None-Match as sent back: a compressed answer's ETag comes back weak (W/"...")."""
    return (validator or "").removeprefix("W/")


def _live_etag(etag):
    """The validator of the table's #live part alone: another than the whole page's, or a
    browser that kept the part (a phone's poll) would answer a reload of the page with it."""
    return etag[:-1] + '-live"'


def _etag(session, actor):
    """The table page's validator: the version and who looks; for the host, also the seats the
    phones hold (a phone joining changes the invite bar, not the version)."""
    # The language too: the same version reads differently in Spanish.
    version = f"{session.version}-{translation.get_language()}"
    if not actor.is_host:
        return f'"{version}-seat{actor.seat}"'
    held = "".join(str(seat) for seat in sorted(
        session.guests.exclude(seat=None).values_list("seat", flat=True)))
    seat = "" if session.host_seat is None else session.host_seat
    return f'"{version}-host{seat}' + (f'-{held}"' if held else '"')


def _page_etag(session, actor, keep):
    """_etag, and what this phone's "Keep this in my history" card (`keep`) shows (signed in,
    kept), which changes without a new version."""
    return _etag(session, actor)[:-1] + keep_tag(keep) + '"'


def table(request, pk):
    session, actor = table_access(request, pk)
    partial = bool(request.htmx and request.htmx.target)
    keep = keep_card(request, session, actor)
    etag = _page_etag(session, actor, keep)
    etag = _live_etag(etag) if partial else etag
    if unweakened(request.headers.get("If-None-Match")) == etag:
        response = HttpResponse(status=304)
    else:
        template = "companion/table.html" + ("#live" if partial else "")
        response = render(request, template, table_context(request, session, actor, keep=keep))
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    # The whole page, or for htmx one partial of it: a cache keeps them apart.
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


def refused_table(request, session, actor, message, form, status):
    session = sessions_with_seats().get(pk=session.pk)  # as it is now, not as the form saw it
    if status == 403:
        # Whose move it is, not what is wrong with a field: said in the "now" line, which this
        # phone has in view wherever it is on the page.
        form = ""
    context = table_context(request, session, actor,
                            refusal={"form": form, "message": message})
    template = "companion/table.html#live" if request.htmx else "companion/table.html"
    return render(request, template, context, status=status)


def _kept_offline(request):
    """Whether this post is one the phone kept while offline, sent now that it is back
    (offline.js says so), and the newest move that phone had seen when it kept it (or None)."""
    seen = request.headers.get("X-Offline-Replay")
    return seen is not None, inputs.whole_number(seen)


def _kept_refused(request, session, actor, refusal, described):
    """A move kept offline and refused on its return: its form may be long gone from the
    phone, so the phone says it in a notice of its own (offline.js, from the answer's
    X-Kept-Refused), with what the move was (`described`, its log line)."""
    why = _("the table had moved on.") if isinstance(refusal, Stale) else refusal.message
    sentence = _("Your move kept offline was not played: %(why)s") % {"why": why}
    if described:
        sentence += " " + _("It was: %(move)s") % {"move": say(described)}
    # Drawn beside no form: the notice says it once.
    response = refused_table(request, session, actor, sentence, "kept", refusal.status)
    response["X-Kept-Refused"] = quote(sentence)
    return response


def _refusal_page(request, session, actor, refusal, form, *, described=None):
    """The table again with the refusal's sentence beside `form`; a stale form (412) is told
    that someone at the table moved on, and shown the latest. A post kept offline is told so,
    with what it was (`described`: a callable giving its line, or None)."""
    kept, _seen = _kept_offline(request)
    if kept:
        return _kept_refused(request, session, actor, refusal, described and described())
    if isinstance(refusal, Stale):
        return refused_table(request, session, actor,
                        _("Someone at the table changed this: here is the latest."), form, 412)
    return refused_table(request, session, actor, refusal.message, form, refusal.status)


def _form_key(request):
    """The key the page's script gives each form it sends: a double tap is one move."""
    return inputs.text(request.POST.get("idempotency_key"), field="idempotency_key",
                       label=_("The form's key"), max_length=100) or None


def _fields_of(request):
    """The move's fields: a JSON `payload` (from the richer panels), else the form's fields."""
    if request.POST.get("payload"):
        try:
            fields = inputs.parse_json(request.POST["payload"])
        except Refused as refusal:
            raise Refused(_("The move could not be read: %(why)s") % {"why": refusal.message}) \
                from None
        if not isinstance(fields, dict):
            raise Refused(_("The move could not be read: its payload is not an object."))
        return fields
    skip = {"csrfmiddlewaretoken", "type", "form", "expected_version", "payload",
            "idempotency_key"}
    fields = {}
    for key in request.POST:
        if key in skip:
            continue
        values = request.POST.getlist(key)
        fields[key] = values if key.endswith("[]") or len(values) > 1 else values[0]
    return {key.removesuffix("[]"): value for key, value in fields.items()}


def _expected_version(request):
    return inputs.optional_number(request.POST.get("expected_version"),
                                  label=_("The version"))


def _after_write(request, pk):
    if request.htmx:
        session, actor = table_access(request, pk)
        return render(request, "companion/table.html#live",
                      table_context(request, session, actor))
    return redirect("table", pk=pk)


def _confirmation(request, session, actor, *, message, action, status=200):
    """The page again with a question above it: the same post, confirmed, or nothing. The
    question is asked over the table as it is now, so "Yes" answers for that version: a form
    drawn before other phones moved (the host's own controls are not pushed) is not refused as
    stale once its question has shown the latest."""
    fields = [(name, str(session.version) if name == "expected_version" else value)
              for name, values in request.POST.lists()
              if name not in ("csrfmiddlewaretoken", "confirmed") for value in values]
    confirm = {"message": message, "action": action, "fields": fields}
    template = "companion/table.html#live" if request.htmx else "companion/table.html"
    return render(request, template, table_context(request, session, actor, confirm=confirm),
                  status=status)


def _confirmed(request):
    return request.POST.get("confirmed") == "1"


@require_POST
def move(request, pk):
    session, actor = table_access(request, pk)
    form = request.POST.get("form", "")
    data = None
    try:
        fields = _fields_of(request)
        move_type = request.POST.get("type") or fields.pop("type", None)
        data = move_payload(game=session.game, move_type=move_type, fields=fields,
                            owner=session.owner_id)
        services.move_play(session=session, type=move_type, data=data, actor=actor,
                           expected_version=_expected_version(request), key=_form_key(request),
                           confirmed=_confirmed(request))
    except NeedsConfirmation as question:
        # A move of the host's that would end the game for everyone is asked about once more.
        return _confirmation(request, session, actor, action=reverse("move", args=[pk]),
                             message=question.message)
    except Refused as refusal:
        def described():
            return None if data is None else move_described(
                session=sessions_with_seats().get(pk=session.pk), type=move_type, data=data,
                actor=actor, seen=_kept_offline(request)[1])

        return _refusal_page(request, session, actor, refusal, form, described=described)
    return _after_write(request, pk)


def _made_by_another_phone(move):
    """Whether the host is about to undo what a seat's phone entered (asked first)."""
    return move.actor_guest_id is not None


@require_POST
def undo(request, pk):
    session, actor = table_access(request, pk)
    try:
        last = session.moves.filter(undone=False).order_by("-seq").first()
        expected = _expected_version(request)
        if (last is not None and actor.is_host and not _confirmed(request)
                and expected in (None, session.version)
                and (_made_by_another_phone(last) or session.is_finished)):
            return _confirmation(request, session, actor, action=reverse("undo", args=[pk]),
                                 message=_("Undo “%(what)s”? Everyone at the table is told.")
                                 % {"what": say(last.line)})
        services.move_undo(session=session, actor=actor, expected_version=expected)
    except Refused as refusal:
        return _refusal_page(request, session, actor, refusal, "undo")
    return _after_write(request, pk)


@require_POST
def redo(request, pk):
    session, actor = table_access(request, pk)
    try:
        seq = inputs.optional_number(request.POST.get("seq"), label=_("The move"))
        key = _form_key(request)
        services.move_redo(session=session, actor=actor, seq=seq,
                           expected_version=_expected_version(request), key=key)
    except Refused as refusal:
        return _refusal_page(request, session, actor, refusal, "undo")
    return _after_write(request, pk)


@require_POST
def rematch(request, pk):
    session, actor = table_access(request, pk)
    try:
        # Who starts, where the game-over card asked (else as in the game before).
        first = ({"first": who_starts.first_read(request.POST["first"])}
                 if "first" in request.POST else {})
        new = services.session_rematch(session=session, actor=actor, **first)
    except Refused as refusal:
        return refused_table(request, session, actor, refusal.message, "rematch", refusal.status)
    return redirect("table", pk=new.pk)


def follow(request, pk):
    """Where a phone of a finished table goes for the rematch: the host to the new table, a
    guest's phone with its seat in the new game."""
    session, actor = table_access(request, pk)
    if session.rematch_id is None:
        return redirect("table", pk=pk)
    if actor.guest is None:
        return redirect("table", pk=session.rematch_id)
    guest = services.guest_follow(guest=actor.guest)
    return guest_seated(request, guest)


@require_POST
def host_seat(request, pk):
    session, actor = table_access(request, pk)
    if not actor.is_host:
        return redirect("table", pk=pk)
    try:
        seat = inputs.optional_number(request.POST.get("seat"), label=_("The seat"))
        services.session_host_seat(session=session, seat=seat)
    except Refused as refusal:
        return refused_table(request, session, actor, refusal.message, "seat", refusal.status)
    return redirect("table", pk=pk)


@require_POST
def table_language(request, pk):
    session, actor = table_access(request, pk)
    try:
        services.session_language_set(session=session, actor=actor,
                                      language=request.POST.get("language"))
    except Refused as refusal:
        return refused_table(request, session, actor, refusal.message, "language", refusal.status)
    return redirect("table", pk=pk)


@require_POST
def seat_colour(request, pk):
    """A seat's colour, from its own phone or the host's (the services say who may)."""
    session, actor = table_access(request, pk)
    try:
        seat = inputs.optional_number(request.POST.get("seat"), label=_("The seat"))
        services.seat_colour_set(session=session, actor=actor, seat=seat,
                                 colour=request.POST.get("colour"))
    except Refused as refusal:
        return refused_table(request, session, actor, refusal.message, "colour", refusal.status)
    return redirect("table", pk=pk)


@require_POST
def seat_free(request, pk):
    session, actor = table_access(request, pk)
    try:
        seat = inputs.optional_number(request.POST.get("seat"), label=_("The seat"))
        services.guest_seat_free(session=session, actor=actor, seat=seat)
    except Refused as refusal:
        return refused_table(request, session, actor, refusal.message, "seat-free", refusal.status)
    return redirect("table", pk=pk)


@require_POST
def seat_claim(request, pk):
    session, actor = table_access(request, pk)
    if actor.guest is None:
        return redirect("table", pk=pk)
    try:
        seat = inputs.optional_number(request.POST.get("seat"), label=_("The seat"))
        if seat is None:
            return redirect("table", pk=pk)
        services.guest_seat_claim(guest=actor.guest, seat=seat)
    except Refused as refusal:
        # Beside the seat choice of a seatless phone, or the move of a seated one, while the
        # game is on; elsewhere in the now line.
        form = "" if session.is_finished else "seat" if actor.guest.seat is None \
            else "seat-move"
        return refused_table(request, session, actor, refusal.message, form, refusal.status)
    # To the table's top, where the phone's own controls now are: the form was at the page's
    # foot, and the browser would bring the page back scrolled there.
    return HttpResponseRedirect(reverse("table", args=[pk]) + "#table")
