"""The gunicorn worker of `make run` and the hosted profile: uvicorn's (an event loop per
process, ASGI: companion/asgi.py), which answers every held poll at once when it is told
to stop.

- A restart (``max_requests``, a deploy's SIGHUP/SIGTERM) or Ctrl+C: before uvicorn waits
  for the open requests, :func:`companion.waiting.stop` answers the held polls (304), so
  the worker ends in a fraction of a second, not after gunicorn's graceful timeout.
- Ctrl+C reaches gunicorn's master and its worker; the master then sends the worker
  SIGQUIT ("quick shutdown"). Here SIGINT, SIGTERM and SIGQUIT all stop the server the
  same, quick and clean way, and the worker exits with 0: gunicorn logs no
  "Worker … was sent SIGKILL/SIGQUIT" error line.
"""

from __future__ import annotations

import gc
import logging
import os
import resource
import signal
import socket
import sys
from types import FrameType
from typing import Any

from gunicorn.arbiter import Arbiter
from uvicorn.server import Server as UvicornServer
from uvicorn_worker import UvicornWorker

from companion import waiting


class Server(UvicornServer):
    listeners: list[Any] = []
    """gunicorn's listening sockets of this worker, closed when it stops (below)."""

    async def shutdown(self, sockets: Any = None) -> None:
        waiting.stop()
        # This process's own listening socket (gunicorn's reuse_port) leaves the kernel's
        # group once its last copy is closed: uvicorn closes its copies below, these are the
        # others. New connections then go to the other processes at once, instead of
        # waiting in this socket's queue until the process ends and being reset then.
        for listener in self.listeners:
            listener.close()
        await super().shutdown(sockets=sockets)


class Worker(UvicornWorker):
    CONFIG_KWARGS: dict[str, Any] = {
        "loop": "auto", "http": "auto",
        # Django has no ASGI lifespan; nothing to start or stop there.
        "lifespan": "off",
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The requests still running when the worker stops (held polls are answered at
        # once) get this long, then gunicorn's graceful_timeout would end the process.
        self.config.timeout_graceful_shutdown = max(self.cfg.graceful_timeout - 2, 1)
        self.server: Server | None = None
        self.finished = False

    def init_signals(self) -> None:
        super().init_signals()
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT):
            signal.signal(sig, self.stop_serving)

    def stop_serving(self, sig: int, frame: FrameType | None) -> None:
        if self.finished:
            return  # uvicorn raises the signal it handled again once it has stopped
        if self.server is None:
            sys.exit(0)
        self.server.handle_exit(signal.SIGINT if sig == signal.SIGQUIT else sig, frame)

    def run(self) -> None:
        # A thousand watching phones are a thousand open connections: the soft limit of
        # open files (often 1,024) goes up to the hard one.
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
        if soft != resource.RLIM_INFINITY and soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        # The app is loaded: what is there now (Python's and Django's modules, the settings,
        # the URLs) lives as long as the process. Frozen, Python's full collections, which
        # stop every thread of the process, no longer walk it (about half of what they
        # walked at 1,000 phones): their pauses went from 60-140 ms every few seconds
        # (median ~80) to a median of 30-47 ms (bench/results/watchers-gc-freeze.txt;
        # companion/load_report.py shows them).
        gc.collect()
        gc.freeze()
        super().run()
        # Served and stopped cleanly: end the process now. Python's own ending (joining
        # the idle threads of every request's executor, collecting Django's objects)
        # took 0.5-2.5 s on a busy machine, all of it before gunicorn could stop.
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)

    async def _serve(self) -> None:
        self.config.app = self.wsgi
        self.server = Server(config=self.config)
        self.server.listeners = list(self.sockets)
        # uvicorn's event loop gets copies of gunicorn's listening sockets: it closes its
        # own when it stops, and gunicorn's stay for gunicorn to close (closing the same
        # socket twice logged "Error while closing socket [Errno 9]").
        copies = [socket.socket(fileno=os.dup(listener.fileno())) for listener in self.sockets]
        await self.server.serve(sockets=copies)
        self.finished = True
        if not self.server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
