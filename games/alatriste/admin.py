from django.contrib import admin

from games.alatriste.models import Card


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ("name", "number", "kind", "fame", "vigour", "fencing", "pistols", "vehicle",
                    "placeholder")
    list_filter = ("kind", "placeholder", "pistols", "vehicle")
    search_fields = ("name",)
    readonly_fields = ("created_by", "created_at")
