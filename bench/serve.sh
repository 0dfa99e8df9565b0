#!/usr/bin/env bash
# mcsctl serve (token auth on, wrk sending the header) against nginx from Debian (no auth, sent
# the same header), on loopback, same ECDSA P-256 certificate and the same files: a 2.6 KB config, and a 300 KB
# OpenShift payload made by `mcsctl render` from a worker pool of MachineConfigs (text files and
# units percent-encoded as oc writes them, a bootstrap kubeconfig, the four files the MCS
# appends), keep-alive and `Connection: close` (a TLS handshake per request, as every booting
# machine does). Requests carry Ignition 2.14's Accept header. wrk: 2 threads, 64 connections, 10 s per case. Then peak RSS of each server with 1000
# open TLS connections. Prints a markdown table with the ratios mcsctl/nginx, each server's own CPU time per request
# included (wrk shares the cores, so req/s ratios understate the difference in server cost).
# Then the new-connection rates as a fraction of what the cores' crypto allows (openssl speed).
# Then the small config with `Connection: close` again from hey, a Go client: full handshakes, as Ignition makes.
# Then three floors on every case, next to mcsctl and nginx again: plain TCP (bench/floor.c, the
# keep-alive cases), rustls alone (examples/tls_floor.rs) and serve's stack with no work of its
# own (examples/hyper_floor.rs), all five servers taking turns in ROUNDS (4) rounds of a slice of
# DURATION each, so that every ratio in that table is of figures measured over the same minutes.
# Needs: nginx, wrk, hey, openssl, a C compiler (Debian packages), python3, and what building
# needs (scripts/build-prereqs installs protoc). FLOOR=0 skips the floors.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/build-prereqs
. scripts/build-prereqs
for p in nginx wrk hey openssl cc; do command -v "$p" >/dev/null || { apt-get update -qq && apt-get install -y -qq nginx-light wrk hey openssl gcc; }; done
cargo build --release --quiet
# MCSCTL_BIN measures another build of mcsctl (an older commit's, for a before-and-after) with
# this script and this tree's floors.
mcsctl="${MCSCTL_BIN:-$PWD/target/release/mcsctl}"
work=$(mktemp -d)
cleanup() {
  [ -n "${mpid:-}" ] && kill "$mpid" 2>/dev/null || true
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  for p in "${fpid:-}" "${tpid:-}" "${hfpid:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
duration=${DURATION:-10s}
mport=22623
nport=22643

"$mcsctl" --dir "$work/a" init --cluster-name demo --base-domain example.com --san 127.0.0.1 -q >/dev/null 2>&1
mkdir -p "$work/a/rendered"
python3 - "$work/a/rendered" <<'PY'
import json, sys, base64, os
d = sys.argv[1]
def config(target):
    files = []
    i = 0
    while len(json.dumps({"ignition": {"version": "3.2.0"}, "storage": {"files": files}})) < target:
        payload = base64.b64encode(os.urandom(600)).decode()
        files.append({"path": f"/etc/mcsctl-bench/{i}", "mode": 420, "contents": {"source": "data:;base64," + payload}})
        i += 1
    return json.dumps({"ignition": {"version": "3.2.0"}, "storage": {"files": files}}, separators=(",", ":"))
open(f"{d}/small.ign", "w").write(config(2600))
PY
# The large payload: a worker-like pool of N MachineConfigs rendered by mcsctl, N grown until the
# payload (with the MachineConfig content the MCS appends, which repeats the config) is 300 KB.
ca_b64=$(base64 -w0 "$work/a/tls/mcs-ca.crt")
printf 'apiVersion: v1\nkind: Config\nclusters:\n- name: local\n  cluster:\n    server: https://api-int.demo.example.com:6443\n    certificate-authority-data: %s\nusers:\n- name: kubelet\n  user:\n    token: eyJhbGciOiJSUzI1NiJ9.bench.bootstrap\ncontexts:\n- name: kubelet\n  context: {cluster: local, user: kubelet}\ncurrent-context: kubelet\n' "$ca_b64" > "$work/kubeconfig"
gen_mcs() { # count
  python3 - "$1" "$work/mcs.json" <<'PY'
import json, sys, urllib.parse
n, out = int(sys.argv[1]), sys.argv[2]
text = lambda i, kind, lines: "".join(f"# {kind} {i}: line {j} of a generated configuration file\nsetting_{j} = \"value-{i}-{j}\"\n" for j in range(lines))
items = []
for i in range(n):
    files = [
        {"path": f"/etc/crio/crio.conf.d/{i:02d}-bench", "mode": 420, "contents": {"source": "data:," + urllib.parse.quote(text(i, "crio", 30), safe="")}},
        {"path": f"/usr/local/bin/bench-{i}.sh", "mode": 493, "contents": {"source": "data:," + urllib.parse.quote("#!/bin/bash\nset -euo pipefail\n" + text(i, "script", 20), safe="")}},
    ]
    units = [{"name": f"bench-{i}.service", "enabled": True,
              "contents": f"[Unit]\nDescription=bench {i}\nAfter=network-online.target\n[Service]\nType=oneshot\nExecStart=/usr/local/bin/bench-{i}.sh\n[Install]\nWantedBy=multi-user.target\n",
              "dropins": [{"name": "10-env.conf", "contents": f"[Service]\nEnvironment=BENCH={i}\n"}]}]
    items.append({"apiVersion": "machineconfiguration.openshift.io/v1", "kind": "MachineConfig",
                  "metadata": {"name": f"{i:02d}-large", "labels": {"machineconfiguration.openshift.io/role": "large"}},
                  "spec": {"config": {"ignition": {"version": "3.2.0"}, "storage": {"files": files}, "systemd": {"units": units}},
                           "kernelArguments": [f"bench.{i}=1"] if i % 10 == 0 else []}})
json.dump({"apiVersion": "v1", "kind": "List", "items": items}, open(out, "w"))
PY
}
n=10
while :; do
  gen_mcs "$n"
  "$mcsctl" --dir "$work/a" render --machine-configs "$work/mcs.json" --bootstrap-kubeconfig "$work/kubeconfig" --force -q >/dev/null 2>&1
  [ "$(stat -c %s "$work/a/rendered/large.ign")" -ge 300000 ] && break
  n=$((n + 2))
done
echo "large: $n MachineConfigs rendered by mcsctl render into $(stat -c %s "$work/a/rendered/large.ign") bytes" >&2
# A token for the two bench pools (tokens are scoped to the pools they may fetch).
token=$("$mcsctl" --dir "$work/a" token create --pool small --pool large -q)

cat > "$work/nginx.conf" <<NGINX
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log $work/nginx-access.log;
  sendfile on;
  keepalive_requests 1000000;
  keepalive_timeout 10s;
  server {
    listen 127.0.0.1:$nport ssl;
    ssl_certificate $work/a/tls/mcs.crt;
    ssl_certificate_key $work/a/tls/mcs.key;
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_session_cache shared:SSL:10m;
    location ~ ^/config/([a-z0-9-]+)\$ {
      default_type application/json;
      alias $work/docroot/\$1.ign;
    }
  }
}
NGINX
# What Ignition 2.14 sends. mcsctl answers it as the MCS does, converting the stored config to
# spec 3.3.0 (the MCS's pipeline, done once at load); nginx serves those same bytes from files.
accept="Accept: application/vnd.coreos.ignition+json;version=3.3.0, */*;q=0.1"
"$mcsctl" --dir "$work/a" serve --listen 127.0.0.1:$mport --reload-interval 60s --max-connections-per-client 2048 > "$work/mcsctl-access.log" 2> "$work/mcsctl.err" &
mpid=$!
for _ in $(seq 100); do grep -q '^ready' "$work/mcsctl.err" && break; sleep 0.1; done
grep -q '^ready' "$work/mcsctl.err" || { cat "$work/mcsctl.err" >&2; exit 1; }
mkdir -p "$work/docroot"
for size in small large; do
  curl -sf --cacert "$work/a/tls/mcs-ca.crt" -H "Authorization: Bearer $token" -H "$accept" \
    -o "$work/docroot/$size.ign" "https://127.0.0.1:$mport/config/$size"
