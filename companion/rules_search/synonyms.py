"""The games' own words and the words players use for them at the table.

A group holds words that answer the same question: asking with one finds
sections written with another ("Runde" finds "Durchgang", "klauen" finds
"wegnehmen", "color" finds "colour"). Words are written as players type
them; the index stems them with the language's stemmer, so one form of a
word is enough. An entry of several words ("fängt an", "go first") is a
phrase: it counts when its words stand together in the question, and
then stands for the group's single words. A word marked "~" is read the
same way, in questions only: its stem means something else in the texts.

Only words of the games and of asking about rules belong here, not words
picked to answer one question: a group must make sense to a player who
never saw the question list. A game's own words (Hornochsen, X-Reihe,
Zielscheibe) are in its folder (``GameApp.search.synonyms``, in
``companion/games/<game>/search.py``) and join these groups here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from companion.games import GAME_APPS
from companion.rules_search.text import stem, tokens

GROUPS: dict[str, tuple[tuple[str, ...], ...]] = {
    "de": (
        # Durchgang is the glossary's word for a deal; at the table everybody says Runde.
        ("runde", "durchgang", "spielrunde"),
        ("kassieren", "nehmen", "nimmt", "nimmst", "genommen", "nahm", "einsammeln", "sammeln",
         "abräumen", "abzocken", "einkassieren", "aufnehmen", "schlucken", "einsacken"),
        ("bekommen", "bekommt", "bekomme", "kriegen", "erhalten", "gibt es"),
        # Who starts: rules answer with the youngest player or the dealer's neighbour.
        ("beginnen", "beginnt", "begonnen", "~anfangen", "fängt an", "fange an", "fängt",
         "starten", "startet", "zuerst", "erster spieler", "startspieler",
         "jüngste"),
        ("stapel", "haufen", "ablagestapel", "stoss"),
        ("nachziehstapel", "zugstapel", "talon", "deck", "kartenstapel"),
        ("nachziehen", "ziehen", "auffüllen", "nachnehmen", "ziehe"),
        ("legen", "ablegen", "anlegen", "spielen", "ausspielen", "hinlegen", "auslegen",
         "drauflegen", "platzieren", "setzen"),
        ("wertung", "punkte", "punktzahl", "zählen", "abrechnung", "auswertung", "rechnen",
         "punktestand", "werten"),
        ("gewinnen", "gewinnt", "gewinner", "sieger", "sieg", "siegt"),
        ("ende", "endet", "enden", "vorbei", "schluss", "aufhören", "fertig", "spielende",
         "zuende"),
        # The Steckbrief answers the questions about the box: time, age, players, direction.
        ("dauer", "dauert", "spieldauer", "wie lange", "wie lang", "minuten", "spielzeit"),
        ("alter", "jahre", "jahren", "wie alt", "kinder", "mindestalter"),
        ("richtung", "spielrichtung", "uhrzeigersinn", "reihum", "nach links", "linksherum",
         "rechtsherum", "gegen den uhrzeigersinn"),
        ("gleichstand", "unentschieden", "patt", "gleich viele"),
        ("umdrehen", "umgedreht", "verdeckt", "umdreht", "umgekehrt"),
        ("offen", "aufgedeckt", "sichtbar"),
        ("wegnehmen", "klauen", "stehlen", "abnehmen", "mopsen", "abziehen"),
        ("abstand", "differenz", "unterschied", "entfernung", "auseinander"),
        # "Wie viele Karten am Anfang?" asks for the set-up, not for who starts.
        ("aufbau", "vorbereitung", "vorbereiten", "aufbauen", "spielvorbereitung",
         "am anfang", "zu beginn", "zum start", "spielbeginn"),
        ("geben", "gibt", "austeilen", "teilt aus", "verteilen", "geber", "mischen"),
        ("spieler", "mitspieler", "personen", "leute", "mitspielen"),
        # How many may play: the Steckbrief's "Spielerzahl" ("wir sind fünf", "zu siebt").
        ("spielerzahl", "spieleranzahl", "anzahl spieler", "wie viele spieler", "wir sind",
         "zu zweit", "zu dritt", "zu viert", "zu fünft", "zu sechst", "zu siebt", "zu acht",
         "wie viele leute", "mit wie vielen", "wie viele personen", "können mitspielen",
         "dürfen mitspielen"),
        ("material", "spielmaterial", "inhalt", "schachtel", "karton", "packung",
         "enthalten", "drin"),
        ("voll", "überfüllt", "übervoll", "überfüllen"),
        ("verpasst", "vergessen", "übersehen", "nachholen", "später"),
        ("passt", "passen", "erlaubt", "zulässig", "legal", "verboten", "übereinstimmen",
         "stimmt überein"),
        ("null", "0"),
        ("zahl", "nummer", "wert", "kartenwert", "zahlenwert"),
        ("summe", "gesamt", "zusammen", "insgesamt"),
        ("benutzen", "nutzen", "nutzt", "verwenden", "einsetzen", "gebrauchen", "verbrauchen",
         "verbraucht"),
        ("niedrig", "niedriger", "klein", "kleiner", "tief", "tiefer"),
        ("höher", "größer", "hoch"),
        ("oberste", "obere", "oben", "obenauf"),
        ("variante", "regelvariante", "hausregel", "option"),
        ("notieren", "aufschreiben", "eintragen", "mitschreiben", "erfassen"),
        # A colour named stands for "Farbe": "zwei Rote" asks about two cards of a colour.
        ("farbe", "farben", "farbig", "rot", "rote", "roten", "gelb", "gelbe", "grün", "grüne",
         "blau", "blaue", "orange", "flieder", "hellblau", "türkis", "magenta", "olivgrün",
         "lila"),
        ("vier", "4"),
        ("drei", "3"),
        ("zweimal", "mehrmals", "nochmal", "öfter", "mehrfach"),
        ("mehrere", "mehr"),
        # Going out: the rules say it as an empty hand ("keine Handkarten mehr").
        ("keine handkarten mehr", "keine karte mehr", "keine karten mehr", "hände leer",
         "hand leer", "leere hand", "raus", "rausgehen", "ausgehen", "geht aus", "gehe aus",
         "ausgegangen", "ausgespielt"),
        # Several at once, as 11 nimmt!'s bull cards allow: "mehrere Karten auf einmal".
        ("mehrere", "auf einmal"),
        # The order of things, not who starts: "welche kommt zuerst".
        ("reihenfolge", "welche zuerst", "welche kommt zuerst", "welche kommt als erstes",
         "welche karte zuerst", "was zuerst", "nacheinander"),
        # Allowed whatever else holds: "darf ich ..., obwohl ich legen könnte" is answered
        # by "das darfst du immer".
        ("immer", "jederzeit", "trotzdem", "obwohl", "egal", "sowieso",
         "ohnehin"),
        # Nothing left of something: a supply, a pile, the bull cards.
        ("leer", "aufgebraucht", "alle weg", "keine mehr", "nichts mehr"),
        ("dran", "am zug", "zug"),
        ("hand", "handkarten", "halten", "auf der hand"),
        ("wählen", "wahl", "auswählen", "aussuchen"),
    ),
    "en": (
        # A deal is the glossary's word; many players say round or hand.
        ("round", "deal"),
        ("take", "took", "taken", "collect", "pick up", "grab", "gather", "claim", "win the row"),
        ("get", "gets", "got", "earn", "receive", "gain"),
        ("start", "starts", "begin", "begins", "began", "go first", "goes first", "play first",
         "first player", "lead", "leads", "youngest"),
        ("pile", "stack", "heap"),
        ("draw pile", "deck", "stock", "talon"),
        ("draw", "refill", "replenish"),
        ("play", "put", "place", "lay", "put down", "lay down", "add", "drop"),
        ("score", "scoring", "points", "point", "count", "tally", "counting"),
        ("win", "winner", "wins", "won", "victory"),
        ("end", "ends", "finish", "finished", "game over", "stop", "is over"),
        ("playing time", "how long", "last long", "minutes", "duration", "takes long",
         "how long does a game take", "how long does it take", "how long does one game take"),
        ("age", "how old", "years", "kids", "children", "minimum age"),
        ("direction", "clockwise", "counterclockwise", "anticlockwise", "to the left",
         "which way"),
        ("tie", "tied", "ties", "equal", "same number", "same amount"),
        ("face down", "facedown", "flip", "flipped", "turned over", "upside down", "turn over"),
        ("face up", "faceup", "visible"),
        ("steal", "take away", "nick", "swipe", "snatch"),
        ("difference", "distance", "gap", "apart", "far"),
        ("setup", "set up", "prepare", "preparation", "at the start", "at the beginning",
         "to start with", "at start", "in the beginning"),
        ("dealer", "deal", "shuffle", "deals"),
        ("players", "people", "persons"),
        ("player count", "number of players", "how many players", "we are", "of us",
         "how many people", "how many can play", "play with"),
        ("components", "material", "contents", "pieces", "box", "in the box", "included",
         "comes with"),
        ("colour", "color", "colours", "colors", "coloured", "colored", "red", "reds",
         "yellow", "green", "blue", "orange", "lilac", "light blue", "turquoise", "magenta",
         "olive", "purple"),
        ("grey", "gray"),
        ("full", "overfull", "overfill", "overfilled", "fills"),
        ("missed", "forgot", "forget", "overlooked", "later", "make up"),
        ("fit", "fits", "allowed", "legal", "valid", "match", "join"),
        ("zero", "0", "nothing"),
        ("number", "value"),
        ("total", "sum", "altogether"),
        ("use", "spend", "consume", "used up"),
        # The English stemmer keeps -er and -est: "lowest" would not meet "lower".
        ("low", "lower", "lowest", "small", "smaller", "smallest"),
        ("high", "higher", "highest", "big", "bigger", "biggest", "large", "larger", "largest",
         "great", "greater", "greatest"),
        ("top", "topmost", "uppermost"),
        ("variant", "variation", "house rule", "option"),
        ("record", "enter", "note", "write down", "track"),
        ("four", "4"),
        ("three", "3"),
        ("twice", "again", "more than once", "several times"),
        ("several", "multiple"),
        # Going out: the rules say it as an empty hand ("no hand cards left").
        ("no hand cards left", "no hand cards", "no card left", "no cards left",
         "no card left in hand", "hand is empty", "every hand is empty", "empty hand",
         "went out", "go out", "goes out", "gone out", "going out", "out of cards",
         "am i out", "is out", "are out"),
        # Several at once, as 11 nimmt!'s bull cards allow: "several cards at once" ("once"
        # alone is a stop word).
        ("several", "at once", "at a time"),
        # The order of things, not who starts: "which goes first".
        ("order", "which goes first", "which comes first", "which card goes first",
         "which first", "what order", "in which order", "sequence"),
        # Allowed whatever else holds: "can I ..., even though I could play" is answered by
        # "you may always do this".
        ("always", "any time", "anytime", "even though", "even if", "although", "though",
         "anyway", "regardless", "no matter", "still"),
        # Nothing left of something: a supply, a pile, the bull cards.
        ("empty", "gone", "none left", "none are left", "run out", "ran out",
         "runs out", "all gone", "nothing left"),
        ("turn", "move"),
        ("hand", "hold", "holds", "holding", "in hand", "hand cards"),
        ("choose", "chooses", "choice", "pick", "select"),
        ("keep", "keeps", "kept", "carry over", "carries over", "carried over"),
    ),
}


@dataclass(frozen=True, slots=True)
class Thesaurus:
    """The groups of one language as terms: every member of group 7 also stands for the
    term ``~7``, in the texts (where the index is built) and in questions alike."""

    groups_of: dict[str, tuple[str, ...]]
    """A single word's stem → the terms of its groups."""
    phrases: tuple[tuple[tuple[str, ...], str], ...]
    """Entries of several words as stems → their group's term, longest first."""
    asked: dict[str, tuple[str, ...]]
    """Words marked "~" (stem → group terms): read in questions only."""
    words: frozenset[str]
    """Every folded word of every entry (typos are matched against them too)."""
    game_of: dict[str, str]
    """A group only one game lists (its own word: "X-Reihe", "Zielscheibe") → that game."""


