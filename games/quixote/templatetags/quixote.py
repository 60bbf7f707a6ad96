from django import template

from games.quixote.panel import panel_model

register = template.Library()


@register.simple_tag(takes_context=True)
def quixote_panel(context):
    """Everything the panel shows, for this viewer (and the refused form's own values)."""
    request = context.get("request")
    refusal = context.get("refusal")
    posted = request.POST if request is not None and request.method == "POST" else None
    return panel_model(context["state"], viewer=context.get("viewer"), refusal=refusal,
                       posted=posted)


@register.filter
def get(mapping, key):
    return mapping.get(key) if hasattr(mapping, "get") else None
