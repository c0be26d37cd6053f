"""Rules text: Freaky (German and English, our own words)."""

from companion.games.rules_text import GameText, Section

DE = GameText(
    slug="freaky",
    title="Freaky",
    summary=(
        "Karten an Reihen andocken, die in Hintergrund, Kreisfarbe oder Zahl passen, "
        "und Reihen abzocken, in denen ein Merkmal viermal vorkommt."
    ),
    key_rule=(
        "Eine Karte passt an eine Reihe, wenn sie mit deren letzter Karte ein Merkmal teilt. "
        "Eine neue Reihe darfst du nur eröffnen, wenn sie nirgends passt."
    ),
    sections=(
        Section("overview", "Worum es geht", """
<p>Jede Karte hat drei Merkmale: Hintergrundfarbe, Kreisfarbe und Zahl (1&ndash;6). Ihr
legt eure Karten an offene Reihen an. Kommt in einer Reihe ein Merkmal viermal vor,
darf der Spieler am Zug die ganze Reihe kassieren. Wer am Ende die meisten Karten
kassiert hat, gewinnt; bei Gleichstand gibt es mehrere Sieger.</p>
<p>2 bis 5 Spieler.</p>
"""),
        Section("at-a-glance", "Steckbrief", """
<ul>
<li><strong>Spielerzahl:</strong> 2 bis 5 Spieler, also zu zweit bis zu fünft.</li>
<li><strong>Alter:</strong> Ab 8 Jahren.</li>
<li><strong>Dauer:</strong> Etwa 15 Minuten.</li>
<li><strong>In der Schachtel:</strong> 108 Karten, jede mit Hintergrundfarbe, Kreisfarbe und
    einer Zahl.</li>
<li><strong>Wer beginnt:</strong> Der jüngste Spieler.</li>
<li><strong>Spielrichtung:</strong> Reihum im Uhrzeigersinn, die Richtung ist also nach links.</li>
<li><strong>Spielende:</strong> Das Spiel endet sofort, wenn jemand am Ende seines Zugs nicht
    mehr auf drei Handkarten auffüllen kann.</li>
<li><strong>Gewinner:</strong> Wer die meisten Karten kassiert hat, gewinnt (Handkarten zählen
    nicht); bei Gleichstand gibt es mehrere Sieger.</li>
</ul>
"""),
        Section("material", "Material", """
<p>108 Karten, jede mit Hintergrundfarbe, Kreisfarbe und einer Zahl von 1 bis 6. Eine Karte
ist für die App einfach das, was du an Merkmalen eingibst.</p>
"""),
        Section("setup", "Aufbau", """
<ol>
<li>Jeder bekommt 3 Handkarten.</li>
<li>Der Rest ist der verdeckte Nachziehstapel.</li>
<li>Drei Karten werden nebeneinander aufgedeckt: sie beginnen die ersten drei Reihen.</li>
</ol>
"""),
        Section("turn", "Ein Zug", """
<p>Der jüngste Spieler beginnt, dann geht es im Uhrzeigersinn. Ein Zug hat drei Schritte,
immer in dieser Reihenfolge:</p>
<ol>
<li><strong>Karten legen</strong> (Pflicht): 1 bis 3 Handkarten, eine nach der anderen.</li>
<li><strong>Reihen kassieren</strong> (freiwillig).</li>
<li><strong>Nachziehen</strong> (Pflicht) auf 3 Handkarten.</li>
</ol>
"""),
        Section("joining-a-row", "Anlegen an eine Reihe", """
<p>Deine Karte darf an eine Reihe, wenn sie mit der <strong>letzten Karte</strong> dieser
Reihe in mindestens einem Merkmal übereinstimmt: gleiche Hintergrundfarbe, gleiche
Kreisfarbe oder gleiche Zahl. Lege sie so, dass alle Merkmale der Reihe sichtbar bleiben.</p>
<p><em>Beispiel:</em> Eine „4“ passt an Reihe 1 (gleicher Hintergrund) oder an Reihe 2
(gleiche Kreisfarbe), aber nicht an Reihe 3, mit deren letzter Karte sie nichts gemeinsam hat.</p>
""", level=3),
        Section("new-row", "Eine neue Reihe eröffnen", """
<p>Eine neue Reihe darfst du nur mit einer Karte eröffnen, die an <strong>keine</strong>
Reihe passt. Passt sie irgendwo, musst du sie anlegen.</p>
<p><em>Beispiel:</em> Eine „6“ mit gelbem Hintergrund und violettem Kreis passt an keine
Reihe: sie eröffnet eine neue.</p>
""", level=3),
        Section("collecting", "Reihen kassieren", """
<p>Wenn du keine Karte mehr legen willst, schau dir jede Reihe als Ganzes an. Kommt
<strong>ein Merkmalswert mindestens viermal</strong> vor (irgendwo in der Reihe, genau
gleich, z.&nbsp;B. viermal blauer Hintergrund oder viermal die 3), darfst du die ganze Reihe
verdeckt vor dir ablegen. Das geht mit mehreren Reihen im selben Zug.</p>
<p><em>Beispiel:</em> In einer Reihe liegen vier gelbe Kreise, in einer anderen vier
„6“: du darfst beide Reihen nehmen.</p>
<p>Merkst du erst nach deinem Zug, dass du eine Reihe hättest nehmen dürfen: Pech gehabt,
nachholen darfst du das nicht. Die Reihe bleibt liegen (siehe „So entscheidet die App“).</p>
""", level=3),
        Section("drawing", "Nachziehen", """
<p>Am Ende deines Zuges ziehst du, bis du wieder 3 Handkarten hast.</p>
""", level=3),
        Section("end", "Spielende", """
<p>Das Spiel endet sofort, wenn jemand am Ende seines Zuges nicht mehr auf 3 Handkarten
nachziehen kann, weil der Nachziehstapel leer ist oder nicht mehr reicht.</p>
"""),
        Section("scoring", "Wertung", """
<p>Jede kassierte Karte ist ein Punkt. Die Handkarten, die am Ende übrig sind, zählen nicht.
Die meisten Karten gewinnen; bei Gleichstand gibt es mehrere Sieger.</p>
"""),
        Section("special-cases", "Sonderfälle", """
<ul>
<li>Wichtig ist nur die letzte Karte einer Reihe; was weiter vorne liegt, zählt fürs
Anlegen nicht, wohl aber fürs Kassieren.</li>
<li>Die vier gleichen Merkmale müssen nicht nebeneinander liegen.</li>
</ul>
"""),
        Section("app-decides", "So entscheidet die App", """
<p>Wo die Anleitung nichts sagt, legt die App eine Lesart fest:</p>
""", decision=True),
        Section("app-decides-empty-table", "Keine Reihe mehr auf dem Tisch", """
<p>Eine kassierte Reihe verschwindet. Liegt gar keine Reihe mehr aus, passt die nächste
Karte nirgends und eröffnet eine neue Reihe.</p>
""", level=3, decision=True),
        Section("app-decides-check", "Was der Regel-Check wissen will", """
<p>Für das Anlegen gibst du die letzte Karte jeder Reihe an, fürs Kassieren die ganze
Reihe, jeweils mit Hintergrund, Kreisfarbe und Zahl.</p>
""", level=3, decision=True),
        Section("app-decides-missed-row", "Eine verpasste Reihe", """
<p>Hat jemand eine Reihe nicht kassiert, obwohl er durfte, bleibt sie liegen. Wer sie in
einem späteren Kassier-Schritt prüft (auch derselbe Spieler in seinem nächsten Zug), darf
sie nehmen, wenn darin dann noch ein Merkmal viermal vorkommt.</p>
""", level=3, decision=True),
        Section("app-decides-chain", "Eine Reihe ist eine Kette", """
<p>Jede Karte einer Reihe passt zu der Karte davor, denn sie wurde an die damals letzte
Karte angelegt. Der Regel-Check lehnt eine Reihe ab, die so nicht entstanden sein kann, und
sagt, welche Karte nicht passt. Er nimmt so viele Reihen und so viele Karten pro Reihe, wie
auf einem echten Tisch liegen können (bis zu 105 Karten: alle außer den 3 Handkarten eines
Mitspielers).</p>
""", level=3, decision=True),
        Section("app-decides-recording", "Notieren", """
<p>Pro Spieler die Zahl der kassierten Karten (live: +N pro kassierter Reihe). Zusammen
sind es höchstens 108.</p>
""", level=3, decision=True),
    ),
)

