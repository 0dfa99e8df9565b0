//! Connections: accepting them within the limits (`accept`, `conns`, `limit`, `fds`, the
//! `workers` runtimes), who is at the other end (`peer`, the PROXY header of `proxy`), the TLS
//! handshake (`tls`, `handshakes`), and the write guard that cuts a client that stops reading
//! (`io`). What a connection waits on beside hyper is polled only when it woke (`woken`).

pub(crate) mod accept;
pub mod conns;
pub(crate) mod fds;
pub mod handshakes;
pub mod io;
pub mod limit;
pub(crate) mod peer;
pub mod proxy;
pub(crate) mod shard;
pub mod tls;
pub(crate) mod woken;
pub(crate) mod workers;
