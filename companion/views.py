"""The pages shared by all games. Each view renders its whole page, or for an htmx request the one
partial that changed (`template#partial`). Access is decided here, never in templates."""

import io

import segno
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.db.models import Prefetch
from django.http import Http404, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.http import require_POST

from companion import inputs, limits, plugins, services, setup_form, stats
from companion.access import guest_cookie_name, page_access
from companion.engine import RuleViolation
from companion.errors import NeedsConfirmation, Refused, Stale
from companion.fragments import fragment_context
from companion.lan import public_base
from companion.language import say
from companion.models import Player, Seat, Session
from companion.payloads import move_payload

GUEST_COOKIE_AGE = 60 * 60 * 24 * 30


def _sessions_with_seats():
    return Session.objects.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.order_by("index"))
    )


def _access(request, pk):
    """(session, actor) for the table pages; 404 for anyone else, as if it did not exist."""
    return page_access(request, pk, queryset=_sessions_with_seats())


def home(request):
    recent = []
    if request.user.is_authenticated:
        recent = _sessions_with_seats().filter(owner=request.user)[:10]
    return render(request, "companion/home.html", {"recent": recent,
                                                   "games": plugins.all_rules()})


def refused_page(request, template, context, refusal):
    """A page shown again with the refusal's sentence, in its status (and Retry-After for a
    rate limit)."""
    response = render(request, template, {**context, "error": refusal.message},
                      status=refusal.status)
    if getattr(refusal, "retry_after", None):
        response["Retry-After"] = str(refusal.retry_after)
    return response


def signup(request):
    username = ""
    if request.method == "POST":
        username = request.POST.get("username", "")
        try:
            with limits.registering(request):
                user, _token = services.user_register(username=username,
                                                      password=request.POST.get("password", ""))
        except Refused as refusal:
            return refused_page(request, "companion/signup.html", {"username": username},
                                refusal)
        login(request, user)  # the one backend (settings.AUTHENTICATION_BACKENDS)
        return redirect("home")
    return render(request, "companion/signup.html", {"username": username})


class SignIn(LoginView):
    """Django's sign-in, with the limits on wrong passwords (per account and per client)."""

    template_name = "companion/login.html"
    redirect_authenticated_user = True

    def post(self, request, *args, **kwargs):
        try:
            limits.sign_in_check(request, request.POST.get("username"))
        except Refused as refusal:
            return refused_page(request, self.template_name, self.locked_context(refusal),
                                refusal)
        return super().post(request, *args, **kwargs)

    def locked_context(self, refusal):
        """The page's context for a locked sign-in (its template shows the refusal itself)."""
        return {"form": self.get_form()}

    def form_invalid(self, form):
        limits.sign_in_failed(self.request, self.request.POST.get("username"))
        return super().form_invalid(form)


class AdminSignIn(SignIn):
    """The admin's sign-in, under the same limits (Django's own has none, and a staff account is
    the one worth guessing): its page, its form (staff only), the refusal among its errors."""

    template_name = "admin/login.html"
    authentication_form = AdminAuthenticationForm
    redirect_authenticated_user = False  # a signed-in account that is not staff is told so

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), **admin.site.each_context(self.request),
                "title": _("Log in"), "app_path": self.request.get_full_path()}

    def locked_context(self, refusal):
        # The admin's page shows a form's errors: the refusal is one (the form is not checked:
        # a locked account's password is not tried).
        form = self.authentication_form(self.request, initial={
            "username": self.request.POST.get("username", "")})
        form.cleaned_data = {}
        form.add_error(None, refusal.message)
        return self.get_context_data(form=form)


@require_POST
def sign_out(request):
    logout(request)
    return redirect("home")


@login_required
def session_new(request):
    slug = request.POST.get("game") or request.GET.get("game")
    games = plugins.all_rules()
    if not slug:
        return render(request, "companion/new.html", {"games": games})
    try:
        game = plugins.rules_of(slug)
    except RuleViolation:
        raise Http404(_("There is no such game.")) from None
    suggest = plugins.get(game.slug).option_suggestions
    form = setup_form.NewGameForm(game, request.POST if request.method == "POST" else None,
                                  suggest=suggest and (lambda: suggest(owner=request.user)))
    error = form.refusal()
    if form.is_bound and error is None:
        try:
            session = services.session_create(owner=request.user, game=game.slug,
                                               **form.cleaned_data)
        except Refused as refusal:
            error = refusal.message
        else:
            return redirect("table", pk=session.pk)
    context = {"game": game, "form": form, "error": error,
               "roster": Player.objects.filter(owner=request.user),
               "locations": stats.locations(owner=request.user)}
    return render(request, "companion/new.html", context, status=400 if error else 200)


def _seated(request, guest):
    """To the table, this phone now known as `guest` of its session (its cookie set)."""
    response = redirect("table", pk=guest.session_id)
    response.set_cookie(guest_cookie_name(guest.session_id), guest.token,
                        max_age=GUEST_COOKIE_AGE, httponly=True, samesite="Lax",
                        secure=request.is_secure())
    return response