def group_term(number: int) -> str:
    return f"~{number}"


def groups(language: str) -> tuple[tuple[str, ...], ...]:
    """The shared groups of ``language``, then each game's own, in the engine's order; a
    group two games list alike (the Hornochsen of X nimmt! and 11 nimmt!) counts once."""
    own = (group for app in GAME_APPS.values()
           for group in app.search.synonyms.get(language, ()))
    return tuple(dict.fromkeys((*GROUPS[language], *own)))


@lru_cache(maxsize=4)
def thesaurus(language: str) -> Thesaurus:
    groups_of: dict[str, list[str]] = {}
    asked: dict[str, list[str]] = {}
    phrases: list[tuple[tuple[str, ...], str]] = []
    words: set[str] = set()
    listed: dict[tuple[str, ...], set[str]] = {}
    for slug, app in GAME_APPS.items():
        for group in app.search.synonyms.get(language, ()):
            listed.setdefault(group, set()).add(slug)
    game_of: dict[str, str] = {}
    for number, group in enumerate(groups(language)):
        term = group_term(number)
        if group not in GROUPS[language] and len(listed.get(group, ())) == 1:
            game_of[term] = next(iter(listed[group]))
        for entry in group:
            found = [token.word for token in tokens(entry)]
            words.update(found)
            stems = tuple(stem(word, language) for word in found)
            if len(stems) > 1:
                phrases.append((stems, term))
            elif entry.startswith("~"):
                asked.setdefault(stems[0], []).append(term)
            else:
                groups_of.setdefault(stems[0], []).append(term)
    return Thesaurus(
        groups_of={key: tuple(dict.fromkeys(value)) for key, value in groups_of.items()},
        phrases=tuple(sorted(phrases, key=lambda item: -len(item[0]))),
        asked={key: tuple(dict.fromkeys(value)) for key, value in asked.items()},
        words=frozenset(words),
        game_of=game_of,
    )


def find_phrases(stems: list[str], language: str,
                 taken: set[int] | None = None) -> list[tuple[int, int, str]]:
    """(start, end, group term) of each group phrase in a run of stems, longest first,
    never two on one word; ``taken`` words are skipped and the found ones added to it."""
    taken = set() if taken is None else taken
    found: list[tuple[int, int, str]] = []
    for phrase, term in thesaurus(language).phrases:
        size = len(phrase)
        for start in range(len(stems) - size + 1):
            span = range(start, start + size)
            if taken.isdisjoint(span) and tuple(stems[start:start + size]) == phrase:
                taken.update(span)
                found.append((start, start + size, term))
    return found
