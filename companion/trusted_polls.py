"""A woken poll answered in the event loop, without Django, when Django answered the same
phone's poll a moment ago (issue 31).

A change wakes every phone that watches the match at once (companion/waiting.py). Each
woken poll went through Django to get the sheet: its session, user and access read from
the database, a pool thread, and the text kept for every watcher of its kind
(companion/shared_renders.py). On a busy evening that was most of the server's work per
change, and the woken polls queued for the threads for seconds.

Now Django's answer to a sheet's poll also tells this module what it checked
(:func:`tell`): the match, the language, the kind of viewer and the entry mode, that is,
which of the shared texts this phone may have. The server's event loop keeps

- **which phones Django checked** (:class:`Checked`), by the poll's identity
  (:func:`identity`: its path and query and every header it sent but the ETag, so its
  cookies, languages, host and encodings): for :data:`TRUST` seconds at most, never past
  the end of its session or table pass;
- **Django's answers to them** (:class:`Kept`), the whole answer (status, headers, the
  compressed body) per match, language, kind of viewer, entry mode and encoding: the same
  bytes for every phone of that kind, and nothing of one viewer in them (the leak test,
  tests/companion/test_leaks.py).

A woken poll of a phone Django checked is answered from there when the answer kept for
its kind shows the match's current revision (as this process knows it). The first of a
kind goes through Django as before and the others wait for its answer (:func:`answer`).
The first of a kind in one process is also the first for the server's other processes: it
leaves a mark in the shared folder while it asks Django (:func:`_mark`), and a woken poll
of its kind in another process waits for the answer it shares instead of asking Django
too (:func:`_relay`). A table's phones are spread over the processes, so each change went
through Django once per process; at 1,000 phones those polls were as much of a process's
CPU as the saves, and while their line grew the processes never caught up.
So Django sees each phone at most every :data:`TRUST` seconds instead of at every change,
and a woken poll costs microseconds in the loop instead of milliseconds in a thread.

What ends the trust at once (:func:`access_changed`, from the signals in
:mod:`companion.signals`): a logout, a changed account (deactivated, new password), a
membership or group changed or gone, a table pass changed (revoked) or gone, a restored
backup. Each writes a new "access epoch" file beside the shared renders; a check made
before it counts no more in any of the server's processes (one ``stat`` per answer). Without
that folder (a read-only disk) nothing is trusted and every poll goes through Django.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import pickle
import secrets
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from django.http import HttpRequest, HttpResponse

from companion import load_report

log = logging.getLogger(__name__)

TRUST = float(os.environ.get("KARTENRUNDE_POLL_TRUST", "600"))
"""Seconds a check of Django's is trusted for the same phone's woken polls, at most: what
ends someone's access ends the trust at once (:func:`access_changed`), and the trust never
outlasts the session's own expiry (:func:`_session_ends`) or the table pass; this bounds
what nothing announces beyond those (a session row changed in the database by hand).
After it, the phone's next woken poll goes through Django again: with 60 s, at a save
every 30 s per table, about every other woken poll did (bench/results/watchers-poll-trust.txt).
0: nothing is trusted, every woken poll goes through Django (servers on several machines
without a shared ``renders`` folder, whose access epochs would not reach each other)."""
KEPT_TTL = 30.0
"""Seconds an answer is kept (as long as the text it carries: companion/shared_renders.py)."""
MAX_CHECKED = 20_000
"""Phones remembered per process (the most recently checked)."""
MAX_KEPT_BYTES = 16 * 1024 * 1024
"""Answers kept per process, in bytes of their bodies (a compressed sheet is 5–15 kB)."""
MAX_STEP_KINDS = 20_000
"""Kinds whose step answer's headers are remembered per process (:func:`_stepped`)."""
STEP_EVERY = 0.005
"""Seconds between two looks for the step a save is putting (:func:`_stepped`)."""
FOLLOW_WAIT = 10.0
"""Seconds a woken poll waits for the answer another poll of its kind is getting from
Django; then it is answered 304 and the phone asks again (to find that answer, or wait for
it once more): it does not queue for Django itself, where it would only make the line the
other poll waits in longer."""
SLOT = "kartenrunde.shared_answer"
"""The scope's key where the view tells the event loop what it checked (:func:`tell`)."""
EPOCH_FILE = "access-epoch"
UNTRUSTED_HEADERS = frozenset({b"if-none-match", b"kr-wait"})
"""A poll's headers that change from poll to poll without changing who asks."""

