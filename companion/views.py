"""The pages shared by all games. Each view renders its whole page, or for an htmx request the one
partial that changed (`template#partial`). Access is decided here, never in templates."""

import io
import json

import segno
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.db.models import Prefetch
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.http import require_POST

from companion import engine, inputs, limits, services
from companion.access import guest_cookie_name, page_access
from companion.engine import RuleViolation
from companion.errors import Refused, Stale
from companion.fragments import fragment_context
from companion.lan import public_base
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
                                                   "games": engine.all_games()})


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
            limits.register_check(request)
            user, _token = services.user_register(username=username,
                                                  password=request.POST.get("password", ""))
        except Refused as refusal:
            return refused_page(request, "companion/signup.html", {"username": username},
                                refusal)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
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
            return refused_page(request, self.template_name, {"form": self.get_form()}, refusal)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        limits.sign_in_failed(self.request, self.request.POST.get("username"))
        return super().form_invalid(form)


@require_POST
def sign_out(request):
    logout(request)
    return redirect("home")


def _option_value(raw, default):
    """A form field's text as the type of the option's default."""
    if isinstance(default, bool):
        return raw in ("on", "true", "1", "yes")
    if isinstance(default, int):
        try:
            return int(raw)
        except ValueError:
            raise Refused(_("%(value)s is not a whole number.") % {"value": raw}) from None
    if isinstance(default, (dict, list)) or default is None:
        if not raw.strip():
            return default
        try:
            return inputs.parse_json(raw)
        except Refused:
            raise Refused(_("%(value)s is not valid JSON.") % {"value": raw[:40]}) from None
    return raw


def _option_fields(game, data=None):
    fields = []
    for name, default in game.options.items():
        if isinstance(default, bool):
            kind = "checkbox"
        elif isinstance(default, int):
            kind = "number"
        elif isinstance(default, str):
            kind = "text"
        else:
            kind = "json"
        value = data.get(f"opt_{name}") if data is not None else None
        if value is None:
            value = json.dumps(default) if kind == "json" and default is not None else default
        fields.append({"name": name, "kind": kind, "value": value, "default": default})
    return fields


@login_required
def session_new(request):
    slug = request.POST.get("game") or request.GET.get("game")
    games = engine.all_games()
    if not slug:
        return render(request, "companion/new.html", {"games": games})
    try:
        game = engine.get(slug)
    except RuleViolation:
        raise Http404(_("There is no such game.")) from None
    roster = Player.objects.filter(owner=request.user)
    error = None
    if request.method == "POST":
        names = [name.strip() for name in request.POST.getlist("name") if name.strip()]
        try:
            options = {}
            for name, default in game.options.items():
                raw = request.POST.get(f"opt_{name}")
                if raw is None and isinstance(default, bool):
                    options[name] = False
                elif raw is not None:
                    options[name] = _option_value(raw, default)
            session = services.session_create(owner=request.user, game=game.slug,
                                               players=names, options=options)
        except Refused as refusal:
            error = refusal.message
        else:
            return redirect("table", pk=session.pk)
    data = request.POST if request.method == "POST" else None
    names = request.POST.getlist("name") if data else []
    slots = names + [""] * max(0, game.max_players - len(names))
    context = {"game": game, "roster": roster, "slots": slots[: game.max_players],
               "options": _option_fields(game, data), "error": error}
    return render(request, "companion/new.html", context, status=400 if error else 200)


def join(request):
    code = (request.GET.get("code") or "").strip().upper()
    if code and Session.is_code(code):
        return redirect("join-code", code=code)
    if code:
        return join_code(request, code)
    return render(request, "companion/join.html", {})


def join_code(request, code):
    code = code.strip().upper()
    try:
        limits.join_check(request)
    except Refused as refusal:
        return refused_page(request, "companion/join.html", {"code": code[:20]}, refusal)
    session = None
    if Session.is_code(code):
        session = _sessions_with_seats().filter(code=code, status=Session.Status.ACTIVE).first()
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
        response = redirect("table", pk=session.pk)
        response.set_cookie(guest_cookie_name(session.pk), guest.token,
                            max_age=GUEST_COOKIE_AGE, httponly=True, samesite="Lax",
                            secure=request.is_secure())
        return response
    return render(request, "companion/join_seat.html", context)


def table_context(request, session, actor, *, refusal=None):
    # A refused form is shown again with what was posted.
    posted = dict(request.POST.lists()) if refusal and request.method == "POST" else None
    context = fragment_context(session, actor, posted=posted, refusal=refusal)
    context.update({
        "join_url": public_base(request) + reverse("join-code", args=[session.code]),
        "board_url": public_base(request) + reverse("board", args=[session.board_key]),
    })
    return context


def _etag(session, actor):
    viewer = "host" if actor.is_host else f"seat{actor.seat}"
    return f'"{session.version}-{viewer}"'


def table(request, pk):
    session, actor = _access(request, pk)
    etag = _etag(session, actor)
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        template = "companion/table.html"
        if request.htmx and request.htmx.target:
            template += "#live"
        response = render(request, template, table_context(request, session, actor))
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def _refused(request, session, actor, message, form, status):
    session.refresh_from_db()
    context = table_context(request, session, actor,
                            refusal={"form": form, "message": message})
    template = "companion/table.html#live" if request.htmx else "companion/table.html"
    return render(request, template, context, status=status)


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


@require_POST
def move(request, pk):
    session, actor = _access(request, pk)
    form = request.POST.get("form", "")
    try:
        fields = _fields_of(request)
        move_type = request.POST.get("type") or fields.pop("type", None)
        data = move_payload(game=session.game, move_type=move_type, fields=fields,
                            owner=session.owner_id)
        # The page's script gives each form it sends a key: a double tap is one move.
        key = inputs.text(request.POST.get("idempotency_key"), field="idempotency_key",
                          label=_("The form's key"), max_length=100) or None
        services.move_play(session=session, type=move_type, data=data, actor=actor,
                           expected_version=_expected_version(request), key=key)
    except Stale:
        return _refused(request, session, actor,
                        _("Someone at the table changed this: here is the latest."), form, 412)
    except Refused as refusal:
        return _refused(request, session, actor, refusal.message, form,
                        getattr(refusal, "status", 400))
    return _after_write(request, pk)


@require_POST
def undo(request, pk):
    session, actor = _access(request, pk)
    try:
        services.move_undo(session=session, actor=actor,
                           expected_version=_expected_version(request))
    except Stale:
        return _refused(request, session, actor,
                        _("Someone at the table changed this: here is the latest."), "undo", 412)
    except Refused as refusal:
        return _refused(request, session, actor, refusal.message, "undo", refusal.status)
    return _after_write(request, pk)


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
        return _refused(request, session, actor, refusal.message, "seat", refusal.status)
    return redirect("table", pk=pk)


def join_qr(request, pk):
    session, _actor = _access(request, pk)
    url = public_base(request) + reverse("join-code", args=[session.code])
    # A file of its own (an <img>), so it needs its namespace: without it the image is 0 px wide.
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=6, dark="#1b1b1b", light="#ffffff",
                                    xmldecl=False, svgns=True)
    return HttpResponse(out.getvalue(), content_type="image/svg+xml")


def board(request, key):
    session = _sessions_with_seats().filter(board_key=key).first()
    if session is None:
        raise Http404(_("There is no such board."))
    etag = f'"{session.version}-board"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        template = "companion/board.html"
        if request.htmx:
            template += "#live"
        response = render(request, template, table_context(request, session, None))
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


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


def server_error(request):
    return (_api_error(request, 500, _("Something went wrong on our side."), "error")
            or defaults.server_error(request))
