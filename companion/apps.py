from django.apps import AppConfig


class CompanionConfig(AppConfig):
    name = "companion"
    verbose_name = "Kartenrunde"

    def ready(self) -> None:
        from companion import (
            deploy_checks,  # noqa: F401  (registers the checks)
            signals,
        )

        signals.connect()
