"""Domain refusals other than the rules' own (engine.RuleViolation). The API's one exception
handler and the htmx views turn each into its status code and sentence."""


class Refused(Exception):
    status = 400
    code = "invalid"

    def __init__(self, message, *, fields=None, session=None):
        super().__init__(message)
        self.message = message
        self.fields = fields or {}
        # For 412: the answer carries the fresh session.
        self.session = session


class Invalid(Refused):
    status, code = 400, "invalid"


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
