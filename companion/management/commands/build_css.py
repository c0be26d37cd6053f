"""``manage.py build_css``: Bootstrap cut down to what the pages use (bootstrap_subset.py).

Writes static/vendor/bootstrap/bootstrap.app.css from the vendored dist file and the
app's sources; run it (``make css``) after changing a template, a script or Python that
builds HTML, and commit the result. ``--check`` only says whether the file is current.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser


class Command(BaseCommand):
    help = ("Write static/vendor/bootstrap/bootstrap.app.css: Bootstrap's rules that can "
            "match the app's pages (after changing templates, scripts or HTML-building code).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true",
                            help="fail if the committed file differs from a fresh build")

    def handle(self, *args: Any, check: bool, **options: Any) -> None:
        try:
            from companion import bootstrap_subset
        except ImportError as error:  # tinycss2 comes with the dev tools
            raise CommandError(f"{error}: install the dev tools (make .venv/.installed-dev)") \
                from error
        css = bootstrap_subset.build()
        target = bootstrap_subset.BUILT
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if check:
            if css != current:
                raise CommandError(f"{target.name} is out of date: run `make css` and commit it.")
            self.stdout.write(f"{target.name} is up to date.")
            return
        target.write_text(css, encoding="utf-8")
        source = bootstrap_subset.BOOTSTRAP.stat().st_size
        self.stdout.write(f"Wrote {target} ({len(css.encode()):,} bytes; "
                          f"the whole of Bootstrap is {source:,}).")
