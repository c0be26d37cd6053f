"""The game contract: every registered game, and Strafpunkte, a game the tests register
(``tests/companion/contract/``, never shipped), go through every page and path a game
has. Strafpunkte names its own score part, option, start-form field, check, table helper
and demo data: a shared module that still asks "which game is this" fails it. A shared
module that names a game fails :func:`test_no_shared_module_names_a_game`.

Fast: the Django test client, data built through the services and the engine's random
games (no browser).
"""

from __future__ import annotations

import ast
import json
import random
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django import forms
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from companion import backups
from companion.forms.sheet import DealForm
from companion.games import GAME_APPS, GameApp, game_app
from companion.management.commands import seed_demo
from companion.models import Deal, DealScore, Group, Match, Player, TablePass
from companion.rules_search import index as search_index
from companion.selectors import sheet as sheet_reads
from companion.selectors.history import game_stats
from companion.services.transfer.export import group_export_json
from companion.services.transfer.importer import group_import
from scoring import GAMES
from scoring.common import rules_for
from tests.companion.contract import app as strafpunkte
from tests.companion.contract.app import registered

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = list(GAMES)
"""The shipped games (collected before the tests register theirs)."""
HX = {"HTTP_HX_REQUEST": "true"}
TEMPLATES = ROOT / "tests" / "companion" / "contract" / "templates"


def _clear_search() -> None:
    """The rules search builds its index once per process: again with or without the
    test's game."""
    search_index._INDEXES.clear()


@pytest.fixture(params=[*SHIPPED, strafpunkte.SLUG])
def game(request: pytest.FixtureRequest, settings: Any) -> Iterator[GameApp]:
    """Each shipped game, then Strafpunkte, registered while the test runs."""
    if request.param != strafpunkte.SLUG:
        yield game_app(request.param)
        return
    templates = [dict(engine) for engine in settings.TEMPLATES]
    templates[0]["DIRS"] = [*templates[0]["DIRS"], TEMPLATES]
    settings.TEMPLATES = templates
    with registered() as app:
        _clear_search()
        yield app
    _clear_search()


@pytest.fixture
def table(group: Group) -> tuple[User, list[Player]]:
    """Anna (the owner), Ben, Cem and Dora."""
    dora = Player.objects.create(group=group, name="Dora")
    return group.owner, [*group.players.filter(name__in=["Anna", "Ben", "Cem"]).order_by("name"),
                         dora]


def url(name: str, match: Match, **kwargs: Any) -> str:
    return reverse(name, kwargs={"group_id": match.group_id, "match_id": match.pk, **kwargs})


def ok(response: Any, status: int = 200) -> str:
    # A download is sent as it is written (a streaming response).
    content = b"".join(response.streaming_content) if response.streaming else response.content
    assert response.status_code == status, content.decode()[:3000]
    return content.decode()


def key() -> str:
    return uuid.uuid4().hex


def played(app: GameApp, players: list[Player], seed: int) -> list[dict[int, dict[str, Any]]]:
    """A random legal game of the engine: per deal, the entry dict per player id."""
    rules = rules_for(app.slug)
    simulated = rules.random_game(len(players), random.Random(seed))
    return [{player.pk: rules.entry_to_dict(deal[name])
             for name, player in zip(simulated.players, players, strict=True)}
            for deal in simulated.deals]


def deal_data(match: Match, number: int, entries: dict[int, Any],
              mode: str | None = None) -> dict[str, Any]:
    """What the deal form sends for ``entries`` (in entry ``mode``, else the entries' own)."""
    seats = list(match.seats.select_related("player").order_by("number"))
    initial, _mode = DealForm.initial_from(game=match.game, seats=seats, datas=entries,
                                           mode=mode)
    data = {name: value for name, value in initial.items() if value not in (None, "")}
    return {**data, "number": number, "client_key": key(), "confirm_empty": "1"}


def engine_scores(match: Match, entries: dict[int, Any]) -> dict[int, int]:
    rules = rules_for(match.game)
    scored = rules.score_deal({str(pk): rules.entry_from_dict(data)
                               for pk, data in entries.items()})
    return {int(pk): score for pk, score in scored.items()}


def stored_scores(match: Match, number: int) -> dict[int, int]:
    return dict(DealScore.objects.filter(deal__match=match, deal__number=number)
                .values_list("player_id", "score"))


