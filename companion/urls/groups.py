"""URLs of the groups area: groups, invites, the roster and game nights."""

from django.urls import URLPattern, URLResolver, path

from companion.views import groups

urlpatterns: list[URLPattern | URLResolver] = [
    path("groups/", groups.group_list, name="group_list"),
    path("groups/new/", groups.group_create, name="group_create"),
    path("g/<int:group_id>/", groups.group_home, name="group_home"),
    path("g/<int:group_id>/running/", groups.group_running, name="group_running"),
    path("g/<int:group_id>/settings/", groups.group_settings, name="group_settings"),
    path("g/<int:group_id>/changes/", groups.group_changes, name="group_changes"),
    path("g/<int:group_id>/invites/new/", groups.invite_create, name="invite_create"),
    path("g/<int:group_id>/invites/<int:invite_id>/revoke/", groups.invite_revoke,
         name="invite_revoke"),
    path("g/<int:group_id>/invites/<int:invite_id>/renew/", groups.invite_renew,
         name="invite_renew"),
    path("g/<int:group_id>/members/<int:membership_id>/remove/", groups.member_remove,
         name="member_remove"),
    path("g/<int:group_id>/leave/", groups.group_leave, name="group_leave"),
    path("join/<str:token>/", groups.group_join, name="group_join"),
    path("g/<int:group_id>/roster/", groups.roster, name="roster"),
    path("g/<int:group_id>/roster/<int:player_id>/rename/", groups.player_rename,
         name="player_rename"),
    path("g/<int:group_id>/roster/<int:player_id>/link/", groups.player_link,
         name="player_link"),
    path("g/<int:group_id>/roster/<int:player_id>/colour/", groups.player_colour,
         name="player_colour"),
    path("g/<int:group_id>/nights/new/", groups.night_new, name="night_new"),
    path("g/<int:group_id>/nights/<int:night_id>/", groups.night_detail, name="night_detail"),
    path("g/<int:group_id>/nights/<int:night_id>/edit/", groups.night_edit, name="night_edit"),
    path("g/<int:group_id>/nights/<int:night_id>/card.png", groups.night_card,
         name="night_card"),
]
