"""The card grid's cells, written here rather than in _grid.html: the grid has 54 of them, and
through the template engine they were most of the cost of rendering the part every phone is
pushed."""

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag
def kn_cells(row, tappable=False):
    """One row's cells (panel.card_grid): a card button each where the viewer may tap one (the
    grant form), else the card as text."""
    first = " kn-first" if row["first"] else ""
    cells = []
    for cell in row["cells"]:
        marks = (" held" if cell["holder"] is not None else "") + (
            " granted" if cell["granted"] else "") + (" offered" if cell["offered"] else "")
        where = conditional_escape(cell["where"])
        label = conditional_escape(cell["label"]) + ("★" if cell["offered"] else "")
        if tappable:
            whys = "".join(f' data-why{seat}="{conditional_escape(why)}"'
                           for seat, why in cell["why"].items())
            cells.append(
                f'<span role="cell" class="kn-cell{first}"><button type="submit" '
                f'class="kc {conditional_escape(cell["no"])}{marks}" name="card" '
                f'value="{conditional_escape(cell["value"])}" title="{where}" '
                f'aria-label="{where}"{whys}>{label}</button></span>')
        else:
            cells.append(f'<span role="cell" class="kc{marks}{first}" title="{where}" '
                         f'aria-label="{where}">{label}</span>')
    return mark_safe("".join(cells))  # noqa: S308 - every value is escaped above
