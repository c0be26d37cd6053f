from django.contrib import admin

from companion import models


class MembershipInline(admin.TabularInline):
    model = models.Membership
    extra = 0


class SeatInline(admin.TabularInline):
    model = models.Seat
    extra = 0


class DealScoreInline(admin.TabularInline):
    model = models.DealScore
    extra = 0


@admin.register(models.Group)
class GroupAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "created_at"]
    search_fields = ["name"]
    inlines = [MembershipInline]


@admin.register(models.Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["group", "user", "role", "joined_at"]
    list_filter = ["role"]


@admin.register(models.Invite)
class InviteAdmin(admin.ModelAdmin):
    list_display = ["group", "created_by", "created_at", "revoked_at"]


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "group", "user"]
    search_fields = ["name"]
    list_filter = ["group"]


@admin.register(models.GameNight)
class GameNightAdmin(admin.ModelAdmin):
    list_display = ["date", "group", "place"]
    list_filter = ["group"]
    date_hierarchy = "date"


@admin.register(models.Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["game", "game_night", "status", "created_at"]
    list_filter = ["game", "status"]
    inlines = [SeatInline]


@admin.register(models.Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "player", "total", "place", "is_winner"]


@admin.register(models.Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "version", "updated_at"]
    inlines = [DealScoreInline]


@admin.register(models.DealScore)
class DealScoreAdmin(admin.ModelAdmin):
    list_display = ["deal", "player", "score"]


@admin.register(models.MatchChange)
class MatchChangeAdmin(admin.ModelAdmin):
    list_display = ["match", "kind", "deal_number", "created_at", "created_by"]
