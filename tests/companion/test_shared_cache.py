"""The cache the server's processes share their texts in (companion/shared_cache.py): a
text stays its time, the oldest go first, and the folder is listed once a second."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from companion import shared_cache
from companion.shared_cache import SharedFileCache


def cache(folder: Path, most: int = 100) -> SharedFileCache:
    return SharedFileCache(str(folder), {"TIMEOUT": 30, "OPTIONS": {"MAX_ENTRIES": most}})


def written_ago(texts: SharedFileCache, key: str, seconds: float) -> None:
    path = texts._key_to_file(key)
    then = time.time() - seconds
    os.utime(path, (then, then))


def cull_now(texts: SharedFileCache) -> None:
    shared_cache._culled.pop(texts._dir, None)


def test_texts_older_than_their_time_go_and_the_others_stay(tmp_path: Path) -> None:
    texts = cache(tmp_path)
    for key in ("old", "older", "fresh"):
        texts.set(key, f"<div>{key}</div>")
    written_ago(texts, "old", 31)
    written_ago(texts, "older", 60)
    written_ago(texts, "fresh", 29)
    cull_now(texts)

    texts.set("new", "<div>new</div>")

    assert texts.get("old") is None and texts.get("older") is None
    assert texts.get("fresh") == "<div>fresh</div>"
    assert texts.get("new") == "<div>new</div>"


def test_over_the_most_files_the_oldest_go_first(tmp_path: Path) -> None:
    texts = cache(tmp_path, most=3)
    for number in range(6):
        texts.set(f"text{number}", number)
        written_ago(texts, f"text{number}", 10 - number)  # text0 the oldest
    cull_now(texts)

    texts.set("text6", 6)

    kept = [number for number in range(7) if texts.get(f"text{number}") is not None]
    assert kept == [3, 4, 5, 6]  # the three newest before the cull, and the new one


def test_the_folder_is_listed_once_a_second_not_at_every_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    listed: list[str] = []
    scandir = os.scandir

    def counted(path: str) -> object:
        listed.append(path)
        return scandir(path)

    monkeypatch.setattr(shared_cache.os, "scandir", counted)
    for number in range(50):
        # A cache object per thread and request (Django's ``caches``): one cull a second
        # for the process all the same.
        cache(tmp_path).set(f"text{number}", number)
    assert len(listed) == 1
    texts = cache(tmp_path)
    cull_now(texts)
    texts.set("one more", 1)
    assert len(listed) == 2


def test_the_folder_is_made_once_per_process_and_again_when_it_went(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Django's file cache makes its folder at every write and for every cache object (one
    per thread and request): here once per process, and again only when a write finds it
    gone."""
    import shutil

    from django.core.cache.backends import filebased

    made: list[str] = []
    makedirs = filebased.safe_makedirs

    def counted(path: str, *args: object, **kwargs: object) -> None:
        made.append(path)
        makedirs(path, *args, **kwargs)

    monkeypatch.setattr(filebased, "safe_makedirs", counted)
    folder = tmp_path / "renders"
    for number in range(50):
        cache(folder).set(f"text{number}", number)
    assert len(made) == 1
    shutil.rmtree(folder)
    texts = cache(folder)
    texts.set("after", "still kept")
    assert texts.get("after") == "still kept"
    assert len(made) == 2
