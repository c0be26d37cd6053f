"""Django admin for every model: find things by name, filter by group, game and status."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from companion import models


class MembershipInline(admin.TabularInline):
    model = models.Membership
    extra = 0
    autocomplete_fields = ["user"]


class PlayerInline(admin.TabularInline):
    model = models.Player
    extra = 0
    autocomplete_fields = ["user"]
    fields = ["name", "user", "created_at"]


class InviteInline(admin.TabularInline):
    model = models.Invite
    extra = 0
    fields = ["token", "created_by", "created_at", "revoked_at"]
    readonly_fields = ["token", "created_by", "created_at"]


class SeatInline(admin.TabularInline):
    model = models.Seat
    extra = 0
    autocomplete_fields = ["player"]


class DealInline(admin.TabularInline):
    model = models.Deal
    extra = 0
    fields = ["number", "version", "updated_at"]
    readonly_fields = ["updated_at"]
    show_change_link = True


class DealScoreInline(admin.TabularInline):
    model = models.DealScore
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(models.Group)
class GroupAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "created_at"]
    list_select_related = ["owner"]
    search_fields = ["name", "owner__username"]
    date_hierarchy = "created_at"
    autocomplete_fields = ["owner"]
    inlines = [MembershipInline, PlayerInline, InviteInline]


@admin.register(models.TablePass)
class TablePassAdmin(admin.ModelAdmin):
    """Table passes: what they open, until when; revoke one by setting "revoked"."""

    list_display = ["group", "match", "game_night", "may_write", "created_by", "created_at",
                    "expires_at", "revoked_at"]
    list_select_related = ["group", "match", "game_night", "created_by"]
    list_filter = ["may_write", ("revoked_at", admin.EmptyFieldListFilter), "group"]
    search_fields = ["group__name", "created_by__username"]
    raw_id_fields = ["match", "game_night"]
    autocomplete_fields = ["group", "created_by"]
    # The nonce is half of every link's token: never shown, never edited by hand.
    exclude = ["nonce"]
    readonly_fields = ["created_at"]


@admin.register(models.Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["group", "user", "role", "joined_at"]
    list_select_related = ["group", "user"]
    list_filter = ["role", "group"]
    search_fields = ["group__name", "user__username"]
    autocomplete_fields = ["group", "user"]


@admin.register(models.Invite)
class InviteAdmin(admin.ModelAdmin):
    list_display = ["group", "created_by", "created_at", "revoked_at", "is_active"]
    list_select_related = ["group", "created_by"]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter), "group"]
    search_fields = ["group__name", "created_by__username", "token"]
    readonly_fields = ["token", "created_at"]
    autocomplete_fields = ["group", "created_by"]
    actions = ["revoke"]

    @admin.display(boolean=True, description=_("active"))
    def is_active(self, invite: models.Invite) -> bool:
        return invite.revoked_at is None

    @admin.action(description=_("Revoke the selected invite links"))
    def revoke(self, request: HttpRequest, queryset: QuerySet[models.Invite]) -> None:
        count = queryset.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
        self.message_user(request, ngettext(
            "%(count)d invite link revoked.", "%(count)d invite links revoked.", count
        ) % {"count": count})


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "group", "user", "created_at"]
    list_select_related = ["group", "user"]
    search_fields = ["name", "group__name", "user__username"]
    list_filter = ["group"]
    autocomplete_fields = ["group", "user"]


@admin.register(models.GameNight)
class GameNightAdmin(admin.ModelAdmin):
    list_display = ["date", "group", "place"]
    list_select_related = ["group"]
    list_filter = ["group"]
    search_fields = ["place", "notes", "group__name"]
    date_hierarchy = "date"
    autocomplete_fields = ["group"]


@admin.register(models.Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "group", "game_night", "status", "created_at", "finished_at"]
    list_select_related = ["group", "game_night__group"]
    list_filter = ["game", "status", "source", "group"]
    search_fields = ["group__name", "seats__player__name"]
    date_hierarchy = "created_at"
    autocomplete_fields = ["group", "game_night"]
    inlines = [SeatInline, DealInline]


@admin.register(models.Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "player", "total", "place", "is_winner"]
    list_select_related = ["match__game_night__group", "player"]
    list_filter = ["is_winner", "match__game"]
    search_fields = ["player__name", "match__group__name"]
    autocomplete_fields = ["match", "player"]


@admin.register(models.Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "version", "updated_at"]
    list_select_related = ["match__game_night__group"]
    list_filter = ["match__game"]
    search_fields = ["match__group__name", "=match__id"]
    autocomplete_fields = ["match"]
    inlines = [DealScoreInline]


@admin.register(models.DealScore)
class DealScoreAdmin(admin.ModelAdmin):
    list_display = ["deal", "player", "score", "data"]
    list_select_related = ["deal", "player"]
    list_filter = ["deal__match__game"]
    search_fields = ["player__name", "=deal__match__id"]
    autocomplete_fields = ["deal", "player"]


@admin.register(models.MatchChange)
class MatchChangeAdmin(admin.ModelAdmin):
    list_display = ["match", "kind", "deal_number", "created_at", "created_by", "undone_at"]
    list_select_related = ["match__game_night__group", "created_by"]
    list_filter = ["kind", "match__game"]
    search_fields = ["=match__id", "created_by__username"]
    date_hierarchy = "created_at"
    autocomplete_fields = ["match", "created_by"]


@admin.register(models.GroupChange)
class GroupChangeAdmin(admin.ModelAdmin):
    list_display = ["group", "kind", "created_at", "created_by"]
    list_select_related = ["group", "created_by"]
    list_filter = ["kind"]
    search_fields = ["group__name", "created_by__username"]
    date_hierarchy = "created_at"
    autocomplete_fields = ["group", "created_by"]


class _DerivedAdmin(admin.ModelAdmin):
    """The statistics kept per finished match (companion.services.results): shown, never
    edited here, since they follow from the matches (``results_rebuild`` recomputes them)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(models.SeatResult)
