"""Rules text: 11 nimmt! (German and English, our own words)."""

from companion.games.rules_text import GameText, Section

DE = GameText(
    slug="elf-nimmt",
    title="11 nimmt!",
    summary=(
        "Karten mit höchstens 10 Abstand auf Stapel legen; wer nicht kann oder will, "
        "nimmt einen Stapel und bekommt vielleicht eine Bullenkarte."
    ),
    key_rule=(
        "Eine Karte darf auf einen Stapel, wenn sie 1 bis 10 höher ist als die oberste Karte; "
        "nach der 100 geht es mit 1 weiter (auf die 98 passt die 5)."
    ),
    sections=(
        Section("overview", "Worum es geht", """
<p>Ihr wollt eure Handkarten loswerden. Reihum legt jeder eine Karte auf einen Stapel
&ndash; aber nur, wenn sie höchstens 10 über der obersten Karte liegt. Sonst heißt es
„11 nimmt!“: ein ganzer Stapel wandert auf die Hand. Wer einen großen Stapel nimmt,
bekommt eine Bullenkarte und darf danach mehrere Karten auf einmal ablegen. Gespielt
werden so viele Durchgänge, wie Spieler mitmachen; die wenigsten Minuspunkte gewinnen.</p>
<p>2 bis 7 Spieler.</p>
"""),
        Section("at-a-glance", "Steckbrief", """
<ul>
<li><strong>Spielerzahl:</strong> 2 bis 7 Spieler, also zu zweit bis zu siebt.</li>
<li><strong>Alter:</strong> Ab 8 Jahren.</li>
<li><strong>Dauer:</strong> Etwa 30 Minuten.</li>
<li><strong>In der Schachtel:</strong> 100 Hornochsenkarten (1 bis 100) und 10
    Bullenkarten.</li>
<li><strong>Wer beginnt:</strong> Im ersten Durchgang der jüngste Spieler, danach wer im
    letzten Durchgang die meisten Minuspunkte bekam.</li>
<li><strong>Spielrichtung:</strong> Reihum im Uhrzeigersinn, die Richtung ist also nach links.</li>
<li><strong>Spielende:</strong> Es gibt so viele Durchgänge wie Spieler (zu dritt drei); ein
    Durchgang endet, sobald jemand keine Karte mehr auf der Hand hat.</li>
<li><strong>Gewinner:</strong> Wer nach allen Durchgängen die wenigsten Minuspunkte hat,
    gewinnt.</li>
</ul>
"""),
        Section("material", "Material", """
<ul>
<li>100 Hornochsenkarten von 1 bis 100 (Hornochsen pro Karte: 55 hat 7; andere Vielfache
von 11 haben 5; Vielfache von 10 haben 3; andere Vielfache von 5 haben 2; sonst 1).</li>
<li>10 Bullenkarten.</li>
</ul>
"""),
        Section("setup", "Aufbau (jeder Durchgang)", """
<ol>
<li>Mischen, jeder bekommt 10 Karten und sortiert sie aufsteigend auf der Hand.</li>
<li>Der Rest ist der verdeckte Zugstapel; seine oberste Karte wird aufgedeckt und ist der
    erste Ablagestapel.</li>
<li>Die 10 Bullenkarten liegen als Vorrat bereit.</li>
</ol>
"""),
        Section("turn", "Ein Zug", """
<p>Der jüngste Spieler beginnt, dann geht es im Uhrzeigersinn. Wer dran ist, macht
<strong>genau eins</strong> von beiden:</p>
<ul>
<li>eine Karte auf einen Ablagestapel legen, oder</li>
<li>alle Karten eines Ablagestapels auf die Hand nehmen. Das darfst du immer &ndash; und
musst es, wenn keine deiner Karten irgendwo passt.</li>
</ul>
"""),
        Section("playing", "Karten ablegen", """
<p>Drei Regeln sagen, ob eine Karte auf einen Stapel darf.</p>
"""),
        Section("rule-ascending", "Regel 1: Aufsteigend", """
<p>Deine Karte muss höher sein als die oberste Karte des Stapels.</p>
""", level=3),
        Section("rule-difference", "Regel 2: Höchstens 10 Abstand", """
<p>Der Abstand zwischen deiner Karte und der obersten Karte darf höchstens 10 sein. Wer
nur Karten mit größerem Abstand hat, muss einen Stapel nehmen.</p>
""", level=3),
        Section("rule-wrap-around", "Regel 3: Nach der 100 kommt die 1", """
<p>Die Zahlen laufen im Kreis: nach 100 geht es mit 1, 2, 3 weiter. Auf einer 96 sind
also 97 bis 100 und 1 bis 6 erlaubt.</p>
<p><em>Beispiel:</em> Oben liegt die 98, gespielt wird die 5. Der Abstand ist 7 (99, 100,
1, 2, 3, 4, 5): erlaubt.</p>
""", level=3),
        Section("bull-cards", "Bullenkarten: mehrere Karten auf einmal", """
<p>Wer eine Bullenkarte hat, darf beim Ablegen mehrere Karten auf einen Stapel legen. Alle
müssen innerhalb von 1 bis 10 über der obersten Karte liegen, gemessen an der Karte, die
vor dem Zug oben lag. Zeige sie erst nebeneinander, dann lege sie aufsteigend ab, die
höchste zuoberst. „Aufsteigend“ zählt dabei über die 100 hinweg: auf der 96 kommen 99, 100,
2 und 5 in dieser Reihenfolge, die 5 liegt oben.</p>
<p>Mit zwei Bullenkarten darfst du das auf zwei Stapeln tun, mit drei auf drei und so weiter.</p>
<p><em>Beispiel:</em> Oben liegt die 33. Mit einer Bullenkarte darfst du alle deine Karten
von 34 bis 43 dort ablegen.</p>
""", level=3),
        Section("taking-a-pile", "Einen Stapel nehmen", """
<p>Du nimmst alle Karten eines Stapels auf die Hand, ohne ihn vorher aufzufächern.
Danach werden zwei Karten vom Zugstapel als zwei neue Stapel aufgedeckt &ndash; die Zahl
der Stapel wächst also.</p>
"""),
        Section("bull-card-gain", "Bullenkarte für einen großen Stapel", """
<p>Hatte der genommene Stapel <strong>3 oder mehr Karten</strong>, bekommst du eine
Bullenkarte aus dem Vorrat und legst sie offen vor dich, auch wenn du schon welche hast.</p>
""", level=3),
        Section("bull-card-steal", "Vorrat leer: Bullenkarte wegnehmen", """
<p>Sind alle 10 Bullenkarten verteilt und keine mehr im Vorrat, darfst du die Bullenkarte
dem Spieler wegnehmen, der
die meisten hat. Haben mehrere gleich viele, suchst du dir einen davon aus. Wie die App
„die meisten“ zählt, steht unten unter „So entscheidet die App“.</p>
""", level=3),
        Section("end", "Ende eines Durchgangs", """
<p>Ein Durchgang endet, sobald jemand keine Karte mehr auf der Hand hat. Das Spiel hat so
viele Durchgänge, wie Spieler mitmachen (zu dritt also drei), dann ist es zu Ende. Den nächsten
Durchgang beginnt, wer gerade die meisten Minuspunkte bekommen hat.</p>
<p>Wird der letzte Stapel genommen, während der Zugstapel leer ist, endet der Durchgang
ebenfalls (siehe „So entscheidet die App“).</p>
"""),
        Section("scoring", "Wertung", """
<p>Alle anderen zählen die Hornochsen auf ihren Handkarten: jeder ist ein Minuspunkt. Wer
ausgespielt hat, bekommt 0. Am Ende gewinnt die kleinste Summe; bei Gleichstand teilt man
sich den Sieg.</p>
"""),
        Section("special-cases", "Sonderfälle", """
<ul>
<li>Am Anfang gibt es nur einen Stapel; nur den kann man nehmen.</li>
<li>Einen Stapel mit 1 oder 2 Karten zu nehmen bringt keine Bullenkarte.</li>
<li>Eine einzelne Karte ablegen darf jeder, auch ohne Bullenkarte.</li>
</ul>
"""),
        Section("example", "Beispiel aus der Anleitung", """
<p>Stapel 31. Gespielt werden 36, dann 46. Der nächste hat nichts von 47 bis 56, nimmt den
Stapel mit 3 Karten und bekommt eine Bullenkarte; 23 und 87 werden aufgedeckt. Auf die 87
kommen nacheinander 88, 92, 98 und 5. Der nächste nimmt den Stapel mit der 23 (nur eine
Karte): keine Bullenkarte. 19 und 78 werden aufgedeckt; oben liegen jetzt 5, 19 und 78.</p>
"""),
        Section("app-decides", "So entscheidet die App", """
<p>Wo die Anleitung nichts sagt, legt die App eine Lesart fest:</p>
""", decision=True),
        Section("app-decides-bull-cards-kept", "Bullenkarten werden nicht verbraucht", """
<p>Eine Bullenkarte bleibt liegen, wenn du sie nutzt; du behältst sie den ganzen
Durchgang. Zu Beginn jedes Durchgangs kommen alle Bullenkarten zurück in den Vorrat.</p>
""", level=3, decision=True),
        Section("app-decides-wrap-order", "Mehrere Karten über die 100 hinweg", """
<p>Legst du mit einer Bullenkarte mehrere Karten auf einen Stapel, zählt „aufsteigend, die
höchste zuoberst“ über die 100 hinweg, vom Stapel aus gesehen: auf der 95 kommen 96, dann 3;
die 3 liegt oben, obwohl 96 die größere Zahl ist. Die 3 zuerst wäre falsch herum.</p>
""", level=3, decision=True),
        Section("app-decides-short-draw-pile", "Zugstapel fast leer", """
<p>Sind beim Aufdecken weniger als zwei Karten im Zugstapel, wird aufgedeckt, was noch da ist.</p>
""", level=3, decision=True),
        Section("app-decides-stealing", "Bullenkarte wegnehmen: wer hat die meisten?", """
<p>Ist der Vorrat leer, zählt die App „die meisten Bullenkarten“ über alle Spieler,
<strong>dich eingeschlossen</strong>:</p>
<ul>
<li>Hast du allein die meisten, gibt es niemanden zum Wegnehmen: du bekommst keine.</li>
<li>Hast du gleich viele wie andere, darfst du einem dieser anderen eine wegnehmen.</li>
<li>Sonst nimmst du sie dem Spieler mit den meisten; haben mehrere gleich viele, wählst du.</li>
</ul>
<p>Wegnehmen ist freiwillig („darf“). Ist klar, von wem, nimmt die App sie sofort weg und
bietet „nicht wegnehmen“ an; bei Gleichstand fragt sie, von wem. Nennt die App einen
Spieler, sagt sie auch, warum (wer wie viele hat).</p>
""", level=3, decision=True),
        Section("app-decides-next-starter", "Der nächste Durchgang nach einem Gleichstand", """
<p>Den nächsten Durchgang beginnt, wer im letzten die meisten Minuspunkte bekommen hat.
Haben mehrere gleich viele, beginnt von ihnen, wer in der Sitzreihenfolge zuerst kommt; der
Spielbogen sagt dazu, dass es ein Gleichstand war, damit ihr anders entscheiden könnt.</p>
""", level=3, decision=True),
        Section("app-decides-blocked", "Blockierter Durchgang", """
<p>Wird der letzte Stapel genommen, während der Zugstapel leer ist und keine Karte mehr
aufgedeckt werden kann, endet der Durchgang sofort: alle werten ihre Handkarten, niemand
ist ausgegangen.</p>
""", level=3, decision=True),
        Section("app-decides-recording", "Notieren und Bullenkarten-Zähler", """
<p>Pro Durchgang und Spieler die Hornochsen auf der Hand (oder die Kartennummern, dann
zählt die App). Wer ausgespielt hat, hat 0; zusammen höchstens 167 Hornochsen. Während des
Durchgangs zählt der Bullenkarten-Zähler Vorrat und Bullenkarten pro Spieler und wendet
die Regel zum Wegnehmen an.</p>
""", level=3, decision=True),
    ),
)

