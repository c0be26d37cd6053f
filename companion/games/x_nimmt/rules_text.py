"""Rules text: X nimmt! (German and English, our own words)."""

from companion.games.rules_text import GameText, Section

DE = GameText(
    slug="x-nimmt",
    title="X nimmt!",
    summary=(
        "Drei Reihen mit verschiedener Länge: wer eine Reihe voll macht, kassiert sie. "
        "Die eigene X-Reihe schützt vor Minuspunkten."
    ),
    key_rule=(
        "Die 3er-Reihe ist mit der 3. Karte voll, die 4er mit der 4., die 5er mit der 5.: "
        "wer sie voll macht, nimmt die liegenden Karten, seine Karte beginnt die Reihe neu."
    ),
    sections=(
        Section("overview", "Worum es geht", """
<p>Alle spielen gleichzeitig eine Karte aus; von der niedrigsten zur höchsten wandern
die Karten in drei Reihen. Jede Reihe ist unterschiedlich schnell voll. Wer Karten
kassiert, legt eine davon in seine eigene X-Reihe, den Rest nimmt er auf die Hand.
Jeder Hornochse auf den Karten ist ein Minuspunkt. Nach zwei Durchgängen gewinnt, wer
die wenigsten Minuspunkte hat.</p>
<p>2 bis 4 Spieler.</p>
"""),
        Section("at-a-glance", "Steckbrief", """
<ul>
<li><strong>Spielerzahl:</strong> 2 bis 4 Spieler, also zu zweit bis zu viert.</li>
<li><strong>Alter:</strong> Ab 8 Jahren.</li>
<li><strong>Dauer:</strong> Etwa 25 Minuten für eine Partie aus zwei Durchgängen.</li>
<li><strong>In der Schachtel:</strong> 100 Zahlenkarten (1 bis 100) und 7 Reihenkarten: „3“,
    „4“ und „5“ für die Tischmitte und vier „X“-Reihenkarten, eine pro Spieler.</li>
<li><strong>Wer beginnt:</strong> Niemand: alle wählen gleichzeitig verdeckt eine Karte und
    decken sie zusammen auf.</li>
<li><strong>Spielrichtung:</strong> Keine Richtung am Tisch, alle spielen gleichzeitig: die
    aufgedeckten Karten werden von der niedrigsten zur höchsten angelegt.</li>
<li><strong>Spielende:</strong> Die Partie endet nach dem zweiten Durchgang; ein Durchgang
    endet, wenn nach einer Runde jemand keine Handkarten mehr hat.</li>
<li><strong>Gewinner:</strong> Wer nach beiden Durchgängen die wenigsten Minuspunkte
    (Hornochsen) hat, gewinnt.</li>
</ul>
"""),
        Section("material", "Material", """
<ul>
<li>100 Zahlenkarten von 1 bis 100 mit 1, 2, 3, 5 oder 7 Hornochsen. Die App zählt so:
55 hat 7; andere Vielfache von 11 haben 5; Vielfache von 10 haben 3; andere Vielfache
von 5 haben 2; alle übrigen 1.</li>
<li>Reihenkarten „3“, „4“ und „5“ für die Tischmitte und eine „X“-Reihenkarte pro Spieler.</li>
</ul>
"""),
        Section("setup", "Aufbau (jeder Durchgang)", """
<ol>
<li>Die Reihenkarten 3, 4 und 5 liegen untereinander; neben jede kommt eine zufällige
    Zahlenkarte als erste Karte der Reihe.</li>
<li>Jeder bekommt eine X-Reihenkarte und 8 Handkarten. Übrige Karten bleiben in der
    Schachtel.</li>
</ol>
"""),
        Section("turn", "Eine Runde", """
<ol>
<li>Alle wählen verdeckt eine Handkarte und decken gleichzeitig auf.</li>
<li>Die niedrigste Karte wird zuerst angelegt, dann die nächsthöhere und so weiter.</li>
<li>Neue Karten kommen in einer Reihe immer ganz nach rechts.</li>
</ol>
<p>Das wiederholt ihr, bis am Ende einer Runde jemand keine Handkarten mehr hat.</p>
"""),
        Section("placement", "Wohin kommt eine Karte?", """
<p>Jede Karte passt in genau eine Reihe. Vier Regeln sagen, welche.</p>
"""),
        Section("rule-ascending", "Regel 1: Aufsteigend", """
<p>In einer Reihe steigen die Zahlen von links nach rechts. Eine Reihe nimmt also nur
Karten, die höher sind als ihre letzte Karte.</p>
""", level=3),
        Section("rule-lowest-difference", "Regel 2: Kleinster Abstand", """
<p>Von den Reihen, deren letzte Karte niedriger ist, bekommt die Karte die Reihe mit dem
kleinsten Abstand &ndash; also die, deren letzte Karte am nächsten darunter liegt.</p>
<p><em>Beispiel:</em> In der 3er-Reihe liegt die 12, in der 4er-Reihe die 15, in der
5er-Reihe die 54. Aufgedeckt werden 18, 22 und 60. Die 18 kommt in die mittlere Reihe
hinter die 15 (Abstand 3, zur 12 wären es 6), danach die 22 hinter die 18 (Abstand 4 statt
10). Die 60 kommt in die untere Reihe hinter die 54. Keine Reihe wird voll: niemand nimmt
etwas.</p>
""", level=3),
        Section("rule-full-row", "Regel 3: Volle Reihe", """
<p>Die Reihenkarte zeigt, mit der wievielten Karte die Reihe voll ist: die 3er-Reihe mit
der 3., die 4er-Reihe mit der 4., die 5er-Reihe mit der 5. Karte. Wäre deine Karte diese
Karte, nimmst du alle Karten, die schon in der Reihe liegen, und deine Karte wird die
neue erste Karte der Reihe.</p>
<p><em>Beispiel:</em> In der 4er-Reihe liegen drei Karten, die 59 gehört dorthin. Wer die
59 gespielt hat, nimmt die drei Karten; die 59 beginnt die Reihe neu.</p>
""", level=3),
        Section("rule-low-card", "Regel 4: Niedrige Karte", """
<p>Ist deine Karte niedriger als die letzte Karte jeder Reihe, passt sie nirgends. Dann
suchst du dir eine Reihe aus, nimmst alle ihre Karten, und deine Karte beginnt diese
Reihe neu.</p>
<p><em>Beispiel:</em> Die 43 ist zu niedrig für jede Reihe. Ihr Spieler wählt die
mittlere Reihe, in der gerade nur die 59 liegt, nimmt die 59, und die 43 liegt jetzt
vorne in dieser Reihe.</p>
""", level=3),
        Section("taken-cards", "Wohin mit kassierten Karten?", """
<p>Hast du nach Regel 3 oder 4 Karten genommen, legst du <strong>genau eine</strong>
davon (deine Wahl) in deine X-Reihe. Alle anderen nimmst du auf die Hand; du darfst sie
ab der nächsten Runde wieder ausspielen. Ist es nur eine Karte, kommt sie in die X-Reihe.</p>
"""),
        Section("x-row", "X-Reihe und X-Stapel", """
<p>Auch in der X-Reihe müssen die Karten von links nach rechts steigen. Kommt eine Karte
dazu, die niedriger ist als die letzte Karte deiner X-Reihe, legst du alle Karten der
X-Reihe verdeckt auf deinen X-Stapel; die neue Karte beginnt eine neue X-Reihe. Spätere
Karten, die weichen müssen, kommen auf denselben X-Stapel.</p>
"""),
        Section("end", "Ende eines Durchgangs", """
<p>Ein Durchgang endet sofort nach einer Runde, an deren Ende jemand keine Handkarten mehr
hat. Wer seine letzte Karte spielt und danach Karten kassiert und auf die Hand nimmt, hat
wieder Handkarten und spielt weiter.</p>
<p>Das Spiel hat zwei Durchgänge: nach dem zweiten ist es zu Ende.</p>
"""),
        Section("scoring", "Wertung", """
<ul>
<li>Jeder Hornochse auf deinen restlichen Handkarten: 1 Minuspunkt.</li>
<li>Jeder Hornochse auf deinem X-Stapel: 2 Minuspunkte (doppelt).</li>
<li>Karten in der X-Reihe: 0 Minuspunkte.</li>
</ul>
<p><em>Beispiel:</em> 5 Hornochsen auf der Hand und 9 auf dem X-Stapel ergeben
5 + 2 × 9 = 23 Minuspunkte.</p>
<p>Nach zwei Durchgängen gewinnt die kleinste Summe; bei Gleichstand teilt man sich den Sieg.</p>
"""),
        Section("special-cases", "Sonderfälle", """
<ul>
<li>Es gibt immer genau eine passende Reihe; eine Wahl hast du nur bei einer zu
niedrigen Karte (Regel 4) und bei der Frage, welche kassierte Karte in die X-Reihe geht.</li>
<li>Durch Regel 3 liegen zwischen zwei Karten höchstens 2, 3 und 4 Karten in den Reihen.</li>
</ul>
"""),
        Section("app-decides", "So entscheidet die App", """
<p>Wo die Anleitung nichts sagt, legt die App eine Lesart fest:</p>
""", decision=True),
        Section("app-decides-order", "Reihenfolge der Entscheidungen", """
<p>Die Karten einer Runde werden streng von der niedrigsten zur höchsten abgehandelt;
Karten für die gleiche Reihe kommen in dieser Reihenfolge dazu, die niedrigere zuerst.
Muss ein Spieler wählen (welche Reihe bei einer zu niedrigen Karte, welche kassierte
Karte in die X-Reihe), wählt er, wenn seine Karte dran ist &ndash; vor der nächsten Karte.</p>
""", level=3, decision=True),
        Section("app-decides-played-card", "Die eigene Karte wird nicht kassiert", """
<p>Wer eine Reihe nimmt, nimmt nur die Karten, die schon dort lagen; seine gespielte
Karte beginnt die Reihe neu.</p>
""", level=3, decision=True),
        Section("app-decides-resolver", "Der Runden-Check", """
<p>Der Regel-Check nimmt die drei Reihen und die aufgedeckten Karten und zeigt Schritt für
Schritt, wohin jede Karte kommt und wer was nimmt. Wo die Regeln eine Wahl lassen, fragt er
den Spieler.</p>
""", level=3, decision=True),
        Section("app-decides-recording", "Notieren", """
<p>Pro Durchgang und Spieler trägst du die Hornochsen auf Hand und X-Stapel ein oder
die Kartennummern (dann zählt die App). Jede Karte darf pro Durchgang nur einmal
vorkommen; zusammen sind es höchstens 167 Hornochsen. Mit Kartennummern muss mindestens
eine Hand leer sein: solange alle noch Handkarten haben, ist der Durchgang nicht zu Ende.</p>
""", level=3, decision=True),
    ),
)

