"""Rules questions as players ask them at the table, with the sections that answer them.

Written before the search was tuned, the way people talk: whole questions,
inflected verbs, game names in many spellings (or none), a few typos, no
keywords chosen to please the index. Each question lists every section
(``slug#anchor``) that answers it; a question counts as answered in the
top k when one of them is among the first k results. The first section's
game is the game the question is about (for the per-game figures).

Used by ``tests/companion/test_rules_search_quality.py`` and
``bench/rules_search.py``.
"""

from __future__ import annotations

from typing import NamedTuple


class Question(NamedTuple):
    language: str
    text: str
    answers: tuple[str, ...]
    """Acceptable sections as ``slug#anchor``."""

    @property
    def game(self) -> str:
        return self.answers[0].split("#", 1)[0]


D = "drei-sind-einer-zuviel"
X = "x-nimmt"
F = "freaky"
E = "elf-nimmt"
T = "dreizehn"


def q(language: str, text: str, *answers: str) -> Question:
    return Question(language, text, answers)


QUESTIONS: tuple[Question, ...] = (
    # ------------------------------------------------------ 3 sind einer zuviel! (de)
    q("de", "Was passiert bei der dritten Karte einer Farbe?", f"{D}#third-card"),
    q("de", "3 sind einer zuviel: wie viele Punkte gibt es für zwei Karten einer Farbe",
      f"{D}#scoring", f"{D}#overview"),
    q("de", "Was mache ich mit den grauen Karten?", f"{D}#grey-cards"),
    q("de", "Wann bekomme ich die Zwischenwertung?", f"{D}#interim-bonus"),
    q("de", "Drei sind einer zuviel: wohin kommt die 52?", f"{D}#row-by-number",
      f"{D}#placement", f"{D}#ascending-order"),
    q("de", "3 sind einer zuviel fünfte Karte in der Reihe, was jetzt", f"{D}#fifth-card",
      f"{D}#fifth-card-highest", f"{D}#fifth-card-lower"),
    q("de", "Wann muss ich bei 3 sind einer zuviel nachziehen", f"{D}#turn"),
    q("de", "drei sind einer zu viel wie viele Handkarten hat man am Anfang", f"{D}#setup"),
    q("de", "Was bringt es, alle sieben Farben zu haben?", f"{D}#interim-bonus",
      f"{D}#final-bonus"),
    q("de", "Werden die Startkarten 0, 30 und 60 jemals genommen?", f"{D}#special-cases",
      f"{D}#setup"),
    q("de", "Wer fängt an bei drei sind einer zuviel?", f"{D}#turn", f"{D}#at-a-glance"),
    q("de", "zählen die zwei letzten Handkarten am Ende von 3 sind einer zuviel?", f"{D}#end"),
    q("de", "Meine Karte ist nicht die höchste in der Reihe, welche Karten muss ich nehmen?",
      f"{D}#fifth-card-lower"),
    q("de", "Endwertung bei sechs Farben", f"{D}#final-bonus"),
    q("de", "wird die vierte Karte einer Farbe wieder umgedreht", f"{D}#third-card",
      f"{D}#special-cases"),
    # ------------------------------------------------------ 3 sind einer zuviel! (en)
    q("en", "what happens when I get a third card of the same color", f"{D}#third-card"),
    q("en", "3 sind einer zuviel how many points for two cards of one colour", f"{D}#scoring",
      f"{D}#overview"),
    q("en", "what do the grey cards do", f"{D}#grey-cards"),
    q("en", "when do I get the interim bonus", f"{D}#interim-bonus"),
    q("en", "which row does the 52 go in, 3 sind einer zuviel", f"{D}#row-by-number",
      f"{D}#placement"),
    q("en", "my card is the highest in an overfull row, which card do I take",
      f"{D}#fifth-card-highest", f"{D}#fifth-card"),
    q("en", "when do I draw new cards in drei sind einer zuviel", f"{D}#turn"),
    q("en", "does the fourth card of a colour lie face up again", f"{D}#third-card",
      f"{D}#special-cases"),
    q("en", "who goes first in drei sind einer zuviel?", f"{D}#turn", f"{D}#at-a-glance"),
    q("en", "final bonus for having all seven colours", f"{D}#final-bonus",
      f"{D}#interim-bonus"),
    q("en", "does the app check how many cards of a colour there are",
      f"{D}#app-decides-limits"),
    q("en", "can I enter the colours live or only at the end", f"{D}#app-decides-recording"),
    q("en", "how does 3 sind einer zuviel end", f"{D}#end"),
    q("en", "are the start cards ever taken", f"{D}#special-cases", f"{D}#setup"),
    # ------------------------------------------------------------------ X nimmt! (de)
    # Asked without a game, it is a question of three games: each answers it.
    q("de", "Was passiert, wenn meine Karte zu keiner Reihe passt?", f"{X}#rule-low-card",
      f"{E}#turn", f"{E}#rule-difference", f"{F}#new-row"),
    q("de", "x nimmt wann ist eine Reihe voll", f"{X}#rule-full-row"),
    q("de", "Wie viele Minuspunkte gibt der X-Stapel?", f"{X}#scoring"),
    q("de", "welche Karte kommt in meine X-Reihe", f"{X}#taken-cards", f"{X}#x-row"),
    q("de", "X nimmt: wie viele Hornochsen hat die 55?", f"{X}#material"),
    q("de", "Was passiert, wenn die neue Karte in der X-Reihe niedriger ist?", f"{X}#x-row"),
    q("de", "Wann endet ein Durchgang bei X nimmt", f"{X}#end"),
    q("de", "X nimmt: in welche Reihe kommt meine Karte, wenn sie an zwei Reihen passt",
      f"{X}#rule-lowest-difference", f"{X}#placement"),
    q("de", "nehme ich meine eigene gespielte Karte mit, wenn ich die Reihe kassiere",
      f"{X}#app-decides-played-card", f"{X}#rule-full-row"),
    q("de", "wie viele Karten bekommt jeder bei x nimmt", f"{X}#setup"),
    q("de", "X nimmt: welche Karte wird zuerst angelegt?", f"{X}#turn",
      f"{X}#app-decides-order"),
    q("de", "x nimt wertung", f"{X}#scoring"),
    q("de", "dürfen kassierte Karten wieder ausgespielt werden", f"{X}#taken-cards"),
    # ------------------------------------------------------------------ X nimmt! (en)
    q("en", "what happens when a row is full in x nimmt", f"{X}#rule-full-row"),
    q("en", "x nimmt my card is lower than every row, what now", f"{X}#rule-low-card"),
    q("en", "how many minus points for the x stack", f"{X}#scoring"),
    q("en", "which of the taken cards goes into my x row", f"{X}#taken-cards",
      f"{X}#app-decides-order"),
    q("en", "how many bullheads does card 55 have", f"{X}#material", f"{E}#material"),
    q("en", "x nimmt which card is placed first when everyone reveals", f"{X}#turn",
      f"{X}#app-decides-order"),
    q("en", "when does a deal end in x nimmt", f"{X}#end"),
    q("en", "x nimmt two rows fit my card, which one does it go to",
      f"{X}#rule-lowest-difference", f"{X}#placement"),
    q("en", "do I take my own card too when I take the row", f"{X}#app-decides-played-card",
      f"{X}#rule-full-row"),
    q("en", "x nimmt how many cards in hand at the start", f"{X}#setup"),
    q("en", "x nimmt can I play the cards I took", f"{X}#taken-cards"),
    q("en", "how many players can play x nimmt", f"{X}#overview", f"{X}#at-a-glance"),
    q("en", "what if the card for my x-row is lower than its last card", f"{X}#x-row"),
    # -------------------------------------------------------------------- Freaky (de)
    q("de", "Freaky: wann darf ich eine neue Reihe aufmachen?", f"{F}#new-row"),
    q("de", "Wann passt eine Karte an eine Reihe bei Freaky?", f"{F}#joining-a-row"),
    q("de", "freaky wann darf ich eine Reihe nehmen", f"{F}#collecting"),
    q("de", "Müssen die vier gleichen Merkmale nebeneinander liegen?", f"{F}#special-cases",
      f"{F}#collecting"),
    q("de", "wie viele Karten darf ich pro Zug legen bei freaky", f"{F}#turn"),
    q("de", "Ich habe vergessen eine Reihe zu kassieren, darf ich das nachholen?",
      f"{F}#collecting", f"{F}#app-decides-missed-row"),
    q("de", "Freaky: wann ist das Spiel vorbei", f"{F}#end"),
    q("de", "wie werden die Punkte bei Freaky gezählt", f"{F}#scoring"),
    q("de", "was ist wenn keine Reihe mehr auf dem Tisch liegt", f"{F}#app-decides-empty-table"),
    q("de", "zählt bei freaky nur die letzte Karte der Reihe", f"{F}#special-cases",
      f"{F}#joining-a-row"),
    q("de", "freaky wie viele Handkarten", f"{F}#setup", f"{F}#drawing", f"{F}#turn"),
    q("de", "Freeky nachziehen", f"{F}#drawing", f"{F}#turn"),
    # -------------------------------------------------------------------- Freaky (en)
    q("en", "freaky when can I start a new row", f"{F}#new-row"),
    q("en", "when does a card fit a row in freaky", f"{F}#joining-a-row"),
    q("en", "when can I collect a row", f"{F}#collecting"),
    q("en", "do the four matching features have to be next to each other",
      f"{F}#special-cases", f"{F}#collecting"),
    q("en", "how many cards can I play in one turn in freaky", f"{F}#turn"),
    q("en", "I forgot to take a row, can I still take it later", f"{F}#app-decides-missed-row",
      f"{F}#collecting"),
    q("en", "freaky when does the game end", f"{F}#end"),
    q("en", "how do you score freaky", f"{F}#scoring"),
    q("en", "what if there are no rows left on the table", f"{F}#app-decides-empty-table"),
    q("en", "freaky does only the last card of a row matter", f"{F}#special-cases",
      f"{F}#joining-a-row"),
    q("en", "freaky how many hand cards do I draw up to", f"{F}#drawing", f"{F}#turn",
      f"{F}#setup"),
    q("en", "can I collect more than one row per turn", f"{F}#collecting"),
    # ----------------------------------------------------------------- 11 nimmt! (de)
    q("de", "darf ich die 23 auf die 18 legen", f"{E}#rule-difference", f"{E}#rule-ascending",
      f"{E}#playing"),
    q("de", "darf ich eine Bullenkarte zweimal benutzen", f"{E}#app-decides-bull-cards-kept",
      f"{E}#bull-cards"),
    q("de", "11 nimmt passt die 5 auf die 98", f"{E}#rule-wrap-around"),
    q("de", "Wann bekomme ich eine Bullenkarte?", f"{E}#bull-card-gain"),
    q("de", "Was, wenn alle Bullenkarten weg sind?", f"{E}#bull-card-steal",
      f"{E}#app-decides-stealing"),
    q("de", "elf nimmt wie viele Durchgänge spielen wir", f"{E}#end"),
    q("de", "Wer fängt die nächste Runde an bei 11 nimmt", f"{E}#end",
      f"{E}#app-decides-next-starter"),
    q("de", "wie viel Abstand darf zwischen den Karten sein", f"{E}#rule-difference"),
    q("de", "11 nimmt: muss ich einen Stapel nehmen, wenn ich noch legen könnte?", f"{E}#turn"),
    q("de", "11 nimt mehrere karten auf einmal ablegen", f"{E}#bull-cards"),
    q("de", "Wie viele Minuspunkte bekommt, wer ausgespielt hat?", f"{E}#scoring"),
    q("de", "11 nimmt was passiert wenn der Zugstapel leer ist",
      f"{E}#app-decides-short-draw-pile", f"{E}#app-decides-blocked", f"{E}#end"),
    q("de", "elf nimmt: gibt es für einen Stapel mit 2 Karten eine Bullenkarte?",
      f"{E}#special-cases", f"{E}#bull-card-gain"),
    # ----------------------------------------------------------------- 11 nimmt! (en)
    q("en", "can I play 97 on 95", f"{E}#rule-ascending", f"{E}#rule-difference",
      f"{E}#playing"),
    q("en", "can I use a bull card twice", f"{E}#app-decides-bull-cards-kept",
      f"{E}#bull-cards"),
    q("en", "11 nimmt does the 3 fit on the 99", f"{E}#rule-wrap-around"),
    q("en", "when do I get a bull card", f"{E}#bull-card-gain"),
    q("en", "what if all the bull cards are gone", f"{E}#bull-card-steal",
      f"{E}#app-decides-stealing"),
    q("en", "how many deals do we play in 11 nimmt", f"{E}#end"),
    q("en", "who starts the next deal in elf nimmt", f"{E}#end",
      f"{E}#app-decides-next-starter"),
    q("en", "11 nimmt how far apart can the cards be", f"{E}#rule-difference"),
    q("en", "must I take a pile if none of my cards fits", f"{E}#turn", f"{E}#rule-difference"),
    q("en", "put down several cards at once", f"{E}#bull-cards"),
    q("en", "what does the player who went out score", f"{E}#scoring"),
    q("en", "can I steal a bull card when I have the most myself",
      f"{E}#app-decides-stealing"),
    q("en", "11 nimmt taking a pile with two cards, do I get a bull card",
      f"{E}#special-cases", f"{E}#bull-card-gain"),
    # ----------------------------------------------------------------------- 13 (de)
    q("de", "Ist genau 13 erlaubt?", f"{T}#app-decides-exactly-13", f"{T}#special-cases"),
    q("de", "darf die rote 4 auf jede Zielscheibe", f"{T}#red-fours"),
    q("de", "dreizehn wer fängt an", f"{T}#setup", f"{T}#at-a-glance"),
    q("de", "Was passiert, wenn die Summe über 13 geht?", f"{T}#over-13"),
    q("de", "bleibt meine Karte liegen wenn ich über 13 komme", f"{T}#over-13",
      f"{T}#special-cases"),
    q("de", "13: darf ich eine gelbe Karte auf blau legen?", f"{T}#colours"),
    q("de", "wer bekommt bei 13 null Punkte für eine Farbe", f"{T}#scoring"),
    q("de", "Wie viele Minuspunkte kostet eine rote Vier", f"{T}#red-fours", f"{T}#scoring"),
    q("de", "Zielscheiben ohne feste Farbe spielen", f"{T}#variant-open-targets"),
    q("de", "Wann endet ein Durchgang bei dreizehn", f"{T}#end"),
    q("de", "wie oft gibt jeder bei 13 zu dritt", f"{T}#end"),
    q("de", "dreizehn wie viele Karten hat man auf der Hand", f"{T}#setup", f"{T}#turn"),
    q("de", "Gleichstand bei den meisten Karten einer Farbe, wer wird verschont",
      f"{T}#scoring"),
    # ----------------------------------------------------------------------- 13 (en)
    q("en", "is exactly 13 safe", f"{T}#app-decides-exactly-13", f"{T}#special-cases"),
    q("en", "can the red four go on any target", f"{T}#red-fours"),
    q("en", "thirteen who starts", f"{T}#setup", f"{T}#at-a-glance"),
    q("en", "what happens when the total goes over 13", f"{T}#over-13"),
    q("en", "does my card stay when I go over 13", f"{T}#over-13", f"{T}#special-cases"),
    q("en", "13 can I put a yellow card on the blue target", f"{T}#colours"),
    q("en", "who scores zero for a colour in 13", f"{T}#scoring"),
    q("en", "how many minus points is a red 4", f"{T}#red-fours", f"{T}#scoring"),
    q("en", "variant where the targets have no colour", f"{T}#variant-open-targets"),
    q("en", "when does a deal end in 13", f"{T}#end"),
    q("en", "how many times does everyone deal with three players", f"{T}#end"),
    q("en", "13 how many cards does each player hold", f"{T}#setup", f"{T}#turn"),
    q("en", "tie for the most cards of a colour in 13", f"{T}#scoring"),
)