EN = GameText(
    slug="elf-nimmt",
    title="11 nimmt!",
    summary=(
        "Play cards at most 10 above a pile's top card; whoever cannot or will not takes a "
        "pile and may earn a Bullenkarte (bull card)."
    ),
    key_rule=(
        "A card may go on a pile if it is 1 to 10 higher than the top card; after 100 the "
        "count goes on with 1 (the 5 fits on the 98)."
    ),
    sections=(
        Section("overview", "What it is about", """
<p>You want to get rid of your hand cards. In turn, everyone puts a card on a pile
&ndash; but only if it is at most 10 above the top card. Otherwise it is “11 nimmt!”: a whole
pile goes into your hand. Whoever takes a big pile gets a Bullenkarte (bull card) and from
then on may put down several cards at once. You play as many deals as there are players;
the fewest minus points win.</p>
<p>2 to 7 players.</p>
"""),
        Section("at-a-glance", "At a glance (Steckbrief)", """
<ul>
<li><strong>Number of players:</strong> 2 to 7 players.</li>
<li><strong>Age:</strong> From 8 years.</li>
<li><strong>Playing time:</strong> About 30 minutes.</li>
<li><strong>In the box:</strong> 100 Hornochsen cards (1 to 100) and 10 bull cards.</li>
<li><strong>Who starts:</strong> In the first deal the youngest player, then whoever got the
    most minus points in the deal before.</li>
<li><strong>Direction of play:</strong> Clockwise, that is to the left, in turn.</li>
<li><strong>End of the game:</strong> There are as many deals as players (three with three
    players); a deal ends as soon as somebody has no card left in hand.</li>
<li><strong>Winner:</strong> The fewest minus points after all deals win.</li>
</ul>
"""),
        Section("material", "Components", """
<ul>
<li>100 Hornochsen cards from 1 to 100 (Hornochsen per card: 55 has 7; other multiples of
11 have 5; multiples of 10 have 3; other multiples of 5 have 2; all others 1).</li>
<li>10 Bullenkarten (bull cards).</li>
</ul>
"""),
        Section("setup", "Setup (each deal)", """
<ol>
<li>Shuffle; everyone gets 10 cards and sorts them ascending in hand.</li>
<li>The rest is the face-down draw pile; its top card is turned up and is the first
    discard pile.</li>
<li>The 10 bull cards lie ready as the supply.</li>
</ol>
"""),
        Section("turn", "A turn", """
<p>The youngest player starts, then play goes clockwise. On your turn you do
<strong>exactly one</strong> of these:</p>
<ul>
<li>put a card on a discard pile, or</li>
<li>take all cards of one discard pile into your hand. You may always do this &ndash; and
must, if none of your cards fits anywhere.</li>
</ul>
"""),
        Section("playing", "Playing cards", """
<p>Three rules decide whether a card may go on a pile.</p>
"""),
        Section("rule-ascending", "Rule 1: Ascending", """
<p>Your card must be higher than the pile's top card.</p>
""", level=3),
        Section("rule-difference", "Rule 2: At most 10 apart", """
<p>The difference between your card and the top card may be at most 10. Whoever holds only
cards further away must take a pile.</p>
""", level=3),
        Section("rule-wrap-around", "Rule 3: After 100 comes 1", """
<p>The numbers run in a circle: after 100 the count goes on with 1, 2, 3. So on a 96 the
cards 97 to 100 and 1 to 6 are allowed.</p>
<p><em>Example:</em> the top card is the 98 and the 5 is played. The distance is 7 (99, 100,
1, 2, 3, 4, 5): allowed.</p>
""", level=3),
        Section("bull-cards", "Bull cards: several cards at once", """
<p>Whoever holds a bull card may put several cards on one pile when playing. All of them
must lie 1 to 10 above the top card, measured from the card that was on top before the
turn. Show them side by side first, then put them down in ascending order, the highest on
top. “Ascending” counts on past 100: on the 96, the 99, 100, 2 and 5 go down in this order,
and the 5 ends on top.</p>
<p>With two bull cards you may do this on two piles, with three on three, and so on.</p>
<p><em>Example:</em> the top card is the 33. With one bull card you may put all your cards
from 34 to 43 there.</p>
""", level=3),
        Section("taking-a-pile", "Taking a pile", """
<p>Take all cards of one pile into your hand, without spreading it out to look first.
Then two cards from the draw pile are turned up as two new piles &ndash; so the number of
piles grows.</p>
"""),
        Section("bull-card-gain", "A bull card for a big pile", """
<p>If the pile you took had <strong>3 or more cards</strong>, you get a bull card from the
supply and put it face up in front of you, also when you already hold some.</p>
""", level=3),
        Section("bull-card-steal", "Supply empty: take a bull card away", """
<p>Once all 10 bull cards are handed out and none are left in the supply, you may take
(steal) the bull card from the player who
has the most. If several have equally many, you choose one of them. How the app counts “the
most” is explained below under “How the app decides”.</p>
""", level=3),
        Section("end", "End of a deal", """
<p>A deal ends as soon as someone has no card left in hand. A game has as many deals as there
are players (three with three players); then it is over. Whoever just scored the most
minus points starts the next deal.</p>
<p>If the last pile is taken while the draw pile is empty, the deal ends too (see “How the
app decides”).</p>
"""),
        Section("scoring", "Scoring", """
<p>Everybody else counts the Hornochsen on their hand cards: each is a minus point. The
player who went out scores 0. At the end the lowest total wins; a tie shares the win.</p>
"""),
        Section("special-cases", "Special cases", """
<ul>
<li>At the start there is just one pile, so that is the only one you can take.</li>
<li>Taking a pile of 1 or 2 cards earns no bull card.</li>
<li>Anyone may put down a single card, with or without a bull card.</li>
</ul>
"""),
        Section("example", "The rulebook's example", """
<p>Pile 31. 36 is played, then 46. The next player has nothing from 47 to 56, takes the
3-card pile and gets a bull card; 23 and 87 are turned up. 88, 92, 98 and 5 go on the 87
one after the other. The next player takes the pile with the 23 (only one card): no bull
card. 19 and 78 are turned up; the tops are now 5, 19 and 78.</p>
"""),
        Section("app-decides", "How the app decides", """
<p>Where the rulebook says nothing, the app fixes one reading:</p>
""", decision=True),
        Section("app-decides-bull-cards-kept", "Bull cards are not used up", """
<p>A bull card stays with you when you use it; you keep it for the whole deal. At the start
of each deal all bull cards go back to the supply.</p>
""", level=3, decision=True),
        Section("app-decides-wrap-order", "Several cards across the 100", """
<p>When you put several cards on one pile with a bull card, “ascending, highest on top”
counts across the 100, seen from the pile: on the 95 come 96, then 3; the 3 lies on top
although 96 is the bigger number. The 3 first would be in the wrong order.</p>
""", level=3, decision=True),
        Section("app-decides-short-draw-pile", "Draw pile almost empty", """
<p>If fewer than two cards are left in the draw pile when new piles are turned up, turn up
what is left.</p>
""", level=3, decision=True),
        Section("app-decides-stealing", "Taking a bull card away: who has the most?", """
<p>With the supply empty, the app counts “the most bull cards” over all players,
<strong>you included</strong>:</p>
<ul>
<li>If you alone have the most, there is nobody to take one from: you get none.</li>
<li>If you have as many as others, you may take one from one of those others.</li>
<li>Otherwise you take it from the player with the most; if several tie, you choose.</li>
</ul>
<p>Taking it (stealing) is optional (“darf”). Where it is clear from whom, the app takes it
at once and offers “don't take it”; on a tie it asks from whom. Whenever the app names a
player, it says why (who holds how many).</p>
""", level=3, decision=True),
        Section("app-decides-next-starter", "The next deal after a tie", """
<p>The next deal is started by the player with the most minus points in the last one. If
several tie, the first of them in seat order starts; the score sheet says that it was a tie,
so that you can decide otherwise.</p>
""", level=3, decision=True),
        Section("app-decides-blocked", "A blocked deal", """
<p>If the last pile is taken while the draw pile is empty and no card can be turned up, the
deal ends at once: everybody scores their hand cards, nobody went out.</p>
""", level=3, decision=True),
        Section("app-decides-recording", "Recording and the bull card tracker", """
<p>Per deal and player, the Hornochsen in hand (or the card numbers, then the app counts).
The player who went out has 0; together at most 167 Hornochsen. During the deal the bull
card tracker counts the supply and each player's bull cards and applies the rule for taking
one away.</p>
""", level=3, decision=True),
    ),
)
