"""Rules text: 3 sind einer zuviel! (German and English, our own words)."""

from companion.games.rules_text import GameText, Section

DE = GameText(
    slug="drei-sind-einer-zuviel",
    title="3 sind einer zuviel!",
    summary=(
        "Karten aus drei Zahlenreihen sammeln: zwei einer Farbe sind ideal, "
        "die dritte macht alles kaputt."
    ),
    key_rule=(
        "Die dritte Karte einer Farbe dreht alle drei Karten dieser Farbe um: "
        "jede umgedrehte Karte zählt am Ende −1."
    ),
    sections=(
        Section("overview", "Worum es geht", """
<p>Ihr legt reihum eine Handkarte in eine von drei Zahlenreihen. Wer dabei eine Reihe
überfüllt, muss Karten aus ihr nehmen und vor sich nach Farben sortieren. Eine Karte
einer Farbe bringt 1 Punkt, zwei bringen 5 Punkte &ndash; aber wer die dritte Karte einer
Farbe bekommt, macht aus Pluspunkten Minuspunkte. Am Ende gewinnt, wer die meisten
Punkte hat; bei Gleichstand gibt es mehrere Sieger.</p>
<p>2 bis 4 Spieler.</p>
"""),
        Section("at-a-glance", "Steckbrief", """
<ul>
<li><strong>Spielerzahl:</strong> 2 bis 4 Spieler, also zu zweit bis zu viert.</li>
<li><strong>Alter:</strong> Unsere Anleitung nennt kein Mindestalter.</li>
<li><strong>Dauer:</strong> Unsere Anleitung nennt keine Spieldauer; gespielt wird, bis alle
    Nachziehstapel aufgebraucht sind.</li>
<li><strong>In der Schachtel:</strong> 90 Zahlenkarten (0 bis 89, darunter die Startkarten 0,
    30 und 60 und die grauen 15, 45 und 75), 4 Karten „Zwischenwertung“ und 4 Karten
    „Endwertung“.</li>
<li><strong>Wer beginnt:</strong> Der jüngste Spieler.</li>
<li><strong>Spielrichtung:</strong> Reihum im Uhrzeigersinn, die Richtung ist also nach links.</li>
<li><strong>Spielende:</strong> Das Spiel endet, wenn alle ihren Nachziehstapel aufgebraucht
    haben und nur noch zwei Handkarten halten; diese zwei zählen nicht.</li>
<li><strong>Gewinner:</strong> Wer die meisten Punkte hat (Sammlung plus Bonuskarten) gewinnt;
    bei Gleichstand gibt es mehrere Gewinner.</li>
</ul>
"""),
        Section("material", "Material", """
<ul>
<li>90 Zahlenkarten von 0 bis 89:
  <ul>
  <li>die schwarzen Startkarten 0, 30 und 60,</li>
  <li>die grauen Karten 15, 45 und 75, die zu keiner Farbe gehören,</li>
  <li>84 farbige Karten, je 12 in sieben Farben (Orange, Flieder, Hellblau, Rot,
      Türkis, Magenta, Olivgrün). Welche Zahl welche Farbe hat, steht nur auf der
      Karte &ndash; die App fragt deshalb immer nach der Farbe.</li>
  </ul></li>
<li>4 Karten „Zwischenwertung“ mit 10, 7, 5 und 3 Punkten.</li>
<li>4 Karten „Endwertung“, beidseitig: 10 Punkte (sieben Farben) oder 5 Punkte
    (sechs Farben).</li>
</ul>
"""),
        Section("setup", "Aufbau", """
<ol>
<li>Die Startkarten 0, 30 und 60 liegen untereinander in der Mitte: sie beginnen
    Reihe 1, 2 und 3 und bleiben das ganze Spiel liegen.</li>
<li>Drei zufällige Zahlenkarten werden nach den Legeregeln angelegt.</li>
<li>Jeder bekommt 20 verdeckte Karten als eigenen Nachziehstapel und zieht davon 8 auf
    die Hand. Übrige Karten kommen in die Schachtel.</li>
<li>Die Zwischenwertungs-Karten liegen als Stapel bereit, die 10 oben, dann 7, 5, 3.
    Die Endwertungs-Karten liegen zur Seite.</li>
</ol>
"""),
        Section("turn", "Ein Zug", """
<p>Der jüngste Spieler fängt an, dann geht es im Uhrzeigersinn. Wer dran ist, legt
<strong>genau eine</strong> Handkarte in die Auslage und nimmt, falls die Reihe dadurch
überfüllt ist, Karten aus dieser Reihe. Nach dem Zug wird nicht nachgezogen.</p>
<p>Erst wenn du nur noch 2 Handkarten hast, ziehst du 6 Karten von deinem Stapel nach.
Das passiert zweimal, dann ist dein Stapel leer. Jeder spielt so 18 Karten aus.</p>
"""),
        Section("placement", "Legeregeln", """
<p>Für jede Karte gibt es genau eine Stelle. Wählen musst du nur, welche Karte du
spielst &ndash; nicht, wohin sie kommt.</p>
"""),
        Section("row-by-number", "Welche Reihe?", """
<p>Die Zahl bestimmt die Reihe: 1&ndash;29 in Reihe 1 (hinter der 0), 31&ndash;59 in
Reihe 2 (hinter der 30), 61&ndash;89 in Reihe 3 (hinter der 60).</p>
""", level=3),
        Section("ascending-order", "Aufsteigend sortiert", """
<p>In jeder Reihe liegen die Karten von links nach rechts aufsteigend. Gehört deine
Karte zwischen zwei liegende Karten, schiebst du sie dazwischen; die höheren rücken
eine Stelle nach rechts.</p>
<p><em>Beispiel:</em> Reihe 2 ist 30 | 46 57. Die 40 kommt zwischen 30 und 46: 30 | 40 46 57.</p>
""", level=3),
        Section("fifth-card", "Die fünfte Karte in einer Reihe", """
<p>Eine Reihe verträgt die Startkarte und höchstens drei Zahlenkarten. Wer die
<strong>fünfte Karte</strong> (Startkarte mitgezählt) in eine Reihe legt, muss Karten
daraus nehmen. Welche, hängt davon ab, ob seine Karte die höchste der Reihe ist.</p>
""", level=3),
        Section("fifth-card-highest", "a) Deine Karte ist die höchste", """
<p>Du nimmst nur die niedrigste Zahlenkarte, also die direkt rechts neben der
Startkarte. Die übrigen rücken nach links an die Startkarte.</p>
<p><em>Beispiel:</em> 0 | 10 19 24, du legst die 28. Du nimmst die 10; die Reihe ist
danach 0 | 19 24 28.</p>
""", level=3),
        Section("fifth-card-lower", "b) Deine Karte ist nicht die höchste", """
<p>Du nimmst alle Karten der Reihe, die höher sind als deine &ndash; eine, zwei oder
drei Stück. Deine Karte bleibt liegen.</p>
<p><em>Beispiel:</em> 30 | 40 46 57, du legst die 37. Du nimmst 40, 46 und 57; übrig
bleibt 30 | 37.</p>
""", level=3),
        Section("collection", "Deine Sammlung", """
<p>Genommene Karten legst du nach Farben getrennt offen vor dir aus. Die Zahlen spielen
ab jetzt keine Rolle mehr, nur die Farben.</p>
"""),
        Section("third-card", "Die dritte Karte einer Farbe", """
<p>Die erste und die zweite Karte einer Farbe liegen offen. Bekommst du die
<strong>dritte Karte einer Farbe</strong>, drehst du sie zusammen mit den beiden
anderen um: jede umgedrehte Karte kostet am Ende 1 Punkt. Die vierte Karte dieser
Farbe zählt wieder wie eine erste, die sechste wird wieder zur dritten und so weiter.</p>
<p>Kurz: bei <em>n</em> Karten einer Farbe liegen <em>n</em> mod 3 offen, der Rest ist
umgedreht.</p>
""", level=3),
        Section("grey-cards", "Graue Karten 15, 45, 75", """
<p>Die grauen Karten haben keine Farbe. Nimmst du eine, kommt sie sofort in die
Schachtel und zählt für nichts.</p>
""", level=3),
        Section("interim-bonus", "Zwischenwertung", """
<p>Liegen nach deinem eigenen Zug alle sieben Farben offen vor dir, nimmst du die
oberste Zwischenwertungs-Karte (erst 10, dann 7, 5, 3 Punkte). Jeder bekommt diesen
Bonus höchstens einmal.</p>
""", level=3),
        Section("end", "Spielende", """
<p>Das Spiel endet, wenn alle ihren Nachziehstapel aufgebraucht haben und nur noch
2 Karten auf der Hand halten. Diese beiden Karten werden nicht gewertet.</p>
"""),
        Section("final-bonus", "Endwertung", """
<p>Wer am Ende sechs Farben offen liegen hat, bekommt 5 Punkte, wer alle sieben hat,
10 Punkte.</p>
""", level=3),
        Section("scoring", "Wertung", """
<p>Jede Farbe wird für sich gezählt:</p>
<ul>
<li>1 offene Karte: 1 Punkt</li>
<li>2 offene Karten: 5 Punkte</li>
<li>jede umgedrehte Karte: −1 Punkt</li>
</ul>
<p>Dazu kommen Zwischen- und Endwertung. Die höchste Summe gewinnt.</p>
<p><em>Beispiel:</em> vier Farben mit je 1 offenen Karte (4), zwei Farben mit je 2 offenen
Karten (10), sechs umgedrehte Karten (−6), Zwischenwertung 7, Endwertung 5 für sechs
offene Farben: 20 Punkte.</p>
"""),
        Section("special-cases", "Sonderfälle", """
<ul>
<li>Die Startkarten 0, 30 und 60 werden nie genommen und nie verschoben.</li>
<li>Die vierte Karte einer Farbe liegt wieder offen &ndash; eine umgedrehte Dreiergruppe
bleibt aber umgedreht.</li>
<li>Nur wer spielt, nimmt Karten. Eine Zwischenwertung kann man deshalb nur im eigenen
Zug erreichen.</li>
</ul>
"""),
        Section("app-decides", "So entscheidet die App", """
<p>Wo die Anleitung nichts sagt, legt die App eine Lesart fest:</p>
""", decision=True),
        Section("app-decides-recording", "Live oder am Ende notieren", """
<p>Du kannst live mitschreiben (Farbe jeder genommenen Karte antippen) oder am Ende pro
Farbe eintragen: entweder wie viele Karten du insgesamt genommen hast, oder wie viele offen
liegen (0 bis 2) und wie viele umgedreht sind (3, 6, 9 oder 12). Alle Wege ergeben dieselbe
Punktzahl; im Live-Modus vergibt die App die Zwischenwertung in der richtigen Reihenfolge
selbst.</p>
""", level=3, decision=True),
        Section("app-decides-limits", "Was die App prüft", """
<p>Höchstens 12 Karten einer Farbe über alle Spieler, höchstens 84 farbige Karten
insgesamt; umgedrehte Karten pro Spieler nur in Dreiergruppen; jede Zwischenwertung
nur einmal und in der Reihenfolge 10, 7, 5, 3.</p>
""", level=3, decision=True),
    ),
)

