"""The ``renders`` cache (settings.CACHES: where the server's processes share sheets, steps
and poll answers, companion/shared_renders.py and companion/trusted_polls.py): CPU of one
write and one read, and how many texts written a moment ago are still there.

Compared, interleaved: Django's file cache as it was configured (``MAX_ENTRIES`` 300: each
write lists the folder, and a full folder loses a third of its files, chosen at random) and
companion/shared_cache.py's ``SharedFileCache`` as configured now (``MAX_ENTRIES`` 10,000,
culled by age once a second), each on a folder holding what 1,000 phones saving every 5 s
leave there (``--filled``: about 200 texts a second for the 30 s a text lives). A write
cache object is made per write, as Django makes one per request.

Printed per cache: milliseconds of CPU per write and per read of a 10 kB text (a step),
median of ``--rounds`` rounds with min and max; "kept": of the texts written in a round,
how many a read finds after ``--later`` further writes (1,000: five seconds of that
evening; a phone a few deals behind asks for steps written up to 20 s before); and the
load average.

    .venv/bin/python bench/renders_writes.py [--rounds 5] [--each 200] [--filled 6000]
        [--later 1000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--each", type=int, default=200)
    parser.add_argument("--filled", type=int, default=6000)
    parser.add_argument("--later", type=int, default=1000)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from django.conf import settings

    settings.configure(CACHES={})
    from django.core.cache.backends.filebased import FileBasedCache

    from companion.shared_cache import SharedFileCache

    kinds = {
        "Django's FileBasedCache, MAX_ENTRIES 300": (FileBasedCache, 300),
        "SharedFileCache, MAX_ENTRIES 10,000": (SharedFileCache, 10_000),
    }
    text = "x" * 10_000
    writes: dict[str, list[float]] = {kind: [] for kind in kinds}
    reads: dict[str, list[float]] = {kind: [] for kind in kinds}
    kept: dict[str, list[float]] = {kind: [] for kind in kinds}
    with tempfile.TemporaryDirectory() as folder:
        def cache(kind: str) -> FileBasedCache:
            backend, most = kinds[kind]
            return backend(os.path.join(folder, str(most)),
                           {"TIMEOUT": 30, "OPTIONS": {"MAX_ENTRIES": most}})

        for kind in kinds:
            filling = cache(kind)
            for number in range(args.filled):  # as full as a busy evening leaves it
                filling.set(f"filled-{number}", text)
        for round_ in range(args.rounds):
            for kind in kinds:  # interleaved: a noisy machine hurts both alike
                started = time.process_time()
                for number in range(args.each):
                    cache(kind).set(f"text-{round_}-{number}", text)
                writes[kind].append((time.process_time() - started) / args.each * 1000)
                later = cache(kind)
                for number in range(args.later):  # the evening goes on (not timed)
                    later.set(f"later-{round_}-{number}", text)
                reader = cache(kind)
                started = time.process_time()
                found = sum(reader.get(f"text-{round_}-{number}") is not None
                            for number in range(args.each))
                reads[kind].append((time.process_time() - started) / args.each * 1000)
                kept[kind].append(found / args.each * 100)
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"# bench/renders_writes.py, {args.rounds} rounds of {args.each} writes, folders "
          f"filled with {args.filled} texts, load average {load}")
    print(f"{'cache':<42} {'write CPU ms':>12} {'min':>5} {'max':>5} "
          f"{'read CPU ms':>11} {'min':>5} {'max':>5} {'kept %':>6}")
    for kind in kinds:
        print(f"{kind:<42} {statistics.median(writes[kind]):>12.2f} {min(writes[kind]):>5.2f} "
              f"{max(writes[kind]):>5.2f} {statistics.median(reads[kind]):>11.3f} "
              f"{min(reads[kind]):>5.3f} {max(reads[kind]):>5.3f} "
              f"{statistics.median(kept[kind]):>6.0f}")


if __name__ == "__main__":
    main()
