"""How many phones one app process keeps in step (issue 18): held polls against gunicorn.

The app is served as `make run` serves it (bench/served.py: one process x 32 threads, on
a throw-away SQLite file, or PostgreSQL with ``--database-url``). For each number N of
phones, N logged-in phones open a running 11 nimmt! sheet and keep a poll waiting for the
next change (``KR-Wait``, as static/js/sync.js does); once every poll has waited a while,
another phone saves a correction of a deal. Printed per N: how many polls answered with
the new sheet, and how soon after the correction's answer (median, p95, max), how many
the server could not hold (answered 304 at once: the phone polls again 2 s later), and
what an ordinary page cost meanwhile (wall time of /rules/ while the polls wait).

    .venv/bin/python bench/held.py [--phones 8,16,24,32] [--database-url postgres://...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time

import served

PORT = 8397


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", default="8,16,24,32")
    parser.add_argument("--database-url")
    args = parser.parse_args()
    counts = [int(n) for n in args.phones.split(",")]
    environment, label = served.prepare(args.database_url)
    seeder = served.Seeder()
    owner = seeder.user("owner")
    members = [seeder.user(f"phone{index}") for index in range(max(counts))]
    group, players = seeder.group("Held", owner, ["Anna", "Ben", "Cem", "Dora"], members)
    match = seeder.match(group, "elf-nimmt", players, recorded=2)
    sheet = f"/g/{group.pk}/matches/{match.pk}/"
    load = os.getloadavg()
    print(f"# bench/held.py, {label}, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'phones':>6} {'new sheet':>9} {'median ms':>9} {'p95 ms':>7} {'max ms':>7} "
          f"{'not held':>8} {'/rules/ ms':>10}")
    with served.server(environment, PORT):
        phones = []
        for member in members:
            phone = served.Phone(PORT)
            phone.login(member.username)
            phones.append(phone)
        editor = served.Phone(PORT)
        editor.login("owner")
        for count in counts:
            answers: list[tuple[int, float]] = []
            lock = threading.Lock()

            def hold(phone: served.Phone, answers: list[tuple[int, float]] = answers,
                     lock: threading.Lock = lock) -> None:
                try:
                    etag = phone.request("GET", sheet, headers={"HX-Request": "true"}).headers[
                        "ETag"]
                    answer = phone.request("GET", sheet, headers={
                        "HX-Request": "true", "If-None-Match": etag, "KR-Wait": "1"})
                    status = answer.status
                except OSError:  # counted as not followed
                    status = 0
                with lock:
                    answers.append((status, time.monotonic()))

            threads = [threading.Thread(target=hold, args=(phone,)) for phone in phones[:count]]
            for thread in threads:
                thread.start()
            time.sleep(3 + count / 8)  # every poll is waiting now
            rules = [editor.request("GET", "/rules/").wall for _ in range(5)]
            edit = editor.request("GET", f"{sheet}deals/2/")
            # The correction as the form has it: saved again, the match's revision moves on.
            data = served.form_values(edit.text, f"{sheet}deals/2/")
            editor.request("POST", f"{sheet}deals/2/", data=data,
                           headers={"X-CSRFToken": editor.cookies.get("csrftoken", "")})
            saved = time.monotonic()
            for thread in threads:
                thread.join(timeout=30)
            woken = [(at - saved) * 1000 for status, at in answers if status == 200 and at >= saved]
            not_held = sum(1 for status, at in answers if at < saved or status not in (200, 304))
            if woken:
                print(f"{count:>6} {len(woken):>9} {statistics.median(woken):>9.0f} "
                      f"{quantile(woken, 0.95):>7.0f} {max(woken):>7.0f} {not_held:>8} "
                      f"{statistics.median(rules) * 1000:>10.1f}")
            else:
                print(f"{count:>6} {0:>9} {'-':>9} {'-':>7} {'-':>7} {not_held:>8} "
                      f"{statistics.median(rules) * 1000:>10.1f}")
        for phone in [*phones, editor]:
            phone.close()


if __name__ == "__main__":
    main()
