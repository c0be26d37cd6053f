"""URLs of table passes: a member's pass page for a match or night, revoking, and the
guest's side (the short link in the QR code, leaving)."""

from django.urls import URLPattern, URLResolver, path

from companion.views import passes

urlpatterns: list[URLPattern | URLResolver] = [
    path("g/<int:group_id>/matches/<int:match_id>/pass/", passes.match_pass, name="match_pass"),
    path("g/<int:group_id>/nights/<int:night_id>/pass/", passes.night_pass, name="night_pass"),
    path("g/<int:group_id>/passes/<int:pass_id>/revoke/", passes.pass_revoke,
         name="pass_revoke"),
    path("t/leave/<int:pass_id>/", passes.pass_leave, name="pass_leave"),
    # Short: the QR code the others scan carries it.
    path("t/<str:token>/", passes.pass_join, name="pass_join"),
]