def join(request):
    code = Session.typed_code(request.GET.get("code"))
    if code and Session.is_code(code):
        return redirect("join-code", code=code)
    if code:
        return join_code(request, code)
    return render(request, "companion/join.html", {})


def join_code(request, code):
    code = Session.typed_code(code)
    try:
        limits.join_check(request)
    except Refused as refusal:
        return refused_page(request, "companion/join.html", {"code": code[:20]}, refusal)
    session = None
    if Session.is_code(code):
        session = _sessions_with_seats().filter(code=code, status=Session.Status.ACTIVE).first()
        if session is None:
            # A finished game's code, shared before its rematch: the rematch's seats.
            rematch = (Session.objects.filter(code=code, rematch__status=Session.Status.ACTIVE)
                       .values_list("rematch__code", flat=True).first())
            if rematch:
                return redirect("join-code", code=rematch)
    if session is None:
        limits.join_failed(request)
        code = "".join(letter for letter in code[:20] if letter.isprintable())
        return render(request, "companion/join.html",
                      {"error": _("No game is open with the code %(code)s.") % {"code": code},
                       "code": code}, status=404)
    claimed = set(session.guests.exclude(seat=None).values_list("seat", flat=True))
    context = {"session": session, "claimed": claimed}
    if request.method == "POST":
        try:
            seat = inputs.optional_number(request.POST.get("seat"), label=_("The seat"))
            guest = services.guest_join(code=code, seat=seat)
        except Refused as refusal:
            return refused_page(request, "companion/join_seat.html", context, refusal)
        return _seated(request, guest)
    return render(request, "companion/join_seat.html", context)


def _phones_held(session):
    """The seats phones hold: read once per page (the invite and the host's seat freeing)."""
    if not hasattr(session, "_phones_held"):
        session._phones_held = set(session.guests.exclude(seat=None)
                                   .values_list("seat", flat=True))
    return session._phones_held


def _free_seats(session):
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
    return _free_seats(session)


def _invite(session, actor):
    """The host's invite bar (and the board's join code) while seats are free: which ones."""
    if actor is not None and not actor.is_host:
        return None
    free = _free_seats(session)
    return {"free": free} if free else None


def table_context(request, session, actor, *, refusal=None, confirm=None):
    # A refused form is shown again with what was posted.
    posted = dict(request.POST.lists()) if refusal and request.method == "POST" else None
    context = fragment_context(session, actor, posted=posted, refusal=refusal)
    context.update({
        # What the page's script polls with: the #live part's validator.
        "etag": _live_etag(_etag(session, actor)).strip('"') if actor is not None else "",
        "confirm": confirm,
        "invite": _invite(session, actor),
        "phones_seats": _phones_seats(session, actor),
        "seat_moves": _seat_moves(session, actor),
        "join_url": public_base(request) + reverse("join-code", args=[session.code]),
        "board_url": public_base(request) + reverse("board", args=[session.board_key]),
    })
    return context


def _unweakened(validator):
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


def table(request, pk):
    session, actor = _access(request, pk)
    partial = bool(request.htmx and request.htmx.target)
    etag = _live_etag(_etag(session, actor)) if partial else _etag(session, actor)
    if _unweakened(request.headers.get("If-None-Match")) == etag:
        response = HttpResponse(status=304)
    else:
        template = "companion/table.html" + ("#live" if partial else "")
        response = render(request, template, table_context(request, session, actor))
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    # The whole page, or for htmx one partial of it: a cache keeps them apart.
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


def _refused(request, session, actor, message, form, status):
    session.refresh_from_db()
    if status == 403:
        # Whose move it is, not what is wrong with a field: said in the "now" line, which this
        # phone has in view wherever it is on the page.
        form = ""
    context = table_context(request, session, actor,
                            refusal={"form": form, "message": message})
    template = "companion/table.html#live" if request.htmx else "companion/table.html"
    return render(request, template, context, status=status)


def _refusal_page(request, session, actor, refusal, form):
    """The table again with the refusal's sentence beside `form`; a stale form (412) is told
    that someone at the table moved on, and shown the latest."""
    if isinstance(refusal, Stale):
        return _refused(request, session, actor,
                        _("Someone at the table changed this: here is the latest."), form, 412)
    return _refused(request, session, actor, refusal.message, form, refusal.status)


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
        session, actor = _access(request, pk)
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
    session, actor = _access(request, pk)
    form = request.POST.get("form", "")
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
        return _refusal_page(request, session, actor, refusal, form)
    return _after_write(request, pk)


def _made_by_another_phone(move):
    """Whether the host is about to undo what a seat's phone entered (asked first)."""
    return move.actor_guest_id is not None


@require_POST
def undo(request, pk):
    session, actor = _access(request, pk)
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
    session, actor = _access(request, pk)
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
    session, actor = _access(request, pk)
    try:
        new = services.session_rematch(session=session, actor=actor)
    except Refused as refusal:
        return _refused(request, session, actor, refusal.message, "rematch", refusal.status)
    return redirect("table", pk=new.pk)


