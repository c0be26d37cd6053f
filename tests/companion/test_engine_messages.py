from django.utils import translation

from companion.engine_templates import CATALOGUE, engine_templates, render_catalogue
from companion.games.messages import message_for
from scoring import GAMES, ScoringError


def test_the_catalogue_holds_every_engine_message() -> None:
    assert CATALOGUE.read_text(encoding="utf-8") == render_catalogue(engine_templates()), (
        "run `python -m companion.engine_templates` (make messages) and translate"
    )


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
