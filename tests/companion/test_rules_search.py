"""Rules questions: asked as at the table, answered with the right section first.

The question set (rules_questions.py) measures the search as a whole; the tests
below pin each thing it must understand, the answer's shape and the pages.
"""

from __future__ import annotations

import re
import statistics
import time
from collections import defaultdict
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from companion.games import GAME_APPS
from companion.rules_search.answers import search
from companion.rules_search.text import tokens
from tests.companion.rules_questions import QUESTIONS


def found(question: str, language: str = "de", **kwargs: str) -> list[str]:
    return [f"{a.game.slug}#{a.section.anchor}" for a in search(question, language, **kwargs)]


def first(question: str, language: str = "de", **kwargs: str) -> str:
    answers = found(question, language, **kwargs)
    return answers[0] if answers else ""


# ------------------------------------------------------------------ the question set


@pytest.mark.parametrize("language", ["de", "en"])
def test_players_questions_find_the_answer_in_the_top_3_and_mostly_first(language: str) -> None:
    asked = [q for q in QUESTIONS if q.language == language]
    top_1 = top_3 = 0
    for question in asked:
        answers = found(question.text, language)
        top_1 += bool(answers) and answers[0] in question.answers
        top_3 += any(answer in question.answers for answer in answers[:3])
    assert top_3 / len(asked) >= 0.9, (language, top_3, len(asked))
    assert top_1 / len(asked) >= 0.7, (language, top_1, len(asked))


def test_the_question_set_asks_about_every_game_in_both_languages() -> None:
    count: dict[tuple[str, str], int] = defaultdict(int)
    for question in QUESTIONS:
        count[(question.language, question.game)] += 1
    assert len(QUESTIONS) >= 80
    assert len(count) == 10 and min(count.values()) >= 10


def test_a_question_takes_a_few_milliseconds() -> None:
    for question in QUESTIONS:  # the index is built once, before the clock runs
        search(question.text, question.language)
    times = []
    for question in QUESTIONS:
        started = time.perf_counter()
        search(question.text, question.language)
        times.append(time.perf_counter() - started)
    assert statistics.median(times) < 0.020


# ------------------------------------------------------------------- what it reads


@pytest.mark.parametrize("question", [
    "Zählt die dritte Karte einer Farbe?", "zaehlt die dritte karte einer farbe",
    "ZÄHLT DIE DRITTE KARTE EINER FARBE???",
])
def test_case_umlauts_and_punctuation_do_not_matter(question: str) -> None:
    assert first(question) == "drei-sind-einer-zuviel#third-card"


@pytest.mark.parametrize("question", [
    "kann ich nen stapel nehmen obwohl ich legen könnte",
    "kann ich nen stapel nehmen obwohl ich legen koennte",
    "kann ich nen stapel nehmen obwohl ich legen konnte",
])
def test_a_stop_word_typed_without_its_umlaut_is_still_a_stop_word(question: str) -> None:
    from companion.rules_search.index import index_for
    from companion.rules_search.ranking import read_question

    read = read_question(question, index_for("de"))
    assert {concept.word for concept in read.concepts} == {"stapel", "nehmen", "obwohl", "legen"}


@pytest.mark.parametrize(("question", "language"), [
    ("are the start cards ever taken", "en"), ("werden die startkarten mal genommen", "de"),
    ("are the black cards ever taken", "en"),
])
def test_the_start_cards_are_3_sind_s_own_word(question: str, language: str) -> None:
    assert first(question, language) == "drei-sind-einer-zuviel#special-cases"


@pytest.mark.parametrize(("question", "language", "answer"), [
    ("11 nimmt was kriegt wer raus ist", "de", "elf-nimmt#scoring"),
    ("11 nimmt what does the player who goes out score", "en", "elf-nimmt#scoring"),
    ("x nimmt: i played my last card but took a row, am i out?", "en", "x-nimmt#end"),
])
def test_going_out_is_the_empty_hand_of_the_rules(question: str, language: str,
                                                  answer: str) -> None:
    assert first(question, language) == answer


@pytest.mark.parametrize(("question", "language"), [
    ("Darf ich bei 11 nimmt einen Stapel nehmen obwohl ich legen kann?", "de"),
    ("11 nimmt can I take a pile even though I could play a card", "en"),
])
def test_allowed_even_though_is_the_rule_that_says_always(question: str, language: str) -> None:
    assert first(question, language) == "elf-nimmt#turn"