def follow(request, pk):
    """Where a phone of a finished table goes for the rematch: the host to the new table, a
    guest's phone with its seat in the new game."""
    session, actor = _access(request, pk)
    if session.rematch_id is None:
        return redirect("table", pk=pk)
    if actor.guest is None:
        return redirect("table", pk=session.rematch_id)
    guest = services.guest_follow(guest=actor.guest)
    return _seated(request, guest)


@require_POST
def host_seat(request, pk):
    session, actor = _access(request, pk)
    if not actor.is_host:
        return redirect("table", pk=pk)
    try:
        seat = inputs.optional_number(request.POST.get("seat"), label=_("The seat"))
        services.session_host_seat(session=session, seat=seat)
    except Refused as refusal:
        return _refused(request, session, actor, refusal.message, "seat", refusal.status)
    return redirect("table", pk=pk)


@require_POST
def table_language(request, pk):
    session, actor = _access(request, pk)
    try:
        services.session_language_set(session=session, actor=actor,
                                      language=request.POST.get("language"))
    except Refused as refusal:
        return _refused(request, session, actor, refusal.message, "language", refusal.status)
    return redirect("table", pk=pk)


@require_POST
def seat_free(request, pk):
    session, actor = _access(request, pk)
    try:
        seat = inputs.optional_number(request.POST.get("seat"), label=_("The seat"))
        services.guest_seat_free(session=session, actor=actor, seat=seat)
    except Refused as refusal:
        return _refused(request, session, actor, refusal.message, "seat-free", refusal.status)
    return redirect("table", pk=pk)


@require_POST
def seat_claim(request, pk):
    session, actor = _access(request, pk)
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
        return _refused(request, session, actor, refusal.message, form, refusal.status)
    # To the table's top, where the phone's own controls now are: the form was at the page's
    # foot, and the browser would bring the page back scrolled there.
    return HttpResponseRedirect(reverse("table", args=[pk]) + "#table")


def _qr(request, session):
    url = public_base(request) + reverse("join-code", args=[session.code])
    # A file of its own (an <img>), so it needs its namespace: without it the image is 0 px wide.
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=6, dark="#1b1b1b", light="#ffffff",
                                    xmldecl=False, svgns=True)
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    # The code and the address do not change for a session: a repeat visit loads it from cache.
    response["Cache-Control"] = "private, max-age=86400"
    return response


def join_qr(request, pk):
    session, _actor = _access(request, pk)
    return _qr(request, session)


def _board_session(key):
    session = _sessions_with_seats().filter(board_key=key).first()
    if session is None:
        raise Http404(_("There is no such board."))
    return session


def board_qr(request, key):
    """The join code's QR on the board, while seats are free (the board is read-only)."""
    session = _board_session(key)
    if not _free_seats(session):
        raise Http404(_("Every seat has a phone."))
    return _qr(request, session)


def board(request, key):
    session = _board_session(key)
    # The board is the table's screen: it speaks the table's language, whoever opens it.
    etag = f'"{session.version}-{session.language}-board"'
    if _unweakened(request.headers.get("If-None-Match")) == etag:
        response = HttpResponse(status=304)
    else:
        template = "companion/board.html"
        if request.htmx:
            template += "#live"
        with translation.override(session.language):
            response = render(request, template, table_context(request, session, None))
        response["Content-Language"] = session.language
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    # The whole page, or for htmx one partial of it: a cache keeps them apart.
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


def board_follow(request, key):
    """Where the board of a finished table goes for the rematch: the new game's board (the
    phones' way, /s/<id>/next/, is a table's, which the board has no access to)."""
    session = _board_session(key)
    if session.rematch_id is None:
        return redirect("board", key=key)
    return redirect("board", key=session.rematch.board_key)


@login_required
def players(request):
    error = None
    if request.method == "POST":
        try:
            services.player_create(owner=request.user, name=request.POST.get("name", ""))
        except Refused as refusal:
            error = refusal.message
        else:
            return redirect("players")
    roster = Player.objects.filter(owner=request.user)
    return render(request, "companion/players.html", {"roster": roster, "error": error},
                  status=400 if error else 200)




# Errors outside any view's own answer (no URL matched, a request Django itself refused): under
# /api/ they answer JSON like every other API error, elsewhere Django's plain pages.

def _api_error(request, status, detail, code):
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": detail, "code": code}, status=status)
    return None


def not_found(request, exception):
    return (_api_error(request, 404, _("There is nothing at this address."), "not_found")
            or defaults.page_not_found(request, exception))


def bad_request(request, exception):
    return (_api_error(request, 400, _("This request could not be read: it is malformed or too "
                                        "large."), "invalid")
            or defaults.bad_request(request, exception))


def csrf_failed(request, reason=""):
    """A form sent without its token, or with an old one (left open while its host signed in
    again elsewhere): a page of ours that says what to do, in the phone's language."""
    sentence = _("This form was open for too long, or you signed in again meanwhile: go back, "
                 "reload the page and send it again.")
    return (_api_error(request, 403, sentence, "forbidden")
            or render(request, "403_csrf.html", {"sentence": sentence}, status=403))


def server_error(request):
    return (_api_error(request, 500, _("Something went wrong on our side."), "error")
            or defaults.server_error(request))
