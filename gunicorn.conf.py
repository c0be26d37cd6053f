"""gunicorn settings for Kartenrunde (`gunicorn` in this folder reads them; `make run` and
the hosted profile use them, docs/hosting.md).

Each worker process runs an event loop (uvicorn, ASGI: companion/asgi.py): a running
sheet's held poll waits there for the next change as a coroutine, so a thousand watching
phones cost no thread and no database connection; the pages themselves are plain sync
Django views, each request in a thread of its own while it runs. A slow client (one
header every few seconds) costs a coroutine too, never a thread. Every number can be
changed from the environment.
"""

import os
import socket
import sys
from typing import Any

wsgi_app = "companion.asgi:application"
bind = [f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"]
# uvicorn's worker, answering held polls at once when told to stop (companion/server.py).
worker_class = "companion.server.Worker"
# One process per core, at most two by default: Python runs one request at a time per
# process, so a second process doubles what the server can work on at once. A phone's held
# poll learns of a change made in its own process at once (companion/changes.py); of one
# made in the other process within a quarter second on SQLite (companion/waiting.py reads
# the waited-for matches' revisions), at once on PostgreSQL (LISTEN/NOTIFY).
workers = int(os.environ.get("WEB_CONCURRENCY", str(min(2, os.cpu_count() or 1))))
# Each process listens on a socket of its own (SO_REUSEPORT; gunicorn then binds in the
# workers, not in the master), and the kernel spreads new connections evenly over them. On
# one shared socket the process that was idle at that moment took each new connection and
# kept it (a phone's connection stays open all evening): at 1,000 phones one process got
# every writer's connection and queued 160 saves while the other had none to do
# (bench/results/watchers-reuse-port.txt).
reuse_port = True
timeout = 30
# Held polls are answered at once when a worker stops (companion/server.py); this is for
# the pages still being made.
graceful_timeout = 5
# An idle kept-alive connection is closed after this many seconds. Longer than a phone's
# pauses at the table (a save every few seconds, a held poll of 15 s, companion/waiting.py):
# at 5 s, a request sent just as the server closed the connection failed with no answer
# (bench/watchers.py's writers, saving every 5 s, lost a save now and then). An idle
# connection costs a few kB in the event loop, not a thread.
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "20"))
# A worker is replaced now and then, so a slow leak can never grow for long. Every held
# poll counts: a thousand watching phones ask about 200 times a second.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "100000"))
max_requests_jitter = max_requests // 10
# Errors to stderr (the app's LOGGING does the same); one line per request only on demand.
errorlog = "-"
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
# No runtime control socket: nothing uses it, and several servers on one machine
# would share its default path.
control_socket_disable = True


def on_starting(server: Any) -> None:
    """Refuse a port that is taken. With ``reuse_port`` a second server of the same user on
    the same port would not fail to bind: it would silently get half of the connections
    (an old `make run` still running, say). A plain bind (SO_REUSEADDR only, as a server
    binds after a restart) fails wherever anything listens on that port."""
    for address in server.cfg.address:
        if not isinstance(address, tuple):
            continue  # a Unix socket: gunicorn itself refuses one that is in use
        host, port = address[0] or "0.0.0.0", address[1]
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((host, port))
            except OSError as error:
                server.log.error("Cannot listen at %s:%s: %s. Is another server running "
                                 "there?", host, port, error.strerror)
                sys.exit(1)