def test_a_game_goes_through_every_page_and_path(
    game: GameApp, table: tuple[User, list[Player]], group: Group, client: Client,
) -> None:
    anna, roster = table
    players = roster[:max(game.info.min_players, min(3, game.info.max_players))]
    client.force_login(anna)

    # New match, with the game's own start fields (its options) ticked.
    new_url = reverse("match_new", args=[group.pk])
    page = ok(client.get(new_url))
    start_fields = game.start_fields() if game.start_fields else {}
    for name in start_fields:
        assert f'name="{game.folder}-{name}"' in page
        assert f'class="game-options" data-game="{game.slug}"' in page
    data: dict[str, Any] = {"game": game.slug, "client_key": key(),
                            **{f"seat_{i}": p.pk for i, p in enumerate(players)},
                            **{f"{game.folder}-{name}": "on" for name in start_fields
                               if isinstance(start_fields[name], forms.BooleanField)}}
    ok(client.post(new_url, data), 302)
    optioned = Match.objects.filter(group=group, game=game.slug).latest("pk")
    # What the form cleans: ticked boxes, the other fields left empty.
    ticked = {name: True if isinstance(field, forms.BooleanField) else field.clean(None)
              for name, field in start_fields.items()}
    assert optioned.options == (game.start_options(ticked) if game.start_options else {})

    # The flow below: a match with the game's default options (the engine's random games
    # are played by the default rules).
    ok(client.post(new_url, {**data, "client_key": key(),
                             **{f"{game.folder}-{name}": "" for name in start_fields}}), 302)
    match = Match.objects.filter(group=group, game=game.slug).latest("pk")
    assert match.pk != optioned.pk
    sheet_url = url("match_sheet", match)

    # Deal entry in each of the game's modes: the form, and a preview of the deal.
    deals = played(game, players, seed=11)
    for mode in game.entry.modes:
        ok(client.get(sheet_url, {"mode": mode.key}))
        ok(client.post(url("deal_preview", match), deal_data(match, 1, deals[0], mode.key), **HX))

    # Save, correct, undo and redo.
    ok(client.post(url("deal_new", match), deal_data(match, 1, deals[0]), **HX))
    assert stored_scores(match, 1) == engine_scores(match, deals[0])
    correction = played(game, players, seed=12)[0]
    ok(client.post(url("deal_edit", match, number=1), {
        **deal_data(match, 1, correction), "version": Deal.objects.get(match=match).version,
    }, **HX))
    assert stored_scores(match, 1) == engine_scores(match, correction)
    change = sheet_reads.undo_target(match)
    ok(client.post(url("match_undo", match), {"change": change.pk, "client_key": key()}, **HX))
    assert stored_scores(match, 1) == engine_scores(match, deals[0])
    ok(client.post(url("match_redo", match), {"change": change.pk, "client_key": key()}, **HX))
    assert stored_scores(match, 1) == engine_scores(match, correction)

    # The other deals, the sheet with every breakdown, finish.
    for number, entries in enumerate(deals[1:], start=2):
        ok(client.post(url("deal_new", match), deal_data(match, number, entries), **HX))
    ok(client.get(sheet_url))
    ok(client.post(url("match_finish", match), {"client_key": key()}, **HX))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED

    # Rematch: same game and options; a guest at the table records its first deal.
    ok(client.post(url("match_rematch", match), {"client_key": key()}), 302)
    rematch = Match.objects.filter(group=group, game=game.slug).latest("pk")
    assert rematch.pk not in (match.pk, optioned.pk)
    assert rematch.options == match.options
    ok(client.post(url("match_pass", rematch), {"may_write": "1"}), 302)
    token = re.search(r"/t/([^/\"]+)/", ok(client.get(url("match_pass", rematch))))
    assert token is not None
    guest = Client()
    ok(guest.post(reverse("pass_join", args=[token.group(1)]), {"typed": "Zoe"}), 302)
    ok(guest.get(url("match_sheet", rematch)))
    first = played(game, players, seed=13)[0]
    ok(guest.post(url("deal_new", rematch), deal_data(rematch, 1, first), **HX))
    assert stored_scores(rematch, 1) == engine_scores(rematch, first)
    assert TablePass.objects.filter(match=rematch).exists()
    if game.live is not None:
        ok(client.get(url("match_live", rematch)))

    # The night page and its picture; history, player, game, head-to-head, ratings.
    night = match.game_night
    assert game.info.title in ok(client.get(reverse("night_detail", args=[group.pk, night.pk])))
    picture = client.get(reverse("night_card", args=[group.pk, night.pk]))
    assert picture.status_code == 200 and picture["Content-Type"] == "image/png"
    ok(client.get(reverse("history", args=[group.pk])))
    ok(client.get(reverse("player_stats", args=[group.pk, players[0].pk])))
    game_page = ok(client.get(reverse("game_stats", args=[group.pk, game.slug])))
    stats = game_stats(group, game.slug)
    assert stats.figures, "the game's figures from its tallies"
    for figure in stats.figures:
        assert str(figure.label) in game_page
    ok(client.get(reverse("head_to_head", args=[group.pk]),
                  {"first": players[0].pk, "second": players[1].pk}))
    ok(client.get(reverse("ratings", args=[group.pk])))
    ok(client.get(reverse("ratings_game", args=[group.pk, game.slug])))

    # Export → import round trip, BG Stats, the CSV.
    exported = ok(client.get(reverse("export_json", args=[group.pk])))
    assert group_export_json(group_import(user=anna, content=exported.encode())) == exported
    bgstats = json.loads(ok(client.get(reverse("bgstats_export", args=[group.pk]))))
    exported_game = next(entry for entry in bgstats["games"]
                         if entry.get("name") == game.info.title)
    # BG Stats names a BoardGameGeek game by its id and BoardGameGeek's name; a game
    # without an id is a custom game, named by its own name.
    assert (exported_game["bggId"], exported_game["bggName"]) == (
        (game.bgg_id, game.bgg_name) if game.bgg_id else (0, game.info.title))
    ok(client.get(reverse("export_csv", args=[group.pk])))

    # The rules: index, page, check, helper, search.
    assert f'href="/rules/{game.slug}/"' in ok(client.get(reverse("rules_index")))
    rules_page = ok(client.get(reverse("rules_game", args=[game.slug])))
    for section in game.rules["de"].sections:
        assert f'id="{section.anchor}"' in rules_page
    ok(client.get(reverse("rules_check", args=[game.slug])))
    if game.tool is not None:
        ok(client.get(game.tool.url, {"players": "Anna,Ben,Cem"}))
    answers = ok(client.get(reverse("rules_search"), {"q": game.search.names[0]}))
    assert f"/rules/{game.slug}/#" in answers


