#!/usr/bin/env bash
# What the fleet's size costs (issue 33): for SIZES machines (default 1 1000 10000; add 100000
# by hand), in a fresh asset directory each:
#   add     wall time of `machine add --from` registering all of them (one change)
#   list    wall time of `machine list --format json`
#   ready   seconds from starting `serve` to its banner's "ready"
#   rss     serve's resident memory (MiB) once ready
#   pool    serve's own CPU µs per request for a pool token (wrk -t1 -c8, DURATION, 2.6 KB
#           config): the token is found among all the machines' tokens
# serve's CPU is its user + system time over the case divided by the requests it answered (wrk
# shares the cores: compare CPU per request, not req/s). Prints a markdown table.
# Needs: wrk, python3.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
cargo build --release --quiet
mcsctl="$PWD/target/release/mcsctl"
work=$(mktemp -d)
spid=
cleanup() {
  [ -n "$spid" ] && kill "$spid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
duration=${DURATION:-5s}
port=22663
accept="Accept: application/vnd.coreos.ignition+json;version=3.3.0, */*;q=0.1"
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
secs() { python3 -c "import time; print(time.monotonic())"; }
cpu_per_request() { # header...
  local args=() t0 t1 out n
  for h in "$@"; do args+=(-H "$h"); done
  t0=$(ticks "$spid")
  out=$(wrk -t1 -c8 -d"$duration" "${args[@]}" "https://127.0.0.1:$port/config/worker" 2>&1)
  t1=$(ticks "$spid")
  n=$(echo "$out" | awk '/requests in/{print $1}')
  if echo "$out" | grep -q Non-2xx; then echo "non-2xx answers: $out" >&2; exit 1; fi
  python3 -c "print(f'{($t1 - $t0) / $hz / $n * 1e6:.1f}')"
}

echo "| machines | add (s) | list (s) | serve ready (s) | serve RSS (MiB) | pool token CPU µs/req |"
echo "| --- | --- | --- | --- | --- | --- |"
for n in ${SIZES:-1 1000 10000}; do
  d="$work/a-$n"
  "$mcsctl" --dir "$d" init --cluster-name demo --base-domain example.com --san 127.0.0.1 -q >/dev/null 2>&1
  mkdir -p "$d/rendered"
  python3 bench/small-config.py "$d/rendered/worker.ign"
  python3 -c "
import sys
for i in range($n): print(f'w{i},worker')" > "$work/hosts-$n.csv"
  pool=$("$mcsctl" --dir "$d" token create --pool worker -q)
  t0=$(secs); "$mcsctl" --dir "$d" machine add --from "$work/hosts-$n.csv" -q >/dev/null; t1=$(secs)
  add=$(python3 -c "print(f'{$t1 - $t0:.2f}')")
  t0=$(secs); "$mcsctl" --dir "$d" machine list --format json >/dev/null; t1=$(secs)
  list=$(python3 -c "print(f'{$t1 - $t0:.2f}')")
  t0=$(secs)
  "$mcsctl" --dir "$d" serve --listen 127.0.0.1:$port --reload-interval 60s > /dev/null 2> "$work/serve.err" &
  spid=$!
  until grep -q '^ready' "$work/serve.err"; do sleep 0.01; done
  t1=$(secs)
  ready=$(python3 -c "print(f'{$t1 - $t0:.2f}')")
  rss=$(awk '/VmRSS/{printf "%.1f", $2 / 1024}' "/proc/$spid/status")
  pcpu=$(cpu_per_request "Authorization: Bearer $pool" "$accept")
  kill "$spid"; wait "$spid" 2>/dev/null || true; spid=
  echo "| $n | $add | $list | $ready | $rss | $pcpu |"
  rm -rf "$d"
done
echo
echo "$(nproc) cores shared by wrk and serve; wrk -t1 -c8, $duration per case."
