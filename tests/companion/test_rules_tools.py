"""Live helpers: the 11 nimmt! bull card tracker and the 13 target totals.
Their whole state lives in the URL; actions redirect (no JavaScript) or swap
the tool and push the new URL (htmx)."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

from django.test import Client
from django.urls import reverse


def get(client: Client, query: str, *, tool: str = "bulls", htmx: bool = False,
        language: str = "en") -> tuple[int, str, str]:
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    if htmx:
        headers["HTTP_HX_REQUEST"] = "true"
    response = client.get(reverse("tool", args=[tool]) + query, **headers)
    return response.status_code, response.content.decode(), response.get("Location", "") or \
        response.get("HX-Push-Url", "")


def state(url: str) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlparse(url).query).items()}


def held(html: str) -> dict[str, int]:
    return {name: int(count) for name, count in
            re.findall(r'data-player="([^"]+)">(\d+)</span>', html)}


def supply(html: str) -> int:
    return int(re.search(r'class="display-6 fw-bold supply">(\d+)<', html).group(1))


# ---------------------------------------------------------------------- bull cards


def test_without_players_the_tracker_asks_for_them(client: Client) -> None:
    status, html, _ = get(client, "")
    assert status == 200
    assert 'name="players"' in html


def test_the_score_sheet_link_starts_a_deal_with_all_10_in_the_supply(client: Client) -> None:
    status, html, _ = get(client, "?players=Anna,Ben,Cem")
    assert status == 200
    assert supply(html) == 10
    assert held(html) == {"Anna": 0, "Ben": 0, "Cem": 0}


def test_a_3_card_pile_gives_a_bull_card_from_the_supply(client: Client) -> None:
    status, _, location = get(client, "?players=Anna,Ben,Cem&held=0.0.0&take=1")
    assert status == 302
    assert state(location) == {"players": "Anna,Ben,Cem", "held": "0.1.0", "ev": "supply.1"}
    status, html, _ = get(client, "?" + urlparse(location).query)
    assert supply(html) == 9
    assert held(html) == {"Anna": 0, "Ben": 1, "Cem": 0}
    assert "Ben gets a bull card from the supply (9 left)." in html


def test_the_htmx_path_swaps_the_tool_and_pushes_the_state(client: Client) -> None:
    status, html, pushed = get(client, "?players=Anna,Ben,Cem&held=2.1.0&take=2", htmx=True)
    assert status == 200
    assert html.lstrip().startswith('<div id="tool">')
    assert state(pushed) == {"players": "Anna,Ben,Cem", "held": "2.1.1", "ev": "supply.2"}
    assert held(html) == {"Anna": 2, "Ben": 1, "Cem": 1}
    assert supply(html) == 6


def test_with_the_supply_empty_the_taker_chooses_among_the_players_with_most(
    client: Client,
) -> None:
    status, html, _ = get(client, "?players=Anna,Ben,Cem&held=4.4.2&take=2")
    assert status == 200  # a choice, not yet an action
    assert "The supply is empty. Anna and Ben hold the most bull cards (4 each). Cem may take " \
        "one from Anna or Ben: from whom?" in html
    assert "take=2&amp;steal=0" in html and "take=2&amp;steal=1" in html
    status, _, location = get(client, "?players=Anna,Ben,Cem&held=4.4.2&take=2&steal=1")
    assert status == 302
    assert state(location)["held"] == "4.3.3"
    assert state(location)["ev"] == "steal.2.1"


def test_with_one_player_holding_most_the_bull_card_comes_from_them(client: Client) -> None:
    status, _, location = get(client, "?players=Anna,Ben,Cem&held=5.3.2&take=1")
    assert status == 302
    assert state(location)["held"] == "4.4.2"


def test_stealing_from_someone_without_the_most_is_refused(client: Client) -> None:
    status, html, _ = get(client, "?players=Anna,Ben,Cem&held=4.4.2&take=0&steal=2")
    assert status == 200
    assert "A bull card can only be taken from the player with the most (Ben), not from Cem." \
        in html
    assert held(html) == {"Anna": 4, "Ben": 4, "Cem": 2}


def test_the_steal_rule_is_shown_when_the_supply_is_empty(client: Client) -> None:
    _, html, _ = get(client, "?players=Anna,Ben,Cem&held=4.4.2")
    assert "whoever earns a bull card now may take one from the player with the most, counted " \
        "over everybody. Whoever alone holds the most gets none. Most now: Anna, Ben." in html
    assert 'href="/rules/elf-nimmt/#app-decides-stealing"' in html


def test_a_new_deal_puts_every_bull_card_back(client: Client) -> None:
    status, _, location = get(client, "?players=Anna,Ben,Cem&held=4.4.2&reset=1")
    assert status == 302
    assert state(location)["held"] == "0.0.0"


def test_more_than_10_bull_cards_in_the_url_are_refused(client: Client) -> None:
    status, html, _ = get(client, "?players=Anna,Ben&held=8.5")
    assert status == 200
    assert "There are only 10 bull cards, but 13 are held." in html
    assert supply(html) == 10


def test_names_in_the_url_are_escaped(client: Client) -> None:
    _, html, _ = get(client, "?players=%3Cscript%3Ex%3C/script%3E,Ben")
    assert "<script>x</script>" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html


# -------------------------------------------------------------------------- targets


def totals(html: str) -> dict[str, int]:
    return {colour: int(total) for colour, total in re.findall(
        r'data-colour="(\w+)".*?class="display-6 fw-bold total">(\d+)<', html, re.S)}


def test_the_targets_start_empty(client: Client) -> None:
    status, html, _ = get(client, "?players=Anna,Ben,Cem", tool="targets")
    assert status == 200
    assert totals(html) == {"yellow": 0, "green": 0, "blue": 0}


def test_playing_a_card_adds_to_the_running_total(client: Client) -> None:
    status, _, location = get(
        client, "?players=Anna,Ben,Cem&y=5.4&g=&b=&taken=0.0.0.0_0.0.0.0_0.0.0.0"
                "&target=yellow&card=2&who=0",
        tool="targets")
    assert status == 302
    assert state(location)["y"] == "5.4.2"
    _, html, _ = get(client, "?" + urlparse(location).query, tool="targets")
    assert totals(html)["yellow"] == 11
    assert "Anna: yellow 2 on yellow, total 11." in html


def test_going_over_13_takes_the_cards_and_counts_them_for_the_player(client: Client) -> None:
    status, html, pushed = get(
        client, "?players=Anna,Ben,Cem&y=5.4.1.2&g=7&b=&taken=0.0.0.0_0.0.0.0_0.0.0.0"
                "&target=yellow&card=2&who=1", tool="targets", htmx=True)
    assert status == 200
    assert state(pushed)["y"] == "2"
    assert state(pushed)["taken"] == "0.0.0.0_3.0.0.1_0.0.0.0"
    assert totals(html) == {"yellow": 2, "green": 7, "blue": 0}
    assert "Over 13: Ben takes yellow 5, red 4, yellow 1, yellow 2; the yellow 2 stays " \
        "(total 2)." in html
    assert re.search(r"<th[^>]*>Ben</th><td>3</td><td>0</td><td>0</td><td>1</td>", html)


def test_exactly_13_stays_on_the_target(client: Client) -> None:
    _, _, location = get(client, "?b=7.5&target=blue&card=1", tool="targets")
    assert state(location)["b"] == "7.5.1"


def test_a_red_4_goes_on_any_target(client: Client) -> None:
    _, _, location = get(client, "?g=7&target=green&card=r4", tool="targets")
    assert state(location)["g"] == "7.4"


def test_a_target_that_cannot_exist_is_refused(client: Client) -> None:
    status, html, _ = get(client, "?y=7.7&target=yellow&card=1", tool="targets")
    assert status == 200
    assert "These cards total 14, but two or more cards on a target never total more than 13" \
        in html


def test_who_plays_must_be_given_when_players_are_known(client: Client) -> None:
    status, html, _ = get(client, "?players=Anna,Ben,Cem&target=yellow&card=1",
                          tool="targets")
    assert status == 200
    assert "Who plays the card?" in html


def test_a_new_deal_empties_the_targets(client: Client) -> None:
    _, _, location = get(client, "?players=Anna,Ben,Cem&y=5&taken=1.0.0.0_0.0.0.0_0.0.0.0"
                                 "&reset=1", tool="targets")
    assert state(location) == {"players": "Anna,Ben,Cem", "taken": "0.0.0.0_0.0.0.0_0.0.0.0",
                               "ev": "new"}


def test_the_next_player_in_seat_order_is_preselected(client: Client) -> None:
    _, html, _ = get(client, "?players=Anna,Ben,Cem&y=2&ev=yellow.2.2", tool="targets")
    assert re.search(r'id="who-0" value="0" checked', html)
    assert not re.search(r'id="who-1" value="1" checked', html)


def test_a_card_with_a_superscript_digit_is_no_card_not_a_server_error(client: Client) -> None:
    # "²" is a digit to str.isdigit() but not to int(): the variant's card picker crashed.
    status, html, _ = get(client, "?variant=first-card&target=t1&card=y²", tool="targets")
    assert status == 200
    assert "There is no such card." in html
