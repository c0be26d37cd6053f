"""Log records on stderr: one line per refused request, a traceback only for a failure.

Django logs a refused request (4xx) and a suspicious one (bad Host header, bad
session) with the exception attached; the traceback says nothing an operator
needs there, and a page of it per request buries the real errors. A failed
request (5xx) keeps its traceback.
"""

from __future__ import annotations

import logging


class OneLineForRefusals(logging.Filter):
    """Drops the traceback of 4xx and django.security records (the record stays)."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        refused = isinstance(status, int) and status < 500
        if refused or record.name.startswith("django.security"):
            record.exc_info = None
            record.exc_text = None
            record.stack_info = None
        return True
