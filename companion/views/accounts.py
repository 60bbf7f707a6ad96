"""The home page, signing up, in and out, and the host's roster of players."""


from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import authenticate, login, logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from companion import limits, play_figures, plugins, services
from companion.access import sessions_with_seats
from companion.errors import Invalid, Refused
from companion.scopes import roster_of


def home(request):
    recent = []
    if request.user.is_authenticated:
        recent = sessions_with_seats().filter(owner=request.user)[:10]
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


def account_signed_in(request, *, username, password, new):
    """Sign this browser in from a name and a password typed in another page's form than the
    sign-in page's (a table's "Keep this in my history"), under the same limits: to the account
    of that name, or to one made now (`new`, as the sign-up page makes one). The account, or
    Refused with the sign-in page's sentence."""
    if new:
        with limits.registering(request):
            user, _token = services.user_register(username=username, password=password)
    else:
        limits.sign_in_check(request, username)
        user = authenticate(request, username=username if isinstance(username, str) else "",
                            password=password if isinstance(password, str) else "")
        if user is None:
            limits.sign_in_failed(request, username)
            raise Invalid(_("That user name and password do not match."))
    login(request, user)
    return user


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


VERSUS_MOST = 8


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
    roster = roster_of(owner=request.user).select_related("account")
    # A phone's screen holds the most played few; the API gives everyone.
    versus = play_figures.versus(owner=request.user, most=VERSUS_MOST)
    return render(request, "companion/players.html",
                  {"roster": roster, "error": error,
                   "versus": [(player, row) for player, row in zip(versus["players"],
                                                                   versus["rows"], strict=True)],
                   "columns": versus["players"]},
                  status=400 if error else 200)