@pytest.mark.parametrize(("question", "language", "answers"), [
    ("wie viele bullenkarten gibt es", "de", {"elf-nimmt#material", "elf-nimmt#at-a-glance"}),
    ("how many bull cards are there", "en", {"elf-nimmt#material", "elf-nimmt#at-a-glance"}),
    ("3 sind einer zuviel wie viele Farben gibt es", "de", {"drei-sind-einer-zuviel#material"}),
    # For something, or followed by what one gets, it is when one gets it.
    ("3 sind einer zuviel: wie viele Punkte gibt es für zwei Karten einer Farbe", "de",
     {"drei-sind-einer-zuviel#scoring", "drei-sind-einer-zuviel#final-bonus"}),
    ("11 nimmt ab wie vielen karten gibts ne bullenkarte", "de", {"elf-nimmt#bull-card-gain"}),
])
def test_how_many_there_are_is_what_is_in_the_box(question: str, language: str,
                                                  answers: set[str]) -> None:
    assert first(question, language) in answers


@pytest.mark.parametrize(("question", "language", "answers"), [
    ("two cards for the same row, which goes first", "en", {"x-nimmt#app-decides-order"}),
    ("zwei karten für dieselbe reihe, welche kommt zuerst", "de", {"x-nimmt#app-decides-order"}),
    # Who goes first is still who starts.
    ("who goes first", "en", {"freaky#at-a-glance", "freaky#turn"}),
    ("wer kommt zuerst dran", "de", {"freaky#at-a-glance", "freaky#turn"}),
])
def test_which_goes_first_is_the_order_not_who_starts(question: str, language: str,
                                                      answers: set[str]) -> None:
    game = next(iter(answers)).split("#")[0]
    assert first(question, language, prefer=game) in answers


@pytest.mark.parametrize("question", [
    "can i play 3 cards at once", "can i put down two cards at a time",
])
def test_cards_at_once_are_the_bull_cards_rule(question: str) -> None:
    assert first(question, "en", prefer="elf-nimmt") == "elf-nimmt#bull-cards"


def test_a_minus_sign_in_the_rules_reads_as_minus_points() -> None:
    # 3 sind einer zuviel! says "jede umgedrehte Karte: −1 Punkt", never "Minuspunkt".
    assert first("umgedrehte Karten Minuspunkte") in {
        "drei-sind-einer-zuviel#scoring", "drei-sind-einer-zuviel#third-card"}


@pytest.mark.parametrize(("question", "language", "counted"), [
    ("ab wie vielen karten gibt es eine bullenkarte", "de", "#karten"),
    ("wie oft muss ein merkmal vorkommen", "de", "#merkmal"),
    ("how often must a feature appear", "en", "#feature"),
])
def test_how_often_and_wie_vielen_ask_for_a_number(question: str, language: str,
                                                   counted: str) -> None:
    from companion.rules_search.index import index_for
    from companion.rules_search.ranking import read_question

    read = read_question(question, index_for(language))
    assert read.how_many
    # The thing counted, not the modal before it ("wie oft muss").
    assert [c.word for c in read.concepts if c.word.startswith("#")] == [counted]


def test_inflected_words_meet_their_stem() -> None:
    # "benutzen" in the question, "nutzt" and "verbraucht" in the decision.
    assert first("darf ich eine Bullenkarte zweimal benutzen") == \
        "elf-nimmt#app-decides-bull-cards-kept"


@pytest.mark.parametrize(("question", "language", "answer"), [
    ("wann bekome ich eine Bulenkarte", "de", "elf-nimmt#bull-card-gain"),
    ("what happens to the thrid card of a colour", "en", "drei-sind-einer-zuviel#third-card"),
])
def test_a_typo_still_finds_the_rule(question: str, language: str, answer: str) -> None:
    assert first(question, language) == answer


@pytest.mark.parametrize(("question", "language", "answer"), [
    # The texts say Durchgang / deal, colour, wegnehmen.
    ("wie viele Runden spielt man bei 11 nimmt", "de", "elf-nimmt#end"),
    ("can I steal a bull card", "en", "elf-nimmt#bull-card-steal"),
    ("what happens with the third card of one color", "en",
     "drei-sind-einer-zuviel#third-card"),
])
def test_the_games_own_words_are_understood_by_their_synonyms(
    question: str, language: str, answer: str,
) -> None:
    assert answer in found(question, language)[:2]


@pytest.mark.parametrize("name", ["11 nimmt", "elf nimmt", "11nimmt", "11 nimt", "Elf-nimmt!",
                                  "elfnimmt"])
def test_a_game_named_in_any_spelling_keeps_the_answers_to_that_game(name: str) -> None:
    answers = found(f"{name} wann ist der Durchgang zu Ende")
    assert answers[0] == "elf-nimmt#end"
    assert {answer.split("#")[0] for answer in answers} == {"elf-nimmt"}


