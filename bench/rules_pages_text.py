"""The five rules pages as a reader sees them, as plain text with each heading's anchor,
German and English: what a writer of fresh test questions gets to read (with the
rulebooks in ../shared/seeds/), without the search or its question lists.

    .venv/bin/python bench/rules_pages_text.py > /tmp/rules_pages.txt
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    import django

    django.setup()
    from companion.rules_content import all_texts
    from companion.rules_search.index import plain_blocks

    for language in ("de", "en"):
        for text in all_texts(language):
            print(f"\n\n===== {text.title} ({text.slug}, {language}) =====\n")
            print(f"{text.summary}\n\n{text.key_rule}")
            for section in text.sections:
                print(f"\n[#{section.anchor}] {section.title}")
                for block in plain_blocks(section):
                    print(f"- {block}")


if __name__ == "__main__":
    main()