Group = tuple[int, str, str, str, bool]
"""An answer's kind: match, language, kind of viewer, entry mode, compressed (gzip)."""


@dataclass(frozen=True, slots=True)
class Steps:
    """What the sheet's view tells this module of a new deal's steps of the sheet
    (companion/views/sheet.py registers it, :func:`steps_from`), so that the loop makes
    their answer as the view does (:func:`_stepped`)."""

    most: int
    """New deals a phone may be behind and still get their steps."""
    find: Callable[[int, int, str], str | None]
    """(match, revision, language): the step a save put, or None (none yet, or no new
    deal)."""
    writing: Callable[[int], bool]
    """(match): a save may be putting a step now (it holds its lock)."""
    answer: Callable[[int, int, str, str, list[str]], HttpResponse]
    """(match, revision, kind of viewer, language, the steps in order): the view's answer,
    before the middleware."""


_steps: Steps | None = None


def steps_from(steps: Steps) -> None:
    """(The sheet's view, once.) How steps are found and answered."""
    global _steps
    _steps = steps


@dataclass(slots=True)
class Checked:
    group: Group
    until: float
    """Monotonic time the check ends."""
    epoch: tuple[int, int]


@dataclass(slots=True)
class Kept:
    revision: int
    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes
    until: float
    base: int | None = None
    """The revision a phone must show to take this answer: a step of the sheet from there
    (companion/views/sheet.py, :func:`step_answer`); None: the whole sheet, for any."""


class _State:
    def __init__(self) -> None:
        self.checked: OrderedDict[bytes, Checked] = OrderedDict()
        self.kept: OrderedDict[Group, Kept] = OrderedDict()
        self.kept_bytes = 0
        self.pending: dict[Group, asyncio.Future[None]] = {}
        self.step_headers: OrderedDict[Group, list[tuple[bytes, bytes]]] = OrderedDict()
        """A step answer's headers per kind, as Django's middleware left them: what the
        answers made here (:func:`_stepped`) take, but those of their own revision."""
        self.answered = 0
        """Woken polls answered here (tests and benches read it)."""


_state = _State()


def _epoch_path() -> str | None:
    from django.conf import settings
    from django.core.cache import caches

    if TRUST <= 0 or "renders" not in settings.CACHES:
        return None
    try:
        folder = getattr(caches["renders"], "_dir", None)
    except OSError:
        return None
    return os.path.join(folder, EPOCH_FILE) if folder else None


def epoch() -> tuple[int, int] | None:
    """The access epoch (the file's identity), or None when there is none to trust."""
    path = _epoch_path()
    if path is None:
        return None
    try:
        found = os.stat(path)
    except FileNotFoundError:
        if not access_changed():
            return None
        try:
            found = os.stat(path)
        except OSError:
            return None
    except OSError:
        return None
    return found.st_ino, found.st_mtime_ns


def access_changed() -> bool:
    """Someone's access may have ended: no check made before now is trusted, in any of the
    server's processes. False (logged) if the epoch could not be written: then the old
    one is taken away, so nothing is trusted either."""
    path = _epoch_path()
    if path is None:
        return False
    folder = os.path.dirname(path)
    new = os.path.join(folder, f"{EPOCH_FILE}.{secrets.token_hex(8)}")
    try:
        os.makedirs(folder, exist_ok=True)
        with open(new, "x") as file:
            file.write(secrets.token_hex(8))
        os.replace(new, path)
        return True
    except OSError as error:
        log.warning("The access epoch could not be written (%s): woken polls go through "
                    "Django.", error)
        with contextlib.suppress(OSError):
            os.unlink(path)
        with contextlib.suppress(OSError):
            os.unlink(new)
        return False


