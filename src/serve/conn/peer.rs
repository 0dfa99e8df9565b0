//! Who is on the other end of a connection: the client, and the balancer it came through.

use std::net::SocketAddr;

/// Who is on the other end, with each address as text: written once per connection, for
/// every access-log line and ledger record it makes.
#[derive(Debug, Clone, Copy)]
pub struct Peer {
    /// The client (behind a balancer: the address its PROXY header gave).
    pub client: SocketAddr,
    client_text: AddrText,
    /// The balancer, when the connection came through one.
    via_text: Option<AddrText>,
}

impl Peer {
    pub fn new(client: SocketAddr, via: Option<SocketAddr>) -> Peer {
        Peer {
            client,
            client_text: AddrText::of(client),
            via_text: via.map(AddrText::of),
        }
    }

    /// The client as `IP:PORT`.
    pub fn client_str(&self) -> &str {
        self.client_text.as_str()
    }

    /// The balancer as `IP:PORT`.
    pub fn via_str(&self) -> Option<&str> {
        self.via_text.as_ref().map(AddrText::as_str)
    }
}

/// A socket address as `Display` writes it, on the stack.
#[derive(Clone, Copy)]
struct AddrText {
    buf: [u8; 64],
    len: u8,
}

impl AddrText {
    fn of(addr: SocketAddr) -> AddrText {
        use std::io::Write as _;
        let mut buf = [0u8; 64];
        let mut w = &mut buf[..];
        // 64 bytes hold any socket address: "[v6%scope]:port" is at most 58 (a scope id is a
        // u32). Should one not fit, the text is left empty rather than cut.
        let len = match write!(w, "{addr}") {
            Ok(()) => 64 - w.len(),
            Err(_) => 0,
        };
        AddrText {
            buf,
            len: len as u8,
        }
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl std::fmt::Debug for AddrText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_written_as_display_writes_them() {
        for a in [
            "127.0.0.1:22623",
            "255.255.255.255:65535",
            "[::1]:1",
            "[ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff%4294967295]:65535",
            "[::ffff:10.0.0.1]:443",
        ] {
            let addr: SocketAddr = match a.parse() {
                Ok(addr) => addr,
                Err(_) => {
                    // The scoped form is not parsed by std: build it.
                    let v6: std::net::Ipv6Addr =
                        "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff".parse().unwrap();
                    std::net::SocketAddrV6::new(v6, 65535, 0, u32::MAX).into()
                }
            };
            let p = Peer::new(addr, Some(addr));
            assert_eq!(p.client_str(), addr.to_string());
            assert_eq!(p.via_str(), Some(addr.to_string().as_str()));
        }
    }
}
