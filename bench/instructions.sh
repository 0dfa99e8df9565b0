#!/usr/bin/env bash
# Instructions per request, counted by valgrind's callgrind: mcsctl serve (token auth on, the
# access log written) and serve's stack with none of serve's work (examples/hyper_floor.rs:
# tokio-rustls and hyper on serve's worker model, serve's TLS configuration), each answering the
# same 2.6 KB config over TLS on loopback, to the same requests (the floor is sent the token and
# ignores it). A count does not move with the load on the machine's two shared cores, as CPU
# time does (bench/serve.sh's figures vary by a tenth from run to run),
# so it shows a change of a few percent in serve's own work; it says nothing of cache misses,
# locks between cores or system calls, which bench/serve.sh measures.
#
# Per case: one wrk thread, 4 connections; a second of warm-up, the counts zeroed, 3 s counted
# (`callgrind_control -z`, `-d`). Under valgrind, AES and SHA take their AVX paths, not AVX-512
# or SHA-NI: the crypto's share is larger than on the machine. Needs valgrind, wrk, curl,
# python3 (Debian packages).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/build-prereqs
. scripts/build-prereqs
for p in valgrind wrk curl python3; do command -v "$p" >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind wrk curl python3; }; done
cargo build --release --quiet --bin mcsctl --example hyper_floor
target="${CARGO_TARGET_DIR:-$PWD/target}"
mcsctl="$target/release/mcsctl"
floor="$target/release/examples/hyper_floor"
work=$(mktemp -d)
vpid=
cleanup() {
  [ -n "$vpid" ] && kill "$vpid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

"$mcsctl" --dir "$work/a" init --cluster-name demo --base-domain example.com --san 127.0.0.1 -q >/dev/null 2>&1
mkdir -p "$work/a/rendered" "$work/docroot"
python3 bench/small-config.py "$work/a/rendered/small.ign"
token=$("$mcsctl" --dir "$work/a" token create --pool small -q)
accept="Accept: application/vnd.coreos.ignition+json;version=3.3.0, */*;q=0.1"
ca="$work/a/tls/mcs-ca.crt"

# count NAME MODE HEADER...: runs the server started as $vpid, prints instructions per request.
count() {
  local name=$1 mode=$2; shift 2
  local h=(-H "$accept")
  for x in "$@"; do h+=(-H "$x"); done
  local url="https://127.0.0.1:$port/config/small"
  for _ in $(seq 300); do curl -sf -o /dev/null --cacert "$ca" "${h[@]}" "$url" && break; sleep 0.2; done
  curl -sf -o /dev/null --cacert "$ca" "${h[@]}" "$url" || { echo "$name does not answer" >&2; exit 1; }
  wrk -t1 -c4 -d1s "${h[@]}" "$url" >/dev/null
  callgrind_control -z "$vpid" >/dev/null 2>&1
  [ "$mode" = close ] && h+=(-H "Connection: close")
  local n
  n=$(wrk -t1 -c4 -d3s "${h[@]}" "$url" | awk '/requests in/{print $1}')
  callgrind_control -d "$vpid" >/dev/null 2>&1
  kill "$vpid"; wait "$vpid" 2>/dev/null || true; vpid=
  local f total
  f=$(ls "$work/cg.$name".*.1)
  total=$(callgrind_annotate "$f" 2>/dev/null | awk '/PROGRAM TOTALS/{gsub(",","",$1); print $1}')
  rm -f "$work/cg.$name".*
  echo $((total / n))
}

measure() { # mode: prints "serve floor"
  local mode=$1
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.serve.%p" "$mcsctl" --dir "$work/a" serve \
    --listen "127.0.0.1:$port" --reload-interval 60s > "$work/access.log" 2> "$work/serve.err" &
  vpid=$!
  local s f
  s=$(count serve "$mode" "Authorization: Bearer $token")
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.floor.%p" "$floor" "$port" \
    "$work/a/tls/mcs.crt" "$work/a/tls/mcs.key" "$work/docroot" > "$work/floor.out" 2>&1 &
  vpid=$!
  f=$(count floor "$mode" "Authorization: Bearer $token")
  echo "$s $f"
}

# The floor serves the bytes serve serves: fetched once from serve (outside the counts).
"$mcsctl" --dir "$work/a" serve --listen "127.0.0.1:$port" --reload-interval 60s > /dev/null 2> "$work/once.err" &
vpid=$!
for _ in $(seq 100); do grep -q '^ready' "$work/once.err" && break; sleep 0.1; done
curl -sf -o "$work/docroot/small.ign" --cacert "$ca" -H "$accept" -H "Authorization: Bearer $token" \
  "https://127.0.0.1:$port/config/small"
kill "$vpid"; wait "$vpid" 2>/dev/null || true; vpid=
echo "| case | mcsctl instructions / request | rustls + hyper | mcsctl - floor | mcsctl / floor |"
echo "| --- | --- | --- | --- | --- |"
for mode in keep-alive close; do
  read -r s f < <(measure "$mode")
  python3 -c "s, f = $s, $f; print(f'| small, $mode | {s:,} | {f:,} | {s - f:,} | {s / f:.2f} |')"
done