def test_strafpunkte_is_entered_in_both_modes_with_its_own_score_part(
    group: Group, table: tuple[User, list[Player]], client: Client, settings: Any,
) -> None:
    """The test's game in detail: counts and card numbers (its own range, 1–30), the words
    of its own score part on the sheet, its check's answer, its option in the import."""
    templates = [dict(engine) for engine in settings.TEMPLATES]
    templates[0]["DIRS"] = [*templates[0]["DIRS"], TEMPLATES]
    settings.TEMPLATES = templates
    anna, players = table
    client.force_login(anna)
    with registered():
        from companion.services import matches as match_services

        match = match_services.match_start(group=group, game=strafpunkte.SLUG,
                                           players=players[:3])
        counts = {"mode": "counts", "number": 1, "s0-penalty": "4", "s1-penalty": "0",
                  "s2-penalty": "7", "client_key": key()}
        ok(client.post(url("deal_new", match), counts, **HX))
        cards = {"mode": "cards", "number": 2, "s0-cards": "3, 25", "s1-cards": "",
                 "s2-cards": "30", "client_key": key(), "confirm_empty": "1"}
        ok(client.post(url("deal_new", match), cards, **HX))
        assert stored_scores(match, 2) == {players[0].pk: 3, players[1].pk: 0,
                                           players[2].pk: 2}
        refused = ok(client.post(url("deal_new", match), {
            "mode": "cards", "number": 3, "s0-cards": "31", "s1-cards": "",
            "s2-cards": "", "client_key": key()}, **HX), 422)
        assert "30" in refused and Deal.objects.filter(match=match).count() == 2
        sheet = ok(client.get(url("match_sheet", match)))
        assert "7 Strafpunkte" in sheet and "Karten (Strafpunkte): 3 (1), 25 (2)" in sheet
        check = ok(client.post(reverse("rules_check", args=[strafpunkte.SLUG]),
                               {"check": "penalty", "penalty-penalty": "0"}))
        assert 'id="answer-penalty">raus<' in check


