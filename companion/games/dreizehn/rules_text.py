"""Rules text: 13 (German and English, our own words)."""

from companion.games.rules_text import GameText, Section

DE = GameText(
    slug="dreizehn",
    title="13",
    summary=(
        "Karten auf drei Zielscheiben legen: wer die Summe über 13 treibt, "
        "muss alles darunter nehmen."
    ),
    key_rule=(
        "Steigt die Summe einer Zielscheibe über 13, nimmst du alle Karten dort, "
        "außer deiner eben gelegten. Genau 13 ist sicher."
    ),
    sections=(
        Section("overview", "Worum es geht", """
<p>Reihum legt jeder eine Karte auf eine der drei Zielscheiben (gelb, grün, blau). Wer
dabei die Summe einer Scheibe über 13 bringt, muss deren Karten nehmen. Am Ende eines
Durchgangs sind genommene Karten Minuspunkte &ndash; außer in der Farbe, in der du allein
die meisten hast. Die wenigsten Minuspunkte gewinnen.</p>
<p>3 bis 6 Spieler.</p>
"""),
        Section("at-a-glance", "Steckbrief", """
<ul>
<li><strong>Spielerzahl:</strong> 3 bis 6 Spieler, also zu dritt bis zu sechst.</li>
<li><strong>Alter:</strong> Unsere Quelle (eine Besprechung, nicht die Anleitung) nennt kein
    Mindestalter.</li>
<li><strong>Dauer:</strong> Unsere Quelle nennt keine Spieldauer; eine Partie hat so viele
    Durchgänge wie Spieler (zu dritt sechs).</li>
<li><strong>In der Schachtel:</strong> 50 Karten (gelbe, grüne und blaue Zahlenkarten und 8
    rote Vieren) und drei Zielscheiben.</li>
<li><strong>Wer beginnt:</strong> Der Spieler links vom Geber.</li>
<li><strong>Spielrichtung:</strong> Reihum im Uhrzeigersinn, die Richtung ist also nach links;
    auch der Geber wechselt im Uhrzeigersinn.</li>
<li><strong>Spielende:</strong> Ein Durchgang endet, wenn Stapel und Handkarten aufgebraucht
    sind; die Partie endet, wenn jeder einmal gegeben hat (zu dritt zweimal).</li>
<li><strong>Gewinner:</strong> Wer nach allen Durchgängen die wenigsten Minuspunkte hat,
    gewinnt; bei Gleichstand teilt man sich den Sieg.</li>
</ul>
"""),
        Section("material", "Material", """
<ul>
<li>50 Karten: gelbe, grüne und blaue Zahlenkarten (14 pro Farbe, mit den Werten 1, 2, 5
und 7) und 8 rote Vieren, die „fiesen Vieren“.</li>
<li>Drei Zielscheiben: gelb, grün, blau.</li>
</ul>
"""),
        Section("setup", "Aufbau (jeder Durchgang)", """
<ol>
<li>Jeder bekommt 5 Handkarten; der Rest ist der verdeckte Nachziehstapel.</li>
<li>Die drei Zielscheiben liegen um den Stapel herum.</li>
<li>Links vom Geber wird begonnen.</li>
</ol>
"""),
        Section("turn", "Ein Zug", """
<ol>
<li>Lege eine Handkarte auf eine Zielscheibe.</li>
<li>Prüfe die Summe dieser Zielscheibe (siehe „Über 13“).</li>
<li>Ziehe wieder auf 5 Handkarten nach, solange der Stapel reicht.</li>
</ol>
"""),
        Section("colours", "Welche Karte auf welche Scheibe?", """
<p>Eine farbige Karte darf nur auf die Zielscheibe ihrer Farbe: gelb auf gelb, grün auf
grün, blau auf blau.</p>
""", level=3),
        Section("red-fours", "Die fiesen roten Vieren", """
<p>Eine rote 4 darf auf <strong>jede</strong> Zielscheibe. Dafür kostet sie am Ende immer
2 Minuspunkte.</p>
""", level=3),
        Section("over-13", "Über 13: Karten nehmen", """
<p>Ist die Summe aller Karten auf der Scheibe nach deiner Karte <strong>größer als
13</strong>, nimmst du alle Karten, die vorher dort lagen, verdeckt zu dir. Deine eben
gelegte Karte bleibt als einzige Karte liegen.</p>
<p><em>Beispiel:</em> Auf Gelb liegen zusammen 12. Du legst eine gelbe 2: 14 ist über 13.
Du nimmst die Karten, die dort lagen; deine gelbe 2 bleibt liegen.</p>
""", level=3),
        Section("end", "Ende eines Durchgangs", """
<p>Ein Durchgang endet, wenn der Nachziehstapel leer ist und alle Handkarten gespielt sind.
Karten, die noch auf den Zielscheiben liegen, zählen nicht.</p>
<p>Das Spiel hat so viele Durchgänge wie Spieler, zu dritt sechs: jeder gibt einmal, zu dritt
zweimal. Dann ist es zu Ende. Der Geber wechselt im Uhrzeigersinn.</p>
"""),
        Section("scoring", "Wertung", """
<p>Jeder zählt seine genommenen Karten pro Farbe (gelb, grün, blau):</p>
<ul>
<li>Wer in einer Farbe <strong>allein</strong> die meisten Karten hat, bekommt dafür 0.
Bei Gleichstand um die meisten wird niemand verschont: alle zählen.</li>
<li>Jede andere farbige Karte: 1 Minuspunkt.</li>
<li>Jede rote 4: 2 Minuspunkte, immer &ndash; für Rot gibt es keine Mehrheit.</li>
</ul>
<p>Nach allen Durchgängen gewinnt die kleinste Summe; bei Gleichstand teilt man sich den Sieg.</p>
"""),
        Section("special-cases", "Sonderfälle", """
<ul>
<li>Genau 13 ist erlaubt; erst 14 und mehr lösen das Nehmen aus.</li>
<li>Auch eine rote 4 kann die Summe über 13 treiben &ndash; dann bleibt sie allein liegen.</li>
</ul>
"""),
        Section("app-decides", "So entscheidet die App", """
<p>Wo die Quelle nichts sagt, legt die App eine Lesart fest:</p>
""", decision=True),
        Section("app-decides-exactly-13", "„Über 13“ heißt größer als 13", """
<p>Eine Summe von genau 13 ist sicher; genommen wird erst ab 14.</p>
""", level=3, decision=True),
        Section("variant-open-targets", "Variante: Farbe durch die erste Karte", """
<p>Auf Wunsch spielt die App die Variante aus dem Amigo-Schachteltext: Die Zielscheiben
haben keine feste Farbe. Die erste farbige Karte auf einer leeren Scheibe legt deren Farbe
für den Durchgang fest, und jede Farbe darf nur auf einer Scheibe liegen. Ohne Schalter
gilt die feste Farbe.</p>
""", level=3, decision=True),
        Section("app-decides-recording", "Notieren", """
<p>Pro Durchgang und Spieler die genommenen Karten pro Farbe und die Zahl der roten Vieren.
Die Mehrheiten rechnet die App. Höchstens 14 pro Farbe und 8 rote Vieren über alle Spieler.</p>
""", level=3, decision=True),
    ),
)

