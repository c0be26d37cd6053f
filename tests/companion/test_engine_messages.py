from django.utils import translation

from companion.engine_templates import (
    CATALOGUE,
    COMPANION,
    catalogues,
    engine_templates,
    render_catalogue,
)
from companion.games import GAME_APPS
from companion.games.messages import message_for
from scoring import GAMES, ScoringError


def test_the_catalogues_hold_every_engine_message() -> None:
    for catalogue, sources in catalogues().items():
        assert catalogue.exists() and catalogue.read_text(encoding="utf-8") == (
            render_catalogue(engine_templates(sources))
        ), f"{catalogue}: run `python -m companion.engine_templates` (make messages), translate"


def test_each_game_keeps_its_engine_messages_in_its_own_folder() -> None:
    """A new game adds its catalogue to its folder and leaves the shared one alone."""
    assert set(catalogues()) == {CATALOGUE} | {
        COMPANION / "games" / app.folder / "engine_catalogue.py" for app in GAME_APPS.values()
        if app.info.module.startswith("scoring.")}


def test_an_engine_error_speaks_german_by_default() -> None:
    try:
        GAMES["dreizehn"].check_players(2)
    except ScoringError as err:
        with translation.override("de"):
            assert message_for(err) == "13 wird von 3 bis 6 Spielern gespielt, nicht von 2."
        with translation.override("en"):
            assert message_for(err) == "13 is played by 3 to 6 players, not 2."
    else:
        raise AssertionError("two players must be refused for 13")


def test_colour_keys_in_a_message_are_said_in_the_users_words() -> None:
    from scoring.drei_sind_einer_zuviel import Entry, validate_deal

    entries = {
        "Anna": Entry(taken={"orange": 1}, interim_bonus=10),
        "Ben": Entry(taken={}),
    }
    try:
        validate_deal(entries)
    except ScoringError as err:
        with translation.override("de"):
            german = message_for(err)
    else:
        raise AssertionError("a Zwischenwertung without all seven colours must be refused")
    assert german.endswith("es fehlt: Flieder, Hellblau, Rot, Türkis, Magenta, Olivgrün.")
    assert "tuerkis" not in german and "olivgruen" not in german


def test_a_value_given_in_the_wrong_shape_is_shown_as_a_file_spells_it() -> None:
    # An import's null, true or "text" where a number belongs: the sentence quotes it as the
    # file has it, not as Python writes it (None, True, 'text').
    from scoring.drei_sind_einer_zuviel import entry_from_dict

    shown = {}
    for given in (None, True, "viele"):
        try:
            entry_from_dict({"taken": {"orange": given}})
        except ScoringError as err:
            with translation.override("en"):
                shown[given] = message_for(err)
        else:
            raise AssertionError(f"{given!r} must be refused as a count")
    assert shown[None].endswith("not null.") and "None" not in shown[None]
    assert shown[True].endswith("not true.")
    assert shown["viele"].endswith('not "viele".')
