"""URLs of the history area: game nights, statistics, ratings, export and import."""

from django.urls import URLPattern, URLResolver, path

from companion.views import bgstats, history

urlpatterns: list[URLPattern | URLResolver] = [
    path("g/<int:group_id>/history/", history.history, name="history"),
    path("g/<int:group_id>/players/<int:player_id>/", history.player_stats, name="player_stats"),
    path("g/<int:group_id>/games/<slug:game>/", history.game_stats, name="game_stats"),
    path("g/<int:group_id>/head-to-head/", history.head_to_head, name="head_to_head"),
    path("g/<int:group_id>/ratings/", history.ratings, name="ratings"),
    path("g/<int:group_id>/ratings/<slug:game>/", history.ratings, name="ratings_game"),
    path("g/<int:group_id>/export.json", history.export_json, name="export_json"),
    path("g/<int:group_id>/export.csv", history.export_csv, name="export_csv"),
    path("g/<int:group_id>/export/bgstats.json", bgstats.bgstats_export, name="bgstats_export"),
    path("g/<int:group_id>/export/matches.csv", bgstats.matches_export, name="matches_export"),
    path("g/<int:group_id>/import/bgstats/", bgstats.bgstats_upload, name="bgstats_upload"),
    path("g/<int:group_id>/import/bgstats/confirm/", bgstats.bgstats_confirm,
         name="bgstats_confirm"),
    path("g/<int:group_id>/import/bgstats/done/", bgstats.bgstats_done, name="bgstats_done"),
    path("groups/import/", history.import_group, name="group_import"),
]
