"""Experiment for issue 27: the search's own documents and question concepts, ranked by
SQLite FTS5's bm25() (Python's sqlite3, in memory) instead of the hand-written BM25.

Each section's heading and text go in as the index's terms (stems, synonym groups,
compound parts), heading weighted 3; every alternative of every concept is OR'ed; the
game in scope is a WHERE. ``--weighted`` applies the same after-weights as
:func:`companion.rules_search.ranking.rank` (decisions, summaries, preferred games),
without the move prior.

    .venv/bin/python bench/rules_search_fts5.py [--weighted]

Measured on 2 December 2026 (load average about 17, 2 cores), top-1 / top-3:
plain FTS5: questions 80 % / 95 %, fresh 72 % / 92 %, held-out 78 % / 95 %;
weighted: 86 % / 97 %, 76 % / 92 %, 80 % / 97 %; the search itself: 90 % / 99 %,
74 % / 96 %, 78 % / 97 %. About 0.6 ms a question either way. Not adopted: it would
replace only the BM25 loop and the postings (the alternatives, typos and prefixes still
need the vocabulary), for about 30 lines less and a few questions lost.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--weighted", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    import django

    django.setup()
    from companion.rules_search.index import Passage, index_for
    from companion.rules_search.ranking import SUMMARIES, read_question
    from tests.companion.rules_questions import FRESH_QUESTIONS, QUESTIONS
    from tests.companion.rules_questions_heldout import HELDOUT_QUESTIONS

    def term(text: str) -> str:
        return text.replace("~", "g").replace("#n:", "n_")

    def terms(passage: Passage) -> str:
        return " ".join(term(t) for word in passage.words
                        for t in (word.stem, *word.also, *word.parts))

    databases = {}
    for language in ("de", "en"):
        index = index_for(language)
        database = sqlite3.connect(":memory:")
        database.execute("create virtual table d using fts5(title, body, game unindexed, "
                         "n unindexed, tokenize=\"unicode61 tokenchars '_'\")")
        for number, document in enumerate(index.documents):
            database.execute("insert into d values (?, ?, ?, ?)", (
                terms(document.title), " ".join(terms(p) for p in document.sentences),
                document.game.slug, number))
        databases[language] = (index, database)

    def ask(text: str, language: str, prefer: str | None) -> list[str]:
        index, database = databases[language]
        question = read_question(text, index, prefer=prefer)
        alternatives = {term(t) for c in question.concepts for t in c.alternatives}
        if not alternatives:
            return []
        sql = "select n, bm25(d, 3.0, 1.0) from d where d match ?"
        values: list[Any] = [" OR ".join(f'"{a}"' for a in alternatives)]
        if question.scope:
            sql += f" and game in ({','.join('?' * len(question.scope))})"
            values += list(question.scope)
        rows = []
        preferred = {*question.preferred, *question.move_games}
        for number, score in database.execute(sql, values):
            document = index.documents[number]
            score = -score
            if args.weighted:
                if document.section.decision:
                    score *= 0.85
                elif document.section.anchor in SUMMARIES:
                    score *= 0.75
                if document.game.slug in preferred:
                    score *= 1.4
            rows.append((score, number))
        rows.sort(reverse=True)
        found: list[str] = []
        for _score, number in rows:
            document = index.documents[number]
            key = f"{document.game.slug}#{document.section.anchor}"
            if key not in found:
                found.append(key)
        return found[:8]

    sets = (("questions", QUESTIONS), ("fresh", FRESH_QUESTIONS),
            ("held-out", HELDOUT_QUESTIONS))
    for name, questions in sets:
        first = three = 0
        times = []
        for question in questions:
            started = time.perf_counter()
            found = ask(question.text, question.language, getattr(question, "sheet", None))
            times.append(time.perf_counter() - started)
            first += bool(found) and found[0] in question.answers
            three += any(answer in question.answers for answer in found[:3])
        print(f"{name}: top-1 {first / len(questions):.0%}, top-3 {three / len(questions):.0%},"
              f" median {statistics.median(times) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
