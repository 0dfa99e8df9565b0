#!/usr/bin/env bash
# Memory: one large config (MEMORY_MB, 500 MB: files of random base64 data, as a payload of
# binaries would be), served by mcsctl serve alone. Prints its peak RSS (VmHWM) after start-up,
# one fetch each at spec 2.2.0, 3.3.0 and 3.5.0, against the bound of 3 times the config plus 64
# MiB. Run by bench/serve.sh at its end. Needs: python3, curl.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
mcsctl="$PWD/target/release/mcsctl"
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
python3 - "$work/m/rendered/huge.ign" "$mb" <<'PY'
import base64, json, os, sys
path, mb = sys.argv[1], int(sys.argv[2])
chunk = base64.b64encode(os.urandom(750_000)).decode()  # 1 MB of base64 per file
with open(path, "w") as f:
    f.write('{"ignition":{"version":"3.2.0"},"storage":{"files":[')
    for i in range(mb):
        if i:
            f.write(",")
        f.write(json.dumps({"path": f"/opt/bench/{i}", "mode": 420, "contents": {"source": "data:;base64," + chunk}}, separators=(",", ":")))
    f.write("]}}")
PY
size=$(stat -c %s "$work/m/rendered/huge.ign")
htoken=$("$mcsctl" --dir "$work/m" token create --pool huge -q)
hport=22663
start=$(date +%s)
"$mcsctl" --dir "$work/m" --max-input-size "$((size + (1 << 20)))" serve --listen 127.0.0.1:$hport --reload-interval 600s \
  > "$work/huge-access.log" 2> "$work/huge.err" &
hpid=$!
for _ in $(seq 6000); do grep -q '^ready' "$work/huge.err" && break; kill -0 "$hpid" 2>/dev/null || break; sleep 0.1; done
grep -q '^ready' "$work/huge.err" || { cat "$work/huge.err" >&2; exit 1; }
ready=$(( $(date +%s) - start ))
for v in 2.2.0 3.3.0 3.5.0; do
  curl -sf --cacert "$work/m/tls/mcs-ca.crt" -H "Authorization: Bearer $htoken" \
    -H "Accept: application/vnd.coreos.ignition+json;version=$v" -o /dev/null "https://127.0.0.1:$hport/config/huge"
done
peak=$(hwm "$hpid")
kill "$hpid"; wait "$hpid" 2>/dev/null || true; hpid=
python3 - "$size" "$peak" "$ready" <<'PY'
import sys
size, peak_kib, ready = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
peak = peak_kib * 1024
bound = 3 * size + (64 << 20)
print(f"Memory: a {size / 1e6:.0f} MB config, ready in {ready} s, peak RSS {peak / 2**20:.0f} MiB after one fetch each at 2.2.0, 3.3.0 and 3.5.0: "
      f"{peak / size:.2f} times the config (bound: 3 times plus 64 MiB = {bound / 2**20:.0f} MiB, {'met' if peak <= bound else 'not met'}).")
PY