def identity(scope: dict[str, Any]) -> bytes:
    """Who asks, as Django would see it: the poll's path, query, scheme and every header
    but the ETag it shows and ``KR-Wait``."""
    digest = hashlib.sha256()
    for part in (scope.get("scheme", "http").encode(), scope["path"].encode(),
                 scope.get("query_string", b"")):
        digest.update(len(part).to_bytes(4, "big") + part)
    for name, value in sorted((name.lower(), value) for name, value in scope.get("headers", [])
                              if name.lower() not in UNTRUSTED_HEADERS):
        digest.update(len(name).to_bytes(4, "big") + name + len(value).to_bytes(4, "big") + value)
    return digest.digest()


def compressed(scope: dict[str, Any]) -> bool:
    return any(name.lower() == b"accept-encoding" and b"gzip" in value.lower()
               for name, value in scope.get("headers", []))


def tell(request: HttpRequest, *, match_id: int, revision: int, kind: str, language: str,
         mode: str | None, until: Any = None, base: int | None = None) -> None:
    """(The sheet's view.) This answer is the shared text of ``match_id`` at ``revision``
    for ``kind``, ``language`` and ``mode`` (a step from ``base`` if given: only for a phone
    that shows that revision), and the viewer's access was checked (a table pass's ends
    at ``until``, a datetime). Only under the ASGI server (companion/asgi.py)."""
    slot = request.META.get("asgi.scope", {}).get(SLOT)
    if slot is None:
        return
    ends = time.time() + TRUST
    if until is not None:
        ends = min(ends, until.timestamp())
    session_ends = _session_ends(request)
    if session_ends is not None:
        ends = min(ends, session_ends)
    slot.update(match=match_id, revision=revision, kind=kind, language=language,
                mode=mode or "", ends=ends, base=base)


def _session_ends(request: HttpRequest) -> float | None:
    """When the viewer's session ends by age (its expiry in the database): nothing announces
    that, so no check is trusted past it. None for a session kept elsewhere (then
    :data:`TRUST` alone bounds it)."""
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    model = getattr(session, "model", None)  # the database's session stores have one
    if not key or model is None:
        return None
    ends = model.objects.filter(session_key=key).values_list("expire_date", flat=True).first()
    return ends.timestamp() if ends is not None else time.time()  # gone: trust nothing


def _group_of(checked: Checked | None, match_id: int) -> Group | None:
    if checked is None or checked.group[0] != match_id:
        return None
    if checked.until <= time.monotonic() or checked.epoch != epoch():
        return None
    return checked.group


def _servable(group: Group, shown: int, steps: bool = True) -> Kept | None:
    from companion import waiting

    kept = _state.kept.get(group)
    if kept is None or kept.until <= time.monotonic():
        return None
    if kept.base is not None and not steps:
        return None  # a page that takes no steps (static/js/sync.js)
    current = waiting.known_revision(group[0])
    if current is None or kept.revision != current or kept.revision == shown:
        return None
    if kept.base is not None and kept.base != shown:
        return None  # a step from another version than the phone's
    _state.kept.move_to_end(group)
    return kept


def _shared_name(group: Group, revision: int) -> str:
    return "answer:" + hashlib.sha256(repr((group, revision)).encode()).hexdigest()


def takes_steps(scope: dict[str, Any]) -> bool:
    """The page takes a new deal's steps of the sheet (``KR-Steps``, static/js/sync.js)."""
    return any(name.lower() == b"kr-steps" and value for name, value in scope.get("headers", []))


