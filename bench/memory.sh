#!/usr/bin/env bash
# Memory: one large config (MEMORY_MB, 500 MB: files of MEMORY_FILE_KB, 1000 KB, of random
# base64 data, as a payload of binaries would be), served by mcsctl serve alone. Prints its peak RSS (VmHWM) after start-up
# and one fetch each at spec 2.2.0, 3.3.0 and 3.5.0, then after RELOADS (2) reloads of another
# config of the same size (a new render: the old one is served until the new one is ready) and
# the same fetches, and the RSS left after them, against the bound of 3 times the config plus
# 64 MiB. Run by bench/serve.sh at its end. Needs: python3, curl.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/build-prereqs
. scripts/build-prereqs
cargo build --release --quiet
# MCSCTL_BIN measures another build (an A/B against the one in the tree).
mcsctl="${MCSCTL_BIN:-$PWD/target/release/mcsctl}"
work=$(mktemp -d)
cleanup() {
  [ -n "${hpid:-}" ] && kill "$hpid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
hwm() { awk '/VmHWM/{print $2}' "/proc/$1/status"; }
mb=${MEMORY_MB:-500}
"$mcsctl" --dir "$work/m" init --cluster-name demo --base-domain example.com --san 127.0.0.1 -q >/dev/null 2>&1
mkdir -p "$work/m/rendered"
# A config of `mb` files of 1 MB of random base64 each, at $1.
config() {
  python3 - "$1" "$mb" "${MEMORY_FILE_KB:-1000}" <<'PY'
import base64, json, os, sys
path, mb, kb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
chunk = base64.b64encode(os.urandom(kb * 750)).decode()  # kb KB of base64 per file
with open(path, "w") as f:
    f.write('{"ignition":{"version":"3.2.0"},"storage":{"files":[')
    for i in range(mb * 1000 // kb):
        if i:
            f.write(",")
        f.write(json.dumps({"path": f"/opt/bench/{i}", "mode": 420, "contents": {"source": "data:;base64," + chunk}}, separators=(",", ":")))
    f.write("]}}")
PY
}
config "$work/m/rendered/huge.ign"
size=$(stat -c %s "$work/m/rendered/huge.ign")
htoken=$("$mcsctl" --dir "$work/m" token create --pool huge -q)
hport=22663
start=$(date +%s.%N)
"$mcsctl" --dir "$work/m" --max-input-size "$((size + (1 << 20)))" serve --listen 127.0.0.1:$hport --reload-interval 600s \
  > "$work/huge-access.log" 2> "$work/huge.err" &
hpid=$!
for _ in $(seq 6000); do grep -q '^ready' "$work/huge.err" && break; kill -0 "$hpid" 2>/dev/null || break; sleep 0.1; done
grep -q '^ready' "$work/huge.err" || { cat "$work/huge.err" >&2; exit 1; }
ready=$(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')")
fetch() {
  for v in 2.2.0 3.3.0 3.5.0; do
    curl -sf --cacert "$work/m/tls/mcs-ca.crt" -H "Authorization: Bearer $htoken" \
      -H "Accept: application/vnd.coreos.ignition+json;version=$v" -o /dev/null "https://127.0.0.1:$hport/config/huge"
  done
}
fetch
peak=$(hwm "$hpid")
# Reloads: a new config of the same size moved into place, SIGHUP, wait for serve to say so.
reloads=${RELOADS:-2}
config "$work/next.ign"
for r in $(seq "$reloads"); do
  cp "$work/next.ign" "$work/m/rendered/.huge.ign.new"
  mv "$work/m/rendered/.huge.ign.new" "$work/m/rendered/huge.ign"
  kill -HUP "$hpid"
  for _ in $(seq 6000); do [ "$(grep -c 'reloaded on SIGHUP: rendered/huge.ign' "$work/huge.err")" -ge "$r" ] && break; sleep 0.1; done
  [ "$(grep -c 'reloaded on SIGHUP: rendered/huge.ign' "$work/huge.err")" -ge "$r" ] || { cat "$work/huge.err" >&2; exit 1; }
  fetch
done
rpeak=$(hwm "$hpid")
after=$(awk '/VmRSS/{print $2}' "/proc/$hpid/status")
kill "$hpid"; wait "$hpid" 2>/dev/null || true; hpid=
python3 - "$size" "$peak" "$ready" "$rpeak" "$after" "$reloads" "${MEMORY_FILE_KB:-1000}" <<'PY'
import sys
kb = sys.argv[7]
size, peak_kib, ready, rpeak_kib, after_kib, reloads = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
mib = lambda kib: kib / 1024
bound = 3 * size + (64 << 20)
ok = lambda kib: 'met' if kib * 1024 <= bound else 'not met'
print(f"Memory: a {size / 1e6:.0f} MB config of {kb} KB files, ready in {ready} s, peak RSS {mib(peak_kib):.0f} MiB after one fetch each at 2.2.0, 3.3.0 and 3.5.0: "
      f"{peak_kib * 1024 / size:.2f} times the config ({ok(peak_kib)}); after {reloads} reloads of another config of that size and the same fetches, "
      f"peak {mib(rpeak_kib):.0f} MiB, {rpeak_kib * 1024 / size:.2f} times ({ok(rpeak_kib)}), {mib(after_kib):.0f} MiB resident after them "
      f"(bound: 3 times plus 64 MiB = {bound / 2**20:.0f} MiB).")
PY