EN = GameText(
    slug="dreizehn",
    title="13",
    summary=(
        "Put cards on three targets: whoever pushes a target's total over 13 must take "
        "everything below."
    ),
    key_rule=(
        "If a target's total goes over 13, take every card there except the one you just "
        "played. Exactly 13 is safe."
    ),
    sections=(
        Section("overview", "What it is about", """
<p>In turn, everyone puts a card on one of three targets (yellow, green, blue). Whoever
pushes a target's total over 13 must take its cards. At the end of a deal, taken cards are
minus points &ndash; except in the colour where you alone have the most. The fewest minus
points win.</p>
<p>3 to 6 players.</p>
"""),
        Section("at-a-glance", "At a glance (Steckbrief)", """
<ul>
<li><strong>Number of players:</strong> 3 to 6 players.</li>
<li><strong>Age:</strong> Our source (a review, not the rulebook) gives no minimum age.</li>
<li><strong>Playing time:</strong> Our source gives no playing time; a game has as many deals
    as players (six with three players).</li>
<li><strong>In the box:</strong> 50 cards (yellow, green and blue number cards and 8 red 4s)
    and three targets.</li>
<li><strong>Who starts:</strong> The player to the dealer's left.</li>
<li><strong>Direction of play:</strong> Clockwise, that is to the left; the dealer moves on
    clockwise too.</li>
<li><strong>End of the game:</strong> A deal ends when the draw pile and the hand cards are
    used up; the game ends when everybody has dealt once (twice with three players).</li>
<li><strong>Winner:</strong> The fewest minus points after all deals win; a tie shares the
    win.</li>
</ul>
"""),
        Section("material", "Components", """
<ul>
<li>50 cards: yellow, green and blue number cards (14 per colour, with the values 1, 2, 5
and 7) and 8 red 4s, the “fiese Vieren” (nasty fours).</li>
<li>Three targets: yellow, green, blue.</li>
</ul>
"""),
        Section("setup", "Setup (each deal)", """
<ol>
<li>Everyone gets 5 hand cards; the rest is the face-down draw pile.</li>
<li>The three targets lie around the pile.</li>
<li>The player left of the dealer starts.</li>
</ol>
"""),
        Section("turn", "A turn", """
<ol>
<li>Put one hand card on one target.</li>
<li>Check that target's total (see “Over 13”).</li>
<li>Draw back up to 5 hand cards while the pile lasts.</li>
</ol>
"""),
        Section("colours", "Which card on which target?", """
<p>A coloured card may only go on the target of its colour: yellow on yellow, green on
green, blue on blue.</p>
""", level=3),
        Section("red-fours", "The nasty red 4s", """
<p>A red 4 may go on <strong>any</strong> target. In return it always costs 2 minus points
at the end.</p>
""", level=3),
        Section("over-13", "Over 13: taking cards", """
<p>If the total of all cards on the target is <strong>greater than 13</strong> after your
card, take all the cards that were there before, face down. The card you just played stays
as the target's only card.</p>
<p><em>Example:</em> the yellow cards total 12. You play a yellow 2: 14 is over 13. You take
the cards that were there; your yellow 2 stays.</p>
""", level=3),
        Section("end", "End of a deal", """
<p>A deal ends when the draw pile is used up and all hand cards have been played. Cards
still lying on the targets do not count.</p>
<p>A game has as many deals as there are players, six with three players: everyone deals
once, with three players twice. Then it is over. The deal passes clockwise.</p>
"""),
        Section("scoring", "Scoring", """
<p>Everyone counts their taken cards per colour (yellow, green, blue):</p>
<ul>
<li>Whoever <strong>alone</strong> has the most cards of a colour scores 0 for it. On a tie
for the most, nobody is spared: everyone counts.</li>
<li>Every other coloured card: 1 minus point.</li>
<li>Every red 4: 2 minus points, always &ndash; there is no majority for red.</li>
</ul>
<p>After all deals the lowest total wins; a tie shares the win.</p>
"""),
        Section("special-cases", "Special cases", """
<ul>
<li>Exactly 13 is allowed; only 14 or more makes you take cards.</li>
<li>A red 4 can push the total over 13 too &ndash; then it stays there alone.</li>
</ul>
"""),
        Section("app-decides", "How the app decides", """
<p>Where the source says nothing, the app fixes one reading:</p>
""", decision=True),
        Section("app-decides-exactly-13", "“Over 13” means greater than 13", """
<p>A total of exactly 13 is safe; cards are taken from 14 on.</p>
""", level=3, decision=True),
        Section("variant-open-targets", "Variant: colour set by the first card", """
<p>On request the app plays the variant from the Amigo box text: the targets have no fixed
colour. The first coloured card on an empty target fixes its colour for the deal, and each
colour may be on only one target. Without the switch, fixed colours apply.</p>
""", level=3, decision=True),
        Section("app-decides-recording", "Recording", """
<p>Per deal and player, the taken cards per colour and the number of red 4s. The app works
out the majorities. At most 14 per colour and 8 red 4s across all players.</p>
""", level=3, decision=True),
    ),
)
