"""The platform's refusals. They share one root with the rules' own (engine.Refused, of which
engine.RuleViolation is one): the API's one exception handler and the pages turn any of them into
its status code and sentence."""

from django.utils.translation import gettext as _

from companion.engine import Refused, RuleViolation

__all__ = ["Conflict", "Forbidden", "Invalid", "KeyReused", "NameTaken", "NeedsConfirmation",
           "NotFound", "Refused", "RuleViolation", "Stale"]


class Invalid(Refused):
    status, code = 400, "invalid"


class NameTaken(Invalid):
    """A registration refused because the name has an account. limits.registering counts
    it: the answer tells a taken name from a free one."""

    def __init__(self, username):
        message = _("The name %(name)s is taken: choose another.") % {"name": username}
        super().__init__(message, fields={"username": [message]})


class NotFound(Refused):
    status, code = 404, "not_found"


class Forbidden(Refused):
    status, code = 403, "forbidden"


class Conflict(Refused):
    status, code = 409, "conflict"


class Stale(Refused):
    status, code = 412, "stale"


class KeyReused(Refused):
    status, code = 422, "idempotency_key_reused"


class NeedsConfirmation(Refused):
    """A move that would end the game for everyone, not yet confirmed: the page asks its
    question ("Go ahead?") and sends the move again, confirmed."""

    status, code = 409, "needs_confirmation"