def test_the_demo_data_holds_the_matches_each_game_brings(db: None) -> None:
    with registered() as app:
        seed_demo.seed(random.Random(5), password="kartenrunde-demo-test")
        for slug, each in GAME_APPS.items():
            assert Match.objects.filter(game=slug).count() == len(each.demo_players), slug
        assert Match.objects.filter(game=app.slug, status=Match.Status.FINISHED).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_backup_of_every_game_restores(
    tmp_path: Path, group: Group, table: tuple[User, list[Player]],
) -> None:
    from companion.services import deals as deal_services
    from companion.services import matches as match_services

    _anna, players = table
    with registered():
        for slug in GAME_APPS:
            app = game_app(slug)
            seated = players[:max(app.info.min_players, 3)]
            match = match_services.match_start(group=group, game=slug, players=seated)
            deal_services.deal_record(match=match, number=1,
                                      entries=played(app, seated, seed=3)[0])
        path = tmp_path / "backup.json"
        backups.backup(path)
        before = {slug: DealScore.objects.filter(deal__match__game=slug).count()
                  for slug in GAME_APPS}
        call_command("flush", interactive=False, verbosity=0)
        backups.restore(path)
        assert {slug: DealScore.objects.filter(deal__match__game=slug).count()
                for slug in GAME_APPS} == before


# ------------------------------------------------- no shared module names a game

GAME_FOLDERS = {ROOT / "companion" / "games" / app.folder for app in GAME_APPS.values()}


def _shared_python() -> Iterator[Path]:
    for path in sorted((ROOT / "companion").rglob("*.py")):
        if "migrations" in path.parts or any(folder in path.parents for folder in GAME_FOLDERS):
            continue
        yield path


def _names_of_games() -> set[str]:
    return set(SHIPPED) | {app.folder for app in GAME_APPS.values()}


def _literals(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """String constants that are not docstrings (of a module, class or function, or the
    bare string under an assignment that documents it)."""
    docstrings = {
        id(node.value) for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in docstrings):
            yield node.lineno, node.value


def test_no_shared_module_names_a_game() -> None:
    """Outside a game's folder no code names a game (its slug, its folder, or a word only
    it records): the sheet, rules, checks and history ask the registry."""
    names = _names_of_games()
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(names))) + r")(?![\w-])")
    found = []
    for path in _shared_python():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, value in _literals(tree):
            if value in names or (pattern.search(value) and value.startswith("companion.games.")):
                found.append(f"{path.relative_to(ROOT)}:{line}: {value!r}")
    found += _game_words_in_shared_templates()
    assert found == [], "\n".join(found)


GAME_WORDS = ("Hornochse", "Bullenkarte", "bull card", "X-Reihe", "X-stack", "X-Stapel",
              "Zwischenwertung", "interim scoring", "seven colours", "sieben Farben", "red 4",
              "rote Vier", "Strafpunkt")
"""Words of single games (the glossary's game terms): a shared template that says one
speaks for a game, whose folder should say it (``GameApp``, its ``EntryFormat``)."""
SHARED_TALLIES = {("templates/companion/groups/night_detail.html", "Hornochse")}
"""The night's tally adds up the Hornochsen of every game that reports them (the shared
tally key ``companion.selectors.stats.HORNOCHSEN``): a sum across games, no game's own."""


def _game_words_in_shared_templates() -> list[str]:
    """Lines of the shared templates that name a game (its slug, folder or title) or say
    one of :data:`GAME_WORDS` (see :func:`_game_words_in`)."""
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        found += _game_words_in(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))
    return found


def _game_words_in(relative: str, text: str) -> list[str]:
    """The lines of the template ``relative`` that name a game; under templates/companion/
    also those that say a game's word. Comments count too (they tell the next reader where
    the game lives)."""
    titles = [app.info.title for app in GAME_APPS.values() if not app.info.title.isdigit()]
    names = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(_names_of_games())))
                       + r")(?![\w-])|" + "|".join(map(re.escape, titles)))
    words = re.compile("|".join(map(re.escape, GAME_WORDS)), re.IGNORECASE)
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        hit = names.search(line)
        if hit is None and relative.startswith("templates/companion/"):
            hit = words.search(line)
            if hit and any(relative == where and hit.group().casefold() == word.casefold()
                           for where, word in SHARED_TALLIES):
                hit = None
        if hit:
            found.append(f"{relative}:{number}: {hit.group()!r} in {line.strip()[:80]}")
    return found


@pytest.mark.parametrize("put_back", [
    "{% if match.game == 'dreizehn' %}", "{# dreizehn only #}", "{# for X nimmt! #}",
    "{% translate 'all seven colours are open' %}", "{% translate 'Hornochsen on the card' %}",
])
def test_the_template_check_finds_a_game_put_back(put_back: str) -> None:
    """A game's name or word put back into a shared template is found (a check that cannot
    fail is none)."""
    sheet = ROOT / "templates" / "companion" / "sheet" / "sheet.html"
    relative = "templates/companion/sheet/sheet.html"
    assert _game_words_in(relative, sheet.read_text(encoding="utf-8")) == []
    assert _game_words_in(relative, sheet.read_text(encoding="utf-8") + put_back) != []


