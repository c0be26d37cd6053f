"""URLs of the rules area: rules pages, search, legality checks and live helpers.

All of them are public: the rules are no secret, and a guest at the table
has no account.
"""

from django.urls import URLPattern, URLResolver, path

from companion.views import rules

urlpatterns: list[URLPattern | URLResolver] = [
    path("rules/", rules.rules_index, name="rules_index"),
    path("rules/search/", rules.rules_search, name="rules_search"),
    path("rules/<slug:game>/", rules.rules_game, name="rules_game"),
    path("rules/<slug:game>/check/", rules.rules_check, name="rules_check"),
    # A game's table helper (GameApp.tool), e.g. /tools/bulls/: its view is in its folder.
    path("tools/<slug:key>/", rules.tool, name="tool"),
]