class SeatResultAdmin(_DerivedAdmin):
    list_display = ["match", "player", "total", "place", "is_winner", "date"]
    list_select_related = ["match__game_night__group", "player"]
    list_filter = ["game", "is_winner"]
    search_fields = ["player__name", "=match__id"]


@admin.register(models.PlayerRecord)
class PlayerRecordAdmin(_DerivedAdmin):
    list_display = ["player"]
    list_select_related = ["player__group"]
    search_fields = ["player__name"]


@admin.register(models.PairRecord)
class PairRecordAdmin(_DerivedAdmin):
    list_display = ["first", "second", "game", "matches", "first_ahead", "second_ahead"]
    list_select_related = ["first__group", "second__group"]
    list_filter = ["game"]
    search_fields = ["first__name", "second__name"]


@admin.register(models.GameRecord)
class GameRecordAdmin(_DerivedAdmin):
    list_display = ["group", "game", "matches", "deals"]
    list_select_related = ["group"]
    list_filter = ["game"]
    search_fields = ["group__name"]


@admin.register(models.GameCount)
class GameCountAdmin(_DerivedAdmin):
    list_display = ["group", "game", "matches"]
    list_select_related = ["group"]
    list_filter = ["game"]
    search_fields = ["group__name"]


@admin.register(models.Rating)
class RatingAdmin(_DerivedAdmin):
    list_display = ["player", "group", "game", "mu", "sigma", "matches"]
    list_select_related = ["player", "group"]
    list_filter = ["game"]
    search_fields = ["player__name", "group__name"]


@admin.register(models.RatingStep)
class RatingStepAdmin(_DerivedAdmin):
    list_display = ["match", "player", "game", "date", "game_mu", "all_mu"]
    list_select_related = ["match__game_night__group", "player"]
    list_filter = ["game"]
    search_fields = ["player__name", "=match__id"]


@admin.register(models.ChangeReceipt)
class ChangeReceiptAdmin(_DerivedAdmin):
    """The keys of stored sends (companion.idempotency): shown, never made by hand."""

    list_display = ["created_at", "user", "action", "group", "match", "key"]
    list_select_related = ["user", "group"]
    list_filter = ["action"]
    search_fields = ["user__username", "group__name", "=key"]
    date_hierarchy = "created_at"
