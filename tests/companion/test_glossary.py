"""One word per thing (the README's glossary), checked in the compiled German catalogue:
a group is a "Gruppe", never a "Runde" (a round of play); a seat is a "Sitz", never a
"Platz" (a finishing place). And the English UI glosses the German game term
Zwischenwertung with English words."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MO = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.mo"

NOT_A_LETTER = r"(?<![A-Za-zÄÖÜäöüß])"
RUNDE = re.compile(NOT_A_LETTER + r"Runden?\b")
"""The word "Runde(n)" on its own or at the start of a compound ("Kartenrunde" is the name)."""
PLATZ = re.compile(r"\bPl[aä]tze?\b")


def catalogue() -> list[tuple[str, str]]:
    """(English msgid, German msgstr) pairs of the compiled catalogue, plural forms included."""
    with MO.open("rb") as handle:
        raw = gettext.GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
    pairs = []
    for key, text in raw.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if not msgid:
            continue  # the header
        pairs.append((msgid.split("\x04")[-1].replace("\x00", " "), text))
    return pairs


def test_the_catalogue_is_compiled_and_has_the_glossarys_words() -> None:
    translations = dict(catalogue())
    assert translations["group"] == "Gruppe"
    assert translations["seat"] == "Sitz"
    assert translations["Table mode"] == "Tischansicht"
    assert translations["Score sheet"] == "Spielzettel"
    assert translations["Ratings"] == "Spielstärke"
    assert translations["Rules question?"] == "Regelfrage?"


def test_no_german_text_calls_a_group_a_runde() -> None:
    wrong = [(msgid, text) for msgid, text in catalogue()
             if RUNDE.search(text) and not re.search(r"\brounds?\b", msgid, re.I)]
    assert wrong == []


def test_every_text_about_a_group_says_gruppe() -> None:
    wrong = [(msgid, text) for msgid, text in catalogue()
             if re.search(r"\bgroups?\b", msgid, re.I) and "gruppe" not in text.lower()]
    assert wrong == []


def test_a_seat_is_a_sitz_and_platz_is_only_a_finishing_place() -> None:
    seats = [(msgid, text) for msgid, text in catalogue()
             if re.search(r"\bseats?\b", msgid, re.I)
             and (PLATZ.search(text) or "sitz" not in text.lower())]
    places = [(msgid, text) for msgid, text in catalogue()
              if PLATZ.search(text) and not re.search(r"\bplaces?\b", msgid, re.I)]
    assert seats == []
    assert places == []


def test_the_english_texts_say_group_and_gloss_the_zwischenwertung() -> None:
    msgids = [msgid for msgid, _text in catalogue()]
    assert [m for m in msgids if RUNDE.search(m)] == []
    bare = [m for m in msgids
            if "Zwischenwertung" in m and not re.search(r"\w \(Zwischenwertung\)", m)]
    assert bare == []
    alone = [m for m in msgids if m in {"Hornochsen", "Zwischenwertung", "Bullenkarte"}]
    assert alone == []


@pytest.mark.parametrize("german, english", [
    ("Gruppe", "group"), ("Runde", "round"), ("Durchgang", "deal"), ("Partie", "match"),
    ("Sitz", "seat"), ("Platz", "place"), ("Spieleabend", "game night"),
    ("Tischansicht", "table mode"),
])
def test_the_readme_has_the_glossary(german: str, english: str) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"| {german} | {english} |" in readme


def test_red_4s_are_rote_vieren_everywhere() -> None:
    """13's red 4s are "rote Vieren", as the rulebook says, in the deal form as in its
    messages (the form's field once said "rote 4er")."""
    wrong = [(msgid, text) for msgid, text in catalogue()
             if re.search(r"\bred 4s\b", msgid, re.I) and "rote vieren" not in text.lower()]
    assert wrong == []
