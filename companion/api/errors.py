"""The one exception handler: every refusal becomes `{"detail": a sentence, "code", ...}`, the
sentence in the language the request asked for (Accept-Language)."""

from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from companion.errors import Refused, Stale
from companion.language import say


def field_messages(errors):
    """DRF's nested errors as {field: [sentences]}, the shape api.md gives `fields`: a list's
    items and a nested object's fields are said under the field that holds them
    ({"dice": {0: ["…"]}} → {"dice": ["…"]}, {"patrol": {"roll": ["…"]}} → {"patrol":
    ["roll: …"]}); before, a list's item came out as its index alone ({"dice": ["0"]})."""
    if not isinstance(errors, dict):
        errors = {"non_field_errors": errors}
    return {str(field): _sentences(value) for field, value in errors.items()}


def _sentences(errors):
    if isinstance(errors, dict):
        sentences = []
        for key, value in errors.items():
            # A list's item is known by its index, which says nothing to a player.
            said = "" if isinstance(key, int) or str(key).isdigit() \
                or key in ("non_field_errors", "detail") else f"{key}: "
            sentences += [said + sentence for sentence in _sentences(value)]
        return sentences
    if isinstance(errors, list | tuple):
        return [sentence for item in errors for sentence in _sentences(item)]
    return [str(errors)]


def first_sentence(errors, labels=None):
    """The first message of DRF's nested errors, after its field: named by its label where the
    serializer gives one (what the form shows: "Windmills", not windmill_groups)."""
    for field, sentences in field_messages(errors).items():
        if not sentences:
            continue
        if field in ("non_field_errors", "detail"):
            return sentences[0]
        named = say((labels or {}).get(field, field))
        if ":" in named:  # "6-castle: knights": quoted, or its colon reads as the sentence's
            named = f"“{named}”"
        return f"{named}: {sentences[0]}"
    return ""


def exception_handler(exc, context):
    if isinstance(exc, Stale):
        from companion.api.serializers import session_data

        request = context["request"]
        # The body is the Session as it is now (its "code" the join code, not the error's: a
        # client that refreshes from it keeps the table's code), with the sentence beside it.
        body = session_data(exc.session, viewer=getattr(request, "viewer_seat", None))
        body["detail"] = say(exc.message)
        return Response(body, status=exc.status, headers={"ETag": f'"{exc.session.version}"'})
    if isinstance(exc, Refused):
        # The rules' sentences are Texts: said here in the language of Accept-Language.
        body = {"detail": say(exc.message), "code": exc.code}
        if exc.fields or exc.status == 400:
            body["fields"] = {name: [say(message) for message in messages]
                              for name, messages in exc.fields.items()}
        retry_after = getattr(exc, "retry_after", None)
        headers = {"Retry-After": str(retry_after)} if retry_after else None
        return Response(body, status=exc.status, headers=headers)
    if isinstance(exc, exceptions.ValidationError):
        fields = field_messages(exc.detail)
        return Response(
            {"detail": first_sentence(fields), "code": "invalid", "fields": fields},
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, exceptions.NotAuthenticated):
        # A host's operation without credentials (views.SignedIn): what to send, not DRF's
        # "Authentication credentials were not provided."
        exc = exceptions.NotAuthenticated(_("Sign in: send Authorization: Token <token>."))
    elif isinstance(exc, exceptions.AuthenticationFailed):
        # The token library's own words ("Invalid token.") say neither why nor what to do.
        exc = exceptions.AuthenticationFailed(_(
            "This token does not work: it was signed out, ended from the list of devices, or "
            "went unused too long. Sign in again for a new one."))
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict):
        response.data.setdefault("code", getattr(exc, "default_code", "error"))
    return response