@pytest.mark.parametrize(("name", "game"), [
    ("dreisind", "drei-sind-einer-zuviel"), ("Drei sind einer zu viel", "drei-sind-einer-zuviel"),
    ("3 sind einer", "drei-sind-einer-zuviel"), ("13er", "dreizehn"), ("Dreizehn", "dreizehn"),
    ("x nimmt", "x-nimmt"), ("X-nimmt!", "x-nimmt"), ("Freeky", "freaky"),
    ("elf nimmt", "elf-nimmt"), ("Elfnimmt", "elf-nimmt"),
    # A name's number and "nimmt" in the other language, or as a digit or a word.
    ("elf takes", "elf-nimmt"), ("eleven nimmt", "elf-nimmt"), ("11 takes", "elf-nimmt"),
    ("three sind einer zuviel", "drei-sind-einer-zuviel"),
    # A number name written out may have a typo, like the other names.
    ("dreizen", "dreizehn"), ("thirten", "dreizehn"),
])
def test_every_game_is_named_as_people_say_it(name: str, game: str) -> None:
    answers = found(f"{name} wer gewinnt", prefer="freaky" if game != "freaky" else "dreizehn")
    assert answers and {answer.split("#")[0] for answer in answers} == {game}


def test_a_word_that_sounds_like_a_name_names_no_game() -> None:
    # "sind" is one letter from no game's name: "wir sind fünf" asks how many may play.
    assert first("wir sind fünf", prefer="x-nimmt") == "x-nimmt#at-a-glance"


@pytest.mark.parametrize("question", ["dreizehn wer fängt an", "13: wer fängt an",
                                      "wer fängt an bei 13"])
def test_13_names_the_game_but_over_13_is_a_sum(question: str) -> None:
    assert first(question) in ("dreizehn#setup", "dreizehn#at-a-glance")
    assert first("Was passiert, wenn die Summe über 13 geht?").startswith("dreizehn#")


def test_the_page_s_game_is_preferred() -> None:
    assert first("Wie endet das Spiel?", prefer="freaky") == "freaky#end"
    assert first("Wie endet das Spiel?", prefer="drei-sind-einer-zuviel") == \
        "drei-sind-einer-zuviel#end"


@pytest.mark.parametrize(("question", "language", "game"), [
    ("Ich hab schon zwei Rote, was passiert wenn ich noch eine rote Karte nehmen muss?", "de",
     "drei-sind-einer-zuviel"),
    ("darf ich die 23 auf die 18 legen", "de", "x-nimmt"),
    ("Bullenkarte zweimal benutzen", "de", "dreizehn"),
    ("what happens when the row is full", "en", "elf-nimmt"),
    ("can I take a pile", "en", "freaky"),
])
def test_from_a_game_s_sheet_the_answers_are_that_game_s(
    question: str, language: str, game: str,
) -> None:
    answers = found(question, language, prefer=game)
    assert {answer.split("#")[0] for answer in answers} <= {game}


def test_a_game_named_on_another_game_s_sheet_answers_for_the_named_game() -> None:
    assert found("wer fängt an bei 11 nimmt", prefer="freaky")[0].startswith("elf-nimmt#")
    assert {a.split("#")[0] for a in found("how does 13 score", "en", prefer="x-nimmt")} == {
        "dreizehn"}


@pytest.mark.parametrize(("question", "language", "game"), [
    ("meine Karte ist kleiner als alle Reihen", "de", "x-nimmt"),
    ("was wenn meine Karte zu niedrig ist", "de", "x-nimmt"),
    ("what if my card is lower than all rows", "en", "x-nimmt"),
])
def test_a_card_lower_than_every_row_is_answered_by_the_low_card_rule(
    question: str, language: str, game: str,
) -> None:
    # "kleiner" once met the heading "Kleinster Abstand" (the nearest row) and won.
    assert first(question, language, prefer=game) == f"{game}#rule-low-card"


@pytest.mark.parametrize(("question", "language"), [
    ("wer fängt an", "de"), ("who starts", "en"), ("who goes first", "en"),
])
def test_who_starts_11_nimmt_is_not_answered_by_the_tie_rule_first(
    question: str, language: str,
) -> None:
    # The decision on a tie for the next deal was headed "Wer beginnt bei Gleichstand?" and
    # came first, without the first deal's starter (the youngest).
    assert first(question, language, prefer="elf-nimmt") in {
        "elf-nimmt#turn", "elf-nimmt#at-a-glance"}
    assert "elf-nimmt#app-decides-next-starter" in found(
        "wer beginnt bei Gleichstand", prefer="elf-nimmt")[:1]
    # Nor may its heading pull in questions about points ("Minuspunkte" in it once did).
    assert first("wie viele Punkte hat die 55", prefer="elf-nimmt") in {
        "elf-nimmt#scoring", "elf-nimmt#material"}


@pytest.mark.parametrize("game", ["elf-nimmt", "dreizehn", "drei-sind-einer-zuviel"])
@pytest.mark.parametrize("question", ["wie viele können mitspielen", "wie viele dürfen mitspielen"])
def test_how_many_can_join_in_is_the_number_of_players(question: str, game: str) -> None:
    # "mitspielen" alone meant the players, not how many may play: decisions came first.
    assert first(question, prefer=game) == f"{game}#at-a-glance"