async def _stepped(group: Group, shown: int) -> Kept | None:
    """(The first woken poll of its kind in this process.) The answer Django would give:
    the steps of the sheet (:class:`Steps`, as companion/views/sheet.py makes them)
    from the phone's revision ``shown`` to the match's current one, made here from the
    steps the saves put and the headers of an answer of this kind Django gave before
    (:attr:`_State.step_headers`), but those that name the revision. None when the match
    did not move on by new deals only, or further than a phone takes steps, or when no
    answer of this kind was a step yet: Django answers.

    A save announces its change when it commits, before it puts its step: while it holds
    its lock (:attr:`Steps.writing`) the step is
    looked for again every :data:`STEP_EVERY` seconds. The other phones of the kind in
    this process wait for this one, as for a leader."""
    from django.utils.text import compress_string

    from companion import waiting

    steps_of = _steps
    headers = _state.step_headers.get(group)
    current = waiting.known_revision(group[0])
    if steps_of is None or headers is None or current is None \
            or not shown < current <= shown + steps_of.most:
        return None
    match_id, language, kind, _mode, _compressed = group
    with _leading(group):
        steps = []
        deadline = time.monotonic() + FOLLOW_WAIT
        for revision in range(shown + 1, current + 1):
            while (step := steps_of.find(match_id, revision, language)) is None:
                if revision != current or time.monotonic() >= deadline \
                        or not steps_of.writing(match_id):
                    step = steps_of.find(match_id, revision, language)  # put as it let go
                    break
                await asyncio.sleep(STEP_EVERY)
            if step is None:
                return None  # no new deal (a correction, an undo): Django answers
            steps.append(step)
        if waiting.known_revision(match_id) != current:
            return None  # changed again meanwhile
        made = steps_of.answer(match_id, current, kind, language, steps)
        body = made.content
        own = {name.lower(): value for name, value in made.items()}
        weak = gzip = False
        for name, value in headers:
            low = name.lower()
            if low == b"content-encoding" and value.lower() == b"gzip":
                gzip = True
            elif low == b"etag" and value.startswith(b"W/"):
                weak = True
        if gzip:  # as Django's GZipMiddleware does it (its random bytes against BREACH)
            from django.middleware.gzip import GZipMiddleware

            compressed = compress_string(body, max_random_bytes=GZipMiddleware.max_random_bytes)
            if len(compressed) >= len(body):
                return None  # Django would send it as it is: let it
            body = compressed
        if weak:
            own["etag"] = "W/" + own["etag"]
        own["content-length"] = str(len(body))
        answer_headers = []
        for name, value in headers:  # in their order, this revision's where they differ
            mine = own.pop(name.decode("latin-1").lower(), None)
            answer_headers.append((name, value if mine is None else mine.encode("latin-1")))
        answer_headers += [(name.encode("latin-1"), value.encode("latin-1"))
                           for name, value in own.items()]
        kept = Kept(current, 200, answer_headers, body, time.monotonic() + KEPT_TTL, shown)
        _keep(group, kept)
        return kept


def _from_other_process(group: Group, shown: int, steps: bool = True) -> Kept | None:
    """The answer another process of the server got from Django for ``group`` at the
    match's current revision (as this process knows it), kept here from now on. A small
    file read in the event loop (a sheet's answer is 5–15 kB compressed)."""
    from django.core.cache import caches

    from companion import waiting

    current = waiting.known_revision(group[0])
    if current is None or current == shown:
        return None
    try:
        found = caches["renders"].get(_shared_name(group, current))
    except (OSError, EOFError, ValueError, TypeError, pickle.UnpicklingError, zlib.error):
        return None
    if not (isinstance(found, tuple) and len(found) == 4 and isinstance(found[2], bytes)):
        return None
    status, headers, body, base = found
    if base is not None and (base != shown or not steps):
        return None  # a step from another version than the phone's, or for a page taking them
    kept = Kept(current, status, headers, body, time.monotonic() + KEPT_TTL, base)
    _keep(group, kept)
    return kept


def _share(group: Group, kept: Kept, mark: str | None = None) -> None:
    """(In a thread.) The answer for the server's other processes; then the mark of the
    poll that got it goes (:func:`_mark`)."""
    from django.core.cache import caches

    with contextlib.suppress(OSError):  # a full disk: each process asks Django itself
        caches["renders"].set(_shared_name(group, kept.revision),
                              (kept.status, kept.headers, kept.body, kept.base), KEPT_TTL)
    if mark is not None:
        with contextlib.suppress(OSError):
            os.unlink(mark)


RELAY_EVERY = 0.02
"""Seconds between two looks for the answer another process is getting (:func:`_relay`)."""


