"""The game night page: the evening's tally with the players' colours, the text and the
image card to share (served with an ETag), and what each match did to the ratings."""

from __future__ import annotations

import datetime as dt
import html
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.utils import translation
from pytest_django import DjangoAssertNumQueries

from companion.colours import player_colours
from companion.models import GameNight, Group, Match, Player
from companion.night_card import night_text
from companion.selectors.nights import night_summary
from companion.selectors.ratings import match_rating_changes, signed
from companion.services import groups as group_services
from companion.services import matches as match_services
from companion.services.results import results_rebuild
from tests.companion.test_history_helpers import play
from tests.companion.test_night_summary import OUT, _hand, _match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """The card is kept in the shared cache by its version; ids repeat between tests."""
    cache.clear()


@pytest.fixture
def evening(group: Group, players: list[Player], anna: User) -> GameNight:
    """Anna, Ben and Cem's night of 11 nimmt!: Cem comes back from 20 behind to win the
    first match, Anna wins the second against Ben; a third match is abandoned, a fourth
    still running (as in test_night_summary)."""
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


def _url(night: GameNight, suffix: str = "") -> str:
    return f"/g/{night.group_id}/nights/{night.pk}/{suffix}"


def _body(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def _first(night: GameNight) -> Match:
    first = Match.objects.filter(game_night=night).order_by("created_at", "id").first()
    assert first is not None
    return first


# --- The tally ------------------------------------------------------------------------------


def test_the_night_page_shows_the_evenings_tally_with_the_players_colours(
    anna_client: Client, evening: GameNight, players: list[Player]
) -> None:
    body = _body(anna_client, _url(evening))

    tally = body[body.index('class="list-group mb-2 night-tally"'):]
    tally = tally[:tally.index("</ol>")]
    # Most wins first, then the better average place: Cem (1 win, 1st), Anna (1 win, 1.5),
    # Ben; with their places and the Hornochsen they took.
    assert [name for name in ("Cem", "Anna", "Ben")] == sorted(
        ("Cem", "Anna", "Ben"), key=lambda name: tally.index(f">{name}</span>"))
    assert "1 Sieg" in tally and "0 Siege" in tally
    assert "Plätze 2., 1." in tally and "Platz 1." in tally
    assert "21 Hornochsen" in tally and "26 Hornochsen" in tally and "30 Hornochsen" in tally
    colours = player_colours((p.pk, p.colour) for p in players)
    for player in players:
        assert f'style="--player: {colours[player.pk]}"' in tally
    assert "2 Partien" in body and "1 läuft noch" in body and "1 abgebrochen" in body


def test_the_best_and_worst_deal_and_the_comeback_link_to_their_deal(
    anna_client: Client, evening: GameNight
) -> None:
    body = _body(anna_client, _url(evening))
    first = _first(evening)
    deal_one = f'href="/g/{evening.group_id}/matches/{first.pk}/#deal-1"'

    highlights = body[body.index("night-highlights"):]
    highlights = highlights[:highlights.index("</section>")]
    # Best deal: Anna's 0 in deal 1; worst: Cem's 20 in deal 1; Cem's comeback after deal 1.
    assert highlights.count(deal_one) == 3
    assert "Bester Durchgang" in highlights and "Schlechtester Durchgang" in highlights
    assert "Cem lag nach Durchgang 1 von 11 nimmt! 20 Punkte zurück und gewann." in highlights


def test_the_text_to_share_is_the_tally_in_a_text_area_to_copy(
    anna_client: Client, evening: GameNight
) -> None:
    body = _body(anna_client, _url(evening))

    with translation.override("de"):
        text = night_text(night_summary(evening))
    assert text.startswith("Spieleabend am 5. März 2026, bei Anna\n")
    assert f'readonly>{html.escape(text)}</textarea>' in body
    assert 'src="/static/js/tally-share.js"' in body
    # The buttons that need JavaScript start hidden: without it the text area is the way.
    assert "data-share-text hidden" in body and "data-tally-copy hidden" in body
    assert f'href="/g/{evening.group_id}/nights/{evening.pk}/card.png"' in body


def test_each_finished_match_shows_what_it_did_to_the_ratings(
    anna_client: Client, evening: GameNight, players: list[Player]
) -> None:
    body = _body(anna_client, _url(evening))
    first = _first(evening)
    changes = match_rating_changes(first)
    _anna, ben, cem = players

    card = body[body.index(f'id="match-{first.pk}"'):]
    card = card[:card.index("</article>")]
    # Cem won: his rating in 11 nimmt! went up, the others' down.
    assert changes[cem.pk].game > 0 > changes[ben.pk].game
    for player in players:
        row = card[card.index(f"{player.name}</span></th>"):]
        row = row[:row.index("</tr>")]
        assert signed(changes[player.pk].game) in row
    assert signed(changes[cem.pk].game).startswith("+")


def test_an_imported_match_is_marked_and_its_deals_are_left_out(
    anna_client: Client, group: Group, evening: GameNight, players: list[Player]
) -> None:
    imported = Match.objects.create(
        group=group, game_night=evening, game="freaky", status=Match.Status.FINISHED,
        source=Match.Source.BGSTATS, external_id="play-1", finished_at=evening.created_at,
    )
    for number, (player, total) in enumerate(zip(players, (30, 20, 10), strict=False)):
        imported.seats.create(player=player, number=number, total=total, place=number + 1,
                              is_winner=number == 0)
    results_rebuild(group=group)

    body = _body(anna_client, _url(evening))

    card = body[body.index(f'id="match-{imported.pk}"'):]
    assert "importiert" in card[:card.index("</div>")]
    assert "1 Partie wurde nur mit Endstand importiert und fehlt bei den Durchgängen." in body


def test_an_empty_night_offers_to_start_a_match_and_nothing_to_share(
    anna_client: Client, group: Group
) -> None:
    night = GameNight.objects.create(group=group, date=dt.date(2026, 3, 6))

    body = _body(anna_client, _url(night))

    assert "data-tally-share" not in body and "night-tally" not in body
    assert f'href="/g/{group.pk}/matches/new/?night={night.pk}"' in body


# --- The image card -------------------------------------------------------------------------


def test_the_card_is_a_png_with_an_etag_and_a_last_modified_date(
    anna_client: Client, evening: GameNight
) -> None:
    response = anna_client.get(_url(evening, "card.png"))

    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response.content.startswith(b"\x89PNG\r\n\x1a\n")
    assert response["ETag"].startswith('"') and response["Last-Modified"].endswith("GMT")
    assert "private" in response["Cache-Control"]


def test_the_card_answers_not_modified_to_the_etag_it_gave(
    anna_client: Client, evening: GameNight
) -> None:
    etag = anna_client.get(_url(evening, "card.png"))["ETag"]

    again = anna_client.get(_url(evening, "card.png"), HTTP_IF_NONE_MATCH=etag)

    assert again.status_code == 304 and again.content == b""


def test_the_card_changes_with_the_night_the_roster_and_the_language(
    anna_client: Client, group: Group, evening: GameNight, players: list[Player], anna: User
) -> None:
    url = _url(evening, "card.png")
    first = anna_client.get(url)["ETag"]

    group_services.player_rename(player=players[1], name="Benedikt", by=anna)
    renamed = anna_client.get(url)["ETag"]
    _match(group, evening, [players[0], players[2]], [[OUT, _hand(5)], [_hand(3), OUT]], anna)
    played = anna_client.get(url)["ETag"]
    english = anna_client.get(url, HTTP_ACCEPT_LANGUAGE="en")["ETag"]

    assert len({first, renamed, played, english}) == 4


def test_the_card_is_drawn_once_per_version(
    anna_client: Client, evening: GameNight, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion import night_card

    drawn: list[int] = []
    real = night_card.night_png
    monkeypatch.setattr(night_card, "night_png",
                        lambda summary: drawn.append(1) or real(summary))

    one = anna_client.get(_url(evening, "card.png"))
    two = anna_client.get(_url(evening, "card.png"))

    assert one.content == two.content and len(drawn) == 1


def test_outsiders_get_no_card_and_no_page(
    outsider_client: Client, client: Client, evening: GameNight
) -> None:
    assert outsider_client.get(_url(evening, "card.png")).status_code == 404
    assert outsider_client.get(_url(evening)).status_code == 404
    anonymous = client.get(_url(evening, "card.png"))
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]


# --- Queries --------------------------------------------------------------------------------


def _more(group: Group, night: GameNight, count: int) -> None:
    for index in range(count):
        play(group, "elf-nimmt", [{"Anna": {"went_out": True}, "Ben": {"hand": index + 1},
                                   "Cem": {"hand": 2}}], on=night)
        play(group, "freaky", [{"Anna": {"collected": 10 + index}, "Ben": {"collected": 20}}],
             on=night, finished=index % 2 == 0)


@pytest.mark.parametrize("suffix", ["", "card.png"])
def test_the_page_and_the_card_run_the_same_queries_however_many_matches(
    anna_client: Client, group: Group, evening: GameNight, suffix: str,
    django_assert_max_num_queries: Callable[[int], DjangoAssertNumQueries],
) -> None:
    _more(group, evening, 1)
    with django_assert_max_num_queries(1000) as small:
        assert anna_client.get(_url(evening, suffix)).status_code == 200
    _more(group, evening, 8)
    cache.clear()
    with django_assert_max_num_queries(len(small.captured_queries)):
        assert anna_client.get(_url(evening, suffix)).status_code == 200


def test_the_card_answers_head_requests_and_refuses_posts(
    anna_client: Client, evening: GameNight
) -> None:
    head = anna_client.head(_url(evening, "card.png"))

    assert head.status_code == 200 and head["Content-Type"] == "image/png"
    assert anna_client.post(_url(evening, "card.png")).status_code == 405
