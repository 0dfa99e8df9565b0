//! File descriptors, the budget every listener draws on: a connection is one, and when they run
//! out `accept` fails (EMFILE) for every listener at once. serve raises its soft open-file
//! limit to the hard one at start, as Go's runtime does for every Go program since 1.19 (the
//! MCS among them), and keeps `--max-connections` within what is left after the metrics
//! listener's cap and the descriptors serve needs for itself, so that neither listener can
//! take the other's.

use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};

/// Descriptors serve keeps for itself: listeners, the ledgers it writes and follows, the
/// files of a reload, the runtime's own, the log.
pub const RESERVED: usize = 64;

/// Raises the soft open-file limit to the hard one; returns the soft limit now (`None`:
/// unlimited).
pub fn raise_limit() -> Option<u64> {
    let now = getrlimit(Resource::Nofile);
    if now.current != now.maximum {
        let raised = Rlimit {
            current: now.maximum,
            maximum: now.maximum,
        };
        if setrlimit(Resource::Nofile, raised).is_ok() {
            return now.maximum;
        }
    }
    now.current
}

/// The config listener's connections that fit in `limit` descriptors beside the metrics
/// listener's `metrics` and the `slack` of connections closing to make room: `wanted`, or
/// fewer with what to say about it.
pub fn fit(
    wanted: usize,
    slack: usize,
    metrics: usize,
    limit: Option<u64>,
) -> (usize, Option<String>) {
    let Some(limit) = limit else {
        return (wanted, None);
    };
    let room = usize::try_from(limit)
        .unwrap_or(usize::MAX)
        .saturating_sub(RESERVED + metrics + slack)
        .max(1);
    if wanted <= room {
        return (wanted, None);
    }
    (
        room,
        Some(format!(
            "--max-connections {wanted} does not fit the open-file limit ({limit}): serving at most {room} connections, so that the metrics listener and serve's own files keep theirs; raise the limit (`ulimit -n`, LimitNOFILE= in a systemd unit) for more"
        )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_fit_what_the_limit_leaves() {
        assert_eq!(fit(4096, 64, 16, None), (4096, None));
        assert_eq!(fit(4096, 64, 16, Some(1_048_576)), (4096, None));
        let (n, why) = fit(4096, 64, 16, Some(1024));
        assert_eq!(n, 1024 - 64 - 16 - 64);
        assert!(why.unwrap().contains("serving at most 880 connections"));
        assert_eq!(fit(4096, 64, 16, Some(10)).0, 1);
    }
}
