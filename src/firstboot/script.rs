//! What `render --report` adds to a pool's full config: the script, its unit, the MCS CA the
//! script trusts and the credential it presents.
//!
//! The script is POSIX `sh` with what RHCOS and FCOS ship (`curl`, `ip`, `awk`, `sed`, `tr`,
//! `journalctl`, `systemctl`). Every field it sends is cut to its bound before it is escaped
//! (printable ASCII only, so a cut never splits a character), the credential is read by curl
//! from a 0600 file (never on a command line, where `ps` shows it), and it stops at the first
//! answer that is final: 2xx, or a refusal that a retry would not change. It retries anything
//! else with a doubling delay, at most 12 times (about 17 minutes), then gives up until the
//! next boot. Its unit is `Type=simple`, so nothing in the boot waits for it.

use super::bounds;
use crate::http::HttpUrl;

/// The script.
pub const SCRIPT: &str = "/usr/local/bin/mcsctl-first-boot-report";
/// The MCS CA the script trusts.
pub const CA: &str = "/etc/mcsctl/report-ca.crt";
/// The credential, as the header curl sends (mode 0600).
pub const CREDENTIAL: &str = "/etc/mcsctl/report-credential";
/// Where the script marks the report as sent (then its unit does not start again).
pub const DONE: &str = "/var/lib/mcsctl/first-boot-reported";
/// The unit.
pub const UNIT: &str = "mcsctl-first-boot-report.service";

/// Whether `name` (a file's path or a unit's name) is one the report adds.
pub fn added(name: &str) -> bool {
    [SCRIPT, CA, CREDENTIAL, UNIT].contains(&name)
}

/// One thing added to a config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Addition {
    /// A file: its path, mode and contents.
    File {
        /// Absolute path on the node.
        path: &'static str,
        /// Its mode.
        mode: u32,
        /// Its contents.
        contents: Vec<u8>,
    },
    /// A systemd unit, enabled.
    Unit {
        /// Its name.
        name: &'static str,
        /// Its contents.
        contents: String,
    },
}

/// Where a pool's reports go: the origin of the pool's config URL, path `/report/<pool>`.
/// `None` when the URL is not https, or holds a character the script could not quote.
pub fn report_url(config_url: &str, pool: &str) -> Option<String> {
    let u = HttpUrl::parse(config_url)?;
    if !u.is_https() {
        return None;
    }
    let url = u.with_path(&format!("/report/{pool}"))?.to_string();
    url.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-._~:/[]%".contains(&b))
        .then_some(url)
}

/// The files and unit for a pool reporting to `url` (from [`report_url`]), trusting `ca_pem`
/// and presenting `credential`.
pub fn additions(url: &str, ca_pem: &[u8], credential: &str) -> Vec<Addition> {
    vec![
        Addition::File {
            path: SCRIPT,
            mode: 0o755,
            contents: script(url).into_bytes(),
        },
        Addition::File {
            path: CA,
            mode: 0o644,
            contents: ca_pem.to_vec(),
        },
        Addition::File {
            path: CREDENTIAL,
            mode: 0o600,
            contents: format!("Authorization: Bearer {credential}\n").into_bytes(),
        },
        Addition::Unit {
            name: UNIT,
            contents: unit(),
        },
    ]
}

fn unit() -> String {
    format!(
        "[Unit]
Description=Report this machine's first boot to the Machine Config Server (mcsctl render --report)
Wants=network-online.target
After=network-online.target
ConditionPathExists=!{DONE}

[Service]
# Nothing in the boot waits for it; it gives up by itself.
Type=simple
ExecStart={SCRIPT}
RuntimeMaxSec=30min

[Install]
WantedBy=multi-user.target
"
    )
}

fn script(url: &str) -> String {
    const TEMPLATE: &str = r#"#!/bin/sh
# Written by `mcsctl render --report`. After Ignition's first boot, posts one report of this
# machine to the config server, and then never again. Information only: no node is approved
# on it. It never blocks the boot (its unit is Type=simple) and gives up after 12 tries.
# MCSCTL_REPORT_ROOT (empty on a machine) is where the machine's files are.
set -u
export LC_ALL=C
root=${MCSCTL_REPORT_ROOT:-}
url='@URL@'
done_mark="$root@DONE@"
[ -e "$done_mark" ] && exit 0

# A JSON string of stdin: printable ASCII (tabs as spaces), lines joined with \n, the first
# (head) or last (tail) $2 bytes.
json() {
  tr '\t' ' ' | tr -cd '\n -~' | "$1" -c "$2" |
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' |
    awk 'BEGIN { printf "\"" } NR > 1 { printf "\\n" } { printf "%s", $0 } END { printf "\"" }'
}

addresses=$(ip -o addr show scope global 2>/dev/null |
  awk '$3 == "inet" || $3 == "inet6" { if (n++ < @ADDRESSES@) { split($4, a, "/"); printf "%s\"%s\"", s, a[1]; s = "," } }')
body=$(printf '{"bootId":%s,"machineId":%s,"hostname":%s,"addresses":[%s],"ignitionResult":%s,"ignitionJournal":%s,"kubelet":%s}' \
  "$(json head @ID@ < /proc/sys/kernel/random/boot_id)" \
  "$(json head @ID@ < "$root/etc/machine-id")" \
  "$(json head @HOSTNAME@ < /proc/sys/kernel/hostname)" \
  "$addresses" \
  "$(cat "$root/etc/.ignition-result.json" 2>/dev/null | json head @RESULT@)" \
  "$(journalctl -b 0 -t ignition -o cat --no-pager 2>/dev/null | tail -n 40 | json tail @JOURNAL@)" \
  "$(systemctl is-active kubelet.service 2>/dev/null | head -n 1 | json head @KUBELET@)")

delay=5
tries=0
while [ "$tries" -lt 12 ]; do
  tries=$((tries + 1))
  code=$(printf '%s' "$body" | curl --silent --show-error --output /dev/null \
    --write-out '%{http_code}' --max-time 20 --cacert "$root@CA@" \
    --header "@$root@CREDENTIAL@" --header 'Content-Type: application/json' \
    --data-binary @- "$url") || code=000
  case "$code" in
    2??)
      mkdir -p "${done_mark%/*}" && : > "$done_mark"
      echo "first-boot report sent to $url"
      exit 0 ;;
    400 | 401 | 403 | 404 | 405 | 413)
      mkdir -p "${done_mark%/*}" && : > "$done_mark"
      echo "first-boot report refused by $url with $code; not sent again" >&2
      exit 0 ;;
  esac
  echo "first-boot report to $url: ${code} (try $tries of 12); again in ${delay}s" >&2
  sleep "$delay"
  delay=$((delay * 2))
  [ "$delay" -gt 120 ] && delay=120
done
echo "first-boot report to $url: gave up after $tries tries" >&2
exit 0
"#;
    TEMPLATE
        .replace("@URL@", url)
        .replace("@DONE@", DONE)
        .replace("@CA@", CA)
        .replace("@CREDENTIAL@", CREDENTIAL)
        .replace("@ADDRESSES@", &bounds::ADDRESSES.to_string())
        .replace("@ID@", &bounds::ID.to_string())
        .replace("@HOSTNAME@", &bounds::HOSTNAME.to_string())
        .replace("@RESULT@", &bounds::RESULT.to_string())
        .replace("@JOURNAL@", &bounds::JOURNAL.to_string())
        .replace("@KUBELET@", &bounds::KUBELET.to_string())
}