@pytest.mark.parametrize(("question", "language"), [
    ("darf ich mehrere Karten legen", "de"), ("can i play several cards", "en"),
])
def test_playing_several_cards_is_the_bull_cards_rule_not_how_to_get_one(
    question: str, language: str,
) -> None:
    # "Man darf mehrere haben" made the short section on getting a bull card come first.
    assert first(question, language, prefer="elf-nimmt") == "elf-nimmt#bull-cards"


@pytest.mark.parametrize("game", ["x-nimmt", "elf-nimmt"])
def test_at_start_without_the_is_the_setup_not_who_starts(game: str) -> None:
    # "at start" was read as "start" (who begins): a rule about full rows came first.
    assert first("how many cards in hand at start", "en", prefer=game) == f"{game}#setup"


@pytest.mark.parametrize(("question", "answer"), [
    ("wann ist das Spiel zuende", "elf-nimmt#end"),
    ("wann darf ich ne Reihe einsacken", "freaky#collecting"),
])
def test_colloquial_spellings_are_understood(question: str, answer: str) -> None:
    # "zuende" (for "zu Ende") and "einsacken" (for "kassieren") were no words of the search.
    assert first(question, prefer=answer.split("#")[0]) == answer


@pytest.mark.parametrize(("question", "language", "game", "answers"), [
    ("how many minus points per bullhead in hand", "en", "x-nimmt", {"x-nimmt#scoring"}),
])
def test_per_is_not_what_a_question_asks_about(
    question: str, language: str, game: str, answers: set[str],
) -> None:
    # "pro" / "per" met the recording decisions ("pro Durchgang und Spieler"), which came first.
    assert first(question, language, prefer=game) in answers


@pytest.mark.parametrize("question", [
    "darf ich die genommenen karten gleich wieder spielen",
    "dürfen kassierte Karten wieder ausgespielt werden",
])
def test_playing_taken_cards_again_is_where_taken_cards_go(question: str) -> None:
    # "wieder" was only in the end of a deal ("hat wieder Handkarten"), which came first.
    assert first(question, prefer="x-nimmt") == "x-nimmt#taken-cards"


def test_how_many_cards_to_play_in_a_freaky_turn_is_the_turn_not_drawing() -> None:
    # The turn said "1 to 3 hand cards" (a count of "hand"), drawing "3 cards": the short
    # drawing rule came first for "how many cards".
    assert first("how many cards can i play per turn", "en", prefer="freaky") == "freaky#turn"
    assert first("how many cards do i refill to", "en", prefer="freaky") == "freaky#drawing"


@pytest.mark.parametrize(("question", "language"), [
    ("was wenn keiner mehr nachziehen kann", "de"),
    ("was ist wenn der nachziehstapel leer ist", "de"),
    ("what if the draw pile is empty", "en"),
])
def test_an_empty_draw_pile_in_freaky_is_the_end_of_the_game(question: str, language: str) -> None:
    # The end said only "nicht mehr auf 3 Handkarten auffüllen": drawing or the setup
    # (the "Nachziehstapel") came first.
    assert first(question, language, prefer="freaky") == "freaky#end"


@pytest.mark.parametrize(("question", "language"), [
    ("wenn keine bullenkarten mehr da sind", "de"), ("what if there are no bull cards left", "en"),
])
def test_no_bull_cards_left_is_stealing_one(question: str, language: str) -> None:
    # "keine ... mehr" / "no ... left" were in no words of the rule for an empty supply:
    # how to get a bull card came first.
    assert first(question, language, prefer="elf-nimmt") == "elf-nimmt#bull-card-steal"


@pytest.mark.parametrize(("question", "language"), [
    ("11 nimmt: muss ich einen Stapel nehmen, wenn ich noch legen könnte?", "de"),
    ("must i take a pile if i can't play", "en"),
])
def test_must_i_take_a_pile_is_the_turn_that_says_when(question: str, language: str) -> None:
    # "muss" / "must" were stop words: how taking a pile goes came first, not when one must.
    assert first(question, language, prefer="elf-nimmt") == "elf-nimmt#turn"
    assert first("Meine Karte ist nicht die höchste in der Reihe, welche Karten muss ich nehmen?",
                 prefer="drei-sind-einer-zuviel") == "drei-sind-einer-zuviel#fifth-card-lower"


@pytest.mark.parametrize(("question", "game"), [
    ("how many cards does each player hold", "dreizehn"),
    ("how many cards dealt each", "elf-nimmt"),
])
def test_how_many_cards_finds_a_count_with_a_word_between(question: str, game: str) -> None:
    # "5 hand cards", "10 cards each": English puts a word between the number and the thing
    # counted, and only the first word after a number was taken as what it counts.
    assert first(question, "en", prefer=game) == f"{game}#setup"
    assert first("how many cards do i refill to", "en", prefer="freaky") == "freaky#drawing"