done
# nginx workers run unprivileged: they must be able to read the configs (keys stay 0600 and
# are read by the master).
chmod 755 "$work" "$work/docroot"
chmod 644 "$work/docroot/"*.ign
nginx -c "$work/nginx.conf"
for _ in $(seq 100); do curl -s -o /dev/null --cacert "$work/a/tls/mcs-ca.crt" "https://127.0.0.1:$nport/" && break; sleep 0.1; done

nginx_workers() { ps -o pid= --ppid "$(cat "$work/nginx.pid")" | tr '\n' ' '; }
nginx_pids() { pgrep -f "nginx.*$work/nginx.conf" | tr '\n' ' '; nginx_workers; }
hwm() { local t=0; for p in "$@"; do v=$(awk '/VmHWM/{print $2}' "/proc/$p/status" 2>/dev/null || echo 0); t=$((t + v)); done; echo "$t"; }

run_wrk() { # url extra-header...
  local url=$1; shift
  local args=()
  for h in "$@"; do args+=(-H "$h"); done
  wrk -t2 -c64 -d"$duration" --latency "${args[@]}" "$url" 2>&1
}
rps() { awk '/Requests\/sec/{print $2}'; }
p99() { awk '$1=="99%"{print $2}' | python3 -c "
import sys
v=sys.stdin.read().strip()
m={'us':0.001,'ms':1,'s':1000}
for u in ('us','ms','s'):
    if v.endswith(u): print(round(float(v[:-len(u)])*m[u],3)); break"; }

# Both must serve the same bytes before anything is measured.
for size in small large; do
  curl -sf --cacert "$work/a/tls/mcs-ca.crt" -H "Authorization: Bearer $token" -H "$accept" -o "$work/m-$size" "https://127.0.0.1:$mport/config/$size"
  curl -sf --cacert "$work/a/tls/mcs-ca.crt" -H "$accept" -o "$work/n-$size" "https://127.0.0.1:$nport/config/$size"
  cmp -s "$work/m-$size" "$work/n-$size" || { echo "servers disagree on $size" >&2; exit 1; }
done
# A warm-up (WARMUP, 5s; 0 skips) of each server on the first case, not measured: without it the
# first case of a run was up to 30% slower for mcsctl in 3 of 7 runs, never a later one.
if [ "${WARMUP:-5s}" != 0 ]; then
  wrk -t2 -c64 -d"${WARMUP:-5s}" -H "Authorization: Bearer $token" -H "$accept" "https://127.0.0.1:$mport/config/small" >/dev/null 2>&1
  wrk -t2 -c64 -d"${WARMUP:-5s}" -H "Authorization: Bearer $token" -H "$accept" "https://127.0.0.1:$nport/config/small" >/dev/null 2>&1
fi
# LEDGER_ONLY=1: only the ledger table below.
[ -n "${LEDGER_ONLY:-}" ] && sizes="" || sizes="small large"
# Each server's own CPU time per request (user + system, from /proc; nginx: its workers), so
# what the server costs shows apart from wrk, which shares the two cores.
ticks() { local t=0 v; for p in "$@"; do v=$(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0); t=$((t + v)); done; echo "$t"; }
per_req() { python3 -c "import sys; d, n, hz = map(float, sys.argv[1:]); print(round(d * 1e6 / hz / n, 1))" "$1" "$2" "$(getconf CLK_TCK)"; }
requests() { awk '/requests in/{print $1}'; }
[ -n "$sizes" ] && echo "| case | mcsctl req/s | nginx req/s | ratio | mcsctl p99 (ms) | nginx p99 (ms) | ratio | mcsctl CPU µs/req | nginx CPU µs/req | ratio |"
[ -n "$sizes" ] && echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
# One case on both servers: `client` (run_wrk or hey_out) fetches `path` from mcsctl and then
# from nginx, with the headers given and the token, which nginx is sent too (and ignores): every
# server in this script is measured on the same request bytes. Sets m and n (the client's
# output) and mt and nt (each server's CPU ticks meanwhile).
# timed PIDS CLIENT URL HEADER...: runs CLIENT on URL; sets out (its output) and spent (the CPU
# ticks of PIDS, a space-separated list, meanwhile).
timed() {
  local pids=$1 client=$2 t0 t1
  shift 2
  # shellcheck disable=SC2086 # a list of PIDs
  t0=$(ticks $pids); out=$("$client" "$@"); t1=$(ticks $pids)
  spent=$((t1 - t0))
}
both() { # client path header...
  local client=$1 path=$2
  shift 2
  timed "$mpid" "$client" "https://127.0.0.1:$mport$path" "Authorization: Bearer $token" "$@"
  m=$out; mt=$spent
  timed "$(nginx_workers)" "$client" "https://127.0.0.1:$nport$path" "Authorization: Bearer $token" "$@"
  n=$out; nt=$spent
}
ratio() { python3 -c "print(round($1/$2,2))"; }
row() { # label, then mcsctl and nginx: req/s, p99, CPU per request
  echo "| $1 | $2 | $3 | $(ratio "$2" "$3") | $4 | $5 | $(ratio "$4" "$5") | $6 | $7 | $(ratio "$6" "$7") |"
}
handshakes=()
for size in $sizes; do
  for mode in keep-alive close; do
    extra=()
    [ "$mode" = close ] && extra=("Connection: close")
    both run_wrk "/config/$size" "$accept" "${extra[@]}"
    mr=$(echo "$m" | rps); nr=$(echo "$n" | rps)
    bytes=$(stat -c %s "$work/docroot/$size.ign")
    [ "$mode" = close ] && handshakes+=("$size close, wrk (resumed: wrk's OpenSSL resumes its TLS 1.3 sessions, so no signature)=$mr")
    row "$size ($bytes B), $mode" "$mr" "$nr" "$(echo "$m" | p99)" "$(echo "$n" | p99)" \
      "$(per_req "$mt" "$(echo "$m" | requests)")" "$(per_req "$nt" "$(echo "$n" | requests)")"
    for out in "$m" "$n"; do
      if echo "$out" | grep -q "Non-2xx"; then echo "non-2xx responses during $size $mode:" >&2; echo "$out" >&2; exit 1; fi
    done
  done
done

# Ignition's own TLS stack: hey (Go's net/http and crypto/tls, the stack Ignition is built on)
# with keep-alive off. Go keeps no session cache unless told to, so, as for a booting machine,
# every request is a full TLS 1.3 handshake with the certificate's signature, which wrk's resumed
# handshakes never exercise. hey 0.1.4 puts the Host header's "host:port" in SNI, which rustls
# refuses as not a host name (Go's own server, the MCS's, ignores it); -host 127.0.0.1 makes Go
# send no SNI, as it does for Ignition's IP-address URLs. HEY=0 skips the case.
hey_out() { # url header...
  local url=$1; shift
  local args=()
  for h in "$@"; do args+=(-H "$h"); done
  hey -z "$duration" -c 64 -disable-keepalive -host 127.0.0.1 "${args[@]}" "$url" 2>&1
}
hey_check() { # label output: every response a 200, no client error
  if echo "$2" | grep -v '\[200\]' | grep -qE '^\s+\[[0-9]+\]|Error distribution'; then
    echo "non-200 responses or errors from hey ($1):" >&2; echo "$2" >&2; exit 1
  fi
}
hey_rps() { awk '/Requests\/sec/{printf "%.0f\n", $2}'; }
hey_p99() { awk '$1=="99%"{print $3 * 1000}'; }
hey_n() { grep -oE '\[200\][[:space:]]+[0-9]+' | awk '{print $2}'; }
if [ -n "$sizes" ] && [ "${HEY:-1}" != 0 ]; then
  both hey_out /config/small "$accept"
  hey_check mcsctl "$m"; hey_check nginx "$n"
  mr=$(echo "$m" | hey_rps)
  handshakes+=("small close, hey (full handshakes, as Ignition)=$mr")
  row "small, close, hey (Go TLS, full handshakes)" "$mr" "$(echo "$n" | hey_rps)" \
    "$(echo "$m" | hey_p99)" "$(echo "$n" | hey_p99)" \
    "$(per_req "$mt" "$(echo "$m" | hey_n)")" "$(per_req "$nt" "$(echo "$n" | hey_n)")"
fi

# The floors (FLOOR=0 skips): what a server does at the least, on the same loads, measured here
# next to mcsctl and nginx again so the ratios of the table above can be read against them.
# - plain TCP: bench/floor.c answers keep-alive requests with the same bytes, one write per read,
#   no TLS, no HTTP beyond finding the blank line (keep-alive cases only);
# - rustls: examples/tls_floor.rs, rustls configured as serve configures it, on a bare event loop
#   per core, the response found by its request line: no async runtime, no HTTP library;
# - rustls + hyper: examples/hyper_floor.rs, serve's stack (tokio-rustls and hyper on serve's
#   worker model, with its header timeout) answering from a map of paths: no auth, no
#   negotiation, no log.
# mcsctl's distance from the last is its own work; the first two bound any server on this kernel
# and on this TLS library.
if [ -n "$sizes" ] && [ "${FLOOR:-1}" != 0 ]; then
  cc -O2 -pthread -o "$work/floor" bench/floor.c
  cargo build --release --quiet --example tls_floor --example hyper_floor
  fport=22663; tport=22673; hport=22683
  target/release/examples/tls_floor $tport "$work/a/tls/mcs.crt" "$work/a/tls/mcs.key" "$work/docroot" > "$work/tls_floor.out" 2>&1 &
  tpid=$!
  target/release/examples/hyper_floor $hport "$work/a/tls/mcs.crt" "$work/a/tls/mcs.key" "$work/docroot" > "$work/hyper_floor.out" 2>&1 &
  hfpid=$!
  for port in $tport $hport; do
    for _ in $(seq 100); do curl -sf -o /dev/null --cacert "$work/a/tls/mcs-ca.crt" "https://127.0.0.1:$port/config/small" && break; sleep 0.1; done
    for size in small large; do
      curl -sf --cacert "$work/a/tls/mcs-ca.crt" -H "$accept" -o "$work/f-$size" "https://127.0.0.1:$port/config/$size"
      cmp -s "$work/f-$size" "$work/docroot/$size.ign" || { echo "the floor on port $port serves other bytes for $size" >&2; exit 1; }
    done
  done
  # A case's servers take turns: ROUNDS (4) rounds, each giving every server a slice of DURATION
  # in the same order, and a server's CPU µs per request is its ticks over its requests summed
  # over the rounds. Measured one after the other, a minute apart, the floor and mcsctl saw
  # different machines: on these two shared cores the speed drifts by a tenth within minutes,
  # and one run's mcsctl / floor moved from 1.07 to 1.37 with no change in either's work.
  rounds=${ROUNDS:-4}
  secs=${duration%s}
  slice=$(python3 -c "print(f'{max(1.0, $secs / $rounds):g}s')")
  declare -A cpu reqs
  # turn NAME PIDS CLIENT URL HEADER...: one slice of CLIENT fetching URL; adds the CPU ticks of
  # PIDS (a space-separated list) and the requests served to NAME's totals.
  turn() {
    local name=$1 pids=$2 client=$3 url=$4 out spent n
    shift 4
    duration=$slice timed "$pids" "$client" "$url" "$@"
    if [ "$client" = hey_out ]; then
      hey_check "$name $url" "$out"; n=$(echo "$out" | hey_n)
    else
      if echo "$out" | grep -q "Non-2xx"; then echo "non-2xx responses from $name ($url):" >&2; echo "$out" >&2; exit 1; fi
      n=$(echo "$out" | requests)
    fi
    cpu[$name]=$((${cpu[$name]:-0} + spent)); reqs[$name]=$((${reqs[$name]:-0} + n))
  }
  # per NAME: NAME's CPU µs per request over its turns, or - when it had none.
  per() { if [ -n "${reqs[$1]:-}" ]; then per_req "${cpu[$1]}" "${reqs[$1]}"; else echo -; fi; }
  echo
  echo "| case (CPU µs per request) | plain TCP | rustls | rustls + hyper | mcsctl | nginx | plain TCP / nginx | rustls / nginx | rustls + hyper / nginx | mcsctl / nginx | mcsctl / rustls + hyper |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  cases=("small keep-alive" "small close" "large keep-alive" "large close")
  [ "${HEY:-1}" != 0 ] && cases+=("small close, hey")
  for label in "${cases[@]}"; do
    size=${label%% *}; client=run_wrk; extra=()
    case $label in *close*) extra=("Connection: close") ;; esac
    case $label in *hey) client=hey_out; extra=() ;; esac
    cpu=(); reqs=()
    workers=$(nginx_workers)
    keepalive=false; [ "${label#* }" = keep-alive ] && keepalive=true
    if $keepalive; then
      "$work/floor" "$fport" "$work/docroot/$size.ign" 2> "$work/floor.err" &
      fpid=$!
      for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$fport/" && break; sleep 0.1; done
    fi
    # Every server gets the same request, token included (only mcsctl checks it).
    h=("Authorization: Bearer $token" "$accept" "${extra[@]}")
    for _ in $(seq "$rounds"); do
      $keepalive && turn tcp "$fpid" run_wrk "http://127.0.0.1:$fport/config/$size" "${h[@]}"
      turn rustls "$tpid" "$client" "https://127.0.0.1:$tport/config/$size" "${h[@]}"
      turn hyper "$hfpid" "$client" "https://127.0.0.1:$hport/config/$size" "${h[@]}"
      turn mcsctl "$mpid" "$client" "https://127.0.0.1:$mport/config/$size" "${h[@]}"
      turn nginx "$workers" "$client" "https://127.0.0.1:$nport/config/$size" "${h[@]}"
    done
    if $keepalive; then kill "$fpid"; fpid=; fi
    tc=$(per tcp); tl=$(per rustls); hy=$(per hyper); mc=$(per mcsctl); nc=$(per nginx)
    tr=-; [ "$tc" != - ] && tr=$(ratio "$tc" "$nc")
    echo "| $label | $tc | $tl | $hy | $mc | $nc | $tr | $(ratio "$tl" "$nc") | $(ratio "$hy" "$nc") | $(ratio "$mc" "$nc") | $(ratio "$mc" "$hy") |"
  done
  kill "$tpid" "$hfpid"; tpid=; hfpid=
