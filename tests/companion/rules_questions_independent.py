# ruff: noqa: E501 (questions are quoted whole, as they were written)
"""An independent set of rules questions, written after the work on issue 27 by a helper
that saw only the rules pages as text (bench/rules_pages_text.py) and the rulebooks, never
the search: 80 questions, German and English, half asked from a game's sheet.

Measured once, untuned: 68 of 80 first (85 %), 77 of 80 in the top three (96 %), and no
question asked from a sheet answered first with another game's section.
Used by ``tests/companion/test_rules_search_independent.py``."""

from __future__ import annotations

QUESTIONS: list[tuple[str, str | None, str, tuple[str, ...]]] = [
    # (language "de"/"en", sheet slug or None, question text, (answers, best first))
    # ---------------- 3 sind einer zuviel! ----------------
    (
        "de",
        "drei-sind-einer-zuviel",
        "wer muss anfangen, der älteste?",
        ("drei-sind-einer-zuviel#turn", "drei-sind-einer-zuviel#at-a-glance"),
    ),
    (
        "de",
        "drei-sind-einer-zuviel",
        "hab grad die dritte rote gekriegt, muss ich jetzt echt alle drei umdrehn??",
        ("drei-sind-einer-zuviel#third-card",),
    ),
    (
        "de",
        "drei-sind-einer-zuviel",
        "was geben zwei karten von ner farbe nochmal, 2 oder 5 punkte",
        ("drei-sind-einer-zuviel#scoring",),
    ),
    (
        "de",
        "drei-sind-einer-zuviel",
        "ich hab die 45 abgeräumt, welche farbe hat die eigentlich, die ist so grau",
        ("drei-sind-einer-zuviel#grey-cards", "drei-sind-einer-zuviel#material"),
    ),
    (
        "de",
        None,
        "3 sind einer zuviel: zieht man nach jedem zug ne karte nach oder wie läuft das",
        ("drei-sind-einer-zuviel#turn",),
    ),
    (
        "de",
        None,
        "dreisind, ich leg die fünfte karte in die reihe und meine is die höchste – welche muss ich nehmen",
        ("drei-sind-einer-zuviel#fifth-card-highest", "drei-sind-einer-zuviel#fifth-card"),
    ),
    (
        "de",
        None,
        "bei 3 sind einer zuviel was ist diese zwischenwertung und kann man die zweimal bekommen wenn man wieder alle 7 farben offen hat",
        ("drei-sind-einer-zuviel#interim-bonus", "drei-sind-einer-zuviel#special-cases"),
    ),
    (
        "de",
        None,
        "Wann is 3 sind einer zu viel eigentlich vorbei und was mach ich mit den letzten 2 handkarten",
        ("drei-sind-einer-zuviel#end", "drei-sind-einer-zuviel#at-a-glance"),
    ),
    (
        "en",
        "drei-sind-einer-zuviel",
        "my card slots in the middle of the row, not at the end. do i still just take the lowest one?",
        ("drei-sind-einer-zuviel#fifth-card-lower", "drei-sind-einer-zuviel#fifth-card"),
    ),
    (
        "en",
        "drei-sind-einer-zuviel",
        "got a 4th orange after i already flipped 3, face up or down?",
        ("drei-sind-einer-zuviel#third-card", "drei-sind-einer-zuviel#special-cases"),
    ),
    (
        "en",
        "drei-sind-einer-zuviel",
        "how much is the endwertung bonus for six colours",
        ("drei-sind-einer-zuviel#final-bonus", "drei-sind-einer-zuviel#scoring"),
    ),
    (
        "en",
        "drei-sind-einer-zuviel",
        "can the 0 30 or 60 ever get taken out of the row",
        ("drei-sind-einer-zuviel#special-cases", "drei-sind-einer-zuviel#setup"),
    ),
    (
        "en",
        None,
        "3 sind einer zuviel how many players max",
        ("drei-sind-einer-zuviel#at-a-glance", "drei-sind-einer-zuviel#overview"),
    ),
    (
        "en",
        None,
        "drei sind einer zu viel - where does the 52 go, which row??",
        ("drei-sind-einer-zuviel#row-by-number", "drei-sind-einer-zuviel#ascending-order"),
    ),
    (
        "en",
        None,
        "whats actually in the box for 3 sind einer zuviel, how many cards total",
        ("drei-sind-einer-zuviel#material", "drei-sind-einer-zuviel#at-a-glance"),
    ),
    (
        "en",
        None,
        "someone took the grey 15 out of a row, does it count as a colour or what",
        ("drei-sind-einer-zuviel#grey-cards",),
    ),
    # ---------------- X nimmt! ----------------
    ("de", "x-nimmt", "wie viel minus sind die karten auf dem x stapel", ("x-nimmt#scoring",)),
    (
        "de",
        "x-nimmt",
        "meine karte is kleiner als alle reihen, was mach ich jetz",
        ("x-nimmt#rule-low-card",),
    ),
    (
        "de",
        "x-nimmt",
        "ich hab 3 karten kassiert, kommen die alle auf die hand oder in die x reihe",
        ("x-nimmt#taken-cards",),
    ),
    ("de", "x-nimmt", "wieviele hornochsen hat die 55 nochmal", ("x-nimmt#material",)),
    (
        "de",
        None,
        "X nimmt: wer fängt an? oder legen alle gleichzeitig wie bei 6 nimmt",
        ("x-nimmt#at-a-glance", "x-nimmt#turn"),
    ),
    (
        "de",
        None,
        "bei x nimmt, mit der wievielten karte ist die 4er reihe voll",
        ("x-nimmt#rule-full-row",),
    ),
    (
        "de",
        None,
        "x nimmt wie viele durchgänge spielt man bis einer gewonnen hat",
        ("x-nimmt#end", "x-nimmt#at-a-glance"),
    ),
    (
        "de",
        None,
        "xnimmt – hab meine letzte karte gespielt aber damit ne reihe kassiert und die karten auf die hand genommen, is der durchgang jetzt vorbei oder spiel ich weiter?",
        ("x-nimmt#end",),
    ),
    (
        "en",
        "x-nimmt",
        "do the cards in my x row cost anything at the end",
        ("x-nimmt#scoring", "x-nimmt#x-row"),
    ),
    (
        "en",
        "x-nimmt",
        "when i take a row does my own card go with it like in 6 nimmt?",
        ("x-nimmt#app-decides-played-card", "x-nimmt#rule-full-row"),
    ),
    (
        "en",
        "x-nimmt",
        "two rows are both lower than my card, which one does it go in",
        ("x-nimmt#rule-lowest-difference",),
    ),
    (
        "en",
        "x-nimmt",
        "i picked up a card thats lower than the last one in my x-reihe, what happens now",
        ("x-nimmt#x-row",),
    ),
    ("en", None, "x nimmt how long does it take and from what age", ("x-nimmt#at-a-glance",)),
    (
        "en",
        None,
        "X nimmt: two players have to choose something in the same round, who goes first with the decision?",
        ("x-nimmt#app-decides-order",),
    ),
    ("en", None, "how many cards does everyone get in x nimmt", ("x-nimmt#setup",)),
    (
        "en",
        None,
        "x nimmt - can i play the cards i just took into my hand in the same round",
        ("x-nimmt#taken-cards",),
    ),
    # ---------------- Freaky ----------------
    ("de", "freaky", "wie viele karten darf ich pro zug legen", ("freaky#turn",)),
    (
        "de",
        "freaky",
        "müssen die 4 gleichen nebeneinander liegen damit ich die reihe nehmen darf?",
        ("freaky#special-cases", "freaky#collecting"),
    ),
    (
        "de",
        "freaky",
        "darf ich einfach ne neue reihe aufmachen obwohl meine karte eigentlich passt",
        ("freaky#new-row",),
    ),
    (
        "de",
        "freaky",
        "zählen die handkarten am schluss mit oder nur die kassierten",
        ("freaky#scoring", "freaky#end"),
    ),
    ("de", None, "freaky wann ist das spiel aus", ("freaky#end", "freaky#at-a-glance")),
    (
        "de",
        None,
        "Freaky: reicht es zum anlegen wenn nur die zahl gleich ist oder muss die farbe auch passen?",
        ("freaky#joining-a-row",),
    ),
    (
        "de",
        None,
        "bei freaky hab ich vergessen die reihe zu kassieren, darf ich das im nächsten zug nachholen",
        ("freaky#app-decides-missed-row", "freaky#collecting"),
    ),
    (
        "de",
        None,
        "freaky ab wie vielen spielern und wie lang dauert ne runde ca",
        ("freaky#at-a-glance",),
    ),
    (
        "en",
        "freaky",
        "do i draw after every card or only at the end of my turn",
        ("freaky#drawing", "freaky#turn"),
    ),
    ("en", "freaky", "can i collect 2 rows in one go", ("freaky#collecting",)),
    (
        "en",
        "freaky",
        "every row got collected and the table is empty, where does my card go now",
        ("freaky#app-decides-empty-table",),
    ),
    (
        "en",
        "freaky",
        "when laying a card does it only matter what the last card of the row is or all of them",
        ("freaky#special-cases", "freaky#joining-a-row"),
    ),
    ("en", None, "freaky how many cards each at the start", ("freaky#setup",)),
    ("en", None, "who goes first in freaky", ("freaky#turn", "freaky#at-a-glance")),
    (
        "en",
        None,
        "freaky whats in the box, how many cards is it",
        ("freaky#material", "freaky#at-a-glance"),
    ),
    (
        "en",
        None,
        "how do u win freaky and what if its a tie",
        ("freaky#scoring", "freaky#overview"),
    ),
    # ---------------- 11 nimmt! ----------------
    ("de", "elf-nimmt", "darf ich die 3 auf die 97 legen?", ("elf-nimmt#rule-wrap-around",)),
    (
        "de",
        "elf-nimmt",
        "ab wieviel karten im stapel krieg ich ne bullenkarte",
        ("elf-nimmt#bull-card-gain", "elf-nimmt#special-cases"),
    ),
    (
        "de",
        "elf-nimmt",
        "wer fängt die nächste runde an",
        ("elf-nimmt#end", "elf-nimmt#app-decides-next-starter", "elf-nimmt#at-a-glance"),
    ),
    (
        "de",
        "elf-nimmt",
        "bullenkarten sind alle weg, was nu wenn ich nen großen stapel nehm",
        ("elf-nimmt#bull-card-steal", "elf-nimmt#app-decides-stealing"),
    ),
    (
        "de",
        None,
        "11 nimmt wie viele durchgänge spielen wir zu viert",
        ("elf-nimmt#end", "elf-nimmt#at-a-glance"),
    ),
    (
        "de",
        None,
        "elf nimmt: darf ich nen stapel nehmen obwohl ich eine passende karte hätte?",
        ("elf-nimmt#turn",),
    ),
    (
        "de",
        None,
        "bei 11 nimmt, darf man vorher nachgucken wie viele karten in dem stapel sind bevor man ihn nimmt",
        ("elf-nimmt#taking-a-pile",),
    ),
    (
        "de",
        None,
        "11 nimmt – ist die bullenkarte nach dem benutzen weg oder behalt ich die",
        ("elf-nimmt#app-decides-bull-cards-kept",),
    ),
    ("en", "elf-nimmt", "what does the guy who went out score", ("elf-nimmt#scoring",)),
    (
        "en",
        "elf-nimmt",
        "with a bull card can i dump cards on two different piles",
        ("elf-nimmt#bull-cards",),
    ),
    (
        "en",
        "elf-nimmt",
        "i took a pile, how many new piles get flipped",
        ("elf-nimmt#taking-a-pile", "elf-nimmt#app-decides-short-draw-pile"),
    ),
    (
        "en",
        "elf-nimmt",
        "draw pile is empty and somebody just took the last pile, nothing left on the table, what now",
        ("elf-nimmt#app-decides-blocked", "elf-nimmt#end"),
    ),
    (
        "en",
        None,
        "11 nimmt max number of players?",
        ("elf-nimmt#at-a-glance", "elf-nimmt#overview"),
    ),
    ("en", None, "eleven nimmt how many cards dealt each", ("elf-nimmt#setup",)),
    (
        "en",
        None,
        "11 nimmt: supply's empty and i already have the most bull cards, do i steal one from someone?",
        ("elf-nimmt#app-decides-stealing", "elf-nimmt#bull-card-steal"),
    ),
    (
        "en",
        None,
        "in 11 nimmt the top is 95 and i wanna lay 96 and 3 with my bull, which one goes on top",
        ("elf-nimmt#app-decides-wrap-order", "elf-nimmt#bull-cards"),
    ),
    # ---------------- 13 ----------------
    (
        "de",
        "dreizehn",
        "wer beginnt, der geber oder der links davon",
        ("dreizehn#setup", "dreizehn#at-a-glance"),
    ),
    (
        "de",
        "dreizehn",
        "bei genau 13 muss ich nehmen oder nich?",
        ("dreizehn#special-cases", "dreizehn#app-decides-exactly-13"),
    ),
    (
        "de",
        "dreizehn",
        "ich hab die meisten grünen aber lukas hat genauso viele, bin ich dann verschont?",
        ("dreizehn#scoring",),
    ),
    (
        "de",
        "dreizehn",
        "wieviel minuspunkte gibt eine rote vier",
        ("dreizehn#red-fours", "dreizehn#scoring"),
    ),
    ("de", None, "13er: darf ich ne blaue karte auf gelb legen?", ("dreizehn#colours",)),
    (
        "de",
        None,
        "beim 13 kartenspiel wie viele runden spielen wir zu dritt",
        ("dreizehn#end", "dreizehn#at-a-glance"),
    ),
    ("de", None, "dreizehn geht das auch zu zweit?", ("dreizehn#at-a-glance", "dreizehn#overview")),
    ("de", None, "die fiesen vieren, wo darf man die hinlegen", ("dreizehn#red-fours",)),
    ("en", "dreizehn", "when i push it over 13 do i take my own card too", ("dreizehn#over-13",)),
    (
        "en",
        "dreizehn",
        "do the cards still lying on the targets count at the end of the round",
        ("dreizehn#end",),
    ),
    (
        "en",
        "dreizehn",
        "can a red 4 make a pile go over 13",
        ("dreizehn#special-cases", "dreizehn#red-fours"),
    ),
    (
        "en",
        "dreizehn",
        "how many cards in hand, and do we refill after each turn",
        ("dreizehn#turn", "dreizehn#setup"),
    ),
    (
        "en",
        None,
        "13 card game by amigo - what's in the box",
        ("dreizehn#material", "dreizehn#at-a-glance"),
    ),
    (
        "en",
        None,
        "in 13 is there a variant where the targets don't have a fixed colour",
        ("dreizehn#variant-open-targets",),
    ),
    (
        "en",
        None,
        "13: if i have the most red fours do they still count against me",
        ("dreizehn#scoring", "dreizehn#red-fours"),
    ),
    ("en", None, "the 13 game, how long is it and what age is it for", ("dreizehn#at-a-glance",)),
]
