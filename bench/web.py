"""Web benchmark: what the pages at the table cost the server, against a bare page.

In one run and in interleaved rounds through Django's full middleware stack (DEBUG
off, static files collected into a throw-away place, a temporary SQLite database:
the project's database is not touched), logged in, in German:

- a bare view returning a fixed string (no session, no database): the floor;
- the bare page: the site layout (base.html) for the logged-in user;
- the score sheet of every game, complete (every deal recorded, finished) and open
  (every deal but the last recorded, with the deal form), with 4 players and with the
  most players the game allows when that is more than 4 (11 nimmt!: 7): loaded again
  (its parts kept from the last load, templatetags/revision_parts.py) and, marked
  "1st of revision", the first load after a change (the match's revision is moved on
  before each of these, outside the measurement);
- the htmx deal save of every game with 4 players: the deal in the middle of the match
  (the first of X nimmt!'s two) is recorded, so the answer carries the next deal's form
  where the game has one (Freaky and 3 sind einer zuviel! have one deal), then
  deleted again outside the measurement, so every round saves the same deal; and the
  longest answers: the last deal of 11 nimmt! and 13 with 4 players, and 11 nimmt! with
  7 players (the middle and the last deal);
- the sheet poll: unchanged (304 from its ETag) and after a change (the sheet partial).

No game has 10 deals with 4 players (11 nimmt! and 13 have 4, X nimmt! 2, Freaky and
3 sind einer zuviel! 1): "complete" is the longest sheet each game allows.

It prints, per request, the queries and the response bytes (uncompressed) of one
request, the median and 95th percentile of wall time and CPU time, and the CPU and
wall medians divided by the bare page's; below the table the bare page divided by the
bare view. The machine may be shared: only ratios from one run compare.

    .venv/bin/python bench/web.py [--rounds 150]
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from harness import configure  # bench/ is the script folder, so on sys.path

GAME_ORDER = ("x-nimmt", "elf-nimmt", "freaky", "drei-sind-einer-zuviel", "dreizehn")
NAMES = ("Anna", "Ben", "Cem", "Dora", "Emil", "Fiona", "Gero")
HTMX = {"HTTP_HX_REQUEST": "true"}


@dataclass
class Probe:
    """One request measured in every round."""

    name: str
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    status: int = 200
    data: dict[str, Any] | None = None
    """Form data: the request is a POST."""
    undo: Any = None
    """Called after every measured request, outside the measurement (puts the data back)."""
    before: Any = None
    """Called before every measured request, outside the measurement (a change)."""
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    queries: int = 0
    size: int = 0

    def send(self, client: Any) -> Any:
        if self.data is None:
            return client.get(self.url, **self.headers)
        # A fresh key per send, as a phone's form carries (a repeated key is a repeat).
        return client.post(self.url, {**self.data, "client_key": uuid.uuid4().hex},
                           **self.headers)


class _FormValues(HTMLParser):
    """The values a browser would send for the form whose action ends with ``action``."""

    def __init__(self, action: str) -> None:
        super().__init__()
        self.action = action
        self.inside = False
        self.values: list[tuple[str, str]] = []
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        if tag == "form":
            self.inside = a.get("action", "").endswith(self.action)
        if not self.inside or "disabled" in a:
            return
        name = a.get("name", "")
        if tag == "input" and name:
            kind = a.get("type", "text").lower()
            if kind in ("submit", "button", "image", "reset", "file"):
                return
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            self.values.append((name, a.get("value", "on" if kind == "checkbox" else "")))
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select and "selected" in a:
            self.values.append((self._select, a.get("value", "")))
        elif tag == "textarea" and name:
            self._textarea = name
            self.values.append((name, ""))

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            name, text = self.values[-1]
            self.values[-1] = (name, text + data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def _form_data(html: str, action: str) -> dict[str, Any]:
    parser = _FormValues(action)
    parser.feed(html)
    data: dict[str, Any] = {}
    for name, value in parser.values:
        data.setdefault(name, []).append(value)
    if not data:
        raise SystemExit(f"no form posting to …{action} on the edit page")
    return {name: values[0] if len(values) == 1 else values for name, values in data.items()}


class Table:
    """The bench group: one user, a roster of 7, and matches made from random games."""

    def __init__(self, seed: int) -> None:
        from django.contrib.auth.models import User
        from django.test import Client

        from companion.models import Group, Membership, Player

        self.rng = random.Random(seed)
        self.user = User.objects.create_user("bench", password="bench-password-1")
        self.group = Group.objects.create(name="Benchrunde", owner=self.user)
        Membership.objects.create(group=self.group, user=self.user, role=Membership.Role.OWNER)
        self.roster = [Player.objects.create(group=self.group, name=name) for name in NAMES]
        self.client = Client(HTTP_HOST="localhost")
        self.client.force_login(self.user)

    def match(self, game: str, players: int, recorded: int | None = None) -> Any:
        """A match of ``game`` (a random game of the engine) with its first ``recorded``
        deals; with all of them (``None``), finished."""
        from companion.services import deals as deal_services
        from companion.services import matches as match_services
        from scoring.common import rules_for

        rules = rules_for(game)
        seated = self.roster[:players]
        match = match_services.match_start(group=self.group, game=game, players=seated)
        played = rules.random_game(players, self.rng)
        by_name = dict(zip(played.players, seated, strict=True))
        deals = [
            {by_name[name].pk: rules.entry_to_dict(entry) for name, entry in entries.items()}
            for entries in played.deals
        ]
        for number, entries in enumerate(deals[:recorded], start=1):
            deal_services.deal_record(match=match, number=number, entries=entries)
        if recorded is None:
            match = match_services.match_finish(match=match)
        return match

    def url(self, match: Any, tail: str = "") -> str:
        return f"/g/{self.group.pk}/matches/{match.pk}/{tail}"

    def sheets(self, game: str, players: int) -> list[Probe]:
        from django.db.models import F

        from companion.models import Match
        from scoring.common import rules_for

        count = rules_for(game).deal_count(players)
        label = f"sheet {game} {players}p"
        probes = []
        for name, recorded in ((f"complete ({count} deal{'s' if count > 1 else ''})", None),
                               (f"open + form ({count - 1}/{count})", count - 1)):
            # Two alike matches (the same random game): one loaded again and again, one
            # changed before every load (so the poll of the first stays unchanged).
            state = self.rng.getstate()
            match = self.match(game, players, recorded)
            self.rng.setstate(state)
            changed = self.match(game, players, recorded)

            def change(pk: int = changed.pk) -> None:
                Match.objects.filter(pk=pk).update(revision=F("revision") + 1)

            probes += [Probe(f"{label} {name}", self.url(match)),
                       Probe(f"{label} {name}, 1st of revision", self.url(changed),
                             before=change)]
        return probes

    def save(self, game: str, players: int, *, last: bool = False) -> Probe:
        """The htmx save of the deal in the middle of a match (``last``: of its last deal,
        which brings the finish button), deleted again after each round."""
        from companion.models import Deal
        from companion.services import deals as deal_services
        from scoring.common import rules_for

        count = rules_for(game).deal_count(players)
        number = count if last else (count + 1) // 2
        match = self.match(game, players, recorded=number)
        # The browser's form data for this deal: the edit form of the recorded deal.
        html = self.client.get(self.url(match, f"deals/{number}/")).content.decode()
        data = _form_data(html, f"/deals/{number}/")
        data.pop("version", None)
        data.pop("client_key", None)
        data["number"] = str(number)
        # The page keeps a copy of its fresh deal form and names its shape with the save, so
        # the answer leaves the next form out (static/js/sync.js, templatetags/form_shape.py).
        sheet = self.client.get(self.url(match), {"mode": data.get("mode", "")}).content.decode()
        shape = re.search(r'data-shape="([0-9a-f]+)"', sheet)
        headers = dict(HTMX, **({"HTTP_KR_FORM_SHAPE": shape[1]} if shape else {}))

        def undo() -> None:
            version = Deal.objects.get(match=match, number=number).version
            deal_services.deal_delete(match=match, number=number, version=version)

        undo()
        return Probe(f"save {game} {players}p deal {number}/{count} (htmx)",
                     self.url(match, "deals/new/"), headers, 200, data, undo)


def _probes(table: Table) -> list[Probe]:
    from scoring import GAMES

    probes = [Probe("bare view", "/bench/bare/"), Probe("bare page (base.html)", "/bench/page/")]
    for game in GAME_ORDER:
        counts = [4] + ([GAMES[game].max_players] if GAMES[game].max_players > 4 else [])
        for players in counts:
            probes += table.sheets(game, players)
    probes += [table.save(game, 4) for game in GAME_ORDER]
    # The longest answers: the last deal (the chart at its widest, the finish button) of the
    # four-deal games, and 11 nimmt! at the most players the game allows.
    probes += [table.save("elf-nimmt", 4, last=True), table.save("dreizehn", 4, last=True),
               table.save("elf-nimmt", 7), table.save("elf-nimmt", 7, last=True)]
    polled = next(probe for probe in probes if probe.name.startswith("sheet elf-nimmt 4p open"))
    etag = table.client.get(polled.url, **HTMX)["ETag"]
    probes += [
        Probe("poll elf-nimmt 4p, unchanged (304)", polled.url,
              {**HTMX, "HTTP_IF_NONE_MATCH": etag}, 304),
        Probe("poll elf-nimmt 4p, changed (sheet partial)", polled.url,
              {**HTMX, "HTTP_IF_NONE_MATCH": '"0.de.0.0"'}, 200),
    ]
    return probes


def _warm(probes: list[Probe], client: Any) -> None:
    """Every request a few times (caches, compiled templates), checked; queries and bytes."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for probe in probes:
        for _ in range(3):
            if probe.before is not None:
                probe.before()
            with CaptureQueriesContext(connection) as queries:
                response = probe.send(client)
            if response.status_code != probe.status:
                raise SystemExit(f"{probe.name}: {probe.url} answered {response.status_code}, "
                                 f"not {probe.status}\n{response.content.decode()[:2000]}")
            probe.queries, probe.size = len(queries), len(response.content)
            if probe.undo is not None:
                probe.undo()


