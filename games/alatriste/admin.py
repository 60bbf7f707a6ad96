from django.contrib import admin

from games.alatriste.models import Card


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    """Staff keep the printed cards (no owner) here; a host's own cards show their owner."""

    list_display = ("name", "number", "kind", "fame", "vigour", "fencing", "pistols", "vehicle",
                    "placeholder", "owner")
    list_filter = (("owner", admin.EmptyFieldListFilter), "kind", "placeholder", "pistols",
                   "vehicle")
    search_fields = ("name",)
    readonly_fields = ("created_by", "created_at")
