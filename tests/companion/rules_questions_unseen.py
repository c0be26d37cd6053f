# ruff: noqa: E501 (questions are quoted whole, as they were written)
"""Rules questions nobody had asked the search before: written for the branch ``rulesq``
from the rules pages (``bench/rules_pages_text.py``) before any miss of the other sets
was read, and measured once before the search changed. The answers were judged by
reading the rules text, not by what the search returns.

84 questions, 42 German and 42 English, 14 per game (all six), each game asked in both
languages from its sheet (``sheet``: its slug, the "Regelfrage?" box there) and from the
rules index (``sheet`` None, the game named, or only a word of its own, or not at all).
Phrased the way players talk across the table: short, umlauts typed as ae/oe/ue or
dropped, typos, colloquial words; about scoring, the end, who starts and deals, special
cards and variants. Each question lists the sections (``slug#anchor``) that answer it,
best first; the first one's game is the game asked about.

Used by ``tests/companion/test_rules_search_unseen.py`` and
``bench/rules_search.py --unseen``.
"""

from __future__ import annotations

from tests.companion.rules_questions_heldout import D, E, F, Question, T, X, q

S = "sechs-nimmt"


UNSEEN_QUESTIONS: tuple[Question, ...] = (
    # ------------------------------------------------------------ 3 sind einer zuviel!
    q("de", D, "darf ich mir aussuchen in welche reihe meine karte kommt?",
      f"{D}#placement", f"{D}#row-by-number"),
    q("de", D, "wieviel gibt ne graue karte", f"{D}#grey-cards"),
    q("de", D, "was is mit den 2 karten die am schluss noch auf der hand sind",
      f"{D}#end", f"{D}#at-a-glance"),
    q("de", D, "muss ich nach jedem zug nachziehn", f"{D}#turn"),
    q("de", None, "3 sind einer zu viel wer faengt an", f"{D}#turn", f"{D}#at-a-glance"),
    q("de", None, "dreisind meine 28 ist hoeher als alle in der reihe welche nehm ich",
      f"{D}#fifth-card-highest", f"{D}#fifth-card"),
    q("de", None, "wie viele punkte gibts fuer zwei karten der gleichen farbe bei drei sind einer zuviel",
      f"{D}#scoring"),
    q("en", D, "do the start cards ever get taken", f"{D}#special-cases"),
    q("en", D, "what if I get a 4th card of a colour i already fliped",
      f"{D}#third-card", f"{D}#special-cases"),
    q("en", D, "bonus for all seven colours?", f"{D}#interim-bonus", f"{D}#final-bonus"),
    q("en", None, "3 sind einer zuviel how many cards in hand at the start", f"{D}#setup"),
    q("en", None, "in 3 sind einer zuviel my card goes between two cards in the row, where does it go",
      f"{D}#ascending-order"),
    q("en", None, "drei sind einer zuviel scoring how does it work", f"{D}#scoring"),
    q("en", None, "drei sind: how many cards go in each players draw pile", f"{D}#setup"),
    # ------------------------------------------------------------ X nimmt!
    q("de", X, "meine karte ist kleiner als alle reihen was jetzt", f"{X}#rule-low-card"),
    q("de", X, "wieviel minuspunkte zaehlt der x stapel", f"{X}#scoring"),
    q("de", X, "wer faengt an", f"{X}#at-a-glance", f"{X}#turn"),
    q("de", X, "wohin mit den karten die ich kassiert hab", f"{X}#taken-cards"),
    q("de", None, "x nimmt wann ist die 4er reihe voll", f"{X}#rule-full-row"),
    q("de", None, "X nimmt wie viele durchgänge spielt man", f"{X}#end", f"{X}#at-a-glance"),
    q("de", None, "x-reihe neue karte niedriger als die letzte, was passiert", f"{X}#x-row"),
    q("en", X, "can i play the cards i picked up again", f"{X}#taken-cards"),
    q("en", X, "two cards for the same row, which goes first", f"{X}#app-decides-order",
      f"{X}#turn"),
    q("en", X, "do cards in my x row count as minus", f"{X}#scoring", f"{X}#x-row"),
    q("en", None, "x nimmt how long does a game take", f"{X}#at-a-glance"),
    q("en", None, "x nimmt: i played my last card but took a row, am i out?", f"{X}#end"),
    q("en", None, "X nimmt which row does my card go to if it fits on two rows",
      f"{X}#rule-lowest-difference", f"{X}#placement"),
    q("en", None, "x nimmt hornochsen per card", f"{X}#material"),
    # ------------------------------------------------------------ Freaky
    q("de", F, "darf ich ne neue reihe aufmachen obwohl die karte passt", f"{F}#new-row"),
    q("de", F, "muessen die 4 gleichen nebeneinander liegen", f"{F}#special-cases",
      f"{F}#collecting"),
    q("de", F, "wie viele karten darf ich pro zug legen", f"{F}#turn"),
    q("de", F, "nachziehen wieviel", f"{F}#drawing", f"{F}#turn"),
    q("de", None, "freaky wann ist das spiel vorbei", f"{F}#end", f"{F}#at-a-glance"),
    q("de", None, "freaky zaehlen die handkarten am ende", f"{F}#scoring"),
    q("de", None, "freaky hab vergessen die reihe zu kasieren darf ich das noch",
      f"{F}#app-decides-missed-row", f"{F}#collecting"),
    q("en", F, "does only the last card matter for matching", f"{F}#special-cases",
      f"{F}#joining-a-row"),
    q("en", F, "can i take two rows in one trun", f"{F}#collecting"),
    q("en", F, "what if there are no rows left on the table", f"{F}#app-decides-empty-table"),
    q("en", None, "freaky how many cards do you start with", f"{F}#setup"),
    q("en", None, "freaky who wins", f"{F}#scoring", f"{F}#at-a-glance"),
    q("en", None, "freaky: my card has the same circle colour, can I lay it there",
      f"{F}#joining-a-row"),
    q("en", None, "freaky do i have to collect a row or is it optional", f"{F}#turn",
      f"{F}#collecting"),
    # ------------------------------------------------------------ 11 nimmt!
    q("de", E, "darf ich die 7 auf die 5 legen?", f"{E}#rule-difference", f"{E}#rule-ascending",
      f"{E}#playing"),
    q("de", E, "ab wie vielen karten gibts ne bullenkarte", f"{E}#bull-card-gain"),
    q("de", E, "kann ich auch nen stapel nehmen obwohl ich legen koennte", f"{E}#turn"),
    q("de", E, "wer faengt an nach der runde", f"{E}#end", f"{E}#app-decides-next-starter",
      f"{E}#at-a-glance"),
    q("de", None, "11 nimmt keine bullenkarten mehr im vorrat", f"{E}#bull-card-steal",
      f"{E}#app-decides-stealing"),
    q("de", None, "elf nimmt wieviele runden spielt man", f"{E}#end", f"{E}#at-a-glance"),
    q("de", None, "bulenkarte wird die abgegeben wenn ich sie benutz",
      f"{E}#app-decides-bull-cards-kept"),
    q("en", E, "how far apart can the cards be", f"{E}#rule-difference"),
    q("en", E, "what do i do with the bull card", f"{E}#bull-cards"),
    q("en", E, "after taking a pile how many new piles", f"{E}#taking-a-pile"),
    q("en", None, "11 nimmt who starts", f"{E}#turn", f"{E}#at-a-glance"),
    q("en", None, "eleven takes how many points if I go out first", f"{E}#scoring"),
    q("en", None, "11 nimmt can I play several cards at once", f"{E}#bull-cards"),
    q("en", None, "11 nimmt what happens when the draw pile is empty",
      f"{E}#app-decides-short-draw-pile", f"{E}#app-decides-blocked", f"{E}#end"),
    # ------------------------------------------------------------ 13
    q("de", T, "darf die rote 4 auf gruen", f"{T}#red-fours"),
    q("de", T, "genau 13 muss ich dann nehmen", f"{T}#special-cases",
      f"{T}#app-decides-exactly-13", f"{T}#over-13"),
    q("de", T, "wer gibt als naechstes", f"{T}#end", f"{T}#at-a-glance"),
    q("de", T, "gelbe karte auf die blaue scheibe geht das", f"{T}#colours"),
    q("de", None, "13 wie viele minuspunkte hat ne rote vier", f"{T}#red-fours", f"{T}#scoring"),
    q("de", None, "dreizehn wer von einer farbe die meisten hat kriegt der minus",
      f"{T}#scoring"),
    q("de", None, "zielschiebe uber 13 welche karten nehm ich", f"{T}#over-13"),
    q("en", T, "how many cards in hand", f"{T}#setup", f"{T}#turn"),
    q("en", T, "tie for most yellow, who gets spared", f"{T}#scoring"),
    q("en", T, "do the cards left on the targets count at the end", f"{T}#end"),
    q("en", None, "13 card game who starts", f"{T}#at-a-glance", f"{T}#setup"),
    q("en", None, "dreizehn variant without fixed colours", f"{T}#variant-open-targets"),
    q("en", None, "in 13 when does the game end", f"{T}#end", f"{T}#at-a-glance"),
    q("en", None, "13: does the card that pushes it over stay on the target",
      f"{T}#over-13", f"{T}#special-cases"),
    # ------------------------------------------------------------ 6 nimmt!
    q("de", S, "was passiert wenn meine karte niedriger ist als alle reihen",
      f"{S}#rule-low-card"),
    q("de", S, "wie viele minuspunkte hat die 55", f"{S}#material"),
    q("de", S, "bis wie viel punkte spielt man", f"{S}#end", f"{S}#at-a-glance",
      f"{S}#overview"),
    q("de", S, "darf ich die 25 hinter die 24 legen wenn da schon 5 liegen",
      f"{S}#rule-sixth-card"),
    q("de", None, "6 nimmt kommen die genommenen karten auf die hand", f"{S}#taken-cards"),
    q("de", None, "sechs nimmt profi variante", f"{S}#variants"),
    q("de", None, "6 nimmt wie viele karten bekommt jeder", f"{S}#setup"),
    q("en", S, "what happens if my card is lower than all rows", f"{S}#rule-low-card"),
    q("en", S, "two players over 66 who wins", f"{S}#app-decides-end"),
    q("en", S, "how many rows are there", f"{S}#setup", f"{S}#overview"),
    q("en", None, "6 nimmt age", f"{S}#at-a-glance"),
    q("en", None, "6 nimmt can we play to 100 instead", f"{S}#variants"),
    q("en", None, "six nimmt how many bulheads on the 55", f"{S}#material"),
    q("en", None, "6 nimmt do I take my own card too", f"{S}#app-decides-played-card",
      f"{S}#special-cases", f"{S}#rule-sixth-card"),
)