def _measure(probes: list[Probe], client: Any, rounds: int) -> None:
    for _ in range(rounds):
        for probe in probes:
            if probe.before is not None:
                probe.before()
            wall, cpu = time.perf_counter(), time.process_time()
            probe.send(client)
            probe.cpu.append((time.process_time() - cpu) * 1000)
            probe.wall.append((time.perf_counter() - wall) * 1000)
            if probe.undo is not None:
                probe.undo()


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def _print(probes: list[Probe], rounds: int) -> None:
    bare, page = probes[0], probes[1]
    page_cpu, page_wall = statistics.median(page.cpu), statistics.median(page.wall)
    width = max(len(probe.name) for probe in probes)
    print(f"\n{'request':<{width}} {'queries':>7} {'KB':>6} {'wall ms':>8} {'p95':>7} "
          f"{'cpu ms':>7} {'p95':>7} {'cpu ×page':>9} {'wall ×page':>10}")
    for probe in probes:
        cpu, wall = statistics.median(probe.cpu), statistics.median(probe.wall)
        print(f"{probe.name:<{width}} {probe.queries:>7} {probe.size / 1000:>6.1f} "
              f"{wall:>8.2f} {_p95(probe.wall):>7.2f} {cpu:>7.2f} {_p95(probe.cpu):>7.2f} "
              f"{cpu / page_cpu:>9.2f} {wall / page_wall:>10.2f}")
    bare_cpu, bare_wall = statistics.median(bare.cpu), statistics.median(bare.wall)
    print(f"\nbare page ÷ bare view: {page_cpu / bare_cpu:.2f}× CPU, {page_wall / bare_wall:.2f}× "
          "wall (medians)")
    print(f"Medians and 95th percentiles of {rounds} interleaved rounds; queries and KB "
          "(uncompressed) of one request.\n"
          f"Python {sys.version.split()[0]}, SQLite, DEBUG off, German, logged in.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=150)
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kartenrunde-bench-web-") as tmp:
        configure(Path(tmp) / "bench.sqlite3", Path(tmp) / "static")
        table = Table(args.seed)
        probes = _probes(table)
        _warm(probes, table.client)
        _measure(probes, table.client, args.rounds)
        _print(probes, args.rounds)


if __name__ == "__main__":
    main()