fi

# Handshakes against what these cores' crypto allows. A full TLS 1.3 handshake costs one P-256
# signature (the server), one verification (the client) and two X25519 (one each side); wrk
# shares the cores, so the limit counts both sides.
if [ -n "$sizes" ]; then
  speed=$(openssl speed -seconds 3 -multi "$(nproc)" ecdsap256 ecdhx25519 2>/dev/null)
  python3 - "$speed" "$(nproc)" "${handshakes[@]}" <<'PY'
import re, sys
speed, cores = sys.argv[1], sys.argv[2]
sign, verify = map(float, re.search(r"ecdsa \(nistp256\)\s+\S+s\s+\S+s\s+([\d.]+)\s+([\d.]+)", speed).groups())
x25519 = float(re.search(r"ecdh \(X25519\)\s+\S+s\s+([\d.]+)", speed).group(1))
limit = 1 / (1 / sign + 1 / verify + 2 / x25519)
print()
print(f"Crypto limit (`openssl speed -multi {cores} ecdsap256 ecdhx25519`): {sign:,.0f} P-256 signs/s, "
      f"{verify:,.0f} verifies/s, {x25519:,.0f} X25519/s; one sign, one verify and two X25519 per "
      f"handshake: {limit:,.0f} handshakes/s, half of it {limit / 2:,.0f}.")
