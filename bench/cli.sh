#!/usr/bin/env bash
# Times `mcsctl init` (ecdsa-p256 and rsa-2048) against bench/openssl-init.sh, the openssl
# commands a user would otherwise type for the same assets, in the same run on the same machine.
# Prints a table with the ratio mcsctl/openssl; record it in bench/RESULTS.md with the machine.
# Needs hyperfine (Debian package) and openssl.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/build-prereqs
. scripts/build-prereqs
command -v hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine; }
cargo build --release --quiet
mcsctl="$PWD/target/release/mcsctl"
peer="$PWD/bench/openssl-init.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
runs=${RUNS:-40}

hyperfine --warmup 3 --runs "$runs" --export-json "$work/r.json" \
  --prepare "rm -rf $work/m" -n "mcsctl init ecdsa-p256" \
  "$mcsctl --dir $work/m init --cluster-name demo --base-domain example.com --key-algorithm ecdsa-p256 -q" \
  --prepare "rm -rf $work/o" -n "openssl ecdsa-p256" "$peer ec $work/o" \
  --prepare "rm -rf $work/m" -n "mcsctl init rsa-2048" \
  "$mcsctl --dir $work/m init --cluster-name demo --base-domain example.com --key-algorithm rsa-2048 -q" \
  --prepare "rm -rf $work/o" -n "openssl rsa-2048" "$peer rsa $work/o" >&2

python3 - "$work/r.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
print("| case | mcsctl mean (ms) | openssl mean (ms) | ratio mcsctl/openssl |")
print("| --- | --- | --- | --- |")
for alg in ("ecdsa-p256", "rsa-2048"):
    m, o = r[f"mcsctl init {alg}"], r[f"openssl {alg}"]
    print(f"| {alg} | {m['mean']*1000:.1f} ± {m['stddev']*1000:.1f} | {o['mean']*1000:.1f} ± {o['stddev']*1000:.1f} | {m['mean']/o['mean']:.3f} |")
PY
