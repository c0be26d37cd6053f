"""Rules search benchmark: how often the right section comes first, and how long a
question takes.

Asks every question of ``tests/companion/rules_questions.py`` (players'
questions, German and English, all five games, each with the sections that
answer it) and prints top-1 and top-3 accuracy per language and per game,
the questions that miss the top 3 (``--misses``), the time per question
(median and 95th percentile of wall time over ``--repeats`` rounds, the
index already built) and the time to build the index of one language once.

    .venv/bin/python bench/rules_search.py [--repeats 20] [--misses]
        [--fresh | --heldout | --independent | --unseen] [--sheet]

Before (the old search: every word of the query, as typed, in one section)
on the same questions: de top-1 3 %, top-3 3 %; en top-1 5 %, top-3 6 %;
1.9 ms median per question. After: de 89 % / 98 %, en 91 % / 100 %, 0.6 ms
median, p95 under 7 ms on the shared 2-core machine; on the questions written
after tuning (--fresh): de 72 % / 88 %, en 68 % / 92 %. The later sets and their
figures: docs/rules-search.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--misses", action="store_true", help="list the questions missed")
    parser.add_argument("--fresh", action="store_true",
                        help="the questions written after tuning (FRESH_QUESTIONS) instead")
    parser.add_argument("--sheet", action="store_true",
                        help="ask each question from its game's sheet (prefer=its game)")
    parser.add_argument("--heldout", action="store_true",
                        help="the held-out set (HELDOUT_QUESTIONS), each from its own sheet")
    parser.add_argument("--independent", action="store_true",
                        help="the independent set (rules_questions_independent.py)")
    parser.add_argument("--unseen", action="store_true",
                        help="the set written for this branch before tuning "
                             "(rules_questions_unseen.py)")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    import django

    django.setup()
    from django.urls import reverse

    from companion.rules_search.answers import search
    from companion.rules_search.index import build_index
    from tests.companion.rules_questions import FRESH_QUESTIONS, QUESTIONS
    from tests.companion.rules_questions_heldout import HELDOUT_QUESTIONS, Question
    from tests.companion.rules_questions_independent import QUESTIONS as INDEPENDENT
    from tests.companion.rules_questions_unseen import UNSEEN_QUESTIONS

    questions: list[Any] = list(FRESH_QUESTIONS if args.fresh else QUESTIONS)
    with_sheets = args.heldout or args.independent or args.unseen
    if args.heldout:
        questions = list(HELDOUT_QUESTIONS)
    elif args.independent:
        questions = [Question(*question) for question in INDEPENDENT]
    elif args.unseen:
        questions = list(UNSEEN_QUESTIONS)

    def sheet_of(question: Any) -> str | None:
        if with_sheets:
            return cast(str | None, question.sheet)
        return cast(str, question.game) if args.sheet else None
    reverse("rules_index")  # the URL configuration loads once, outside the index build

    builds = []
    for language in ("de", "en"):
        started = time.perf_counter()
        build_index(language)
        builds.append(time.perf_counter() - started)

    tally: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    misses = []
    other_first = 0
    for question in questions:
        prefer = sheet_of(question)
        found = [f"{a.game.slug}#{a.section.anchor}"
                 for a in search(question.text, question.language, prefer=prefer)]
        first = bool(found) and found[0] in question.answers
        other_first += bool(found) and not found[0].startswith(question.game + "#")
        three = any(url in question.answers for url in found[:3])
        asked = ("sheet" if prefer else "no sheet") if with_sheets else question.game
        keys = {(question.language, "all"), (question.language, asked),
                (question.language, question.game), ("all", "all")}
        for key in keys:
            tally[key][0] += 1
            tally[key][1] += first
            tally[key][2] += three
        if not first:
            misses.append((question, found[:3], three))

    times: list[float] = []
    for _ in range(args.repeats):
        for question in questions:
            started = time.perf_counter()
            search(question.text, question.language, prefer=sheet_of(question))
            times.append(time.perf_counter() - started)
    times.sort()

    print(f"{'language':8} {'game':24} {'questions':>9} {'top-1':>6} {'top-3':>6}")
    for (language, game), (count, first, three) in sorted(
            tally.items(), key=lambda item: (item[0][0], item[0][1] != "all", item[0][1])):
        print(f"{language:8} {game:24} {count:9d} {first / count:6.0%} {three / count:6.0%}")
    print(f"\n{len(times)} searches: median {statistics.median(times) * 1000:.2f} ms, "
          f"p95 {times[int(len(times) * 0.95)] * 1000:.2f} ms, "
          f"max {times[-1] * 1000:.2f} ms")
    print(f"index build: de {builds[0] * 1000:.0f} ms, en {builds[1] * 1000:.0f} ms "
          "(once per process and language)")
    print(f"another game's section first: {other_first} of {len(questions)}")
    if args.misses:
        print("\nnot first (* not in the top 3 either):")
        for question, found, three in misses:
            print(f"  {' ' if three else '*'}[{question.language}] {question.text}\n"
                  f"      want {question.answers}\n      got  {found}")


if __name__ == "__main__":
    main()
