"""The API's JSON parser: DRF's, with a body nested too deeply or holding control characters in its
text refused with a sentence (companion.inputs) instead of a 500."""

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from companion import inputs
from companion.errors import Invalid


class CheckedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            return inputs.parse_json(stream.read().decode(encoding))
        except UnicodeDecodeError:
            raise ParseError(_("The body is not %(encoding)s text.")
                             % {"encoding": encoding}) from None
        except Invalid as refusal:
            raise ParseError(refusal.message) from None