for case in sys.argv[3:]:
    name, rate = case.rsplit("=", 1)
    print(f"mcsctl handshakes/s, {name}: {float(rate):,.0f} = {float(rate) / limit:.2f} of the limit.")
PY
fi

# The ledger: the small keep-alive case on mcsctl alone, with a machine token (every request
# a fetch recorded in auth/ledger) and with the pool token (no record). On two shared cores one
# 10 s run varies by up to 20% from the next, so the two alternate in LEDGER_PAIRS pairs (5),
# each pair in the other order from the last, and the ratio is of the medians. serve's own CPU
# time per request (from /proc) is printed too: it varies less than req/s.
"$mcsctl" --dir "$work/a" pointer --pool small -q >/dev/null
"$mcsctl" --dir "$work/a" machine add bench-0 --pool small --uses 0 -q >/dev/null
kill -HUP "$mpid"
for _ in $(seq 100); do grep -q 'reloaded on SIGHUP' "$work/mcsctl.err" && break; sleep 0.1; done
mtoken=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['ignition']['config']['merge'][0]['httpHeaders'][0]['value'])" "$work/a/machines/bench-0.ign")
cpu() { awk '{print $14 + $15}' "/proc/$mpid/stat"; } # serve's user + system time, in ticks
tick=$(getconf CLK_TCK)
measure() { # label header: prints "req/s p99 cpu-us-per-request"
  local c0 out c1
  c0=$(cpu)
  out=$(run_wrk "https://127.0.0.1:$mport/config/small" "$2" "$accept")
  c1=$(cpu)
  if echo "$out" | grep -q "Non-2xx"; then echo "non-2xx responses in the ledger case ($1):" >&2; echo "$out" >&2; exit 1; fi
  local n; n=$(echo "$out" | awk '/requests in/{print $1}')
  echo "$(echo "$out" | rps) $(echo "$out" | p99) $(python3 -c "print(round(($c1 - $c0) * 1e6 / $tick / $n, 2))")"
}
echo
echo "| pair | ledger | req/s | p99 (ms) | serve CPU per request (µs) |"
echo "| --- | --- | --- | --- | --- |"
on=(); off=()
for pair in $(seq "${LEDGER_PAIRS:-5}"); do
  order="off on"; [ $((pair % 2)) = 0 ] && order="on off"
  for which in $order; do
    if [ "$which" = on ]; then
      m=$(measure on "Authorization: $mtoken"); on+=("${m%% *}"); label="on (machine token)"
    else
      m=$(measure off "Authorization: Bearer $token"); off+=("${m%% *}"); label="off (pool token)"
    fi
    read -r r p c <<<"$m"
    echo "| $pair | $label | $r | $p | $c |"
  done
