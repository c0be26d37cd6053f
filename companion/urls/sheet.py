"""URLs of the sheet area: starting a match, its score sheet, deals, life and live board."""

from django.urls import URLPattern, URLResolver, path

from companion.views import deals, live, matches, sheet

M = "g/<int:group_id>/matches/<int:match_id>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path("g/<int:group_id>/matches/new/", matches.match_new, name="match_new"),
    path(M, sheet.match_sheet, name="match_sheet"),
    path(M + "deals/new/", deals.deal_new, name="deal_new"),
    path(M + "deals/preview/", deals.deal_preview, name="deal_preview"),
    path(M + "deals/<int:number>/", deals.deal_edit, name="deal_edit"),
    path(M + "deals/<int:number>/delete/", deals.deal_delete, name="deal_delete"),
    path(M + "undo/", matches.match_undo, name="match_undo"),
    path(M + "redo/", matches.match_redo, name="match_redo"),
    path(M + "abandon/", matches.match_abandon, name="match_abandon"),
    path(M + "delete/", matches.match_delete, name="match_delete"),
    path(M + "rematch/", matches.match_rematch, name="match_rematch"),
    path(M + "changes/", matches.match_changes, name="match_changes"),
    path(M + "finish/", matches.match_finish, name="match_finish"),
    path(M + "reopen/", matches.match_reopen, name="match_reopen"),
    path(M + "live/", live.match_live, name="match_live"),
]
