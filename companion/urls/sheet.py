"""URLs of the sheet area: starting a match and its score sheet."""

from django.urls import URLPattern, URLResolver, path

from companion.views import sheet

M = "g/<int:group_id>/matches/<int:match_id>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path("g/<int:group_id>/matches/new/", sheet.match_new, name="match_new"),
    path(M, sheet.match_sheet, name="match_sheet"),
    path(M + "deals/new/", sheet.deal_new, name="deal_new"),
    path(M + "deals/preview/", sheet.deal_preview, name="deal_preview"),
    path(M + "deals/<int:number>/", sheet.deal_edit, name="deal_edit"),
    path(M + "deals/<int:number>/delete/", sheet.deal_delete, name="deal_delete"),
    path(M + "undo/", sheet.match_undo, name="match_undo"),
    path(M + "redo/", sheet.match_redo, name="match_redo"),
    path(M + "abandon/", sheet.match_abandon, name="match_abandon"),
    path(M + "delete/", sheet.match_delete, name="match_delete"),
    path(M + "rematch/", sheet.match_rematch, name="match_rematch"),
    path(M + "changes/", sheet.match_changes, name="match_changes"),
    path(M + "finish/", sheet.match_finish, name="match_finish"),
    path(M + "reopen/", sheet.match_reopen, name="match_reopen"),
    path(M + "live/", sheet.match_live, name="match_live"),
]
