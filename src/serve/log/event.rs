//! Every kind of event line serve writes to stderr (`{"event": KIND, "message": ...}`), in
//! one enum: a call site names a variant, never a string, and docs/serve.md's table of events
//! is this list (a test compares them; `UPDATE_GOLDEN=1` rewrites the table).

/// Declares [`Event`]: each variant with its name on the wire and, as its doc comment, when it
/// is written (the docs' table quotes it).
macro_rules! events {
    ($( #[doc = $doc:literal] $variant:ident = $name:literal, )*) => {
        /// One kind of event line.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Event {
            $( #[doc = $doc] $variant, )*
        }

        impl Event {
            /// Every kind, in the docs' order.
            pub const ALL: &'static [Event] = &[$(Event::$variant),*];

            /// The kind as the line's `event` field says it (`write-timeout`).
            pub fn name(self) -> &'static str {
                match self {
                    $( Event::$variant => $name, )*
                }
            }

            /// When serve writes it, in one sentence.
            pub fn when(self) -> &'static str {
                match self {
                    $( Event::$variant => $doc.trim(), )*
                }
            }
        }
    };
}

events! {
    /// Serve stopped: after the last connection, what the ledger confirmed is written.
    Shutdown = "shutdown",
    /// The asset directory was reloaded (on SIGHUP, or when a polled file changed).
    Reload = "reload",
    /// A reload failed; serve keeps serving what it had.
    ReloadFailed = "reload-failed",
    /// A change a killed command had committed was completed before reading.
    Recovery = "recovery",
    /// Completing a killed command's change failed; the reload keeps what it can.
    RecoveryFailed = "recovery-failed",
    /// The pid file (run/serve-PID.pid) could not be written: `mcsctl serve --reload` will not find this serve; SIGHUP still reloads it.
    PidFile = "pid-file",
    /// --max-connections does not fit the open-file limit: serve takes fewer connections.
    OpenFileLimit = "open-file-limit",
    /// No token is live: every request for a full config gets 401.
    NoLiveToken = "no-live-token",
    /// No rendered config: every config request gets 404.
    NoPool = "no-pool",
    /// Machine tokens cannot be served (the ledger or the store is not writable): /healthz answers 503.
    NotReady = "not-ready",
    /// The serving certificate has expired: every machine refuses the connection.
    CertificateExpired = "certificate-expired",
    /// A TLS handshake failed (said once per client and reason, then counted).
    HandshakeFailed = "handshake-failed",
    /// A connection from a --proxy-protocol-from balancer carried no valid PROXY header.
    ProxyRefused = "proxy-refused",
    /// Accepting a connection failed (the process ran out of file descriptors, say).
    AcceptError = "accept-error",
    /// All --max-connections are taken and none could be freed: new ones are closed.
    ConnectionLimit = "connection-limit",
    /// All --max-connections are taken: an idle connection of the client holding most was closed.
    ConnectionEvicted = "connection-evicted",
    /// One client holds --max-connections-per-client connections: its new ones are closed.
    ConnectionLimitClient = "connection-limit-client",
    /// A connection was open longer than --connection-deadline while still sending: closed.
    ConnectionDeadline = "connection-deadline",
    /// A client stopped reading for --write-timeout: its connection was cut.
    WriteTimeout = "write-timeout",
    /// A client read slower than --min-send-rate: its connection was cut.
    SlowClient = "slow-client",
    /// A client sent too many unknown tokens: 429 for --block-for.
    Blocked = "blocked",
    /// A request handler failed (a bug): 500, the message withheld.
    Panic = "panic",
    /// A single-use machine token was asked for again after its whole fetch: 401.
    TokenReused = "token-reused",
    /// A machine token whose fetch has unknown outcome was asked for again: 401.
    TokenUnknown = "token-unknown",
    /// A machine token was asked for again after too many cut fetches: 401.
    TokenCutOff = "token-cut-off",
    /// A machine token was asked for while its fetch is being sent: 503, retry.
    TokenBusy = "token-busy",
    /// A machine token's fetch ended before its last byte: not spent, it may fetch again.
    FetchCut = "fetch-cut",
    /// The ledger could not be written: the fetch was refused with 503.
    LedgerFailed = "ledger-failed",
    /// A machine's first-boot report (render --report) was recorded.
    FirstBootReport = "first-boot-report",
    /// A first-boot report could not be recorded: 503, the machine retries.
    ReportFailed = "report-failed",
    /// A torn ledger line was repaired.
    LedgerRepaired = "ledger-repaired",
    /// The journal of confirms not yet in the store could not be written.
    JournalFailed = "journal-failed",
    /// Confirms an earlier run journaled were replayed into the store.
    JournalReplayed = "journal-replayed",
    /// The store does not answer: machine tokens get 503 until it does.
    StoreUnreachable = "store-unreachable",
    /// The store answers again.
    StoreReachable = "store-reachable",
    /// This replica is not registered in the store (yet): machine tokens get 503.
    StoreUnregistered = "store-unregistered",
    /// This replica's lease ended (paused or cut off): it registers again.
    StoreLeaseLost = "store-lease-lost",
    /// A fetch could not be settled in the store yet; serve keeps trying.
    StoreFailed = "store-failed",
    /// A fetch that could not be settled is settled now.
    StoreSettled = "store-settled",
    /// The tokens published in the store cannot be read: the directory's are served.
    StoreUnavailable = "store-unavailable",
    /// The store's tokens were published by another asset directory: they are not taken.
    StoreTokensRefused = "store-tokens-refused",
    /// The store published new tokens: served from now on.
    TokensPublished = "tokens-published",
    /// Tokens revoked in the directory are live in the store: refused here all the same.
    TokensDiverge = "tokens-diverge",
    /// The metrics listener failed to accept a connection.
    MetricsAcceptError = "metrics-accept-error",
    /// All metrics connections are taken: new ones are closed.
    MetricsConnectionLimit = "metrics-connection-limit",
    /// Lines were dropped because stdout or stderr was not being read.
    LogDropped = "log-dropped",
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_kebab_case_and_each_says_when() {
        let mut names: Vec<&str> = Event::ALL.iter().map(|e| e.name()).collect();
        assert!(
            names
                .iter()
                .all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
        );
        names.sort();
        names.dedup();
        assert_eq!(names.len(), Event::ALL.len());
        assert!(Event::ALL.iter().all(|e| e.when().ends_with('.')));
        assert_eq!(Event::WriteTimeout.name(), "write-timeout");
    }
}
