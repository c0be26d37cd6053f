"""``manage.py check --deploy``: what this app's hosted profile needs beyond Django's own
checks (docs/hosting.md, "Host it")."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def check_trusted_proxies(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    """Behind the HTTPS proxy with no proxy trusted, every login seems to come from the
    proxy's address: ten wrong passwords for a name would pause it for everyone."""
    if getattr(settings, "SECURE_PROXY_SSL_HEADER", None) and not settings.TRUSTED_PROXIES:
        return [Warning(
            "DJANGO_HTTPS=1 says the app is behind a proxy, but DJANGO_TRUSTED_PROXIES is 0: "
            "login throttling would count every attempt as the proxy's.",
            hint="Set DJANGO_TRUSTED_PROXIES=1 for one proxy in front (deploy/kartenrunde.env) "
                 "and let the app server listen on 127.0.0.1 only.",
            id="kartenrunde.W001",
        )]
    return []
