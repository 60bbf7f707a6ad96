"""{% part "ID" … by KEY … %}…{% endpart %}: a part of a pushed fragment.

Its HTML is marked <!--part:ID-->…<!--/part--> (one element whose id is ID inside), so that a
phone in step keeps its own copy while it does not change (streams.Rendered, table.js), and it is
rendered once per server process for each set of KEYs and the language (the `parts` cache,
companion/parts_cache.py): the KEYs must hold everything the part shows. The id is its pieces
joined ("qx-seat-" t.index).
"""

from django import template
from django.core.cache import caches
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

register = template.Library()

_OPEN, _SHUT, _CLOSE = "<!--part:", "-->", "<!--/part-->"


def split_parts(html):
    """The marked parts of `html`, in order: [(start, end, id, inner)], `start:end` being the
    part with its marks. Found with str.find, not a regex: every server process compares the
    parts of a fragment of tens of kilobytes on every move, and a lazy `(.*?)<!--/part-->`
    took ten times as long."""
    parts = []
    at = html.find(_OPEN)
    while at != -1:
        named = html.find(_SHUT, at + len(_OPEN))
        end = html.find(_CLOSE, named)
        if named == -1 or end == -1:
            break
        part_id, inner = html[at + len(_OPEN):named], html[named + len(_SHUT):end]
        end += len(_CLOSE)
        parts.append((at, end, part_id, inner))
        at = html.find(_OPEN, end)
    return parts


class PartNode(template.Node):
    def __init__(self, nodelist, pieces, keys):
        self.nodelist, self.pieces, self.keys = nodelist, pieces, keys

    def render(self, context):
        part_id = "".join(str(piece.resolve(context)) for piece in self.pieces)
        cache = caches["parts"]
        # The keys' text as it is, not hashed (the cache is a dict of this process's own).
        key = (part_id, get_language(), *(str(key.resolve(context)) for key in self.keys))
        html = cache.get(key)
        if html is None:
            html = self.nodelist.render(context)
            cache.set(key, html, None)
        # The part's HTML is its template's output, escaped as it was rendered.
        return mark_safe(f"<!--part:{part_id}-->{html}<!--/part-->")  # noqa: S308


@register.tag
def part(parser, token):
    bits = token.split_contents()[1:]
    if "by" not in bits or bits.index("by") in (0, len(bits) - 1):
        raise template.TemplateSyntaxError('{% part "ID" … by KEY … %}: an id and a key')
    at = bits.index("by")
    nodelist = parser.parse(("endpart",))
    parser.delete_first_token()
    return PartNode(nodelist, [parser.compile_filter(bit) for bit in bits[:at]],
                    [parser.compile_filter(bit) for bit in bits[at + 1:]])