def _mark_path(group: Group) -> str | None:
    """The mark of a poll that asks Django for ``group``'s answer for the server's
    processes (beside the access epoch), or None when nothing is shared."""
    path = _epoch_path()
    if path is None:
        return None
    name = hashlib.sha256(repr(group).encode()).hexdigest()[:32]
    return os.path.join(os.path.dirname(path), f"leading-{name}")


def _mark(group: Group) -> str | None:
    """(The first poll of its kind in this process, on its way to Django.) Tell the other
    processes; the mark's path, to take it away once the answer is shared (or not)."""
    path = _mark_path(group)
    if path is None:
        return None
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600))
    except OSError:
        return None
    return path


def _led_elsewhere(group: Group) -> bool:
    """A poll of another process is asking Django for this kind's answer (a mark younger
    than :data:`FOLLOW_WAIT`: an older one was left by a process that ended)."""
    path = _mark_path(group)
    if path is None:
        return False
    try:
        return time.time() - os.stat(path).st_mtime < FOLLOW_WAIT
    except OSError:
        return False


async def _relay(group: Group, shown: int, steps: bool) -> Kept | None:
    """(The first woken poll of its kind in this process, while another process's asks
    Django.) That answer once it is shared, kept here for this process's others too, who
    wait for this poll as for a leader; None when the other poll ended without sharing one
    for the match's current revision (a poll for an older one), or when its mark grew
    older than :data:`FOLLOW_WAIT`."""
    with _leading(group):
        deadline = time.monotonic() + FOLLOW_WAIT
        while time.monotonic() < deadline:
            await asyncio.sleep(RELAY_EVERY)
            kept = _from_other_process(group, shown, steps)
            if kept is not None or not _led_elsewhere(group):
                return kept
        return None


@contextlib.contextmanager
def _leading(group: Group) -> Iterator[None]:
    """(In the loop.) This poll gets its kind's answer without Django (:func:`_relay`,
    :func:`_stepped`): the others of its kind in this process wait for it, as for a
    poll that leads them through Django (:class:`Through`)."""
    done = _state.pending[group] = asyncio.get_running_loop().create_future()
    try:
        yield
    finally:
        _state.pending.pop(group, None)
        done.set_result(None)


def _keep(group: Group, kept: Kept) -> None:
    if kept.base is not None and kept.status == 200:
        _state.step_headers.pop(group, None)
        _state.step_headers[group] = kept.headers
        while len(_state.step_headers) > MAX_STEP_KINDS:
            _state.step_headers.popitem(last=False)
    old = _state.kept.pop(group, None)
    if old is not None:
        _state.kept_bytes -= len(old.body)
    if len(kept.body) > MAX_KEPT_BYTES:
        return
    _state.kept[group] = kept
    _state.kept_bytes += len(kept.body)
    while _state.kept_bytes > MAX_KEPT_BYTES:
        _, dropped = _state.kept.popitem(last=False)
        _state.kept_bytes -= len(dropped.body)


async def _send(send: Any, kept: Kept) -> None:
    _state.answered += 1
    await send({"type": "http.response.start", "status": kept.status, "headers": kept.headers})
    await send({"type": "http.response.body", "body": kept.body})


Answered = Literal["answered", "late", "django"]


