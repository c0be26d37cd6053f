"""6 nimmt! in the app: a new match with its options, deals by count and by card numbers,
the validations, the end of a match at the target, the rules page and the round check."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from companion.games import game_app
from companion.games.sechs_nimmt.check import check_sechs_nimmt_round
from companion.games.sechs_nimmt.options import start_options
from companion.models import Deal, Group, Match, Player
from companion.rules_search.answers import search
from companion.selectors.stats import Figure
from companion.services import matches as match_services
from companion.services.deals import end_before_the_last
from companion.services.transfer.export import group_export
from companion.services.transfer.importer import group_import
from tests.companion import history_reference as reference
from tests.companion.test_rules_pages import assert_every_decision_is_shown
from tests.companion.test_transfer_checks import refused

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


def start(group: Group, players: list[Player], **options: Any) -> Match:
    return match_services.match_start(group=group, game="sechs-nimmt", players=players,
                                      options=options)


def url(name: str, match: Match) -> str:
    return reverse(name, kwargs={"group_id": match.group_id, "match_id": match.pk})


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def totals(match: Match) -> list[int]:
    return [seat.total for seat in match.seats.order_by("number")]


def post_deal(client: Client, match: Match, data: dict[str, str], **extra: Any) -> Any:
    return client.post(url("deal_new", match),
                       {"number": match.deals.count() + 1, **data}, **EN, **extra)


@pytest.mark.django_db
@pytest.mark.parametrize(("fields", "stored"), [
    ({}, {}),
    ({"sechs_nimmt-target": "100"}, {"target": 100}),
    ({"sechs_nimmt-deals": "1", "sechs_nimmt-profi": "on"}, {"deals": 1, "profi": True}),
])
def test_a_new_match_stores_its_options(
    anna_client: Client, group: Group, players: list[Player],
    fields: dict[str, str], stored: dict[str, object],
) -> None:
    form = anna_client.get(reverse("match_new", args=[group.pk]), **EN).content.decode()
    assert 'name="sechs_nimmt-target"' in form and 'data-game="sechs-nimmt"' in form
    response = anna_client.post(reverse("match_new", args=[group.pk]), {
        "game": "sechs-nimmt", "seat_0": players[0].pk, "seat_1": players[1].pk,
        "seat_2": players[2].pk, "sechs_nimmt-target": "66", **fields,
    })
    assert response.status_code == 302
    match = Match.objects.get()
    assert (match.game, match.options) == ("sechs-nimmt", stored)


def test_the_start_options_refuse_nothing_the_form_can_send_in_range() -> None:
    assert start_options({"target": 100, "deals": None, "profi": False}) == {"target": 100}
    assert start_options({"target": None, "deals": None, "profi": True}) == {"profi": True}


@pytest.mark.django_db
def test_a_deal_by_counts_and_a_deal_by_card_numbers_add_up(
    anna_client: Client, group: Group, players: list[Player],
) -> None:
    match = start(group, players)
    response = post_deal(anna_client, match, {"mode": "counts", "s0-hornochsen": "12",
                                              "s1-hornochsen": "3"})
    assert response.status_code == 302
    assert totals(match) == [12, 3, 0]
    # Cards: 55 (7) + 10 (3) + 104 (1) = 11 for Anna; Cem 22 (5) + 25 (2) = 7.
    response = post_deal(anna_client, match, {"mode": "cards", "s0-cards": "55, 10 104",
                                              "s2-cards": "22 25"})
    assert response.status_code == 302
    assert totals(match) == [23, 3, 7]
    sheet = text(anna_client.get(url("match_sheet", match), **EN).content.decode())
    # A match to a target counts no "of N": nobody knows how many deals it will take.
    assert "2 deals recorded" in sheet and "Deal 3" in sheet
    assert "of 3 deals" not in sheet and "Deal 3 of" not in sheet
    german = text(anna_client.get(url("match_sheet", match), **DE).content.decode())
    assert "2 Durchgänge notiert" in german
    home = text(anna_client.get(reverse("group_home", args=[group.pk]), **EN).content.decode())
    assert "Deal 3" in home and "Deal 3 of" not in home


@pytest.mark.django_db
@pytest.mark.parametrize(("options", "data", "message", "german"), [
    ({}, {"mode": "counts"},
     "Somebody takes cards in every deal: the rows cannot hold all the cards played, so a "
     "deal with 0 Hornochsen for everyone is not possible.",
     "In jedem Durchgang nimmt jemand Karten: die Reihen fassen nicht alle gespielten Karten, "
     "also kann nicht jeder 0 Hornochsen haben."),
    ({}, {"mode": "counts", "s0-hornochsen": "100", "s1-hornochsen": "72"},
     "This deal records 172 Hornochsen, but the cards in play show only 171.",
     "In diesem Durchgang stehen 172 Hornochsen, die Karten im Spiel zeigen aber nur 171."),
    ({}, {"mode": "cards", "s0-cards": "17, 4", "s2-cards": "17"},
     "Card 17 appears more than once in this deal (Anna and Cem).",
     "Karte 17 kommt in diesem Durchgang mehrfach vor (Anna und Cem)."),
    ({"profi": True}, {"mode": "cards", "s0-cards": "35"},
     "There is no card 35: cards go from 1 to 34.",
     "Es gibt keine Karte 35: die Karten gehen von 1 bis 34."),
    ({"profi": True}, {"mode": "counts", "s0-hornochsen": "50", "s1-hornochsen": "6"},
     "This deal records 56 Hornochsen, but the cards in play show only 55.",
     "In diesem Durchgang stehen 56 Hornochsen, die Karten im Spiel zeigen aber nur 55."),
    ({}, {"mode": "cards", "s0-cards": " ".join(str(card) for card in range(1, 32))},
     "The piles hold 31 cards, but 3 players take at most 30",
     "In den Stapeln liegen 31 Karten, 3 Spieler nehmen aber höchstens 30"),
])
def test_a_deal_that_cannot_be_true_is_refused_and_nothing_is_stored(
    anna_client: Client, group: Group, players: list[Player],
    options: dict[str, object], data: dict[str, str], message: str, german: str,
) -> None:
    match = start(group, players, **options)
    response = post_deal(anna_client, match, data)
    assert response.status_code == 422
    assert message in text(response.content.decode())
    in_german = anna_client.post(url("deal_new", match), {"number": 1, **data}, **DE)
    assert in_german.status_code == 422
    assert german in text(in_german.content.decode())
    assert not Deal.objects.exists()


@pytest.mark.django_db
def test_a_card_outside_the_profi_cards_is_refused_at_its_player(
    anna_client: Client, group: Group, players: list[Player],
) -> None:
    # Profi with 3 players: the cards 1 to 34. The form checks with the match's options, so
    # the refusal names the player whose pile holds 35 (in the preview and on saving).
    match = start(group, players, profi=True)
    data = {"mode": "cards", "s0-cards": "3", "s1-cards": "35"}
    named = "Ben: There is no card 35: cards go from 1 to 34."
    preview = anna_client.post(url("deal_preview", match),
                               {"number": 1, **data}, HTTP_HX_REQUEST="true", **EN)
    assert named in text(preview.content.decode())
    saved = post_deal(anna_client, match, data)
    assert saved.status_code == 422
    assert named in text(saved.content.decode())
    assert not Deal.objects.exists()


@pytest.mark.django_db
def test_a_pile_refused_by_the_engine_names_its_player_in_the_row(
    anna_client: Client, group: Group, players: list[Player],
) -> None:
    # One row per player: the engine's refusal under Anna's row says it is hers, as the
    # field errors there do.
    match = start(group, players)
    refused = post_deal(anna_client, match, {"mode": "counts", "s0-hornochsen": "172"})
    assert refused.status_code == 422
    assert "Anna: A pile cannot hold 172 Hornochsen: all cards show 171." in text(
        refused.content.decode())


@pytest.mark.django_db
def test_the_match_ends_after_the_deal_in_which_somebody_reaches_66(
    anna_client: Client, group: Group, players: list[Player],
) -> None:
    match = start(group, players)
    post_deal(anna_client, match, {"mode": "counts", "s0-hornochsen": "40", "s1-hornochsen": "5"})
    refused = anna_client.post(url("match_finish", match), **EN)
    assert refused.status_code == 409
    assert "not complete yet" in text(refused.content.decode())
    post_deal(anna_client, match, {"mode": "counts", "s0-hornochsen": "25", "s1-hornochsen": "30",
                                   "s2-hornochsen": "1"})
    assert totals(match) == [65, 35, 1]
    # 65 is not 66: another deal. Then Anna 65 + 2 = 67 and Ben 35 + 31 = 66: both reach it.
    post_deal(anna_client, match, {"mode": "counts", "s0-hornochsen": "2", "s1-hornochsen": "31"})
    assert totals(match) == [67, 66, 1]
    more = post_deal(anna_client, match, {"mode": "counts", "s0-hornochsen": "2"})
    assert more.status_code == 422
    assert "The match is complete" in text(more.content.decode())
    assert anna_client.post(url("match_finish", match)).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert [seat.player.name for seat in match.seats.filter(is_winner=True)] == ["Cem"]


@pytest.mark.django_db
def test_a_correction_cannot_end_the_match_before_deals_recorded_after_it(
    anna_client: Client, group: Group, players: list[Player],
) -> None:
    # The match ends after the deal in which somebody reaches 66: a correction of deal 1 that
    # brings Anna to 66 there would leave deal 2 played after the end.
    match = start(group, players)
    post_deal(anna_client, match, {"mode": "counts", "s0-hornochsen": "30", "s1-hornochsen": "5"})
    post_deal(anna_client, match, {"mode": "counts", "s0-hornochsen": "30", "s1-hornochsen": "5"})

    def correct(number: int, anna: str, language: dict[str, str] = EN) -> Any:
        version = Deal.objects.get(match=match, number=number).version
        return anna_client.post(url("match_sheet", match) + f"deals/{number}/", {
            "mode": "counts", "number": number, "version": version,
            "s0-hornochsen": anna, "s1-hornochsen": "5"}, **language)

    refused = correct(1, "66")
    assert refused.status_code == 422
    assert ("With this correction the match would have ended after deal 1, but later deals "
            "are recorded.") in text(refused.content.decode())
    assert ("Mit dieser Korrektur wäre die Partie nach Durchgang 1 zu Ende gewesen"
            in text(correct(1, "66", DE).content.decode()))
    assert totals(match) == [60, 10, 0]
    # The last deal may end it, and an earlier deal may change while nobody reaches 66.
    assert correct(1, "35").status_code == 302
    assert correct(2, "31").status_code == 302
    assert totals(match) == [66, 10, 0]
    assert anna_client.post(url("match_finish", match)).status_code == 302


def test_the_end_before_the_last_deal_is_found_where_the_totals_reach_the_target() -> None:
    # One reading for a correction on the sheet and for an imported match.
    deals = [{"Anna": 40, "Ben": 5}, {"Anna": 30, "Ben": 5}, {"Anna": 1, "Ben": 1}]
    assert end_before_the_last("sechs-nimmt", 2, deals) == 2
    assert end_before_the_last("sechs-nimmt", 2, deals[:2]) is None  # it ends at the last
    assert end_before_the_last("sechs-nimmt", 2, deals, first=3) is None  # not before 3
    assert end_before_the_last("sechs-nimmt", 2, [{"Anna": 66}, {"Anna": 0}]) == 1
    assert end_before_the_last("x-nimmt", 2, [{"Anna": 99}, {"Anna": 0}]) is None


@pytest.mark.django_db
def test_a_6_nimmt_match_to_a_target_and_a_number_of_deals_at_once_is_refused(
    group: Group, players: list[Player]
) -> None:
    # Each option alone is in range, but a match plays to one or the other: a refusal that
    # says so, not a server error.
    bob = User.objects.create_user("bob", password="kartenrunde-bob-1")
    start(group, players, target=100)
    document = group_export(group)
    document["game_nights"][0]["matches"][0]["options"] = {"target": 100, "deals": 3}

    assert refused(document, bob).endswith(
        "A match plays either to a target or a fixed number of deals, not both.")
    assert refused(document, bob, "de").endswith(
        "Eine Partie geht entweder bis zu einer Grenze oder über eine feste Zahl von "
        "Durchgängen, nicht beides.")
    assert not Match.objects.filter(group__owner=bob).exists()


@pytest.mark.django_db
def test_an_import_with_deals_after_the_match_was_over_is_refused(
    anna_client: Client, group: Group, players: list[Player],
) -> None:
    # Played to 200, the file says 100: by its totals the match was over after deal 2
    # (Anna at 110), so deal 3 cannot have been played. The final totals alone (115, over
    # 100 too) do not show it.
    match = start(group, players, target=200)
    for hornochsen in ("70", "40", "5"):
        post_deal(anna_client, match, {"mode": "counts", "s0-hornochsen": hornochsen})
    assert totals(match)[0] == 115
    bob = User.objects.create_user("bob", password="kartenrunde-bob-1")
    document = group_export(group)
    document["game_nights"][0]["matches"][0]["options"] = {"target": 100}

    assert refused(document, bob).endswith(
        "deal 2: the match was over after this deal by its totals, but more deals follow.")
    assert refused(document, bob, "de").endswith(
        "Durchgang 2: nach den Punkteständen war die Partie mit diesem Durchgang zu Ende, es "
        "folgen aber weitere Durchgänge.")
    assert not Match.objects.filter(group__owner=bob).exists()
    # To 120 it was not over: the same deals come in.
    document["game_nights"][0]["matches"][0]["options"] = {"target": 120}
    group_import(user=bob, content=json.dumps(document, ensure_ascii=False))
    assert Match.objects.get(group__owner=bob).deals.count() == 3


@pytest.mark.django_db
def test_a_match_of_a_fixed_number_of_deals_ends_after_them(
    anna_client: Client, group: Group, players: list[Player],
) -> None:
    match = start(group, players, deals=1)
    sheet = text(anna_client.get(url("match_sheet", match), **EN).content.decode())
    assert "0 of 1 deal" in sheet
    post_deal(anna_client, match, {"mode": "counts", "s0-hornochsen": "3", "s1-hornochsen": "3"})
    assert anna_client.post(url("match_finish", match)).status_code == 302
    match.refresh_from_db()
    assert sorted(s.player.name for s in match.seats.filter(is_winner=True)) == ["Cem"]


@pytest.mark.django_db
def test_a_target_of_100_keeps_the_match_open_past_66(
    anna_client: Client, group: Group, players: list[Player],
) -> None:
    match = start(group, players, target=100)
    post_deal(anna_client, match, {"mode": "counts", "s0-hornochsen": "80", "s1-hornochsen": "5"})
    assert anna_client.post(url("match_finish", match)).status_code == 409
    post_deal(anna_client, match, {"mode": "counts", "s0-hornochsen": "20"})
    assert anna_client.post(url("match_finish", match)).status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "words"), [
    ("de", ["So entscheidet die App", "Die sechste Karte", "Profi-Variante", "171 Hornochsen"]),
    ("en", ["How the app decides", "The sixth card", "Profi variant", "171 Hornochsen"]),
])
def test_the_rules_page_speaks_both_languages(
    client: Client, language: str, words: list[str],
) -> None:
    response = client.get(reverse("rules_game", args=["sechs-nimmt"]),
                          HTTP_ACCEPT_LANGUAGE=language)
    html = text(response.content.decode())
    assert response.status_code == 200
    for word in words:
        assert word in html


DECISIONS = [
    # Every bullet under "Decisions" in ../shared/rules/sechs-nimmt.md (see
    # tests/companion/test_rules_pages.py: DECISIONS of the first five games).
    ("app-decides-order", "streng von der niedrigsten zur höchsten",
     "strictly from lowest to highest"),
    ("app-decides-played-card", "die gespielte Karte", "the card they played"),
    ("app-decides-end", "auch wenn niemand unter 66", "also when nobody stayed under 66"),
    ("app-decides-recording", "alle 0 haben", "A deal with 0 for everyone"),
    ("app-decides-resolver", "Runden-Check von X nimmt!", "round check of X nimmt!"),
]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["de", "en"])
def test_every_decision_of_the_rules_file_is_shown_under_how_the_app_decides(
    client: Client, language: str,
) -> None:
    assert_every_decision_is_shown(client, "sechs-nimmt", language, DECISIONS)


def test_the_round_check_places_lowest_first_and_asks_for_a_low_cards_row() -> None:
    answer = check_sechs_nimmt_round([[12], [20, 21, 22, 23, 24], [50], [70]],
                                     {"Anna": 25, "Ben": 8, "Cem": 51})
    assert answer.pending is not None and (answer.pending.player, answer.pending.card) == (
        "Ben", 8)
    assert [(o.row_number, o.takes, o.hornochsen) for o in answer.options] == [
        (1, (12,), 1), (2, (20, 21, 22, 23, 24), 11), (3, (50,), 3), (4, (70,), 3)]


@pytest.mark.django_db
def test_the_check_page_resolves_a_round_and_takes_the_row_choice(client: Client) -> None:
    check = reverse("rules_check", args=["sechs-nimmt"])
    data = {"check": "round", "round-row_1": "12", "round-row_2": "20 21 22 23 24",
            "round-row_3": "50", "round-row_4": "70", "round-name_1": "Anna",
            "round-card_1": "25", "round-name_2": "Ben", "round-card_2": "8"}
    first = text(client.post(check, data, **EN).content.decode())
    assert "Ben’s 8 is lower than every row’s last card" in first
    basis = "12|20 21 22 23 24|50|70|Anna=25|Ben=8"
    chosen = text(client.post(check, {**data, "round-basis": basis,
                                      "round-choose_row": "8:0"}, **EN).content.decode())
    assert "Ben’s 8 → row 1" in chosen
    assert "Anna’s 25 → row 2" in chosen
    assert "Anna takes 5:" in chosen and "(11 Hornochsen into the pile)" in chosen
    refused = client.post(check, {**data, "round-row_2": "20 21 22 23 24 26"}, **EN)
    assert refused.status_code == 200
    assert "at most 5" in text(refused.content.decode())


def test_the_game_is_known_to_bg_stats_by_its_boardgamegeek_id() -> None:
    app = game_app("sechs-nimmt")
    assert app.bgg_id == 432 and "6 nimmt!" in app.bgstats_names
    assert {"6 nimmt", "sechs nimmt", "6nimmt", "take 6", "category 5"} <= set(app.search.names)


def finished_match(group: Group, players: list[Player]) -> Match:
    from companion.services import deals as deal_services

    match = start(group, players)
    for counts in ((40, 5, 0), (30, 2, 1)):  # Anna 70: over after the second deal
        deal_services.deal_record(match=match, number=match.deals.count() + 1, entries={
            player.pk: {"hornochsen": count} for player, count in zip(players, counts,
                                                                    strict=True)})
    return match_services.match_finish(match=match)


@pytest.mark.django_db
def test_a_finished_match_counts_in_the_statistics_ratings_and_bg_stats_export(
    anna_client: Client, group: Group, players: list[Player],
) -> None:
    match = finished_match(group, players)
    assert [s.is_winner for s in match.seats.order_by("number")] == [False, False, True]
    stats = text(anna_client.get(reverse("game_stats", args=[group.pk, "sechs-nimmt"]),
                                 **EN).content.decode())
    assert "Hornochsen per player and deal" in stats
    # 78 Hornochsen in 6 entries: 13 per player and deal; Cem took none in one of two deals.
    assert "13" in stats and "Deals without a single Hornochse" in stats
    ratings = anna_client.get(reverse("ratings_game", args=[group.pk, "sechs-nimmt"]), **EN)
    assert ratings.status_code == 200 and "Cem" in ratings.content.decode()
    export = json.loads(anna_client.get(reverse("bgstats_export", args=[group.pk])).getvalue())
    game = next(g for g in export["games"] if g["name"] == "6 nimmt!")
    assert game["bggId"] == 432


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "question"), [
    ("de", "6 nimmt sechste karte"), ("en", "take 6 sixth card"),
    ("de", "sechs nimmt wohin kommt die 35"), ("en", "category 5 full row"),
])
def test_the_rules_search_finds_the_game_by_the_names_people_use(
    client: Client, language: str, question: str,
) -> None:
    html = client.get(reverse("rules_search"), {"q": question},
                      HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert "/rules/sechs-nimmt/#" in html


@pytest.mark.parametrize(("language", "question", "game"), [
    ("de", "wer fängt an", "sechs-nimmt"), ("de", "wer fängt an bei 6 nimmt", None),
    ("de", "wer darf anfangen", "sechs-nimmt"), ("en", "who starts", "sechs-nimmt"),
    ("en", "who goes first in 6 nimmt", None),
])
def test_who_starts_is_answered_by_the_steckbrief_not_by_the_match_options(
    language: str, question: str, game: str | None,
) -> None:
    # The variants' heading once said "beim Start der Partie" / "when the match starts":
    # "start" is a word for who begins, and the heading (weighted up) came first.
    answers = search(question, language, prefer=game)
    assert (answers[0].game.slug, answers[0].section.anchor) == ("sechs-nimmt", "at-a-glance")


@pytest.mark.parametrize(("language", "question"), [
    ("de", "meine Karte ist kleiner als alle Reihen"), ("de", "karte niedriger als alle reihen"),
    ("en", "what if my card is lower than all rows"), ("en", "my card is smaller than every row"),
])
def test_a_card_lower_than_every_row_is_answered_by_the_low_card_rule(
    language: str, question: str,
) -> None:
    # "kleiner" once met the heading "Kleinster Abstand" (the nearest row) and won.
    answers = search(question, language, prefer="sechs-nimmt")
    assert answers[0].section.anchor == "rule-low-card"


@pytest.mark.parametrize(("language", "question"), [
    ("de", "was passiert wenn die Reihe voll ist"), ("de", "reihe voll"),
    ("en", "what happens when a row is full"), ("en", "row is full what now"),
])
def test_a_full_row_is_answered_by_the_sixth_card_rule(language: str, question: str) -> None:
    # Players call a row of five cards "voll" / "full"; the rules text once never did.
    answers = search(question, language, prefer="sechs-nimmt")
    assert answers[0].section.anchor == "rule-sixth-card"


@pytest.mark.parametrize(("language", "question"), [
    ("de", "wie viele Durchgänge"), ("en", "how many deals"),
])
def test_how_many_deals_is_answered_by_the_end_of_the_match(language: str, question: str) -> None:
    # The end section never said how many deals: the setup ("each deal") came first.
    answers = search(question, language, prefer="sechs-nimmt")
    assert answers[0].section.anchor == "end"


def test_how_many_can_join_in_is_the_steckbrief_not_the_profi_variant() -> None:
    # The Profi variant said "Spielerzahl" and "welche Karten mitspielen", and came first.
    answers = search("wie viele können mitspielen", "de", prefer="sechs-nimmt")
    assert answers[0].section.anchor == "at-a-glance"


@pytest.mark.parametrize("question", ["wie viele Reihen gibt es", "wie viele Reihen"])
def test_how_many_rows_is_answered_by_the_setup(question: str) -> None:
    # The setup said "jede beginnt eine Reihe": no number of rows for "wie viele" to find.
    answers = search(question, "de", prefer="sechs-nimmt")
    assert answers[0].section.anchor == "setup"


@pytest.mark.parametrize(("language", "question"), [
    ("de", "was wenn zwei über 66 kommen"), ("en", "what if two players go over 66"),
])
def test_two_over_66_is_the_end_decision_not_a_card_s_move(language: str, question: str) -> None:
    # "66" with "kommen" / "go" was read as the card 66 being placed: the placement rules
    # came first. A number after "über" / "over" is a total.
    answers = search(question, language, prefer="sechs-nimmt")
    assert answers[0].section.anchor == "app-decides-end"



@pytest.mark.parametrize(("question", "language", "anchors"), [
    # "pro" met the recording decisions ("pro Durchgang und Spieler"), which came first
    # (tests/companion/test_rules_search.py: test_per_is_not_what_a_question_asks_about).
    ("wie viele karten pro reihe", "de", {"special-cases", "rule-sixth-card"}),
    # "nimmt" alone was read as X nimmt! (test_nimmt_alone_names_no_game there).
    ("wer nimmt die reihe bei der sechsten karte", "de", {"rule-sixth-card"}),
    # "6." / "6th" before "card" is the sixth card, not the card 6
    # (test_a_card_s_place_in_digits_is_read_as_its_ordinal there).
    ("was passiert bei der 6. Karte", "de", {"rule-sixth-card"}),
    ("who takes when i play the 6th card", "en", {"rule-sixth-card"}),
])
def test_the_sixth_card_and_the_rows_asked_in_a_players_words(
    question: str, language: str, anchors: set[str],
) -> None:
    answers = search(question, language, prefer="sechs-nimmt")
    assert answers[0].section.anchor in anchors

def deal_figures(data: reference.DealData) -> tuple[Figure, ...]:
    """6 nimmt!'s figures computed from scratch, for the statistics records' reference
    (``tests/companion/history_reference.py``: :func:`deal_figures`)."""
    def bulls(entry: Any) -> int:
        return int(entry.count())

    def clean(entry: Any) -> int:
        return 1 if entry.count() == 0 else 0

    return (
        Figure(
            str(_("Hornochsen per player and deal")),
            reference._ratio(reference._total(data, bulls), reference._entries(data)),
            "number",
            reference._per_player(data, bulls, reference._same),
        ),
        Figure(
            str(_("Deals without a single Hornochse")),
            reference._ratio(reference._total(data, clean), reference._entries(data)),
            "percent",
            reference._per_player(data, clean, reference._same),
        ),
    )


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "says"), [
    ("en", "Row 3 is empty: every row always holds a card."),
    ("de", "Reihe 3 ist leer: in jeder Reihe liegt immer eine Karte."),
])
def test_an_empty_row_in_the_round_check_says_that_a_row_always_holds_a_card(
        client: Client, language: str, says: str) -> None:
    # "Four cards are laid face up ... each starts a row", and a taken row is restarted by
    # the played card: "This field is required." did not say why.
    html = client.post(reverse("rules_check", args=["sechs-nimmt"]), {
        "check": "round", "round-row_1": "12", "round-row_2": "20", "round-row_3": "",
        "round-row_4": "70", "round-name_1": "Anna", "round-card_1": "25",
        "round-name_2": "Ben", "round-card_2": "8"},
        HTTP_ACCEPT_LANGUAGE=language).content.decode()
    errors = html[html.index('name="round-row_3"'):html.index('name="round-row_4"')]
    assert says in text(errors)
    assert 'id="answer"' not in html