# --------------------------------------- a game added later: only its own files name it

ADDED = SHIPPED[5:]
"""The games added after the first five, as "a game is one folder" says (the sixth,
6 nimmt!: docs/architecture.md, "Adding a game"); the first five are named in shared tests
as examples. Deleting such a game's own files leaves an app without it that works."""


def _own_files(app: GameApp) -> set[Path]:
    """What adding the game added: its engine module and folder, its tests (named after
    its folder); besides, the registry line, translations, docs and migrations."""
    tests = ROOT / "tests"
    return {
        ROOT / "scoring" / f"{app.folder}.py", ROOT / "companion" / "games" / app.folder,
        *tests.rglob(f"test_{app.folder}.py"), *tests.rglob(f"test_*_{app.folder}.py"),
    }


def _names_in_code(path: Path, forbidden: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    """Code that names the game: string literals (docstrings aside) and identifiers of a
    Python module; any line of a template, script or style sheet."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        for number, line in enumerate(text.splitlines(), 1):
            if forbidden.search(line):
                yield number, line.strip()
        return
    tree = ast.parse(text)
    registry_line = {  # GameInfo("<slug>", ...) in scoring/__init__.py: the one allowed
        id(arg) for node in ast.walk(tree) if isinstance(node, ast.Call)
        and getattr(node.func, "id", "") == "GameInfo" for arg in node.args}
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Name):
            names = [node.id]
        elif isinstance(node, ast.Attribute):
            names = [node.attr]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names = [node.name]
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [alias.name for alias in node.names]
            if isinstance(node, ast.ImportFrom):
                names.append(node.module or "")
        for name in names:
            if forbidden.search(name):
                yield node.lineno, name
    for line, value in _literals(tree):
        if forbidden.search(value) and not any(
                id(node) in registry_line for node in ast.walk(tree)
                if isinstance(node, ast.Constant) and node.value == value):
            yield line, value


def _spellings(app: GameApp) -> re.Pattern[str]:
    """The game's slug, folder and title (with or without its "!"), in any case."""
    spellings = {app.slug, app.folder, app.info.title, app.info.title.rstrip("!")}
    return re.compile("|".join(map(re.escape, sorted(spellings, key=len, reverse=True))),
                      re.IGNORECASE)


@pytest.mark.parametrize("slug", ADDED)
def test_an_added_game_is_named_only_in_its_own_files(slug: str) -> None:
    app = game_app(slug)
    forbidden = _spellings(app)
    own = _own_files(app)
    # What players type into the rules search may name any game, one the app has or not.
    asked = set((ROOT / "tests" / "companion").glob("rules_questions*.py"))
    shared = [path for folder in ("companion", "scoring", "templates", "static", "tests",
                                  "bench")
              for path in sorted((ROOT / folder).rglob("*"))
              if path.suffix in (".py", ".html", ".js", ".css") and "migrations" not in path.parts
              and "vendor" not in path.parts and path not in asked
              and not any(path == mine or mine in path.parents for mine in own)]
    found = [f"{path.relative_to(ROOT)}:{line}: {value[:80]!r}"
             for path in shared for line, value in _names_in_code(path, forbidden)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize(("name", "text", "named"), [
    ("shared.py", 'if match.game == "{slug}":\n    pass\n', True),
    ("shared.py", "from companion.games.{folder} import forms\n", True),
    ("shared.py", "import companion.games.{folder}\n", True),
    ("shared.py", "def _{folder}_figures() -> None:\n    pass\n", True),
    ("shared.py", "TITLE = '{title_upper}'\n", True),
    ("shared.py", '"""Like {title}, a game may end by its totals."""\n', False),
    ("shared.py", 'LIMIT = 3\n"""As {title} needs."""\n', False),
    ("shared.html", "{{% if game == '{slug}' %}}{{% endif %}}\n", True),
    ("shared.js", "const game = 'another game';\n", False),
])
def test_the_added_games_check_finds_a_name_in_code(
    tmp_path: Path, name: str, text: str, named: bool,
) -> None:
    app = game_app(SHIPPED[-1])
    path = tmp_path / name
    path.write_text(text.format(slug=app.slug, folder=app.folder, title=app.info.title,
                                title_upper=app.info.title.upper()), encoding="utf-8")
    assert bool(list(_names_in_code(path, _spellings(app)))) is named
