"""URL configuration: one module per area below this package."""

from django.contrib import admin
from django.urls import include, path

from companion.views import core

urlpatterns = [
    path("", core.home, name="home"),
    path("running/", core.running, name="running"),
    # The sheet first: every phone at the table polls it every 2 seconds.
    path("", include("companion.urls.sheet")),
    path("", include("companion.urls.passes")),
    path("", include("companion.urls.accounts")),
    path("", include("companion.urls.groups")),
    path("", include("companion.urls.rules")),
    path("", include("companion.urls.history")),
    path("", include("companion.urls.app")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
