"""Every text of the German catalogue is translated: no empty and no fuzzy entry, so that
no string falls back to English in the German UI (fuzzy entries are not compiled)."""

from __future__ import annotations

import ast
from pathlib import Path

PO = Path(__file__).resolve().parents[2] / "locale" / "de" / "LC_MESSAGES" / "django.po"


def entries() -> list[dict[str, object]]:
    """The catalogue's entries: msgid, the msgstr(s) and whether it is marked fuzzy."""
    found: list[dict[str, object]] = []
    entry: dict[str, object] = {"fuzzy": False, "msgstr": []}
    key = ""
    for line in [*PO.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if "msgid" in entry:
                found.append(entry)
            entry, key = {"fuzzy": False, "msgstr": []}, ""
        elif line.startswith("#,"):
            entry["fuzzy"] = "fuzzy" in line
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            text = ast.literal_eval(line)
            if key == "msgstr":
                strs = entry["msgstr"]
                assert isinstance(strs, list)
                strs[-1] += text
            else:
                entry[key] = str(entry[key]) + text
        else:
            word, _, value = line.partition(" ")
            text = ast.literal_eval(value)
            if word.startswith("msgstr"):
                key = "msgstr"
                strs = entry["msgstr"]
                assert isinstance(strs, list)
                strs.append(text)
            else:
                key = word
                entry[key] = text
    return [e for e in found if e["msgid"]]  # not the header


def test_the_catalogue_is_read_whole() -> None:
    assert len(entries()) > 1000


def test_every_german_text_is_translated_and_none_is_fuzzy() -> None:
    missing = [e["msgid"] for e in entries()
               if e["fuzzy"] or not all(e["msgstr"])]  # type: ignore[arg-type]
    assert missing == []
