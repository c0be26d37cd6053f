from django.apps import AppConfig


class CompanionConfig(AppConfig):
    name = "companion"
    verbose_name = "Kartenrunde"

    def ready(self) -> None:
        from companion import csrf

        csrf.install()