EN = GameText(
    slug="x-nimmt",
    title="X nimmt!",
    summary=(
        "Three rows of different lengths: whoever fills a row takes it. "
        "Your own X-Reihe shields you from minus points."
    ),
    key_rule=(
        "The 3-row is full with its 3rd card, the 4-row with its 4th, the 5-row with its "
        "5th: whoever fills one takes the cards there, and their card starts the row again."
    ),
    sections=(
        Section("overview", "What it is about", """
<p>Everyone plays a card at the same time; from lowest to highest the cards go into
three rows. Each row fills up at a different speed. Whoever takes cards puts one of them
into their own X-Reihe (X-row) and the rest into their hand. Every Hornochse (bullhead)
on a card is a minus point. After two deals, the fewest minus points win.</p>
<p>2 to 4 players.</p>
"""),
        Section("at-a-glance", "At a glance (Steckbrief)", """
<ul>
<li><strong>Number of players:</strong> 2 to 4 players.</li>
<li><strong>Age:</strong> From 8 years.</li>
<li><strong>Playing time:</strong> About 25 minutes for a game of two deals.</li>
<li><strong>In the box:</strong> 100 number cards (1 to 100) and 7 row cards: “3”, “4” and “5”
    for the middle of the table and four “X” row cards, one per player.</li>
<li><strong>Who starts:</strong> Nobody: everybody picks a card face down at the same time and
    all are revealed together.</li>
<li><strong>Direction of play:</strong> No order round the table: the revealed cards are placed
    from the lowest to the highest.</li>
<li><strong>End of the game:</strong> The game ends after the second deal; a deal ends when
    after a round somebody has no hand cards left.</li>
<li><strong>Winner:</strong> The fewest minus points (Hornochsen) over both deals win.</li>
</ul>
"""),
        Section("material", "Components", """
<ul>
<li>100 number cards from 1 to 100 showing 1, 2, 3, 5 or 7 Hornochsen. The app counts
them like this: 55 has 7; other multiples of 11 have 5; multiples of 10 have 3; other
multiples of 5 have 2; all the rest have 1.</li>
<li>Row cards “3”, “4” and “5” for the middle of the table, and one “X” row card per
player.</li>
</ul>
"""),
        Section("setup", "Setup (each deal)", """
<ol>
<li>The row cards 3, 4 and 5 lie one below the other; a random number card goes next to
    each as the row's first card.</li>
<li>Everyone gets an X row card and 8 hand cards. The remaining cards stay in the box.</li>
</ol>
"""),
        Section("turn", "A round", """
<ol>
<li>Everyone picks a hand card face down; all reveal at once.</li>
<li>The lowest card is placed first, then the next higher one, and so on.</li>
<li>New cards always go to the right-hand end of a row.</li>
</ol>
<p>Repeat until, at the end of a round, somebody has no hand cards left.</p>
"""),
        Section("placement", "Where does a card go?", """
<p>Every card fits exactly one row. Four rules tell you which.</p>
"""),
        Section("rule-ascending", "Rule 1: Ascending", """
<p>Within a row the numbers rise from left to right. So a row only accepts cards higher
than its last card.</p>
""", level=3),
        Section("rule-lowest-difference", "Rule 2: Smallest difference", """
<p>Among the rows whose last card is lower, the card goes to the one with the smallest
difference &ndash; the row whose last card is closest below it.</p>
<p><em>Example:</em> the 3-row holds the 12, the 4-row the 15, the 5-row the 54. The 18,
22 and 60 are revealed. The 18 goes into the middle row behind the 15 (difference 3; to the
12 it would be 6), then the 22 behind the 18 (difference 4 instead of 10). The 60 goes into
the lower row behind the 54. No row fills up: nobody takes anything.</p>
""", level=3),
        Section("rule-full-row", "Rule 3: Full row", """
<p>The row card shows which card fills the row: the 3-row is full with its 3rd card, the
4-row with its 4th, the 5-row with its 5th. If your card would be that card, you take all
cards already in the row, and your card becomes the row's new first card.</p>
<p><em>Example:</em> the 4-row holds three cards and the 59 belongs there. Whoever played
the 59 takes those three cards; the 59 starts the row again.</p>
""", level=3),
        Section("rule-low-card", "Rule 4: Low card", """
<p>If your card is lower than the last card of every row, it fits nowhere. Choose a row,
take all its cards, and your card starts that row again.</p>
<p><em>Example:</em> the 43 is too low for every row. Its player chooses the middle row,
which holds only the 59 at that moment, takes the 59, and the 43 now heads that row.</p>
""", level=3),
        Section("taken-cards", "Where do taken cards go?", """
<p>When you take cards by rule 3 or 4, put <strong>exactly one</strong> of them (your
choice) into your X-Reihe. All others go into your hand; you may play them again from the
next round on. If it is only one card, it goes into the X-Reihe.</p>
"""),
        Section("x-row", "X-Reihe and X-stack", """
<p>In your X-Reihe, too, cards must rise from left to right. When a card joins that is
lower than the last card of your X-Reihe, put all cards of the X-Reihe face down onto your
X-stack; the new card starts a new X-Reihe. Later cards that have to leave go onto the
same X-stack.</p>
"""),
        Section("end", "End of a deal", """
<p>A deal ends right after a round at whose end someone has no hand cards. Whoever plays
their last card and then takes cards into hand holds cards again and plays on.</p>
<p>A game has two deals: it is over after the second.</p>
"""),
        Section("scoring", "Scoring", """
<ul>
<li>Each Hornochse on your remaining hand cards: 1 minus point.</li>
<li>Each Hornochse on your X-stack: 2 minus points (double).</li>
<li>Cards in your X-Reihe: 0 minus points.</li>
</ul>
<p><em>Example:</em> 5 Hornochsen in hand and 9 on the X-stack make 5 + 2 × 9 = 23 minus
points.</p>
<p>After two deals the lowest total wins; a tie shares the win.</p>
"""),
        Section("special-cases", "Special cases", """
<ul>
<li>There is always exactly one matching row; you only choose for a card that is too low
(rule 4) and when deciding which taken card goes into the X-Reihe.</li>
<li>Because of rule 3, between placements the rows hold at most 2, 3 and 4 cards.</li>
</ul>
"""),
        Section("app-decides", "How the app decides", """
<p>Where the rulebook says nothing, the app fixes one reading:</p>
""", decision=True),
        Section("app-decides-order", "Order of the choices", """
<p>The cards of a round are handled strictly from lowest to highest;
cards that belong in the same row join it in that order. When a player has a
choice (which row for a card that is too low, which taken card goes into the X-Reihe), they
make it when their card is handled &ndash; before the next card.</p>
""", level=3, decision=True),
        Section("app-decides-played-card", "Your own card is not taken", """
<p>Whoever takes a row takes only the cards that were already there; the card they played
starts the row again.</p>
""", level=3, decision=True),
        Section("app-decides-resolver", "The round check", """
<p>The rules check takes the three rows and the revealed cards and shows, step by step,
where each card goes and who takes what. Where the rules leave a choice, it asks the
player.</p>
""", level=3, decision=True),
        Section("app-decides-recording", "Recording", """
<p>Per deal and player, enter the Hornochsen in hand and on the X-stack, or the card
numbers (then the app counts). Each card may appear only once per deal; together there
are at most 167 Hornochsen. With card numbers at least one hand must be empty: while
everybody still holds hand cards, the deal has not ended.</p>
""", level=3, decision=True),
    ),
)