@pytest.mark.parametrize(("question", "language"), [
    ("what do i get for all 7 colours", "en"), ("ich hab alle 7 farben offen was krieg ich", "de"),
])
def test_a_digit_in_a_question_meets_its_word_in_the_rules(question: str, language: str) -> None:
    # The bonuses say "all seven colours": "7" met no word of them, and "get the third card
    # of a colour" came first.
    assert first(question, language, prefer="drei-sind-einer-zuviel") in {
        "drei-sind-einer-zuviel#final-bonus", "drei-sind-einer-zuviel#interim-bonus"}
    assert first("Was bringt es, alle sieben Farben zu haben?",
                 prefer="drei-sind-einer-zuviel") == "drei-sind-einer-zuviel#final-bonus"


def test_carrying_bull_cards_over_is_the_decision_that_they_are_kept() -> None:
    # "carry over" was "carry" and "over": the end of a deal came first.
    assert first("do bull cards carry over to the next deal", "en", prefer="elf-nimmt") == \
        "elf-nimmt#app-decides-bull-cards-kept"


@pytest.mark.parametrize(("question", "game"), [
    ("darf die rote 4 auf gelb", "dreizehn"), ("darf ich eine rote 4 auf blau legen", None),
])
def test_a_red_4_on_a_colour_is_the_red_fours_rule(question: str, game: str | None) -> None:
    # The heading "Die fiesen Vieren" had no "rot": the rule for coloured cards (gelb auf
    # gelb) came first, though a red 4 may go on any target.
    answers = search(question, "de", prefer=game)
    assert f"{answers[0].game.slug}#{answers[0].section.anchor}" == "dreizehn#red-fours"
    assert first("darf eine gelbe 5 auf blau", prefer="dreizehn") == "dreizehn#colours"


@pytest.mark.parametrize(("question", "language"), [
    ("can I choose where to put my card", "en"), ("darf ich wählen wo meine karte hinkommt", "de"),
])
def test_choosing_where_a_card_goes_is_3_sind_s_placement(question: str, language: str) -> None:
    # "choose", "wählen" met no word of the placement rules ("decision", "entscheiden").
    assert first(question, language, prefer="drei-sind-einer-zuviel") == \
        "drei-sind-einer-zuviel#placement"


@pytest.mark.parametrize(("question", "game", "answers"), [
    ("what if two players have the same number of blue", "dreizehn", {"dreizehn#scoring"}),
    ("what if we have the same number of points", "freaky", {"freaky#scoring"}),
    ("what if we have the same number of points", "drei-sind-einer-zuviel",
     {"drei-sind-einer-zuviel#overview", "drei-sind-einer-zuviel#at-a-glance"}),
])
def test_the_same_number_is_a_tie(question: str, game: str, answers: set[str]) -> None:
    # "same number" was "number" (a card's value): the components or the recording came first.
    assert first(question, "en", prefer=game) in answers


@pytest.mark.parametrize(("question", "language"), [
    ("der x-stapel zählt doppelt oder?", "de"), ("does the x stack count double", "en"),
])
def test_the_x_stack_counting_double_is_x_nimmt_s_scoring(question: str, language: str) -> None:
    # The scoring said "2 Minuspunkte" only: "doppelt" was no word of it, and the X-Reihe's
    # section (full of "X-Stapel") came first.
    assert first(question, language, prefer="x-nimmt") == "x-nimmt#scoring"


@pytest.mark.parametrize(("question", "language"), [
    ("zählen die handkarten am ende", "de"), ("do hand cards count at the end", "en"),
])
def test_whether_hand_cards_count_at_the_end_is_freaky_s_scoring(
    question: str, language: str,
) -> None:
    # "Ende"/"end" and "Handkarten" were all in the end of the game's sentence ("cannot
    # refill to 3 hand cards at the end of their turn"), which says nothing about scoring.
    assert first(question, language, prefer="freaky") == "freaky#scoring"


@pytest.mark.parametrize(("question", "game", "answers"), [
    ("wann nimmt man einen stapel", "elf-nimmt", {"elf-nimmt#taking-a-pile", "elf-nimmt#turn"}),
    ("wer nimmt die karten bei über 13", "dreizehn", {"dreizehn#over-13"}),
    ("wer nimmt zuerst wenn zwei karten in die gleiche reihe", "x-nimmt",
     {"x-nimmt#turn", "x-nimmt#app-decides-order"}),
])
def test_nimmt_alone_names_no_game(question: str, game: str, answers: set[str]) -> None:
    # "nimmt" is one letter off "xnimmt": every question about taking was X nimmt!'s, on any
    # game's sheet, and lost the word "nimmt".
    assert first(question, prefer=game) in answers


@pytest.mark.parametrize(("question", "language", "answer"), [
    ("was ist wenn ich die 3. rote nehme", "de", "drei-sind-einer-zuviel#third-card"),
    ("what happens with the 4th card of a colour", "en", "drei-sind-einer-zuviel#third-card"),
])
def test_a_card_s_place_in_digits_is_read_as_its_ordinal(
    question: str, language: str, answer: str,
) -> None:
    # "3.", "4th", "6." were read as the cards 3, 4 and 6, not as "dritte", "fourth", "sechste".
    assert first(question, language, prefer=answer.split("#")[0]) == answer


