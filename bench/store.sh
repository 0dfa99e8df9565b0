#!/usr/bin/env bash
# Machine-token fetches with the store (`serve --store`, one etcd member from Debian's
# etcd-server on loopback) against the ledger file and against no recording at all (a pool
# token), on one serve: req/s of 200s and serve's own CPU time per 200, and etcd's CPU per 200
# for the store cases (wrk shares the two cores with both servers: compare CPU per request).
#
# Cases, each DURATION (5s; the single-use ones ONCE_DURATION, 2s) with wrk -t2 -c32, a 2.6 KB config, Ignition 2.14's Accept header:
#   off           a pool token: nothing recorded
#   file/any      one machine token with any number of uses: a record per fetch (pwrite)
#   store/any     the same with --store: a record put per fetch
#   file/once     a single-use token per request (N machines, each fetched once): a claim per fetch
#   store/once    the same with --store: one compare-and-swap per fetch
# Needs: etcd (etcd-server), wrk, python3. Prints a markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/build-prereqs
. scripts/build-prereqs
for p in etcd wrk; do command -v "$p" >/dev/null || { apt-get update -qq && apt-get install -y -qq etcd-server wrk; }; done
cargo build --release --quiet
mcsctl="$PWD/target/release/mcsctl"
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
duration=${DURATION:-5s}
machines=${MACHINES:-30000}
# The single-use cases run shorter: each spends a token per request, from its own half.
once_duration=${ONCE_DURATION:-2s}
port=22653
eport=23791

"$mcsctl" --dir "$work/a" init --cluster-name demo --base-domain example.com --san 127.0.0.1 -q >/dev/null 2>&1
mkdir -p "$work/a/rendered"
python3 bench/small-config.py "$work/a/rendered/worker.ign"
pool=$("$mcsctl" --dir "$work/a" token create --pool worker -q)
"$mcsctl" --dir "$work/a" machine add any-0 --pool worker --uses 0 -q >/dev/null
python3 - "$machines" > "$work/hosts.csv" <<'PY'
import sys
for i in range(int(sys.argv[1])):
    print(f"once-{i},worker")
PY
"$mcsctl" --dir "$work/a" machine add --from "$work/hosts.csv" -q >/dev/null
bearer() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['ignition']['config']['merge'][0]['httpHeaders'][0]['value'])" "$1"; }
any=$(bearer "$work/a/machines/any-0.ign")
python3 - "$work/a/machines" "$machines" "$work" <<'PY'
import json, sys
n = int(sys.argv[2])
with open(f"{sys.argv[3]}/once-file.txt", "w") as a, open(f"{sys.argv[3]}/once-store.txt", "w") as b:
    for i in range(n):
        d = json.load(open(f"{sys.argv[1]}/once-{i}.ign"))
        (a if i < n // 2 else b).write(d["ignition"]["config"]["merge"][0]["httpHeaders"][0]["value"] + "\n")
PY
# Each wrk thread takes every other token: no two requests use one.
cat > "$work/once.lua" <<'LUA'
local tokens, n, i = {}, 0, 0
local threads = 0
function setup(thread) thread:set("id", threads); threads = threads + 1 end
function init(args)
  for line in io.lines(os.getenv("TOKENS")) do n = n + 1; tokens[n] = line end
end
function request()
  local t = tokens[(i * 2 + id) % n + 1]
  i = i + 1
  return wrk.format("GET", "/config/worker", {["Authorization"] = t, ["Accept"] = os.getenv("ACCEPT")})
end
LUA
accept="application/vnd.coreos.ignition+json;version=3.3.0, */*;q=0.1"

etcd --data-dir "$work/etcd" --listen-client-urls "http://127.0.0.1:$eport" --advertise-client-urls "http://127.0.0.1:$eport" \
  --listen-peer-urls http://127.0.0.1:23801 --initial-advertise-peer-urls http://127.0.0.1:23801 \
  --initial-cluster default=http://127.0.0.1:23801 --quota-backend-bytes 8589934592 > "$work/etcd.log" 2>&1 &
epid=$!; pids+=("$epid")
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$eport/health" | grep -q true && break; sleep 0.1; done

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
start_serve() { # extra args
  "$mcsctl" --dir "$work/a" serve --listen 127.0.0.1:$port --reload-interval 60s "$@" > /dev/null 2> "$work/serve.err" &
  spid=$!; pids+=("$spid")
  for _ in $(seq 100); do grep -q '^ready' "$work/serve.err" && break; sleep 0.1; done
}
stop_serve() { kill "$spid"; wait "$spid" 2>/dev/null || true; }
measure() { # label, duration, then wrk's arguments
  local label=$1 duration=$2; shift 2
  local s0 e0 out ok total s1 e1
  s0=$(ticks "$spid"); e0=$(ticks "$epid")
  out=$(TOKENS="$work/once-${label%%/*}.txt" ACCEPT="$accept" wrk -t2 -c32 -d"$duration" "$@" "https://127.0.0.1:$port/config/worker" 2>&1)
  s1=$(ticks "$spid"); e1=$(ticks "$epid")
  total=$(echo "$out" | awk '/requests in/{print $1}')
  bad=$(echo "$out" | awk '/Non-2xx/{print $5}'); bad=${bad:-0}
  ok=$((total - bad))
  python3 - "$label" "$ok" "$bad" "$duration" "$((s1 - s0))" "$((e1 - e0))" "$hz" <<'PY'
import sys
label, ok, bad, dur, st, et, hz = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
secs = float(dur.rstrip("s"))
per = lambda t: f"{t / hz / ok * 1e6:.1f}" if ok else "-"
print(f"| {label} | {ok / secs:.0f} | {bad} | {per(st)} | {per(et) if 'store' in label else '-'} |")
PY
}

echo "| case | 200/s | non-2xx | serve CPU µs per 200 | etcd CPU µs per 200 |"
echo "| --- | --- | --- | --- | --- |"
start_serve --ledger "$work/ledger.jsonl"
measure off "$duration" -H "Authorization: Bearer $pool" -H "Accept: $accept"
measure file/any "$duration" -H "Authorization: $any" -H "Accept: $accept"
measure file/once "$once_duration" -s "$work/once.lua"
stop_serve
# The store starts from the same tokens, none spent there (the file cases' fetches are not
# imported).
start_serve --store "etcd://127.0.0.1:$eport" --store-insecure --store-prefix /bench/
measure store/any "$duration" -H "Authorization: $any" -H "Accept: $accept"
measure store/once "$once_duration" -s "$work/once.lua"
stop_serve
echo
echo "$machines single-use machines (half per single-use case); wrk -t2 -c32, $duration per case ($once_duration single-use); $(nproc) cores shared by wrk, serve and etcd."