async def answer(scope: dict[str, Any], send: Any, match_id: int, shown: int) -> Answered:
    """A woken poll (it showed revision ``shown``): ``answered`` here if Django checked this
    phone a moment ago and the answer of its kind at the current revision is kept, or is
    being got from Django by another poll of its kind (waited for); ``late`` if that poll
    got no answer within :data:`FOLLOW_WAIT` (Django is busy: this poll asking it too
    would only make the line longer; the caller answers 304 and the phone asks again, to
    find the answer or wait for it once more); ``django``: go to Django."""
    from companion import waiting

    ident = identity(scope)
    group = _group_of(_state.checked.get(ident), match_id)
    if group is None:
        load_report.counts["untrusted"] += 1
        return "django"
    steps = takes_steps(scope)
    kept = _servable(group, shown, steps) or _from_other_process(group, shown, steps)
    if kept is None and steps and group not in _state.pending:
        kept = await _stepped(group, shown)
        if kept is not None:
            load_report.counts["stepped"] += 1
    if kept is None:
        pending = _state.pending.get(group)
        if pending is None:
            # The match's revision as this process knows it (on SQLite read by the
            # recheck that woke this poll; none when an announcement woke it).
            if waiting.known_revision(match_id) is None or not _led_elsewhere(group):
                return "django"
            kept = await _relay(group, shown, steps)
            if kept is None:
                return "django"  # none shared, or the other poll's mark grew old
            load_report.counts["relayed"] += 1
        else:
            try:
                await asyncio.wait_for(asyncio.shield(pending), FOLLOW_WAIT)
            except TimeoutError:
                load_report.counts["follow_late"] += 1
                return "late"
            if _group_of(_state.checked.get(ident), match_id) is None:
                return "django"
            kept = _servable(group, shown, steps)
            if kept is None:
                return "django"
            load_report.counts["followed"] += 1
    _state.checked.move_to_end(ident)
    load_report.counts["trusted"] += 1
    await _send(send, kept)
    return "answered"


class Through:
    """A poll on its way through Django: what Django answers is learnt (the phone as
    checked, the answer as kept for its kind) when the view said it was a shared text."""

    def __init__(self, scope: dict[str, Any], match_id: int) -> None:
        self.ident = identity(scope)
        self.match_id = match_id
        self.compressed = compressed(scope)
        self.slot: dict[str, Any] = {}
        self.epoch = epoch()  # before Django checks: a change of access meanwhile counts
        self.status = 0
        self.headers: list[tuple[bytes, bytes]] = []
        self.cookies = False
        self.body: list[bytes] = []
        # The kind Django found for this phone before (trusted or not any more: it is
        # only a guess of what Django will answer, each follower's own trust is checked).
        checked = _state.checked.get(self.ident)
        self.leads: Group | None = None
        self.mark: str | None = None
        if checked is not None and checked.group[0] == match_id \
                and checked.group not in _state.pending:
            # The first of its kind since the change: the others wait for this answer, in
            # this process and (told by the mark) in the others.
            self.leads = checked.group
            _state.pending[checked.group] = asyncio.get_running_loop().create_future()
            self.mark = _mark(checked.group)

    def scope(self, scope: dict[str, Any]) -> dict[str, Any]:
        return {**scope, SLOT: self.slot}

    def seen(self, message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
            self.headers = [(name, value) for name, value in message.get("headers", [])]
            self.cookies = any(name.lower() == b"set-cookie" for name, _ in self.headers)
        elif message["type"] == "http.response.body":
            self.body.append(message.get("body", b""))
            if not message.get("more_body", False):
                self._learn()

    def _learn(self) -> None:
        slot = self.slot
        if (self.epoch is None or self.status != 200 or self.cookies or not slot
                or slot.get("match") != self.match_id):
            return
        group: Group = (self.match_id, slot["language"], slot["kind"], slot["mode"],
                        self.compressed)
        now = time.monotonic()
        kept = Kept(slot["revision"], self.status, self.headers, b"".join(self.body),
                    now + KEPT_TTL, slot.get("base"))
        _keep(group, kept)
        if len(kept.body) <= MAX_KEPT_BYTES:
            asyncio.get_running_loop().run_in_executor(None, _share, group, kept, self.mark)
            self.mark = None  # taken away once the answer is shared
        remaining = slot["ends"] - time.time()
        if remaining > 0:
            _state.checked.pop(self.ident, None)
            _state.checked[self.ident] = Checked(group, now + remaining, self.epoch)
            while len(_state.checked) > MAX_CHECKED:
                _state.checked.popitem(last=False)

    def done(self) -> None:
        if self.mark is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.mark)
        if self.leads is not None:
            pending = _state.pending.pop(self.leads, None)
            if pending is not None and not pending.done():
                pending.set_result(None)


def forget() -> None:
    """Nothing checked nor kept (a restore; a test's fresh start)."""
    _state.checked.clear()
    _state.kept.clear()
    _state.kept_bytes = 0


def answered_count() -> int:
    return _state.answered
