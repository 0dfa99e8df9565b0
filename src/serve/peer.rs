//! Who is on the other end of a connection: the client, and the balancer it came through.

use std::net::SocketAddr;

/// Who is on the other end.
#[derive(Debug, Clone, Copy)]
pub struct Peer {
    /// The client (behind a balancer: the address its PROXY header gave).
    pub client: SocketAddr,
    /// The balancer, when the connection came through one.
    pub via: Option<SocketAddr>,
}
