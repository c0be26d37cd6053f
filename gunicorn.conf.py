"""gunicorn settings for Kartenrunde (`gunicorn companion.wsgi` in this folder reads them).

Threads suit the app: requests wait on the database (and a running sheet's poll waits
for the next change), not on the CPU. Every number can be changed from the environment;
see README "Host it".
"""

import os

wsgi_app = "companion.wsgi:application"
bind = [f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"]
worker_class = "gthread"
# One process by default (`make run`, SQLite): a phone's held poll learns of a change made
# by another phone in the same process at once (companion/changes.py). Hosted on
# PostgreSQL, more processes hear each other's changes through LISTEN/NOTIFY.
workers = int(os.environ.get("WEB_CONCURRENCY", "1"))
# A held poll keeps its thread while it waits: enough threads for the phones that wait
# and for everything else.
threads = int(os.environ.get("GUNICORN_THREADS", "32"))
# The polls that may wait at once per process: all threads but a few, which stay free for
# the other requests (the workers inherit this from the master's environment).
os.environ.setdefault("KARTENRUNDE_MAX_WAITING_POLLS", str(max(threads - 8, 0)))
timeout = 30
graceful_timeout = 10
keepalive = 5
# A worker is replaced now and then, so a slow leak can never grow for long.
max_requests = 2000
max_requests_jitter = 200
# Errors to stderr (the app's LOGGING does the same); one line per request only on demand.
errorlog = "-"
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
# No runtime control socket: nothing uses it, and several servers on one machine
# would share its default path.
control_socket_disable = True
