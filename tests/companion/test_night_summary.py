"""The evening's tally (companion.selectors.nights), its text and image card
(companion.night_card), and the group's records (companion.selectors.records), on a
night of 11 nimmt! whose every deal is known."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from PIL import Image

from companion.colours import player_colours
from companion.models import GameNight, Group, Match, Player
from companion.night_card import font, night_png, night_text
from companion.selectors.nights import night_summary
from companion.selectors.records import game_records, group_records
from companion.services import deals as deal_services
from companion.services import matches as match_services

OUT = {"went_out": True}


def _hand(n: int) -> dict[str, object]:
    return {"hand": n}


def _match(group: Group, night: GameNight, seated: list[Player], deals: list[list[object]],
           user: User, *, finish: bool = True) -> Match:
    """An 11 nimmt! match with ``deals`` given per deal as one entry per seat."""
    match = match_services.match_start(group=group, game="elf-nimmt", players=seated,
                                 game_night=night, user=user)
    for number, entries in enumerate(deals, 1):
        deal_services.deal_record(match=match, number=number, user=user,
                             entries={p.pk: e for p, e in zip(seated, entries, strict=True)})
    if finish:
        match_services.match_finish(match=match, user=user)
    return match


@pytest.fixture
def night(group: Group, players: list[Player], anna: User) -> GameNight:
    """Anna, Ben and Cem's night: Cem comes back from 20 behind to win the first match
    (Anna and Ben tie for second on 23), Anna wins the second against Ben; a third
    match is abandoned and a fourth still running."""
    anna_, ben, cem = players
    night = GameNight.objects.create(group=group, date=dt.date(2026, 3, 5), place="bei Anna")
    _match(group, night, [anna_, ben, cem], [
        [OUT, _hand(4), _hand(20)],
        [_hand(9), OUT, _hand(1)],
        [_hand(14), _hand(19), OUT],
    ], anna)
    _match(group, night, [anna_, ben], [[OUT, _hand(7)], [_hand(3), OUT]], anna)
    abandoned = _match(group, night, [ben, cem], [[OUT, _hand(2)]], anna, finish=False)
    match_services.match_abandon(match=abandoned, user=anna)
    _match(group, night, [anna_, cem], [[OUT, _hand(5)]], anna, finish=False)
    return night


@pytest.mark.django_db
def test_the_tally_counts_the_finished_matches_and_the_others_apart(night: GameNight) -> None:
    summary = night_summary(night)

    assert (summary.matches, summary.running, summary.abandoned) == (2, 1, 1)
    assert [(game.title, game.matches) for game in summary.games] == [("11 nimmt!", 2)]


@pytest.mark.django_db
def test_the_tally_lists_wins_places_and_hornochsen_per_player(night: GameNight,
                                                               players: list[Player]) -> None:
    summary = night_summary(night)

    lines = [(p.name, p.matches, p.wins, p.places, p.hornochsen) for p in summary.players]
    assert lines == [
        ("Cem", 1, 1, (1,), 21),
        ("Anna", 2, 1, (2, 1), 26),
        ("Ben", 2, 0, (2, 2), 30),
    ]
    colours = player_colours((p.pk, p.colour) for p in players)
    assert [p.colour for p in summary.players] == [colours[players[2].pk],
                                                   colours[players[0].pk],
                                                   colours[players[1].pk]]


@pytest.mark.django_db
def test_the_best_and_worst_deal_and_the_biggest_comeback_name_match_and_deal(
    night: GameNight,
) -> None:
    first = Match.objects.filter(game_night=night).order_by("created_at", "id").first()
    assert first is not None

    summary = night_summary(night)

    (game,) = summary.games
    assert game.best_deal is not None and game.worst_deal is not None
    assert (game.best_deal.name, game.best_deal.score, game.best_deal.match_id,
            game.best_deal.deal) == ("Anna", 0, first.pk, 1)
    assert (game.worst_deal.name, game.worst_deal.score, game.worst_deal.deal) == ("Cem", 20, 1)
    assert summary.comeback is not None
    assert (summary.comeback.name, summary.comeback.deficit, summary.comeback.deal,
            summary.comeback.match_id) == ("Cem", 20, 1, first.pk)


@pytest.mark.django_db
def test_the_tally_reads_four_queries_however_many_matches(night: GameNight) -> None:
    with CaptureQueriesContext(connection) as queries:
        night_summary(night)

    assert len(queries) == 4


@pytest.mark.django_db
def test_an_empty_night_has_an_empty_tally(group: Group) -> None:
    empty = GameNight.objects.create(group=group, date=dt.date(2026, 3, 6))

    summary = night_summary(empty)

    assert (summary.matches, summary.players, summary.games, summary.comeback) == (0, (), (),
                                                                                   None)
    assert "0" in night_text(summary)


@pytest.mark.django_db
def test_the_text_to_share_names_everything_in_german(night: GameNight) -> None:
    with translation.override("de"):
        text = night_text(night_summary(night))

    assert text.splitlines()[:6] == [
        "Spieleabend am 5. März 2026, bei Anna",
        "2 Partien: 2× 11 nimmt!",
        "",
        "Cem: 1 Sieg · Platz 1. · 21 Hornochsen",
        "Anna: 1 Sieg · Plätze 2., 1. · 26 Hornochsen",
        "Ben: 0 Siege · Plätze 2., 2. · 30 Hornochsen",
    ]
    assert ("Größte Aufholjagd: Cem lag nach Durchgang 1 von 11 nimmt! 20 Punkte zurück "
            "und gewann.") in text
    assert "11 nimmt!: bester Durchgang Anna mit 0 in Durchgang 1" in text


@pytest.mark.django_db
def test_the_text_to_share_reads_in_english_too(night: GameNight) -> None:
    with translation.override("en"):
        text = night_text(night_summary(night))

    assert "Cem: 1 win · place 1st · 21 Hornochsen" in text
    assert "Biggest comeback: Cem trailed by 20 points after deal 1 of 11 nimmt! and won." in (
        text)


@pytest.mark.django_db
def test_the_image_card_is_a_png_for_a_phone_with_the_players_colours(
    night: GameNight,
) -> None:
    summary = night_summary(night)

    image = Image.open(io.BytesIO(night_png(summary)))

    assert image.format == "PNG"
    assert image.width == 1080
    assert 500 < image.height < 1500
    colours = {image.getpixel((60 + 22, y)) for y in range(image.height)}
    for player in summary.players:
        rgb = tuple(int(player.colour[i:i + 2], 16) for i in (1, 3, 5))
        assert rgb in colours  # each player's swatch


@pytest.mark.django_db
def test_a_long_name_is_shortened_on_the_card_not_cut_off(group: Group, anna: User) -> None:
    night = GameNight.objects.create(group=group, date=dt.date(2026, 3, 7))
    long = Player.objects.create(group=group, name=("Maximiliane-Konstantina " * 2)[:40])
    ben = Player.objects.get(group=group, name="Ben")
    _match(group, night, [long, ben], [[OUT, _hand(7)], [_hand(3), OUT]], anna)

    image = Image.open(io.BytesIO(night_png(night_summary(night))))

    assert image.width == 1080


def test_the_card_finds_dejavu_sans() -> None:
    face = font(30)
    assert "DejaVu" in " ".join(getattr(face, "getname", lambda: ("",))())


# --- Records --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_records_of_a_game_link_to_match_and_deal(night: GameNight,
                                                      players: list[Player]) -> None:
    first, second = Match.objects.filter(game_night=night, status="finished").order_by(
        "created_at", "id")

    records = game_records(night.group, "elf-nimmt")

    assert records.lowest_total is not None and records.highest_total is not None
    assert (records.lowest_total.name, records.lowest_total.value,
            records.lowest_total.match_id) == ("Anna", 3, second.pk)
    assert (records.highest_total.name, records.highest_total.value,
            records.highest_total.match_id) == ("Anna", 23, first.pk)  # Anna's seat before Ben
    assert records.best_total == records.lowest_total  # fewer points win 11 nimmt!
    assert records.worst_deal is not None
    assert (records.worst_deal.name, records.worst_deal.value, records.worst_deal.match_id,
            records.worst_deal.deal) == ("Cem", 20, first.pk, 1)
    assert records.busiest_night is not None
    assert (records.busiest_night.night_id, records.busiest_night.matches) == (night.pk, 2)
    assert records.without_deals == 0


@pytest.mark.django_db
def test_the_longest_streak_runs_across_nights_in_the_order_played(
    group: Group, players: list[Player], anna: User,
) -> None:
    anna_, ben, _cem = players
    early = GameNight.objects.create(group=group, date=dt.date(2026, 1, 1))
    late = GameNight.objects.create(group=group, date=dt.date(2026, 2, 1))
    ben_wins = [[_hand(5), OUT], [OUT, _hand(1)]]
    anna_wins = [[OUT, _hand(5)], [_hand(1), OUT]]
    # Recorded out of order: the late night's first, then the early night's.
    first_late = _match(group, late, [anna_, ben], anna_wins, anna)
    last_late = _match(group, late, [anna_, ben], anna_wins, anna)
    _match(group, late, [anna_, ben], ben_wins, anna)
    first_early = _match(group, early, [anna_, ben], anna_wins, anna)
    _match(group, early, [anna_, ben], anna_wins, anna)

    streak = game_records(group, "elf-nimmt").longest_streak
    overall = group_records(group).longest_streak

    assert streak is not None and overall == streak
    assert (streak.name, streak.length, streak.first_match_id, streak.last_match_id) == (
        "Anna", 4, first_early.pk, last_late.pk)
    assert (streak.first_date, streak.last_date) == (early.date, late.date)
    assert first_late.pk != streak.first_match_id


@pytest.mark.django_db
def test_a_group_without_finished_matches_has_no_records(group: Group) -> None:
    records = game_records(group, "freaky")

    assert (records.highest_total, records.lowest_total, records.worst_deal,
            records.longest_streak, records.busiest_night) == (None,) * 5
    assert group_records(group).longest_streak is None
