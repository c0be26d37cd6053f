"""Rules text: 6 nimmt! (German and English, our own words)."""

from companion.games.rules_text import GameText, Section

DE = GameText(
    slug="sechs-nimmt",
    title="6 nimmt!",
    summary=(
        "Vier Reihen in der Tischmitte: wer die sechste Karte an eine Reihe legen müsste, "
        "kassiert die fünf Karten davor. Wer am Ende die wenigsten Hornochsen hat, gewinnt."
    ),
    key_rule=(
        "Eine Reihe fasst fünf Karten. Wäre deine Karte die sechste, nimmst du die fünf "
        "liegenden Karten, und deine Karte beginnt die Reihe neu."
    ),
    sections=(
        Section("overview", "Worum es geht", """
<p>Alle spielen gleichzeitig eine Handkarte aus. Von der niedrigsten zur höchsten kommen
die Karten an vier Reihen. Wer eine Reihe übernehmen muss, legt ihre Karten verdeckt vor
sich ab; jeder Hornochse darauf ist ein Minuspunkt. Gespielt wird Durchgang um Durchgang,
bis jemand 66 Hornochsen oder mehr gesammelt hat. Dann gewinnt, wer die wenigsten hat.</p>
<p>2 bis 10 Spieler.</p>
"""),
        Section("at-a-glance", "Steckbrief", """
<ul>
<li><strong>Spielerzahl:</strong> 2 bis 10 Spieler.</li>
<li><strong>Alter:</strong> Ab 10 Jahren, sagt die Schachtel.</li>
<li><strong>Dauer:</strong> Etwa 45 Minuten für eine Partie bis 66.</li>
<li><strong>In der Schachtel:</strong> 104 Zahlenkarten (1 bis 104) mit 1, 2, 3, 5 oder 7
    Hornochsen.</li>
<li><strong>Wer beginnt:</strong> Niemand: alle wählen gleichzeitig verdeckt eine Karte und
    decken sie zusammen auf.</li>
<li><strong>Spielrichtung:</strong> Keine Richtung am Tisch, alle spielen gleichzeitig: die
    aufgedeckten Karten werden von der niedrigsten zur höchsten angelegt.</li>
<li><strong>Spielende:</strong> Nach dem Durchgang, in dem jemand insgesamt 66 Hornochsen
    oder mehr erreicht (oder das vereinbarte Ziel, oder nach der vereinbarten Zahl von
    Durchgängen); ein Durchgang hat 10 Runden.</li>
<li><strong>Gewinner:</strong> Wer dann die wenigsten Hornochsen hat, gewinnt; bei
    Gleichstand gibt es mehrere Sieger.</li>
</ul>
"""),
        Section("material", "Material", """
<ul>
<li>104 Zahlenkarten von 1 bis 104, jede mit 1, 2, 3, 5 oder 7 Hornochsen. Die App zählt
so: 55 hat 7; andere Vielfache von 11 haben 5; Vielfache von 10 haben 3; andere Vielfache
von 5 haben 2; alle übrigen 1. Zusammen sind das 171 Hornochsen.</li>
</ul>
"""),
        Section("setup", "Aufbau (jeder Durchgang)", """
<ol>
<li>Alle 104 Karten mischen; jeder bekommt 10 Handkarten.</li>
<li>Vier Karten kommen offen untereinander in die Tischmitte: sie beginnen die vier Reihen.</li>
<li>Die übrigen Karten bleiben ungesehen beiseite.</li>
</ol>
"""),
        Section("turn", "Eine Runde", """
<ol>
<li>Alle wählen verdeckt eine Handkarte und decken gleichzeitig auf.</li>
<li>Die niedrigste Karte wird zuerst angelegt, dann die nächsthöhere und so weiter.</li>
<li>Neue Karten kommen in einer Reihe immer ganz nach rechts.</li>
</ol>
<p>Ein Durchgang hat zehn Runden: er endet, wenn alle Hände leer sind.</p>
"""),
        Section("placement", "Wohin kommt eine Karte?", """
<p>Jede Karte passt in genau eine Reihe. Vier Regeln sagen, welche.</p>
"""),
        Section("rule-ascending", "Regel 1: Aufsteigend", """
<p>In einer Reihe steigen die Zahlen von links nach rechts. Eine Reihe nimmt also nur
Karten, die höher sind als ihre letzte Karte.</p>
""", level=3),
        Section("rule-lowest-difference", "Regel 2: Kleinster Abstand", """
<p>Von den Reihen, deren letzte Karte niedriger ist, bekommt die Karte die Reihe, deren
letzte Karte am nächsten darunter liegt. Diese Reihe gibt es immer nur einmal.</p>
<p><em>Beispiel:</em> Die Reihen enden mit 12, 31, 50 und 70. Die 35 kommt hinter die 31
(Abstand 4; zur 12 wären es 23).</p>
""", level=3),
        Section("rule-sixth-card", "Regel 3: Die sechste Karte", """
<p>Liegen in dieser Reihe schon fünf Karten, ist sie voll: deine Karte wäre die sechste.
Dann nimmst du die fünf Karten zu dir, und deine Karte beginnt die Reihe neu.</p>
<p><em>Beispiel:</em> In einer Reihe liegen 20, 21, 22, 23 und 24; die 25 gehört dorthin.
Wer die 25 gespielt hat, nimmt die fünf Karten mit zusammen 11 Hornochsen (die 20 zeigt 3,
die 22 zeigt 5); die 25 liegt jetzt allein in der Reihe.</p>
""", level=3),
        Section("rule-low-card", "Regel 4: Niedrige Karte", """
<p>Ist deine Karte niedriger als die letzte Karte jeder Reihe, passt sie nirgends. Dann
suchst du dir eine beliebige Reihe aus, nimmst alle ihre Karten, und deine Karte beginnt
diese Reihe neu.</p>
""", level=3),
        Section("taken-cards", "Kassierte Karten", """
<p>Genommene Karten kommen verdeckt auf deinen eigenen Stapel, nicht auf die Hand. Sie
zählen am Ende des Durchgangs gegen dich.</p>
"""),
        Section("scoring", "Wertung", """
<p>Nach jedem Durchgang zählt jeder die Hornochsen auf den Karten seines Stapels; die Zahl
kommt zu seiner Summe dazu. Weniger ist besser.</p>
"""),
        Section("end", "Ende der Partie", """
<p>Die Partie endet nach dem Durchgang, in dem mindestens ein Spieler insgesamt 66 oder
mehr Hornochsen erreicht. Es gewinnt, wer die wenigsten hat; bei Gleichstand gewinnen alle
Gleichen.</p>
<p>Wie viele Durchgänge das sind, steht also vorher nicht fest: gespielt wird Durchgang um
Durchgang, bis jemand die 66 erreicht (oder eure vereinbarte Zahl von Durchgängen gespielt
ist, siehe Varianten).</p>
"""),
        Section("variants", "Varianten (vor der Partie wählbar)", """
<ul>
<li><strong>Anderes Ziel:</strong> ihr einigt euch vorher auf eine andere Grenze als 66,
zum Beispiel 100.</li>
<li><strong>Feste Zahl von Durchgängen:</strong> statt einer Grenze spielt ihr genau so
viele Durchgänge, wie ihr vorher festlegt, zum Beispiel nur einen.</li>
<li><strong>Profi-Variante:</strong> nur die Karten 1 bis 10 × Spieler + 4 sind im
Spiel (bei 4 Spielern 1 bis 44). Alle werden ausgeteilt, und jeder weiß, welche Karten im
Spiel sind.</li>
</ul>
"""),
        Section("special-cases", "Sonderfälle", """
<ul>
<li>Die gespielte Karte wird nie mitgenommen: sie beginnt die Reihe neu.</li>
<li>Eine Reihe hat nach dem Anlegen höchstens fünf Karten.</li>
<li>Auch eine Reihe mit nur einer Karte kann man mit einer niedrigen Karte nehmen.</li>
</ul>
"""),
        Section("app-decides", "So entscheidet die App", """
<p>Wo die Anleitung nichts sagt, legt die App eine Lesart fest:</p>
""", decision=True),
        Section("app-decides-order", "Reihenfolge der Entscheidungen", """
<p>Die Karten einer Runde werden streng von der niedrigsten zur höchsten abgehandelt;
Karten für die gleiche Reihe kommen in dieser Reihenfolge dazu, die niedrigere zuerst. Wer
eine niedrige Karte gespielt hat, wählt seine Reihe erst, wenn seine Karte dran ist.</p>
""", level=3, decision=True),
        Section("app-decides-played-card", "Die eigene Karte wird nicht kassiert", """
<p>Wer eine Reihe nimmt, nimmt nur die Karten, die schon dort lagen; die gespielte Karte
beginnt die Reihe neu.</p>
""", level=3, decision=True),
        Section("app-decides-end", "Mehrere über 66", """
<p>Erreichen in einem Durchgang zwei oder mehr Spieler 66 oder mehr, endet die Partie
trotzdem nach diesem Durchgang, und die wenigsten Hornochsen gewinnen &ndash; auch wenn
niemand unter 66 geblieben ist.</p>
""", level=3, decision=True),
        Section("app-decides-recording", "Notieren", """
<p>Pro Durchgang und Spieler trägst du die Hornochsen auf seinem Stapel ein oder die
Kartennummern (dann zählt die App). Jede Karte darf pro Durchgang nur einmal vorkommen.
Ein Stapel hat höchstens 5 Karten pro Runde, in der er Karten nahm, also nie mehr als die
Karten des Durchgangs. Zusammen sind es höchstens die Hornochsen der Karten im Spiel: 171
mit allen Karten, in der Profi-Variante die der Karten 1 bis 10 × Spielerzahl + 4. Ein
Durchgang, in dem alle 0 haben, geht nicht: es werden 10 × Spielerzahl Karten gespielt
(mindestens 20), die vier Reihen fassen ohne sechste Karte aber nur 16 mehr, und jede Karte
trägt einen Hornochsen.</p>
""", level=3, decision=True),
        Section("app-decides-resolver", "Der Runden-Check", """
<p>Der Runden-Check von X nimmt! passt auch hier: vier Reihen mit höchstens fünf Karten,
ohne X-Reihe. Er zeigt Schritt für Schritt, wohin jede Karte kommt und wer was nimmt, und
fragt bei einer niedrigen Karte nach der Reihe.</p>
""", level=3, decision=True),
    ),
)