FRESH_QUESTIONS: tuple[Question, ...] = (
    # Written after the search was tuned on QUESTIONS and measured once before any further
    # change: how the search does on questions it was not tuned for (bench/rules_search.py
    # --fresh). Not asserted by the tests.
    q("de", "Wie viele Spieler können bei Freaky mitspielen?", f"{F}#overview", f"{F}#at-a-glance"),
    q("de", "wieviele karten hat 11 nimmt", f"{E}#material", f"{E}#at-a-glance"),
    q("de", "x nimmt: wer bekommt die Karten wenn die 5er Reihe voll ist", f"{X}#rule-full-row"),
    q("de", "was zählt die X-Reihe am Ende", f"{X}#scoring"),
    q("de", "Darf ich bei 11 nimmt einen Stapel nehmen obwohl ich legen kann?", f"{E}#turn"),
    q("de", "Bullenkarte klauen", f"{E}#bull-card-steal", f"{E}#app-decides-stealing"),
    q("de", "wie viele bullenkarten gibt es", f"{E}#material", f"{E}#bull-card-steal",
      f"{E}#at-a-glance"),
    q("de", "Kann man bei 13 auf genau 13 legen ohne zu nehmen", f"{T}#app-decides-exactly-13",
      f"{T}#special-cases"),
    q("de", "Wofür sind die roten Vieren?", f"{T}#red-fours"),
    q("de", "wer gewinnt bei 13", f"{T}#scoring", f"{T}#overview", f"{T}#at-a-glance"),
    q("de", "Welche Farben haben die Zielscheiben?", f"{T}#colours", f"{T}#material",
      f"{T}#variant-open-targets"),
    q("de", "3 sind einer zuviel wie viele Farben gibt es", f"{D}#material"),
    q("de", "Bonus für alle sieben Farben bei drei sind einer zu viel", f"{D}#interim-bonus",
      f"{D}#final-bonus"),
    q("de", "wieso ist die 15 grau", f"{D}#grey-cards", f"{D}#material"),
    q("de", "Karten nach dem Zug nachziehen 3 sind einer zuviel", f"{D}#turn"),
    q("de", "Freaky gleiche Zahl anlegen erlaubt?", f"{F}#joining-a-row"),
    q("de", "freaky wie oft muss ein merkmal vorkommen zum kassieren", f"{F}#collecting"),
    q("de", "Wann ist 11 nimmt zu Ende?", f"{E}#end"),
    q("de", "X nimmt Hornochsen zählen", f"{X}#scoring", f"{X}#material"),
    q("de", "x nimmt zu niedrige karte reihe aussuchen", f"{X}#rule-low-card"),
    q("de", "Wie lange spielt man 13?", f"{T}#end", f"{T}#at-a-glance"),
    q("de", "dreizehn summe genau dreizehn", f"{T}#app-decides-exactly-13", f"{T}#special-cases"),
    q("de", "freaky reihe zweimal kassieren im gleichen zug", f"{F}#collecting"),
    q("de", "11 nimmt wie viele Handkarten am Anfang", f"{E}#setup"),
    q("de", "umgedrehte Karten Minuspunkte", f"{D}#scoring", f"{D}#third-card"),
    q("en", "how many players for freaky", f"{F}#overview", f"{F}#at-a-glance"),
    q("en", "11 nimmt how many cards in the game", f"{E}#material", f"{E}#at-a-glance"),
    q("en", "x nimmt who gets the cards when the 5 row fills up", f"{X}#rule-full-row"),
    q("en", "what does the x-row count at the end", f"{X}#scoring"),
    q("en", "can I take a pile even though I could play a card", f"{E}#turn"),
    q("en", "stealing bull cards", f"{E}#bull-card-steal", f"{E}#app-decides-stealing"),
    q("en", "how many bull cards are there", f"{E}#material", f"{E}#bull-card-steal",
      f"{E}#at-a-glance"),
    q("en", "in 13 can I reach exactly 13 without taking", f"{T}#app-decides-exactly-13",
      f"{T}#special-cases"),
    q("en", "what are the red fours for", f"{T}#red-fours"),
    q("en", "who wins 13", f"{T}#scoring", f"{T}#overview", f"{T}#at-a-glance"),
    q("en", "what colours do the targets have", f"{T}#colours", f"{T}#material",
      f"{T}#variant-open-targets"),
    q("en", "3 sind einer zuviel how many colours are there", f"{D}#material"),
    q("en", "bonus for all seven colours", f"{D}#interim-bonus", f"{D}#final-bonus"),
    q("en", "why is the 15 grey", f"{D}#grey-cards", f"{D}#material"),
    q("en", "freaky same number allowed to join?", f"{F}#joining-a-row"),
    q("en", "freaky how often must a feature appear to collect", f"{F}#collecting"),
    q("en", "when is 11 nimmt over", f"{E}#end", f"{E}#at-a-glance"),
    q("en", "x nimmt counting bullheads", f"{X}#scoring", f"{X}#material"),
    q("en", "x nimmt card too low choose a row", f"{X}#rule-low-card"),
    q("en", "how long does a game of 13 last", f"{T}#end", f"{T}#at-a-glance"),
    q("en", "turned over cards minus points", f"{D}#scoring", f"{D}#third-card"),
    q("en", "11 nimmt how many hand cards at the beginning", f"{E}#setup"),
    q("en", "does the dealer start in 13", f"{T}#setup", f"{T}#at-a-glance"),
    q("en", "freaky draw after playing", f"{F}#drawing", f"{F}#turn"),
    q("en", "x nimmt more than one card into the x row", f"{X}#taken-cards"),
)
