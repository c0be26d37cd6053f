"""URLs of the history area: game nights, statistics, export and import."""

from django.urls import URLPattern, URLResolver, path

from companion.views import history

urlpatterns: list[URLPattern | URLResolver] = [
    path("g/<int:group_id>/history/", history.history, name="history"),
    path("g/<int:group_id>/players/<int:player_id>/", history.player_stats, name="player_stats"),
    path("g/<int:group_id>/games/<slug:game>/", history.game_stats, name="game_stats"),
    path("g/<int:group_id>/head-to-head/", history.head_to_head, name="head_to_head"),
    path("g/<int:group_id>/export.json", history.export_json, name="export_json"),
    path("g/<int:group_id>/export.csv", history.export_csv, name="export_csv"),
    path("groups/import/", history.import_group, name="group_import"),
]
