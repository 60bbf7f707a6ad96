"""The one exception handler: every refusal becomes `{"detail": a sentence, "code", ...}`, the
sentence in the language the request asked for (Accept-Language)."""

from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from companion.errors import Refused, Stale
from companion.language import say


def first_sentence(errors):
    """The first message in DRF's nested error structure, prefixed by its field."""
    if isinstance(errors, dict):
        for field, value in errors.items():
            sentence = first_sentence(value)
            if field in ("non_field_errors", "detail"):
                return sentence
            return f"{field}: {sentence}"
    if isinstance(errors, list) and errors:
        return first_sentence(errors[0])
    return str(errors)


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
        fields = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        return Response(
            {"detail": first_sentence(fields), "code": "invalid", "fields": fields},
            status=status.HTTP_400_BAD_REQUEST,
        )
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict):
        response.data.setdefault("code", getattr(exc, "default_code", "error"))
    return response
