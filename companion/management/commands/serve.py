"""``manage.py serve``: the production server for `make run`, reachable from the table's phones.

It finds the machine's addresses on the local network (``companion.lan``, no
packet sent), prints the URLs and a QR code of the first one to scan, says who on
the network can do what, lets the app accept those hosts (ALLOWED_HOSTS,
CSRF_TRUSTED_ORIGINS and the links of ``companion.sharing``, through the environment
gunicorn inherits) and then becomes gunicorn (``gunicorn.conf.py``: an event loop per process,
logging, timeouts) in the same process. On Linux gunicorn is also told to stop when the
process that started it ends (`make run` killed by its process id): no server is
left behind holding the port.
"""

from __future__ import annotations

import ctypes
import io
import os
import signal
import socket
import sys
from pathlib import Path
from typing import Any

import segno
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.core.management.base import BaseCommand, CommandError, CommandParser

from companion import lan
from companion.management.commands.seed_demo import retire_published_password


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


PR_SET_PDEATHSIG = 1


def stop_with_parent() -> None:
    """Linux: this process (gunicorn, after ``exec``) gets SIGTERM when its parent ends, also
    when the parent is killed. `make run` stays the parent (its recipe ``exec``s this
    command), so ending make ends gunicorn; Ctrl+C reaches both anyway. The flag outlives
    ``exec``; elsewhere nothing is done."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
        return
    if os.getppid() != parent:  # the parent ended before the flag was set
        os.kill(os.getpid(), signal.SIGTERM)


class Command(BaseCommand):
    help = "Serve the app with gunicorn; print the URL and a QR code for each LAN address."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--host", default=os.environ.get("HOST") or "0.0.0.0",
            help="Address to listen on (default: HOST or 0.0.0.0, every interface).",
        )
        parser.add_argument(
            "--port", type=int, default=int(os.environ.get("PORT") or 8000),
            help="Port to listen on (default: PORT or 8000).",
        )
        parser.add_argument("--no-qr", action="store_true", help="Print the URLs only.")

    def handle(self, *args: Any, **options: Any) -> None:
        host: str = options["host"].strip()
        port: int = options["port"]
        if not 0 < port < 65536:
            raise CommandError(f"PORT={port}: a port is a number from 1 to 65535.")
        self.check_static_files()
        offered, accepted = self.addresses(host)
        urls = [f"http://{_url_host(address)}:{port}/" for address in offered]
        names = [] if not lan.is_wildcard(host) else self.host_names()
        self.export(
            hosts=[*offered, *accepted, *names],
            origins=[f"http://{_url_host(h)}:{port}" for h in [*offered, *accepted, *names]],
            lan_urls=urls,
        )
        self.announce(host, port, urls, names, qr=not options["no_qr"])
        bind = f"{_url_host(host) if host else '0.0.0.0'}:{port}"
        config = str(settings.BASE_DIR / "gunicorn.conf.py")
        sys.stdout.flush()
        sys.stderr.flush()
        stop_with_parent()
        # glibc gives each of the 32 threads' first allocations an arena of its own, and an
        # import's peak then stays in the process's memory once per arena (bench/soak.py:
        # +10 MB after every import, +1 MB with two arenas). Read when gunicorn starts.
        os.environ.setdefault("MALLOC_ARENA_MAX", "2")
        os.execv(sys.executable, [
            sys.executable, "-m", "gunicorn", "--config", config, "--bind", bind,
            "companion.asgi:application",
        ])

    @staticmethod
    def check_static_files() -> None:
        """Without DEBUG every page links hashed static files: they must be collected."""
        if settings.DEBUG or not isinstance(staticfiles_storage, ManifestFilesMixin):
            return
        manifest = Path(settings.STATIC_ROOT) / staticfiles_storage.manifest_name
        if not manifest.exists():
            raise CommandError(
                f"No {manifest}: collect the static files first with "
                "`manage.py collectstatic --noinput` (make run does)."
            )

    @staticmethod
    def addresses(host: str) -> tuple[list[str], list[str]]:
        """(URLs' addresses to print, further addresses to accept) for the listen address."""
        if lan.is_wildcard(host):
            return lan.addresses()
        if lan.is_loopback(host):
            return [], []
        return [host.strip("[]")], []

    @staticmethod
    def host_names() -> list[str]:
        """The machine's name, also as ``name.local`` (how phones find it by mDNS)."""
        name = socket.gethostname().strip()
        if not name or lan.is_loopback(name):
            return []
        return [name] if "." in name else [name, f"{name}.local"]

    @staticmethod
    def export(*, hosts: list[str], origins: list[str], lan_urls: list[str]) -> None:
        """The environment gunicorn's workers read their settings from."""
        def joined(existing: list[str], extra: list[str]) -> str:
            return ",".join(dict.fromkeys([*existing, *extra]))

        os.environ["DJANGO_ALLOWED_HOSTS"] = joined(list(settings.ALLOWED_HOSTS), hosts)
        os.environ["DJANGO_CSRF_TRUSTED_ORIGINS"] = joined(
            list(settings.CSRF_TRUSTED_ORIGINS), origins
        )
        os.environ["KARTENRUNDE_LAN_URLS"] = joined(list(settings.LAN_URLS), lan_urls)

    def announce(
        self, host: str, port: int, urls: list[str], names: list[str], *, qr: bool
    ) -> None:
        """What the terminal shows: one screen (the QR code of the first address only)."""
        write = self.stdout.write
        local = f"http://127.0.0.1:{port}/" if lan.is_wildcard(host) or lan.is_loopback(host) \
            else None
        write("")
        write(self.style.SUCCESS("Kartenrunde is starting."))
        if local:
            write(f"On this computer: {local}")
        if lan.is_loopback(host):
            write(f"Only this computer can open it (HOST={host}). "
                  "Leave HOST unset to let the phones at the table in.")
        elif not urls:
            write("No network address found: connect this computer to the Wi-Fi "
                  "the phones use, then start again.")
        for index, url in enumerate(urls):
            write(self.style.SUCCESS(f"Phones in the same Wi-Fi: {url}"))
            if qr and index == 0:
                write("Scan this code with the phone's camera:")
                code = io.StringIO()
                segno.make(url, error="m").terminal(out=code, compact=True)
                write(code.getvalue(), ending="")
        for name in names[-1:]:
            write(f"Also by name, where the network supports it: http://{name}:{port}/")
        write("")
        if not lan.is_loopback(host):
            write("Who can do what: everyone on this network can open these addresses, read "
                  "the rules and sign up. A group's matches are shown only to its members and "
                  "to phones with a table pass (\"Join at the table\" on a score sheet: no "
                  "account, one match or game night, until the night ends).")
        self.announce_accounts()
        write("Stop the server with Ctrl+C.")
        write("")

    def announce_accounts(self) -> None:
        """No accounts yet, or a demo account still with the once published password."""
        retired = retire_published_password()
        if retired is not None:
            self.stdout.write(self.style.WARNING(
                f"The account 'demo' had the password once printed in the README: its new "
                f"password is {retired!r}."
            ))
        if not User.objects.exists():
            self.stdout.write("No accounts yet: sign up on the page to start a group "
                              "(`make demo` adds sample data to look at).")