def test_a_number_ending_a_sentence_stays_a_number() -> None:
    assert [t.word for t in tokens("bei der 6. Karte; oben die 33. Mit der 28. Du")] == [
        "bei", "der", "6.", "karte", "oben", "die", "33", "mit", "der", "28", "du"]


@pytest.mark.parametrize(("question", "language", "game", "asked", "own", "answer"), [
    ("was passiert wenn die Reihe voll ist", "de", "elf-nimmt", "Reihe", ("Stapel",),
     "elf-nimmt#taking-a-pile"),
    ("what happens when the row is full in 11 nimmt", "en", None, "row", ("pile",),
     "elf-nimmt#taking-a-pile"),
    ("zählt mein Stapel am Ende", "de", "x-nimmt", "Stapel", ("Reihe", "X-Stapel"),
     "x-nimmt#scoring x-nimmt#x-row"),
    # Points, in a game that counts Hornochsen.
    ("wie viele Punkte hat die 55", "de", "elf-nimmt", "Punkte", ("Hornochsen",),
     "elf-nimmt#material"),
    ("11 nimmt how many points for the 55", "en", None, "points", ("Hornochsen",),
     "elf-nimmt#material"),
])
def test_a_sibling_game_s_word_is_searched_as_this_game_s_word_with_a_note(
    question: str, language: str, game: str | None, asked: str, own: tuple[str, ...],
    answer: str,
) -> None:
    answers = search(question, language, prefer=game)
    assert f"{answers[0].game.slug}#{answers[0].section.anchor}" in answer.split()
    assert [(note.asked, note.own) for note in answers[0].own_words] == [(asked, own)]
    assert all(not later.own_words for later in answers[1:])


def test_a_game_s_own_word_has_no_note() -> None:
    answers = search("was passiert wenn die Reihe voll ist", "de", prefer="x-nimmt")
    assert answers[0].section.anchor == "rule-full-row" and not answers[0].own_words


@pytest.mark.parametrize(("question", "language", "game", "fact"), [
    ("wie lange dauert 11 nimmt", "de", None, "Etwa 30 Minuten."),
    ("ab wie viel Jahren", "de", "freaky", "Ab 8 Jahren."),
    ("wir sind fünf", "de", "elf-nimmt", "2 bis 7 Spieler, also zu zweit bis zu siebt."),
    ("Können wir das zu acht spielen?", "de", "elf-nimmt", "2 bis 7 Spieler"),
    ("in welche Richtung wird in 13 gespielt", "de", None, "Reihum im Uhrzeigersinn"),
    ("was ist in der Schachtel", "de", "x-nimmt", "100 Zahlenkarten"),
    ("how long does a game take", "en", "freaky", "About 15 minutes."),
    ("how old do kids need to be for x nimmt", "en", None, "From 8 years."),
    ("how many players for 13", "en", None, "3 to 6 players."),
    ("which direction do you play in 13", "en", None, "Clockwise"),
])
def test_the_steckbrief_answers_the_questions_on_the_box(
    question: str, language: str, game: str | None, fact: str,
) -> None:
    answers = search(question, language, prefer=game)
    assert answers[0].section.anchor == "at-a-glance"
    assert "".join(part.text for part in answers[0].sentence).startswith(fact)


@pytest.mark.parametrize(("question", "language", "answer"), [
    ("how is a deal of 13 scored", "en", "dreizehn#scoring"),
    ("wie wird bei 13 gezählt", "de", "dreizehn#scoring"),
    ("wann ist das Spiel bei X nimmt zu Ende", "de", "x-nimmt#end"),
    ("how many deals in x nimmt", "en", "x-nimmt#end"),
])
def test_the_answer_is_the_section_that_answers_how_or_when(
    question: str, language: str, answer: str,
) -> None:
    assert first(question, language) == answer


@pytest.mark.parametrize(("question", "language", "game", "sentence"), [
    ("how many deals do we play", "en", "dreizehn", "A game has as many deals as there are"),
    ("wie viele Durchgänge spielen wir", "de", "dreizehn", "Das Spiel hat so viele Durchgänge"),
    ("wann ist das Spiel bei X nimmt zu Ende", "de", None, "Das Spiel hat zwei Durchgänge"),
])
def test_the_answer_shows_the_sentence_that_answers_how_many_or_when(
    question: str, language: str, game: str | None, sentence: str,
) -> None:
    answers = search(question, language, prefer=game)
    assert "".join(part.text for part in answers[0].sentence).startswith(sentence)