EN = GameText(
    slug="freaky",
    title="Freaky",
    summary=(
        "Dock cards onto rows that share background, circle colour or number, and collect "
        "rows in which one feature shows up four times."
    ),
    key_rule=(
        "A card may join a row if it shares a feature with that row's last card. "
        "You may only open a new row with a card that fits nowhere."
    ),
    sections=(
        Section("overview", "What it is about", """
<p>Every card has three features: background colour, circle colour and number (1&ndash;6).
You add your cards to the open rows. When one feature appears four times in a row, the
player whose turn it is may collect the whole row. Whoever has collected the most cards at
the end wins; a tie has several winners.</p>
<p>2 to 5 players.</p>
"""),
        Section("at-a-glance", "At a glance (Steckbrief)", """
<ul>
<li><strong>Number of players:</strong> 2 to 5 players.</li>
<li><strong>Age:</strong> From 8 years.</li>
<li><strong>Playing time:</strong> About 15 minutes.</li>
<li><strong>In the box:</strong> 108 cards, each with a background colour, a circle colour and
    a number.</li>
<li><strong>Who starts:</strong> The youngest player.</li>
<li><strong>Direction of play:</strong> Clockwise, that is to the left, in turn.</li>
<li><strong>End of the game:</strong> The game ends at once when somebody cannot refill to
    three hand cards at the end of their turn.</li>
<li><strong>Winner:</strong> The most cards collected win (hand cards do not count); on a tie
    there are several winners.</li>
</ul>
"""),
        Section("material", "Components", """
<p>108 cards, each with a background colour, a circle colour and a number from 1 to 6. To
the app, a card is simply the features you enter.</p>
"""),
        Section("setup", "Setup", """
<ol>
<li>Everyone gets 3 hand cards.</li>
<li>The rest is the face-down draw pile.</li>
<li>Three cards are turned up side by side: they start the first three rows.</li>
</ol>
"""),
        Section("turn", "A turn", """
<p>The youngest player starts, then play goes clockwise. A turn has three steps, always in
this order:</p>
<ol>
<li><strong>Play cards</strong> (must): 1 to 3 cards from your hand, one after the other.</li>
<li><strong>Collect rows</strong> (may).</li>
<li><strong>Draw</strong> (must) back up to 3 hand cards.</li>
</ol>
"""),
        Section("joining-a-row", "Joining a row", """
<p>Your card may join a row if it matches that row's <strong>last card</strong> in at least
one feature: same background colour, same circle colour or same number. Lay it so that all
features of the row stay visible.</p>
<p><em>Example:</em> a “4” may join row 1 (same background) or row 2 (same circle colour),
but not row 3, whose last card it shares nothing with.</p>
""", level=3),
        Section("new-row", "Opening a new row", """
<p>You may only open a new row with a card that fits <strong>no</strong> row. If it fits
somewhere, it must join a row.</p>
<p><em>Example:</em> a “6” with a yellow background and a violet circle fits no row: it
opens a new one.</p>
""", level=3),
        Section("collecting", "Collecting rows", """
<p>When you do not want to play more cards, look at each row as a whole. If
<strong>one feature value appears at least four times</strong> (anywhere in the row,
exactly equal, e.g. four blue backgrounds or four 3s), you may put the whole row face down
in front of you. You may do this with several rows in the same turn.</p>
<p><em>Example:</em> one row holds four yellow circles, another four “6”s: you may take
both rows.</p>
<p>If you only notice after your turn that you could have collected a row: bad luck, you
cannot make up for it. The row stays on the table (see “How the app decides”).</p>
""", level=3),
        Section("drawing", "Drawing", """
<p>At the end of your turn, draw until you hold 3 cards again.</p>
""", level=3),
        Section("end", "End of the game", """
<p>The game ends at once when somebody cannot refill their hand to three at the end of their
turn because the draw pile is empty or runs short.</p>
"""),
        Section("scoring", "Scoring", """
<p>Every collected card is a point. The cards left in hand at the end do not count. The most
cards win; a tie has several winners.</p>
"""),
        Section("special-cases", "Special cases", """
<ul>
<li>Only the last card of a row matters for joining; the cards further back count for
collecting, though.</li>
<li>The four equal features do not have to lie next to each other.</li>
</ul>
"""),
        Section("app-decides", "How the app decides", """
<p>Where the rulebook says nothing, the app fixes one reading:</p>
""", decision=True),
        Section("app-decides-empty-table", "No row left on the table", """
<p>A collected row disappears. If no row is left at all, the next card fits nowhere and
opens a new row.</p>
""", level=3, decision=True),
        Section("app-decides-check", "What the rules check asks for", """
<p>For joining you enter the last card of each row, for collecting the whole row, each
with background, circle colour and number.</p>
""", level=3, decision=True),
        Section("app-decides-missed-row", "A missed row", """
<p>If someone did not collect a row they could have taken, it stays on the table. Whoever
checks it in a later collect step (the same player on their next turn included) may take it
if a feature still appears four times in it.</p>
""", level=3, decision=True),
        Section("app-decides-chain", "A row is a chain", """
<p>Every card in a row fits the card before it, because it joined the row's then last card.
The rules check refuses a row that could not have come about like this and says which card
does not fit. It takes as many rows and as many cards per row as a real table can hold (up to
105 cards: all but the 3 hand cards of another player).</p>
""", level=3, decision=True),
        Section("app-decides-recording", "Recording", """
<p>Per player, the number of collected cards (live: +N per collected row). Together at most
108.</p>
""", level=3, decision=True),
    ),
)
