"""Rules questions: ask as at the table, in German or English, and get the sections
that answer, best first, with the answering sentence (:func:`.answers.search`).

The engine: :mod:`.text` (folding, stemming, stop words), :mod:`.synonyms`
and :mod:`.names` (the games' words and names), :mod:`.index` (built once
per process), :mod:`.ranking` (BM25 and the answering sentence) and
:mod:`.card_questions` (a question naming cards opens the check with them).
What each game adds (its names, words, move sections and card reader) is in
its folder, ``companion/games/<game>/search.py`` (``GameApp.search``), built
from :mod:`.words`.

This package's ``__init__`` imports nothing: the game folders import :mod:`.words`
while the registry (:mod:`companion.games`) is being built, and the modules that
answer questions need that registry.
"""
