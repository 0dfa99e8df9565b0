#!/usr/bin/env bash
# What the fleet's size costs (issue 33): for SIZES machines (default 1 1000 10000; add 100000
# by hand), in a fresh asset directory each:
#   add     wall time of `machine add --from` registering all of them (one change)
#   list    wall time of `machine list --format json`
#   ready   seconds from starting `serve` to its banner's "ready"
#   rss     serve's resident memory (MiB) once ready
#   pool    serve's own CPU µs per request for a pool token (wrk -t1 -c8, DURATION, 2.6 KB
#           config): the token is found among all the machines' tokens
#   machine serve's own CPU µs per request when every machine fetches its config once with its
#           own single-use token (claimed, served, confirmed, recorded in the ledger)
#   reload  seconds from SIGHUP to serve's "reloaded" line after `machine add` of one more
#           machine changed the token store (the ledger of every fetch flushed just before)
#   review  wall time of `csr review --evidence` of 2 CSRs per machine against the fetch records
#           and the Nodes (bench/fleet-csrs.py: half the fleet joined, half booting); one CSR
#           per machine is due, and "approved" says how many the review approved
# serve's CPU is its user + system time over the case divided by the requests it answered (wrk
# shares the cores: compare CPU per request, not req/s). Prints a markdown table.
# Needs: wrk, python3 with cryptography.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/build-prereqs
. scripts/build-prereqs
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

echo "| machines | add (s) | list (s) | serve ready (s) | serve RSS (MiB) | pool token CPU µs/req | machine token CPU µs/req | reload (s) | csr review (s) | approved |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for n in ${SIZES:-1 1000 10000}; do
  d="$work/a-$n"
  "$mcsctl" --dir "$d" init --cluster-name demo --base-domain example.com --san 127.0.0.1 -q >/dev/null 2>&1
  mkdir -p "$d/rendered"
  python3 bench/small-config.py "$d/rendered/worker.ign"
  python3 -c "
import sys
import ipaddress
for i in range($n): print(f'w{i},worker,{ipaddress.IPv4Address(0x0A000000 + i + 1)}')" > "$work/hosts-$n.csv"
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
  t0=$(ticks "$spid")
  fetched=$(python3 bench/fleet-fetch.py "$d" "$port" worker)
  t1=$(ticks "$spid")
  # (below 1,000 fetches the clock's ticks are too coarse to say)
  mcpu=$(python3 -c "print(f'{($t1 - $t0) / $hz / $fetched * 1e6:.1f}' if $fetched >= 1000 else '-')")
  reloads() { grep -c '"reload"' "$work/serve.err" || true; }
  r0=$(reloads); kill -HUP "$spid"; until [ "$(reloads)" -gt "$r0" ]; do sleep 0.01; done
  "$mcsctl" --dir "$d" machine add extra --pool worker -q >/dev/null
  r0=$(reloads); t0=$(secs); kill -HUP "$spid"
  until [ "$(reloads)" -gt "$r0" ]; do sleep 0.01; done; t1=$(secs)
  reload=$(python3 -c "print(f'{$t1 - $t0:.2f}')")
  kill "$spid"; wait "$spid" 2>/dev/null || true; spid=
  created=$(python3 -c "import datetime as d; print((d.datetime.now(d.timezone.utc) + d.timedelta(minutes=1)).strftime('%Y-%m-%dT%H:%M:%SZ'))")
  at=$(python3 -c "import datetime as d; print((d.datetime.now(d.timezone.utc) + d.timedelta(minutes=2)).strftime('%Y-%m-%dT%H:%M:%SZ'))")
  python3 bench/fleet-csrs.py "$n" "$created" "$work/csrs.json" "$work/nodes.json"
  t0=$(secs)
  "$mcsctl" --dir "$d" --format json --max-input-size 1GiB csr review --evidence --csrs "$work/csrs.json" --nodes "$work/nodes.json" --now "$at" > "$work/review.json" 2> "$work/review.err"
  t1=$(secs)
  review=$(python3 -c "print(f'{$t1 - $t0:.2f}')")
  approved=$(python3 -c "import json; print(sum(c['decision'] == 'approve' for c in json.load(open('$work/review.json'))['csrs']))")
  echo "| $n | $add | $list | $ready | $rss | $pcpu | $mcpu | $reload | $review | $approved of $((2 * n)) |"
  rm -rf "$d"
done
echo
echo "$(nproc) cores shared by wrk and serve; wrk -t1 -c8, $duration per case."
