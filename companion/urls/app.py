"""URLs of the installable app: manifest and service worker, at the site's root."""

from django.urls import URLPattern, path

from companion.views import app

urlpatterns: list[URLPattern] = [
    path("manifest.webmanifest", app.manifest, name="manifest"),
    path("sw.js", app.service_worker, name="service_worker"),
]