@pytest.mark.parametrize(("question", "language", "answer"), [
    ("Ich habe vergessen eine Reihe zu kassieren, darf ich das nachholen?", "de",
     "freaky#app-decides-missed-row"),
    ("is exactly 13 safe", "en", "dreizehn#app-decides-exactly-13"),
])
def test_the_app_s_decisions_answer_too(question: str, language: str, answer: str) -> None:
    assert answer in found(question, language)[:2]


def test_a_question_in_one_language_is_searched_in_its_own_rules_only() -> None:
    assert all("/rules/" in a.url for a in search("third card", "en"))
    assert first("dritte Karte", "de") == "drei-sind-einer-zuviel#third-card"


@pytest.mark.parametrize("question", ["", "a", "?!", "der die das", "\x00\x00"])
def test_an_empty_or_meaningless_question_has_no_answer(question: str) -> None:
    assert search(question, "de") == ()


@pytest.mark.parametrize("game", ["", "elf-nimmt", "dreizehn", "x-nimmt"])
@pytest.mark.parametrize("question", ["die ³ auf die 98", "darf ich eine gelbe ² legen",
                                      "wohin kommt die ²3"])
def test_a_superscript_digit_in_a_question_is_no_server_error(
    client: Client, question: str, game: str,
) -> None:
    # "³" is a digit to str.isdigit() but not to int(): every question with one was a 500.
    url = reverse("rules_search") + "?" + urlencode({"q": question, "game": game})
    assert "search-hits" in get(client, url, htmx=True)


def test_a_very_long_question_is_cut_and_answered() -> None:
    assert search("Bullenkarte " * 500, "de")


# ------------------------------------------------------------------------- answers


def test_an_answer_has_the_game_the_section_and_the_sentence_with_the_match_marked() -> None:
    answer = search("Was passiert bei der dritten Karte einer Farbe?", "de")[0]
    assert answer.game.title == "3 sind einer zuviel!"
    assert answer.url == "/rules/drei-sind-einer-zuviel/#third-card"
    sentence = "".join(part.text for part in answer.sentence)
    assert "dritte Karte einer Farbe" in sentence
    assert [part.text for part in answer.sentence if part.marked][:3] == [
        "dritte", "Karte", "Farbe"]
    assert [part.text for part in answer.title if part.marked] == ["dritte", "Karte", "Farbe"]


def offer(question: str, language: str = "de") -> dict[str, list[str]] | None:
    for answer in search(question, language):
        if answer.check is not None:
            parts = urlsplit(answer.check.url)
            return {"path": [parts.path], "anchor": [parts.fragment], **parse_qs(parts.query)}
    return None


@pytest.mark.parametrize(("question", "language", "expected"), [
    ("darf ich die 23 auf die 18 legen", "de", {
        "path": ["/rules/elf-nimmt/check/"], "anchor": ["check-play"],
        "play-tops": ["18"], "play-hand": ["23"]}),
    ("can I play 97 on 95", "en", {
        "path": ["/rules/elf-nimmt/check/"], "anchor": ["check-play"],
        "play-tops": ["95"], "play-hand": ["97"]}),
    ("13: darf ich eine gelbe 5 auf blau legen?", "de", {
        "path": ["/rules/dreizehn/check/"], "anchor": ["check-play"],
        "play-colour": ["yellow"], "play-value": ["5"], "play-target": ["blue"]}),
    ("3 sind einer zuviel: wohin kommt die 40, wenn 46 und 57 liegen?", "de", {
        "path": ["/rules/drei-sind-einer-zuviel/check/"], "anchor": ["check-place"],
        "place-card": ["40"], "place-row_2": ["46 57"]}),
    ("x nimmt darf die 30 in meine X-Reihe hinter die 40", "de", {
        "path": ["/rules/x-nimmt/check/"], "anchor": ["check-xrow"],
        "xrow-card": ["30"], "xrow-x_row": ["40"]}),
])
def test_a_question_naming_cards_offers_the_check_with_them_filled_in(
    question: str, language: str, expected: dict[str, list[str]],
) -> None:
    assert offer(question, language) == expected


@pytest.mark.parametrize("question", [
    "wie viele Punkte gibt es für 2 Karten einer Farbe",  # a count, no card
    "Werden die Startkarten 0, 30 und 60 jemals genommen?",  # no move
    "Freaky: passt die blaue 4 an die Reihe?",  # Freaky's check asks for three features
])
def test_other_questions_offer_no_check(question: str) -> None:
    assert offer(question) is None


# -------------------------------------------------------------------------- pages


def get(client: Client, url: str, *, htmx: bool = False, language: str = "de") -> str:
    headers = {"HTTP_ACCEPT_LANGUAGE": language, **({"HTTP_HX_REQUEST": "true"} if htmx else {})}
    response = client.get(url, **headers)
    assert response.status_code == 200
    return response.content.decode()