done
records=$(cat "$work/a/auth/ledger/"*.jsonl | tr -d '\0' | wc -l)
echo
python3 - "${on[*]}" "${off[*]}" "$records" <<'PY'
import statistics, sys
on = [float(x) for x in sys.argv[1].split()]
off = [float(x) for x in sys.argv[2].split()]
pairs = [round(a / b, 3) for a, b in zip(on, off)]
print(f"Ledger on / off: {round(statistics.median(on) / statistics.median(off), 3)} of the req/s "
      f"(medians; per pair {pairs}); {sys.argv[3]} records written.")
PY

[ -n "${LEDGER_ONLY:-}" ] && exit 0
# Peak RSS with 1000 open TLS connections, each having made one keep-alive request.
hold() { # port header
  python3 - "$1" "$work/a/tls/mcs-ca.crt" "$2" <<'PY' &
import socket, ssl, sys, time
port, ca, header = int(sys.argv[1]), sys.argv[2], sys.argv[3]
ctx = ssl.create_default_context(cafile=ca)
conns = []
for i in range(1000):
    s = ctx.wrap_socket(socket.create_connection(("127.0.0.1", port)), server_hostname="127.0.0.1")
    req = f"GET /config/small HTTP/1.1\r\nHost: 127.0.0.1\r\n{header}\r\n".encode()
    s.sendall(req)
    s.recv(65536)
    conns.append(s)
print("holding", len(conns), flush=True)
time.sleep(6)
PY
}
hold $mport "Authorization: Bearer $token
" > "$work/hold-m.log"; hpid=$!
held() { for _ in $(seq 600); do grep -q holding "$1" && return; sleep 0.1; done; }
held "$work/hold-m.log"; mrss=$(hwm "$mpid"); wait $hpid || true
hold $nport "" > "$work/hold-n.log"; hpid=$!
held "$work/hold-n.log"; nrss=$(hwm $(nginx_pids)); wait $hpid || true
echo
echo "Peak RSS (VmHWM) after 1000 open TLS connections and everything above: mcsctl $((mrss / 1024)) MiB ($(cat "$work/hold-m.log")), nginx (master + workers) $((nrss / 1024)) MiB ($(cat "$work/hold-n.log"))."
echo "Access-log lines written: mcsctl $(wc -l < "$work/mcsctl-access.log"), nginx $(wc -l < "$work/nginx-access.log")."

# The memory case: bench/memory.sh (MEMORY_MB=0 skips it).
[ "${MEMORY_MB:-500}" = 0 ] || bench/memory.sh