EN = GameText(
    slug="sechs-nimmt",
    title="6 nimmt!",
    summary=(
        "Four rows in the middle of the table: whoever would have to lay the sixth card in a "
        "row takes the five before it. The fewest Hornochsen at the end wins."
    ),
    key_rule=(
        "A row holds five cards. If your card would be the sixth, you take the five cards "
        "lying there, and your card starts the row again."
    ),
    sections=(
        Section("overview", "What it is about", """
<p>Everyone plays a hand card at the same time. From the lowest to the highest, the cards
join four rows. Whoever has to take a row puts its cards face down in front of them; every
Hornochse on them is a minus point. Deal follows deal until someone has 66 Hornochsen or
more. Then the player with the fewest wins.</p>
<p>2 to 10 players.</p>
"""),
        Section("at-a-glance", "At a glance (Steckbrief)", """
<ul>
<li><strong>Number of players:</strong> 2 to 10 players.</li>
<li><strong>Age:</strong> From 10 years, says the box.</li>
<li><strong>Playing time:</strong> About 45 minutes for a game to 66.</li>
<li><strong>In the box:</strong> 104 number cards (1 to 104) showing 1, 2, 3, 5 or 7
    Hornochsen.</li>
<li><strong>Who starts:</strong> Nobody: everybody picks a card face down at the same time and
    all are revealed together.</li>
<li><strong>Direction of play:</strong> No order round the table: the revealed cards are placed
    from the lowest to the highest.</li>
<li><strong>End of the game:</strong> After the deal in which somebody reaches 66 Hornochsen or
    more in total (or the agreed target, or after the agreed number of deals); a deal has
    10 rounds.</li>
<li><strong>Winner:</strong> The fewest Hornochsen then win; tied players share the win.</li>
</ul>
"""),
        Section("material", "Components", """
<ul>
<li>104 number cards from 1 to 104, each with 1, 2, 3, 5 or 7 Hornochsen. The app counts
like this: 55 has 7; other multiples of 11 have 5; multiples of 10 have 3; other multiples
of 5 have 2; every other card has 1. That makes 171 Hornochsen.</li>
</ul>
"""),
        Section("setup", "Setup (each deal)", """
<ol>
<li>Shuffle all 104 cards; everyone gets 10 hand cards.</li>
<li>Four cards go face up one below the other in the middle: each starts a row.</li>
<li>The other cards stay aside unseen.</li>
</ol>
"""),
        Section("turn", "A round", """
<ol>
<li>Everyone chooses a hand card face down; all reveal at once.</li>
<li>The lowest card is placed first, then the next higher one, and so on.</li>
<li>A new card always goes to the right end of a row.</li>
</ol>
<p>A deal has ten rounds: it ends when every hand is empty.</p>
"""),
        Section("placement", "Where does a card go?", """
<p>Every card fits exactly one row. Four rules say which.</p>
"""),
        Section("rule-ascending", "Rule 1: Ascending", """
<p>The numbers in a row rise from left to right. A row only takes cards higher than its
last card.</p>
""", level=3),
        Section("rule-lowest-difference", "Rule 2: Smallest difference", """
<p>Of the rows whose last card is lower, the card goes to the one whose last card lies
closest below it. There is always exactly one such row.</p>
<p><em>Example:</em> The rows end with 12, 31, 50 and 70. The 35 goes behind the 31
(a difference of 4; to the 12 it would be 23).</p>
""", level=3),
        Section("rule-sixth-card", "Rule 3: The sixth card", """
<p>If that row already holds five cards, it is full: your card would be the sixth. Then you
take the five cards, and your card starts the row again.</p>
<p><em>Example:</em> A row holds 20, 21, 22, 23 and 24; the 25 belongs there. Whoever played
the 25 takes the five cards, 11 Hornochsen together (the 20 shows 3, the 22 shows 5); the 25
now lies alone in the row.</p>
""", level=3),
        Section("rule-low-card", "Rule 4: Low card", """
<p>If your card is lower than the last card of every row, it fits nowhere. Then you choose
any row, take all its cards, and your card starts that row again.</p>
""", level=3),
        Section("taken-cards", "Taken cards", """
<p>Taken cards go face down onto your own pile, not into your hand. They count against you
at the end of the deal.</p>
"""),
        Section("scoring", "Scoring", """
<p>After each deal, everyone counts the Hornochsen on the cards in their pile; the number
is added to their total. Fewer is better.</p>
"""),
        Section("end", "End of the match", """
<p>The match ends after the deal in which at least one player reaches 66 or more
Hornochsen in total. The fewest wins; tied players share the win.</p>
<p>So the number of deals is not fixed in advance: you play deal after deal until somebody
reaches 66 (or until the number of deals you agreed on is played, see the variants).</p>
"""),
        Section("variants", "Variants (chosen before the match)", """
<ul>
<li><strong>Another target:</strong> agree on a limit other than 66 before you start,
for example 100.</li>
<li><strong>A fixed number of deals:</strong> instead of a limit you play exactly as many
deals as agreed, for example just one.</li>
<li><strong>Profi variant:</strong> only the cards 1 to 10 × players + 4 are in play
(1 to 44 with 4 players). All of them are dealt, and everyone knows which cards are in
the game.</li>
</ul>
"""),
        Section("special-cases", "Special cases", """
<ul>
<li>The card played is never taken along: it starts the row again.</li>
<li>After a card is placed a row holds at most five cards.</li>
<li>A row of just one card can be taken with a low card, too.</li>
</ul>
"""),
        Section("app-decides", "How the app decides", """
<p>Where the rulebook says nothing, the app fixes one reading:</p>
""", decision=True),
        Section("app-decides-order", "Order of the choices", """
<p>The cards of a round are resolved strictly from lowest to highest;
cards that belong in the same row join it in that order. Whoever played a low
card chooses their row only when their card's turn comes.</p>
""", level=3, decision=True),
        Section("app-decides-played-card", "Your own card is not taken", """
<p>Whoever takes a row takes only the cards already lying there; the card they played
starts the row again.</p>
""", level=3, decision=True),
        Section("app-decides-end", "Several over 66", """
<p>When a deal brings two or more players to 66 or more, the match still ends after that
deal and the fewest Hornochsen win &ndash; also when nobody stayed under 66.</p>
""", level=3, decision=True),
        Section("app-decides-recording", "Recording", """
<p>Per deal and player you enter the Hornochsen in their pile or the card numbers (then the
app counts). A card may appear only once per deal. A pile holds at most 5 cards per round in
which it took cards, so never more than the cards of the deal. All together hold at most the
Hornochsen of the cards in play: 171 with all cards, in the Profi variant those of the cards
1 to 10 × players + 4. A deal with 0 for everyone is impossible: 10 × players cards are
played (at least 20), but without a sixth card the four rows hold only 16 more, and every
card carries a Hornochse.</p>
""", level=3, decision=True),
        Section("app-decides-resolver", "The round check", """
<p>The round check of X nimmt! fits here too: four rows of at most five cards, no X-row. It
shows step by step where each card goes and who takes what, and asks for the row when a
low card comes.</p>
""", level=3, decision=True),
    ),
)
