"""Words as the search compares them: folded, split, stemmed, stop words known.

The same functions read the rules texts (when the index is built) and the
question, so both sides always agree: "Zählt", "zaehlt" and "zählen" meet
at one stem, "passt?" is the word "passt", and "Handkarten" is also
"Hand" + "Karten".

>>> [t.word for t in tokens("Wer fängt an? 11-nimmt, X-Reihe!")]
['wer', 'fängt', 'an', '11', 'nimmt', 'x', 'reihe']
>>> stem("zaehlen", "de") == stem("Zählen", "de")
True
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

import Stemmer  # PyStemmer: the Snowball project's own stemmers, in C

STEMMERS = {"de": "german", "en": "english"}
"""The Snowball algorithm of each rules language."""

_WORD = re.compile(r"[^\W_]+")
"""Letters and digits; everything else (punctuation, hyphens, "?") separates words."""

_NUMBER_SUFFIX = re.compile(r"^(\d+)(?:er|s)$")
"""``3er`` (3er-Reihe), ``4s`` (red 4s): the number itself."""

_ORDINAL = re.compile(r"^(\d+)(?:\.|st|nd|rd|th|te|ten|ter|tes)$")
"""``4th``, ``3rd``, ``6te`` and, in German, ``6.`` (see :func:`tokens`): a card's place
("die 6. Karte", "the 4th card"), stemmed as the word ("sechste", "fourth"), not a card."""

ORDINALS = {
    "de": ("erste", "zweite", "dritte", "vierte", "fünfte", "sechste", "siebte", "achte",
           "neunte", "zehnte", "elfte", "zwölfte"),
    "en": ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
           "tenth", "eleventh", "twelfth"),
}

_ORDINAL_BEFORE = frozenset({"der", "die", "den", "dem", "das", "des", "zur", "zum", "beim",
                             "jede", "jeder", "jedes"})
"""Words before a German ordinal written "6.": "bei der 6. Karte". Elsewhere "6." ends a
sentence ("... nimmst du die 28. Du nimmst ...")."""


@dataclass(frozen=True, slots=True)
class Token:
    """One word of a text: where it stands and how it is compared."""

    start: int
    end: int
    word: str
    """Folded: lower case, ß as ss, "4s" as "4"."""


def fold(text: str) -> str:
    """Lower case, ß as ss, accents other than the German umlauts dropped.

    Umlauts stay: the German stemmer reads ä/ae, ö/oe, ü/ue as the same
    letter, and the English texts keep German game words as they are.

    >>> fold("Straße Café ÜBER")
    'strasse cafe über'
    """
    text = text.casefold().replace("ß", "ss")
    if text.isascii():
        return text
    kept = []
    for char in unicodedata.normalize("NFD", text):
        if unicodedata.combining(char) and kept and char == "\u0308" and kept[-1] in "aou":
            kept[-1] = {"a": "ä", "o": "ö", "u": "ü"}[kept[-1]]
        elif not unicodedata.combining(char):
            kept.append(char)
    return "".join(kept)


CONTRACTIONS = {word + "s": (word, "es") for word in (
    "gibt", "geht", "gilt", "kommt", "zählt", "zaehlt", "zahlt", "passt", "klappt", "macht",
    "hat", "war", "ist")}
"""Spoken German runs "es" into its verb: "gibts" is "gibt es" (which a synonym reads as
"bekommen"), "gehts" is "geht es"."""


def _minus_before(text: str, start: int) -> bool:
    """Whether a minus sign stands before the number at ``start`` ("−1 Punkt", "(−6)",
    " -2"), not a hyphen ("1-3")."""
    return start >= 1 and text[start - 1] in "−-" and (
        start == 1 or text[start - 2].isspace() or text[start - 2] == "(")


def tokens(text: str) -> Iterator[Token]:
    """The words of ``text`` with their places in it.

    >>> [t.word for t in tokens("wieviel gibts dafür")]
    ['wieviel', 'gibt', 'es', 'dafür']
    >>> [t.word for t in tokens("−1 Punkt, (−6), 1-3")]
    ['minus', '1', 'punkt', 'minus', '6', '1', '3']
    """
    before = ""
    for match in _WORD.finditer(text):
        word = fold(match.group(0))
        if word.isdigit() and _minus_before(text, match.start()):
            yield Token(match.start() - 1, match.start(), "minus")  # "−1 Punkt": minus points
        if word in CONTRACTIONS:
            for part in CONTRACTIONS[word]:
                yield Token(match.start(), match.end(), part)
            before = CONTRACTIONS[word][-1]
            continue
        number = _NUMBER_SUFFIX.match(word)
        if number:
            word = number.group(1)
        elif word.isdigit() and before in _ORDINAL_BEFORE and _dotted_ordinal(text, match.end()):
            word += "."
        before = word
        yield Token(match.start(), match.end(), word)


def _dotted_ordinal(text: str, end: int) -> bool:
    """Whether the number ending at ``end`` is followed by ". " and a word that is no stop
    word ("der 6. Karte", not "die 33. Mit einer ...")."""
    if text[end:end + 1] != "." or not text[end + 1:end + 2].isspace():
        return False
    following = _WORD.match(text, end + 2)
    if following is None:
        return False
    word = fold(following.group(0))
    return word.isalpha() and not any(word in stops for stops in STOP_WORDS.values())


@lru_cache(maxsize=2)
def _stemmer(language: str) -> Stemmer.Stemmer:
    return Stemmer.Stemmer(STEMMERS[language])


_PLAYER = re.compile(r"^\w*spieler(?:n|s|in|innen)?$")
"""German words for players ("Spieler", "Mitspielern", "Startspieler"): Snowball cuts them
to "spiel", the stem of the game and of playing."""


@lru_cache(maxsize=8192)
def stem(word: str, language: str) -> str:
    """The Snowball stem of a folded word; numbers stay as they are.

    >>> stem("kassierten", "de"), stem("colours", "en"), stem("23", "en")
    ('kassiert', 'colour', '23')
    >>> stem("Spielern", "de"), stem("Mitspieler", "de"), stem("spielen", "de")
    ('spieler', 'mitspieler', 'spiel')
    """
    if word.isdigit():
        return word
    ordinal = _ORDINAL.match(word)
    if ordinal:
        place = int(ordinal.group(1))
        words = ORDINALS[language]
        return stem(words[place - 1], language) if 1 <= place <= len(words) else ordinal.group(1)
    folded = fold(word)
    if language == "de" and _PLAYER.match(folded):
        return folded[:folded.index("spieler") + 7]  # not "spiel": the game, to play
    stemmed: str = _stemmer(language).stemWord(folded)
    if language != "de":
        # The English texts keep German game words: "Hornochsen" and "hornochsen" alike.
        stemmed = stemmed.replace("ä", "a").replace("ö", "o").replace("ü", "u")
    return stemmed


def word_set(text: str) -> frozenset[str]:
    """The words of a list written as running text (one word per blank)."""
    return frozenset(text.split())


# Snowball's stop word lists, less the words that decide a rules question here:
# negations ("passt nicht", "keine Reihe"), "über" (über 13), "most"/"more" (who has the
# most), "up"/"down" (face up), "out" (went out), "same", "own", "after" (after 100), and
# "muss"/"must" (when one has to; a question counts it half: ranking.MODALS).
STOP_WORDS = {
    "de": word_set("""
        aber alle allem allen aller alles als also am an ander andere anderem anderen anderer
        anderes anderm andern anderr anders auch auf aus bei beim bin bis bist bitte da damit dann
        das dass dein deine deinem deinen deiner deines dem demselben den denn denselben der derer
        derselbe derselben des desselben dessen dich die dies diese diesem diesen dieser dieses
        dieselbe dieselben dir doch dort du durch ein eine einem einen einer eines einig einige
        einigem einigen einiger einiges eigentlich er es etwas euch euer eure eurem euren eurer
        eures für gegen gewesen hab habe haben hat hatte hatten hier hin ich ihm ihn ihnen ihr ihre
        ihrem ihren ihrer ihres im in indem ins ist ja jede jedem jeden jeder jedes jemals jene
        jenem jenen jener jenes jetzt kann kannst konnte könnte können man manche manchem manchen
        mancher manches mal mein meine meinem meinen meiner meines mich mir mit
        darf darfst dürfen soll sollst sollen sollte will willst wollen wollte möchte mag nach noch
        nun nur ob oder passiert passieren geschieht sehr sein seine seinem seinen seiner seines
        selbst sich sie sind so solche solchem solchen solcher solches sondern sonst um und uns
        unser unsere unserem unseren unseres unter viel viele vom von vor war waren warst was wann
        warum weil welche welchem welchen welcher welches wenn werde werden wer wie wird wirst wo
        wir würde würden zu zum zur zwar machen mache macht gilt schon halt
    """),
    "en": word_set("""
        a about above again against all am an and any are as at be because been before being
        below both but by can could did do does doing during each few for from further had has
        have having he her here hers herself him himself his how i if in into is it its itself
        just me might my myself nor of on once only or other ought our ours ourselves please she
        should so some such than that the their theirs them themselves then there these they this
        those through to until very was we were what when where which while who whom why will
        with would you your yours yourself yourselves may shall happen happens happened
        ok okay let lets s t d ll re ve m many much
    """),
}


def umlaut_spellings(words: frozenset[str]) -> frozenset[str]:
    """German words as they are also typed: umlauts as ae/oe/ue or dropped ("könnte",
    "koennte", "konnte"; "für", "fuer", "fur").

    >>> sorted(umlaut_spellings(frozenset({"für"})))
    ['fuer', 'fur', 'für']
    """
    typed = {"ä": ("ae", "a"), "ö": ("oe", "o"), "ü": ("ue", "u")}
    found = set(words)
    for way in (0, 1):
        found.update("".join(typed[c][way] if c in typed else c for c in word) for word in words)
    return frozenset(found)


# A question typed without umlauts has the same stop words ("koennte", "fur"): the stems
# agree (Snowball reads them alike), the stop word list did not.
STOP_WORDS["de"] = umlaut_spellings(STOP_WORDS["de"])


def is_stop_word(word: str, language: str) -> bool:
    return word in STOP_WORDS[language]


NUMBER_WORDS = word_set("""
    null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn
    zwanzig hundert zero one two three four five six seven eight nine ten eleven twelve
    thirteen fourteen twenty hundred
""")


def is_number(word: str) -> bool:
    """A folded word that counts something: "12", "sieben", "seven"."""
    return word.isdigit() or word in NUMBER_WORDS


COUNT = "#n:"
"""Prefix of the term a word gets after a number ("sieben Farben": #n:farb), so that
"how many colours" finds where colours are counted."""
