"""Rules pages and search: public, per language, anchors, highlighting, no XSS."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from companion.games.rules_text import LANGUAGES, SKELETON
from companion.rules_content import all_texts, game_text
from scoring import GAMES

SLUGS = list(GAMES)


def get(client: Client, url: str, *, language: str = "de", htmx: bool = False) -> str:
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    if htmx:
        headers["HTTP_HX_REQUEST"] = "true"
    response = client.get(url, **headers)
    assert response.status_code == 200
    return response.content.decode()


def test_every_game_has_rules_in_both_languages_with_the_same_anchors() -> None:
    for slug in SLUGS:
        anchors = {lang: [s.anchor for s in game_text(slug, lang).sections] for lang in LANGUAGES}
        assert anchors["de"] == anchors["en"], slug
        assert len(set(anchors["de"])) == len(anchors["de"]), slug
        for needed in SKELETON:
            assert needed in anchors["de"], (slug, needed)


def test_the_rules_texts_are_not_copied_from_the_rulebooks() -> None:
    """No sentence of our German text appears word for word in a seed rulebook."""
    import pathlib

    seeds = " ".join(
        " ".join(p.read_text(encoding="utf-8").split())
        for p in pathlib.Path("/work/shared/seeds").glob("*.txt")
    ) if pathlib.Path("/work/shared/seeds").exists() else ""
    if not seeds:
        pytest.skip("the seed rulebooks are not on this machine")
    from companion.selectors.rules import plain_text

    for text in all_texts("de"):
        for section in text.sections:
            for sentence in re.split(r"(?<=[.!?:])\s+", plain_text(section)):
                words = sentence.split()
                if len(words) >= 8:
                    assert sentence not in seeds, sentence


def test_the_index_lists_the_five_games_with_their_key_rule(client: Client) -> None:
    html = get(client, reverse("rules_index"))
    for slug in SLUGS:
        assert f'href="/rules/{slug}/"' in html
        assert f'href="/rules/{slug}/check/"' in html
    assert "Die dritte Karte einer Farbe dreht alle drei Karten dieser Farbe um" in html
    assert 'href="/tools/bulls/"' in html and 'href="/tools/targets/"' in html


@pytest.mark.parametrize("slug", SLUGS)
def test_a_game_page_has_anchored_headings_and_the_key_rule_on_top(
    client: Client, slug: str,
) -> None:
    html = get(client, reverse("rules_game", args=[slug]))
    text = game_text(slug, "de")
    assert html.index(text.key_rule) < html.index('id="overview"')
    for section in text.sections:
        assert f'id="{section.anchor}"' in html
        assert f'href="#{section.anchor}"' in html
    assert "So entscheidet die App" in html


def test_a_game_page_in_english(client: Client) -> None:
    html = get(client, reverse("rules_game", args=["x-nimmt"]), language="en")
    assert "How the app decides" in html
    assert "Rule 3: Full row" in html
    assert "Regel 3" not in html


def test_an_unknown_game_has_no_rules_page(client: Client) -> None:
    assert client.get("/rules/skat/").status_code == 404


def test_pages_are_public_without_login(client: Client) -> None:
    for url in (reverse("rules_index"), reverse("rules_search") + "?q=13",
                reverse("rules_game", args=["freaky"]), reverse("tool", args=["bulls"]),
                reverse("tool", args=["targets"])):
        response = client.get(url)
        assert response.status_code == 200, url


def _hits(html: str) -> list[str]:
    return re.findall(r'<a class="fw-semibold" href="(/rules/[^"]+)">', html)


@pytest.mark.parametrize(("query", "expected"), [
    ("Bullenkarte", ["/rules/elf-nimmt/#bull-cards", "/rules/elf-nimmt/#bull-card-gain",
                     "/rules/elf-nimmt/#bull-card-steal"]),
    ("X-Reihe", ["/rules/x-nimmt/#taken-cards", "/rules/x-nimmt/#x-row"]),
    ("13", ["/rules/dreizehn/#over-13", "/rules/dreizehn/#app-decides-exactly-13"]),
    ("dritte Karte", ["/rules/drei-sind-einer-zuviel/#third-card"]),
])
def test_german_search_finds_the_sections(client: Client, query: str,
                                          expected: list[str]) -> None:
    html = get(client, reverse("rules_search") + f"?q={query}")
    hits = _hits(html)
    for url in expected:
        assert url in hits, (query, url, hits)
    assert "<mark>" in html


def test_the_search_marks_every_word(client: Client) -> None:
    html = get(client, reverse("rules_search") + "?q=dritte+Karte", htmx=True)
    assert "<mark>dritte</mark> <mark>Karte</mark> einer Farbe" in html


@pytest.mark.parametrize(("query", "expected"), [
    ("bull card", "/rules/elf-nimmt/#bull-card-steal"),
    ("X-Reihe", "/rules/x-nimmt/#x-row"),
    ("13", "/rules/dreizehn/#over-13"),
    ("third card", "/rules/drei-sind-einer-zuviel/#third-card"),
    # The word an English player uses for taking a bull card away when the supply is empty.
    ("steal", "/rules/elf-nimmt/#bull-card-steal"),
])
def test_english_search_finds_the_sections(client: Client, query: str, expected: str) -> None:
    html = get(client, reverse("rules_search") + f"?q={query}", language="en")
    assert expected in _hits(html)


def test_search_stays_in_the_current_language(client: Client) -> None:
    assert _hits(get(client, reverse("rules_search") + "?q=dritte+Karte", language="en")) == []
    assert _hits(get(client, reverse("rules_search") + "?q=third+card", language="de")) == []


def test_the_htmx_search_returns_only_the_results(client: Client) -> None:
    html = get(client, reverse("rules_search") + "?q=Bullenkarte", htmx=True)
    assert "<nav" not in html and "<form" not in html
    assert '/rules/elf-nimmt/#bull-cards' in html


def test_the_search_box_searches_while_typing_and_without_javascript(client: Client) -> None:
    html = get(client, reverse("rules_index"))
    assert 'method="get" action="/rules/search/"' in html
    assert 'hx-get="/rules/search/"' in html
    assert 'hx-trigger="input changed delay:250ms, search"' in html


def test_nothing_found_says_so(client: Client) -> None:
    html = get(client, reverse("rules_search") + "?q=Schach", language="en")
    assert "Nothing in the rules mentions “Schach”." in html


def test_a_one_letter_query_asks_for_more(client: Client) -> None:
    html = get(client, reverse("rules_search") + "?q=X", language="en")
    assert "Type at least two characters." in html
    assert _hits(html) == []


@pytest.mark.parametrize("htmx", [False, True])
def test_the_search_escapes_what_the_user_typed(client: Client, htmx: bool) -> None:
    attack = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
    html = get(client, reverse("rules_search") + "?q=" + attack.replace("&", "%26"), htmx=htmx)
    assert "<script>alert(1)" not in html
    assert "<img src=x" not in html
    if not htmx:  # the question stays in the box; the answers do not repeat it
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


@pytest.mark.parametrize("htmx", [False, True])
def test_a_question_without_answer_is_repeated_escaped(client: Client, htmx: bool) -> None:
    html = get(client, reverse("rules_search") + "?q=<b>Schach</b>", htmx=htmx, language="en")
    assert "Nothing in the rules mentions “&lt;b&gt;Schach&lt;/b&gt;”." in html


# ------------------------------------------------ the decisions of ../shared/rules/

DECISIONS: dict[str, list[tuple[str, str, str]]] = {
    # Every bullet under "Decisions" in ../shared/rules/<game>.md (the one that says "every
    # decision is shown on the rules page" aside), as (anchor, German words, English words)
    # of the section that shows it under "So entscheidet die App" / "How the app decides".
    # A later game lists its own in its tests and checks them with
    # assert_every_decision_is_shown (6 nimmt!: tests/companion/test_sechs_nimmt.py).
    "drei-sind-einer-zuviel": [
        ("app-decides-recording", "live", "live"),
        ("app-decides-limits", "12", "12"),
    ],
    "x-nimmt": [
        ("app-decides-order", "von der niedrigsten zur höchsten", "from lowest to highest"),
        ("app-decides-played-card", "gespielte", "the card they played"),
        ("app-decides-resolver", "Schritt für", "step by step"),
        ("app-decides-recording", "mindestens eine Hand leer", "at least one hand must be empty"),
    ],
    "freaky": [
        ("app-decides-empty-table", "gar keine Reihe", "no row is left"),
        ("app-decides-check", "letzte Karte jeder Reihe", "last card of each row"),
        ("app-decides-missed-row", "bleibt sie liegen", "it stays on the table"),
        ("app-decides-chain", "welche Karte nicht passt", "which card does not fit"),
        ("app-decides-recording", "108", "108"),
    ],
    "elf-nimmt": [
        ("app-decides-bull-cards-kept", "nicht verbraucht", "not used up"),
        # Bull cards (rules): "put down in ascending (wrap-aware) order, highest on top".
        ("app-decides-wrap-order", "über die 100 hinweg", "across the 100"),
        ("app-decides-short-draw-pile", "weniger als zwei", "fewer than two"),
        ("app-decides-stealing", "dich eingeschlossen", "you included"),
        ("app-decides-next-starter", "Sitzreihenfolge", "seat order"),
        ("app-decides-blocked", "niemand ist ausgegangen", "nobody went out"),
        ("app-decides-recording", "Bullenkarten-Zähler", "bull card tracker"),
    ],
    "dreizehn": [
        ("app-decides-exactly-13", "genau 13", "exactly 13"),
        ("variant-open-targets", "erste farbige Karte", "first coloured card"),
        ("app-decides-recording", "8 rote Vieren", "8 red 4s"),
    ],
}


def _section_text(html: str, anchor: str) -> str:
    start = html.index(f'<section class="decision" aria-labelledby="{anchor}">')
    return " ".join(re.sub(r"<[^>]+>", " ", html[start:html.index("</section>", start)]).split())


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("slug", SLUGS)
def test_every_decision_comes_after_the_heading_how_the_app_decides(
    client: Client, slug: str, language: str,
) -> None:
    html = get(client, reverse("rules_game", args=[slug]), language=language)
    decisions_start = html.index('<h2 id="app-decides">')
    decided = [s.anchor for s in game_text(slug, language).sections
               if s.decision and s.level == 3]
    assert decided, slug
    for anchor in decided:
        assert html.index(f'id="{anchor}"') > decisions_start
        assert f'<section class="decision" aria-labelledby="{anchor}">' in html


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("slug", sorted(DECISIONS))
def test_every_decision_of_the_rules_files_is_shown_under_how_the_app_decides(
    client: Client, slug: str, language: str,
) -> None:
    assert_every_decision_is_shown(client, slug, language, DECISIONS[slug])


def assert_every_decision_is_shown(client: Client, slug: str, language: str,
                                   decisions: list[tuple[str, str, str]]) -> None:
    """The game's rules page shows exactly these ``(anchor, German words, English words)``
    decisions, in this order, under "So entscheidet die App" / "How the app decides"."""
    html = get(client, reverse("rules_game", args=[slug]), language=language)
    heading = "So entscheidet die App" if language == "de" else "How the app decides"
    decisions_start = html.index(f'<h2 id="app-decides">{heading}')
    shown = [s.anchor for s in game_text(slug, language).sections
             if s.decision and s.level == 3]
    assert shown == [anchor for anchor, _de, _en in decisions]
    for anchor, german, english in decisions:
        assert html.index(f'id="{anchor}"') > decisions_start
        assert (german if language == "de" else english) in _section_text(html, anchor)


@pytest.mark.parametrize(("language", "sentence"), [
    ("de", "Die 18 kommt in die mittlere Reihe hinter die 15"),
    ("en", "The 18 goes into the middle row behind the 15"),
])
def test_the_rule_2_example_says_what_the_round_check_answers(
    client: Client, language: str, sentence: str,
) -> None:
    from companion.games.x_nimmt.check import check_x_nimmt_round

    answer = check_x_nimmt_round([[12], [15], [54]], {"Anna": 18, "Ben": 22, "Cem": 60})
    assert [(s.step.card, s.row_card, s.step.taken) for s in answer.steps] == [
        (18, 4, ()), (22, 4, ()), (60, 5, ())]
    assert answer.complete
    html = get(client, reverse("rules_game", args=["x-nimmt"]), language=language)
    example = _text_of(html, "rule-lowest-difference")
    assert sentence in example
    if language == "de":
        assert "In der 3er-Reihe liegt die 12, in der 4er-Reihe die 15, in der 5er-Reihe die 54" \
            in example
        assert "Die 60 kommt in die untere Reihe hinter die 54. Keine Reihe wird voll: " \
            "niemand nimmt etwas." in example
    else:
        assert "the 3-row holds the 12, the 4-row the 15, the 5-row the 54" in example
        assert "The 60 goes into the lower row behind the 54. No row fills up: nobody takes " \
            "anything." in example


def _text_of(html: str, anchor: str) -> str:
    start = html.index(f'aria-labelledby="{anchor}"')
    return " ".join(re.sub(r"<[^>]+>", " ", html[start:html.index("</section>", start)]).split())


@pytest.mark.parametrize(("language", "words"), [
    ("de", "Wer seine letzte Karte spielt und danach Karten kassiert und auf die Hand nimmt, "
           "hat wieder Handkarten und spielt weiter."),
    ("en", "Whoever plays their last card and then takes cards into hand holds cards again "
           "and plays on."),
])
def test_the_end_of_an_x_nimmt_deal_is_after_a_round_that_leaves_a_hand_empty(
    client: Client, language: str, words: str,
) -> None:
    html = get(client, reverse("rules_game", args=["x-nimmt"]), language=language)
    assert words in _text_of(html, "end")


def test_the_engine_s_deal_end_is_documented_in_apply() -> None:
    from scoring import x_nimmt

    assert "still holds cards and plays on" in " ".join((x_nimmt.apply.__doc__ or "").split())


@pytest.mark.parametrize(("language", "words"), [
    ("de", "auf der 96 kommen 99, 100, 2 und 5 in dieser Reihenfolge, die 5 liegt oben"),
    ("en", "on the 96, the 99, 100, 2 and 5 go down in this order, and the 5 ends on top"),
])
def test_the_bull_card_rule_says_highest_on_top_counts_on_past_100(
    client: Client, language: str, words: str,
) -> None:
    from scoring import elf_nimmt

    assert elf_nimmt.check_play([96], {0: [99, 100, 2, 5]}, 1).tops == (5,)
    html = get(client, reverse("rules_game", args=["elf-nimmt"]), language=language)
    assert words in _text_of(html, "bull-cards")
