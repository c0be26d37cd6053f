"""CPU of one write and one read of the ``renders`` cache (settings.CACHES: Django's file
cache, where the server's processes share the sheets they rendered, companion/shared_renders.py
and companion/trusted_polls.py), on a folder kept full, per ``MAX_ENTRIES``.

Every write of Django's file cache lists the whole folder (it counts the files to cull a
third of them once there are ``MAX_ENTRIES``), so a write costs more the more files the
folder may hold. A woken sheet's change writes two texts (the sheet, and the answer the
event loop gives the other phones of its kind). Printed per size: milliseconds of CPU per
write and per read of a 40 kB text, median of ``--rounds`` rounds with min and max, and
the load average.

    .venv/bin/python bench/renders_writes.py [--sizes 300,2000] [--rounds 5] [--each 100]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="300,2000")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--each", type=int, default=100)
    args = parser.parse_args()
    from django.conf import settings

    settings.configure(CACHES={})
    from django.core.cache.backends.filebased import FileBasedCache

    text = "x" * 40_000
    sizes = [int(size) for size in args.sizes.split(",")]
    caches = {}
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            cache = FileBasedCache(os.path.join(folder, str(size)),
                                   {"TIMEOUT": 30, "OPTIONS": {"MAX_ENTRIES": size}})
            for number in range(size - 1):  # full: the next writes cull
                cache.set(f"filled-{number}", text)
            caches[size] = cache
        writes: dict[int, list[float]] = {size: [] for size in sizes}
        reads: dict[int, list[float]] = {size: [] for size in sizes}
        for round_ in range(args.rounds):
            for size in sizes:  # interleaved: a noisy machine hurts every size alike
                cache = caches[size]
                started = time.process_time()
                for number in range(args.each):
                    cache.set(f"text-{round_}-{number}", text)
                writes[size].append((time.process_time() - started) / args.each * 1000)
                started = time.process_time()
                for number in range(args.each):
                    cache.get(f"text-{round_}-{number}")
                reads[size].append((time.process_time() - started) / args.each * 1000)
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"# bench/renders_writes.py, {args.rounds} rounds of {args.each}, load average {load}")
    print(f"{'MAX_ENTRIES':>11} {'write CPU ms':>12} {'min':>5} {'max':>5} "
          f"{'read CPU ms':>11} {'min':>5} {'max':>5}")
    for size in sizes:
        print(f"{size:>11} {statistics.median(writes[size]):>12.2f} {min(writes[size]):>5.2f} "
              f"{max(writes[size]):>5.2f} {statistics.median(reads[size]):>11.2f} "
              f"{min(reads[size]):>5.2f} {max(reads[size]):>5.2f}")


if __name__ == "__main__":
    main()
