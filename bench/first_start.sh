#!/usr/bin/env bash
# The first and a later start of `make run` on a fresh clone: wall time from `make run` to
# the first HTTP answer, and the load average before each. Nothing of the clone is kept.
#   bash bench/first_start.sh [REPO] [BRANCH]     (PORT=8801 by default, on 127.0.0.1)
# Uses the machine's pip/uv caches as they are (say so when reporting); COLD=1 gives pip
# and uv an empty cache of their own for the first start.
set -euo pipefail
REPO=$(cd "${1:-.}" && pwd)
BRANCH=${2:-$(git -C "$REPO" rev-parse --abbrev-ref HEAD)}
PORT=${PORT:-8801}
work=$(mktemp -d /tmp/kr-first-start.XXXXXX)
trap 'rm -rf "$work"' EXIT
git clone -q --branch "$BRANCH" "$REPO" "$work/kartenrunde"
cd "$work/kartenrunde"
if [ "${COLD:-}" = 1 ]; then
  export PIP_CACHE_DIR="$work/pip-cache" UV_CACHE_DIR="$work/uv-cache"
fi

start() {
  local label=$1 began pid
  echo "$label: load average $(cut -d' ' -f1-3 /proc/loadavg)"
  began=$(date +%s.%N)
  setsid make run HOST=127.0.0.1 PORT="$PORT" >"$work/$label.out" 2>&1 &
  pid=$!
  until curl -fso /dev/null "http://127.0.0.1:$PORT/"; do
    kill -0 "$pid" 2>/dev/null || { echo "make run ended:"; tail -n 20 "$work/$label.out"; exit 1; }
    sleep 0.1
  done
  printf '%s: %.1f s to the first answer\n' "$label" "$(echo "$(date +%s.%N) - $began" | bc)"
  kill -INT -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  while curl -fso /dev/null "http://127.0.0.1:$PORT/"; do sleep 0.1; done
}

start first
start later
start later-again