EN = GameText(
    slug="drei-sind-einer-zuviel",
    title="3 sind einer zuviel!",
    summary=(
        "Collect cards from three number rows: two of a colour are ideal, "
        "the third spoils everything."
    ),
    key_rule=(
        "The third card of a colour turns all three cards of that colour face down: "
        "each face-down card is −1 at the end."
    ),
    sections=(
        Section("overview", "What it is about", """
<p>In turn, you add one hand card to one of three number rows. Overfill a row and you
must take cards out of it and sort them by colour in front of you. One card of a colour
is worth 1 point, two are worth 5 &ndash; but whoever gets the third card of a colour
turns plus points into minus points. Most points wins; a tie has several winners.</p>
<p>2 to 4 players.</p>
"""),
        Section("at-a-glance", "At a glance (Steckbrief)", """
<ul>
<li><strong>Number of players:</strong> 2 to 4 players.</li>
<li><strong>Age:</strong> Our rulebook gives no minimum age.</li>
<li><strong>Playing time:</strong> Our rulebook gives no playing time; you play until every
    draw pile is used up.</li>
<li><strong>In the box:</strong> 90 number cards (0 to 89, among them the start cards 0, 30 and
    60 and the grey 15, 45 and 75), 4 “Zwischenwertung” (interim bonus) cards and 4
    “Endwertung” (final bonus) cards.</li>
<li><strong>Who starts:</strong> The youngest player.</li>
<li><strong>Direction of play:</strong> Clockwise, that is to the left, in turn.</li>
<li><strong>End of the game:</strong> The game ends when everybody has used up their draw pile
    and holds only two hand cards; those two do not count.</li>
<li><strong>Winner:</strong> The most points (collection plus bonus cards) win; on a tie there
    are several winners.</li>
</ul>
"""),
        Section("material", "Components", """
<ul>
<li>90 number cards from 0 to 89:
  <ul>
  <li>the black start cards 0, 30 and 60,</li>
  <li>the grey cards 15, 45 and 75, which belong to no colour,</li>
  <li>84 coloured cards, 12 in each of seven colours (orange, lilac, light blue, red,
      turquoise, magenta, olive). Which number has which colour is printed on the card
      only &ndash; so the app always asks for the colour.</li>
  </ul></li>
<li>4 “Zwischenwertung” (interim bonus) cards worth 10, 7, 5 and 3 points.</li>
<li>4 “Endwertung” (final bonus) cards, double-sided: 10 points (seven colours) or
    5 points (six colours).</li>
</ul>
"""),
        Section("setup", "Setup", """
<ol>
<li>The start cards 0, 30 and 60 lie one below the other in the middle: they head rows
    1, 2 and 3 and stay there all game.</li>
<li>Three random number cards are added following the placement rules.</li>
<li>Everybody gets 20 face-down cards as their own draw pile and draws 8 of them. Any
    cards left over go back into the box.</li>
<li>The interim bonus cards form a stack with the 10 on top, then 7, 5, 3. The final
    bonus cards are put aside.</li>
</ol>
"""),
        Section("turn", "A turn", """
<p>The youngest player starts, then play goes clockwise. On your turn you add
<strong>exactly one</strong> hand card to the table and, if that overfills its row, take
cards out of that row. You do not draw after your turn.</p>
<p>Only when you are down to 2 hand cards do you draw 6 from your pile. That happens
twice, then your pile is empty. So everyone plays 18 cards.</p>
"""),
        Section("placement", "Placement rules", """
<p>Every card has exactly one spot. Your only choice is which card to play &ndash;
never where it goes.</p>
"""),
        Section("row-by-number", "Which row?", """
<p>The number picks the row: 1&ndash;29 go to row 1 (after the 0), 31&ndash;59 to row 2
(after the 30), 61&ndash;89 to row 3 (after the 60).</p>
""", level=3),
        Section("ascending-order", "Kept in ascending order", """
<p>Each row runs from low to high, left to right. If your card belongs between two cards
already there, slide it in; the higher ones move one spot to the right.</p>
<p><em>Example:</em> row 2 is 30 | 46 57. The 40 goes between 30 and 46: 30 | 40 46 57.</p>
""", level=3),
        Section("fifth-card", "The fifth card in a row", """
<p>A row holds its start card and at most three number cards. Whoever adds the
<strong>fifth card</strong> (start card included) to a row must take cards from it.
Which ones depends on whether the new card is the highest in the row.</p>
""", level=3),
        Section("fifth-card-highest", "a) Your card is the highest", """
<p>You take only the lowest number card, the one right next to the start card. The
others close up towards the start card.</p>
<p><em>Example:</em> 0 | 10 19 24, you play the 28. You take the 10; the row becomes
0 | 19 24 28.</p>
""", level=3),
        Section("fifth-card-lower", "b) Your card is not the highest", """
<p>You take every card in the row that is higher than yours &ndash; one, two or three
cards. Your card stays.</p>
<p><em>Example:</em> 30 | 40 46 57, you play the 37. You take 40, 46 and 57; what is
left is 30 | 37.</p>
""", level=3),
        Section("collection", "Your collection", """
<p>Cards you take lie face up in front of you, sorted by colour. From now on only the
colours matter, not the numbers.</p>
"""),
        Section("third-card", "The third card of a colour", """
<p>Your first and second card of a colour lie face up. When you get the
<strong>third card of a colour</strong>, turn it face down together with the other two:
each face-down card costs 1 point at the end. The fourth card of that colour counts like
a first one again, the sixth becomes a third again, and so on.</p>
<p>In short: with <em>n</em> cards of a colour, <em>n</em> mod 3 lie face up and the rest
face down.</p>
""", level=3),
        Section("grey-cards", "Grey cards 15, 45, 75", """
<p>The grey cards have no colour. If you take one it goes straight back into the box and
counts for nothing.</p>
""", level=3),
        Section("interim-bonus", "Zwischenwertung (interim bonus)", """
<p>If after your own turn all seven colours lie face up in front of you, take the top
interim bonus card (first 10, then 7, 5, 3 points). Each player gets this bonus at most
once.</p>
""", level=3),
        Section("end", "End of the game", """
<p>The game ends when everybody has used up their draw pile and holds just 2 cards.
Those two cards are not scored.</p>
"""),
        Section("final-bonus", "Endwertung (final bonus)", """
<p>At the end, six colours face up earn 5 points, all seven earn 10 points.</p>
""", level=3),
        Section("scoring", "Scoring", """
<p>Each colour is counted on its own:</p>
<ul>
<li>1 face-up card: 1 point</li>
<li>2 face-up cards: 5 points</li>
<li>each face-down card: −1 point</li>
</ul>
<p>Add the interim and final bonus. The highest total wins.</p>
<p><em>Example:</em> four colours with 1 face-up card each (4), two colours with 2
face-up cards each (10), six face-down cards (−6), interim bonus 7, final bonus 5 for six
face-up colours: 20 points.</p>
"""),
        Section("special-cases", "Special cases", """
<ul>
<li>The start cards 0, 30 and 60 are never taken and never move.</li>
<li>The fourth card of a colour lies face up again &ndash; a face-down set of three
stays face down.</li>
<li>Only the player whose turn it is takes cards, so an interim bonus can only be reached
on your own turn.</li>
</ul>
"""),
        Section("app-decides", "How the app decides", """
<p>Where the rulebook says nothing, the app fixes one reading:</p>
""", decision=True),
        Section("app-decides-recording", "Recording live or at the end", """
<p>You can record live (tap the colour of each card taken) or enter per colour at the
end: either how many cards you took in all, or how many lie open (0 to 2) and how many are
face down (3, 6, 9 or 12). Every way gives the same score; in live mode the app hands out
the interim bonus cards in the right order by itself.</p>
""", level=3, decision=True),
        Section("app-decides-limits", "What the app checks", """
<p>At most 12 cards of a colour across all players and at most 84 coloured cards in all;
face-down cards per player only in groups of three; each interim bonus card only once and
in the order 10, 7, 5, 3.</p>
""", level=3, decision=True),
    ),
)
