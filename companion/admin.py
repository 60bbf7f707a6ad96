from django.contrib import admin

from companion.models import Guest, Move, Player, Result, Seat, Session


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "code", "owner", "status", "version", "created_at"]
    list_filter = ["game", "status"]
    search_fields = ["code", "owner__username", "seats__name"]
    inlines = [SeatInline]
    # The log is the truth: the state is only changed by replaying it, never by hand.
    readonly_fields = ["state", "version", "seed"]

    def has_delete_permission(self, request, obj=None):
        # No data is lost: a session stays with its log; results and their tallies stay in step.
        return False


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ["session", "seq", "type", "summary", "undone", "created_at"]
    list_filter = ["type", "undone"]

    def has_change_permission(self, request, obj=None):
        return False  # append-only

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "created_at"]
    search_fields = ["name"]


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    list_display = ["session", "game", "name", "score", "rank", "winner", "finished_at"]
    list_filter = ["game", "winner"]

    def has_change_permission(self, request, obj=None):
        return False  # kept by the services when a game finishes or reopens

    def has_delete_permission(self, request, obj=None):
        return False


admin.site.register(Guest)