def test_without_javascript_the_question_opens_the_search_page_with_the_answers(
    client: Client,
) -> None:
    html = get(client, reverse("rules_search") + "?q=darf+ich+die+23+auf+die+18+legen")
    assert "<nav" in html and 'value="darf ich die 23 auf die 18 legen"' in html
    assert '<a class="fw-semibold" href="/rules/elf-nimmt/#' in html
    assert 'href="/rules/elf-nimmt/check/?play-tops=18&amp;play-hand=23#check-play"' in html
    assert "Diesen Zug prüfen" in html


def test_while_typing_htmx_gets_only_the_answers(client: Client) -> None:
    html = get(client, reverse("rules_search") + "?q=wer+f%C3%A4ngt+an&game=freaky", htmx=True)
    assert "<form" not in html and "<nav" not in html
    assert re.search(r'<a class="fw-semibold" href="/rules/freaky/#turn">', html)


def test_an_unknown_game_to_prefer_is_ignored(client: Client) -> None:
    html = get(client, reverse("rules_search") + "?q=Bullenkarte&game=skat", htmx=True)
    assert "/rules/elf-nimmt/#" in html


@pytest.mark.parametrize(("url", "game"), [
    ("/rules/", None), ("/rules/freaky/", "freaky"), ("/rules/search/?q=Reihe", None),
])
def test_every_rules_page_has_the_question_box(client: Client, url: str, game: str | None) -> None:
    html = get(client, url)
    assert 'action="/rules/search/"' in html and 'name="q"' in html
    assert 'hx-trigger="input changed delay:250ms, search"' in html
    assert 'hx-target="#search-results"' in html and 'id="search-results"' in html
    assert ('name="game" value="freaky"' in html) == (game == "freaky")


def test_the_check_page_opens_with_the_question_s_cards_filled_in_and_nothing_checked(
    client: Client,
) -> None:
    html = get(client, "/rules/elf-nimmt/check/?play-tops=18&play-hand=23")
    assert re.search(r'name="play-tops"[^>]*value="18"', html)
    assert re.search(r'name="play-hand"[^>]*value="23"', html)
    assert 'id="answer-play"' not in html and "is-invalid" not in html


def test_the_check_page_leaves_out_what_its_fields_refuse(client: Client) -> None:
    html = get(client, "/rules/dreizehn/check/?play-colour=purple&play-value=5&play-target=blue")
    assert re.search(r'name="play-value"[^>]*value="5" checked', html)
    assert re.search(r'name="play-target"[^>]*value="blue" checked', html)
    assert re.search(r'name="play-colour"[^>]*value="yellow" checked', html)  # as before
    assert 'value="purple"' not in html and "is-invalid" not in html


def test_the_answers_say_which_word_of_the_game_they_searched_for(client: Client) -> None:
    html = get(client, reverse("rules_search") + "?q=Reihe+voll&game=elf-nimmt", htmx=True)
    assert "In 11 nimmt! heißt „Reihe“ „Stapel“: die Antworten gelten dafür." in html
    html = get(client, reverse("rules_search") + "?q=row+full&game=elf-nimmt", htmx=True,
               language="en")
    assert "In 11 nimmt!, “row” is called “pile”: the answers are for that." in html
    html = get(client, reverse("rules_search") + "?q=Reihe+voll&game=x-nimmt", htmx=True)
    assert "search-hits" in html and "own-word" not in html


def test_every_rules_page_has_the_steckbrief(client: Client) -> None:
    for slug in GAME_APPS:
        html = get(client, f"/rules/{slug}/")
        assert '<h2 id="at-a-glance">Steckbrief' in html and "Spielerzahl:" in html
        html = get(client, f"/rules/{slug}/", language="en")
        assert '<h2 id="at-a-glance">At a glance (Steckbrief)' in html
        assert "Number of players:" in html


def test_when_nothing_in_the_page_s_game_answers_the_other_games_do_and_say_so(
    client: Client,
) -> None:
    assert first("Bullenkarte", prefer="freaky").startswith("elf-nimmt#")
    html = get(client, reverse("rules_search") + "?q=Bullenkarte&game=freaky", htmx=True)
    assert "In den Regeln dieses Spiels steht dazu nichts" in html
    html = get(client, reverse("rules_search") + "?q=Bullenkarte&game=elf-nimmt", htmx=True)
    assert "search-hits" in html and "other-games" not in html


def test_a_question_naming_another_game_does_not_say_this_game_s_rules_had_nothing(
    client: Client,
) -> None:
    # Asked on the Freaky sheet about 11 nimmt!: the answers are the ones asked for, not a
    # fallback, so there is no "nothing in this game's rules" line above them.
    url = reverse("rules_search") + "?q=wer+fängt+an+bei+11+nimmt&game=freaky"
    html = get(client, url, htmx=True)
    assert "/rules/elf-nimmt/#" in html and "other-games" not in html
    assert search("Bullenkarte", "de", prefer="freaky")[0].other_games
    assert not search("Bullenkarte", "de", prefer="elf-nimmt")[0].other_games
